//! `tracegate audit report`: the audit log as one self-contained HTML
//! page for a compliance reviewer: whether the log can be trusted, in
//! words, at the top; a timeline (inline SVG drawn here: one lane per
//! sink, each capture window a bar from its enablement to its enforced
//! end, marked by how it ended in colour, pattern and words; marks for
//! denials and policy reloads); and a table of every window with who asked,
//! why, and what it captured.
//!
//! What the page says is what `audit export` states: the log is verified
//! and folded by the same code ([`super::audit_export::statement`], the
//! budget [`crate::window::budget::Book`]), so the two never disagree.
//!
//! No JavaScript: hover details are SVG `<title>`s. The only style is one
//! inline block, allowed by its hash in a `<meta>` Content-Security-Policy
//! that also forbids every script and every external load.
//!
//! SECURITY: the log holds no record content by construction; this reads
//! only what the statement holds (which leaves out `full_denied.detail`)
//! plus the time of each refused reload (not its cause). Every string is
//! escaped ([`crate::daemon::html::escape`]).
//!
//! Exit codes as `audit export`: 0 for an intact log; 1, 3 or 4 written,
//! with the verdict at the top of the page, when it is not; 2 on error.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use jiff::Timestamp;
use serde_json::Value;

use super::audit_export::{ExportArgs, ExportFormat};
use crate::audit::{AuditEvent, VerifyStatus};
use crate::daemon::html::{csp_hash, escape};

/// Arguments of `audit report`.
#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    /// The audit log.
    pub file: PathBuf,
    /// Only what happened at or after this time (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = super::audit_export::parse_ts)]
    pub since: Option<Timestamp>,
    /// Only what happened before this time (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = super::audit_export::parse_ts)]
    pub until: Option<Timestamp>,
    /// Write the page here instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Key file of a keyed log (`[audit] key_file`).
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,
    /// The log's anchor (`[audit] anchor`).
    #[arg(long, value_name = "FILE")]
    pub anchor: Option<PathBuf>,
    /// Public key the log must be signed by (as `audit verify`).
    #[arg(long = "public-key", value_name = "PUB")]
    pub public_keys: Vec<PathBuf>,
}

/// Run `audit report`.
pub fn run(args: &ReportArgs) -> u8 {
    let (page, code) = match report(args) {
        Ok(x) => x,
        Err(e) => return super::error_exit(format_args!("{e:#}")),
    };
    match &args.out {
        Some(path) => match std::fs::write(path, page.as_bytes()) {
            Ok(()) => code,
            Err(e) => super::error_exit(format_args!(
                "cannot write `{}`: {}",
                path.display(),
                crate::io_text::io_cause(&e)
            )),
        },
        None => {
            say!("{page}");
            code
        }
    }
}

/// A refused reload, as the log records it: its time only.
///
/// SECURITY: not its cause. A cause names a file and line, but it is text
/// a gate wrote from a file it could not accept; the page follows `audit
/// export`, which counts refusals and leaves their causes out (the status
/// page of `serve` shows the live one).
struct Refusal {
    at: Timestamp,
}

/// The page and the exit code.
fn report(args: &ReportArgs) -> anyhow::Result<(String, u8)> {
    use anyhow::Context;
    let ex = ExportArgs {
        file: args.file.clone(),
        since: args.since,
        until: args.until,
        format: ExportFormat::Statement,
        signing_key: None,
        key_file: args.key_file.clone(),
        anchor: args.anchor.clone(),
        public_keys: args.public_keys.clone(),
    };
    // Only the entries the verification read intact are shown, never the
    // one it names tampered.
    let (check, report, entries) = super::audit_export::verified_entries(&ex)?;
    let digest = super::audit_export::digest_prefix(&args.file, report.bytes)
        .with_context(|| format!("cannot read `{}`", args.file.display()))?;
    let key_ids: Vec<String> = check.keys.iter().map(|k| k.id()).collect();
    let st = super::audit_export::statement(&ex, &report, &entries, &digest, &key_ids);
    let in_range =
        |ts: Timestamp| args.since.is_none_or(|s| ts >= s) && args.until.is_none_or(|u| ts < u);
    let refusals: Vec<Refusal> = entries
        .iter()
        .filter(|e| in_range(e.ts))
        .filter_map(|e| match &e.event {
            AuditEvent::PolicyRejected { .. } => Some(Refusal { at: e.ts }),
            _ => None,
        })
        .collect();
    let verdict = Verdict::of(&report.status, report.entries, &report.message());
    let name = super::file_name(&args.file);
    let page = render(&name, &st, &verdict, &refusals, args.since, args.until);
    Ok((page, report.exit_code()))
}

/// The verification result in a reviewer's words.
struct Verdict {
    /// `intact`, `tampered`, `torn_tail`, `unvouched`.
    status: &'static str,
    /// One sentence: can the log be trusted.
    headline: String,
    /// What that means for this page.
    meaning: String,
    /// The verifier's own line (seqs and sizes, no content).
    technical: String,
}

impl Verdict {
    fn of(status: &VerifyStatus, entries: u64, message: &str) -> Verdict {
        let (status, headline, meaning) = match status {
            VerifyStatus::Intact => (
                "intact",
                "The audit log is intact: nothing in it was changed, removed or added.".to_owned(),
                format!(
                    "All {} chain to one another and the checkpoint vouches for the last one. \
                     What this report shows is what the log recorded.",
                    crate::io_text::counted(entries, "entry", "entries")
                ),
            ),
            VerifyStatus::Tampered { seq, kind, .. } => (
                "tampered",
                format!(
                    "WARNING: the audit log has been tampered with ({}) at entry {seq}.",
                    kind.as_str().replace('_', " ")
                ),
                format!(
                    "Only the first {} (before the damage) are shown; whatever the log says \
                     from entry {seq} on cannot be trusted. Keep this copy and compare it with \
                     the original and its published head.",
                    crate::io_text::counted(entries.min(*seq), "entry", "entries")
                ),
            ),
            VerifyStatus::TornTail { .. } => (
                "torn_tail",
                "The audit log is intact up to a last line cut short, as a crash mid-write \
                 leaves it."
                    .to_owned(),
                format!(
                    "The complete ones are shown ({}); the cut line is not.",
                    crate::io_text::counted(entries, "entry", "entries")
                ),
            ),
            VerifyStatus::Unvouched(_) => (
                "unvouched",
                "The audit log's entries chain together, but its checkpoint does not vouch \
                 for the last of them."
                    .to_owned(),
                "Entries past the checkpoint could have been appended by something other than \
                 tracegate; treat them with care."
                    .to_owned(),
            ),
            // A state this report does not know yet: it vouches for nothing.
            _ => (
                "unknown",
                "The audit log could not be shown as intact.".to_owned(),
                "Treat every entry in it as unverified; see the verifier's line below.".to_owned(),
            ),
        };
        Verdict {
            status,
            headline,
            meaning,
            technical: message.to_owned(),
        }
    }
}

/// The page's one style block. Colours meet WCAG AA (4.5:1 for text on
/// white and white text on the bars), and every cause also has its own
/// pattern and is written in words.
const STYLE: &str = "\
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}\
main{max-width:64rem;margin:0 auto;padding:1rem}\
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}\
code{font:13px ui-monospace,monospace;word-break:break-all}\
.verdict{border:3px solid;padding:.6rem 1rem;margin:1rem 0}\
.verdict p{margin:.3rem 0}\
.v-intact{border-color:#0b6b2b;background:#eef7f0}\
.v-tampered{border-color:#a4120b;background:#fdeceb}\
.v-torn_tail,.v-unvouched{border-color:#7a4d00;background:#fff5e0}\
.headline{font-weight:700;font-size:1.1rem}\
table{border-collapse:collapse;width:100%;font-size:14px}\
th,td{text-align:left;padding:.3rem .45rem;border-bottom:1px solid #bbb;vertical-align:top}\
th{background:#eee}td.n{text-align:right;font-variant-numeric:tabular-nums}\
svg{width:100%;height:auto;border:1px solid #bbb}\
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;padding:0;list-style:none}\
.legend svg{width:2.2rem;height:1rem;border:0;vertical-align:middle}\
.muted{color:#555}\
@media print{body{font-size:11pt}main{max-width:none;padding:0}\
.verdict{break-inside:avoid}tr,svg{break-inside:avoid}th{background:none}a{color:inherit}}";

/// How a window ended: its colour, its pattern and its words.
struct Ending {
    key: &'static str,
    words: &'static str,
    fill: &'static str,
    pattern: &'static str,
}

impl Ending {
    const fn new(
        key: &'static str,
        words: &'static str,
        fill: &'static str,
        pattern: &'static str,
    ) -> Ending {
        Ending {
            key,
            words,
            fill,
            pattern,
        }
    }
}

/// Every ending the page draws. Colours are dark enough for white text
/// (≥ 4.5:1); the pattern tells them apart without colour.
const ENDINGS: [Ending; 7] = [
    // key, words, fill, pattern
    Ending::new("expired", "expired (its end passed)", "#1d4f91", "none"),
    Ending::new("closed", "closed (removed or revoked)", "#5b2c83", "diag"),
    Ending::new("budget_spent", "budget spent", "#8a1c12", "cross"),
    Ending::new("shutdown", "stopped at shutdown", "#4d4d4d", "dots"),
    Ending::new(
        "budget_store_untrusted",
        "budget store untrusted",
        "#7a4d00",
        "vert",
    ),
    Ending::new("open", "not closed in the log", "#0b6b2b", "horiz"),
    Ending::new("unknown", "unknown", "#333333", "none"),
];

/// The ending of a statement's `ended_by`.
fn ending(ended_by: Option<&str>) -> &'static Ending {
    let key = match ended_by {
        None => "open",
        Some("removed" | "revoked") => "closed",
        Some(k) => k,
    };
    ENDINGS
        .iter()
        .find(|e| e.key == key)
        .unwrap_or(&ENDINGS[ENDINGS.len() - 1])
}

/// The SVG pattern definitions, one per ending.
fn pattern_defs(out: &mut String) {
    out.push_str("<defs>");
    for e in &ENDINGS {
        pattern(out, e, 'p');
    }
    out.push_str("</defs>");
}

/// The legend swatch's pattern (its own id: a legend drawn in another SVG
/// cannot use the timeline's definitions reliably when printed).
fn legend_pattern(e: &Ending) -> String {
    let mut defs = String::from("<defs>");
    pattern(&mut defs, e, 'l');
    defs + "</defs>"
}

/// `e`'s SVG pattern, with the id `{prefix}-{key}`.
fn pattern(out: &mut String, e: &Ending, prefix: char) {
    let lines = match e.pattern {
        "diag" => "<path d=\"M0 8 L8 0\" stroke=\"#fff\" stroke-width=\"1.5\"/>",
        "cross" => "<path d=\"M0 8 L8 0 M0 0 L8 8\" stroke=\"#fff\" stroke-width=\"1.2\"/>",
        "dots" => "<circle cx=\"4\" cy=\"4\" r=\"1.4\" fill=\"#fff\"/>",
        "vert" => "<path d=\"M4 0 L4 8\" stroke=\"#fff\" stroke-width=\"1.5\"/>",
        "horiz" => "<path d=\"M0 4 L8 4\" stroke=\"#fff\" stroke-width=\"1.5\"/>",
        _ => "",
    };
    let _ = write!(
        out,
        "<pattern id=\"{prefix}-{}\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">\
             <rect width=\"8\" height=\"8\" fill=\"{}\"/>{lines}</pattern>",
        e.key, e.fill
    );
}

/// The member at `path` below `v`.
fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, p| v.get(p))
}

fn s<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    at(v, path)?.as_str()
}

fn n(v: &Value, path: &[&str]) -> u64 {
    at(v, path).and_then(Value::as_u64).unwrap_or(0)
}

fn ts(v: Option<&str>) -> Option<Timestamp> {
    v.and_then(|s| s.parse::<Timestamp>().ok())
}

/// One bar of the timeline.
struct Bar<'a> {
    id: &'a str,
    sink: &'a str,
    from: Timestamp,
    to: Timestamp,
    ending: &'static Ending,
    records: u64,
    bytes: u64,
}

/// One mark of the timeline.
struct Mark {
    kind: &'static str,
    lane: String,
    at: Timestamp,
    title: String,
}

const WIDTH: f64 = 960.0;
const LABEL: f64 = 150.0;
const LANE: f64 = 40.0;
const AXIS: f64 = 28.0;

fn render(
    name: &str,
    st: &Value,
    verdict: &Verdict,
    refusals: &[Refusal],
    since: Option<Timestamp>,
    until: Option<Timestamp>,
) -> String {
    let null = Value::Null;
    let pred = st.get("predicate").unwrap_or(&null);
    let empty = Vec::new();
    let arr = |k: &str| pred.get(k).and_then(Value::as_array).unwrap_or(&empty);
    let windows = arr("windows");
    let mut bars: Vec<Bar> = Vec::new();
    for w in windows {
        let Some(from) = ts(s(w, &["enforced", "start"])) else {
            // A window the log only names (closed or leased, never enabled
            // in what is shown) has no bar; it is in the table.
            continue;
        };
        let written_end = ts(s(w, &["written", "end"]));
        let to = ts(s(w, &["enforced", "end"]))
            .or(written_end.map(|e| until.map_or(e, |u| e.min(u))))
            .unwrap_or(from);
        bars.push(Bar {
            id: s(w, &["window"]).unwrap_or(""),
            sink: s(w, &["sink"]).unwrap_or(""),
            from,
            to: to.max(from),
            ending: ending(s(w, &["ended_by"])),
            records: n(w, &["captured", "records"]),
            bytes: n(w, &["captured", "bytes"]),
        });
    }
    let mut marks: Vec<Mark> = Vec::new();
    for d in arr("denials") {
        if let Some(at) = ts(s(d, &["time"])) {
            let sink = s(d, &["sink"]).unwrap_or("");
            marks.push(Mark {
                kind: "denial",
                lane: sink.to_owned(),
                at,
                title: format!(
                    "{} full capture denied to sink {sink}: {}",
                    s(d, &["time"]).unwrap_or(""),
                    d.get("why").and_then(Value::as_str).unwrap_or("")
                ),
            });
        }
    }
    for p in arr("policies") {
        if let Some(at) = ts(s(p, &["time"])) {
            marks.push(Mark {
                kind: "reload",
                lane: String::new(),
                at,
                title: format!(
                    "{} policy revision {} loaded (sha256 {})",
                    s(p, &["time"]).unwrap_or(""),
                    n(p, &["revision"]),
                    s(p, &["policy_sha256"]).unwrap_or("")
                ),
            });
        }
    }
    for r in refusals {
        marks.push(Mark {
            kind: "refused",
            lane: String::new(),
            at: r.at,
            title: format!(
                "{} policy reload refused (the last good policy stayed in force)",
                crate::audit::format_ts(r.at)
            ),
        });
    }
    // A mark before the range (the policy in force at its start) is in
    // the statement, not on the axis.
    marks.retain(|m| since.is_none_or(|s| m.at >= s) && until.is_none_or(|u| m.at < u));
    // The time axis: the range asked for, else what the page shows.
    let times = bars
        .iter()
        .flat_map(|b| [b.from, b.to])
        .chain(marks.iter().map(|m| m.at));
    let t0 = since.or(times.clone().min());
    let t1 = until.or(times.max());
    // Lanes: the policy's, then one per sink, sorted.
    let sinks = marks
        .iter()
        .map(|m| m.lane.as_str())
        .filter(|l| !l.is_empty());
    let sinks: BTreeSet<&str> = bars.iter().map(|b| b.sink).chain(sinks).collect();
    let lanes: Vec<&str> = std::iter::once("").chain(sinks).collect();

    let mut out = String::with_capacity(32 * 1024);
    let csp = format!(
        "default-src 'none'; style-src {}; script-src 'none'; img-src data:; base-uri 'none'; \
         form-action 'none'",
        csp_hash(STYLE)
    );
    let range = match (since, until) {
        (None, None) => "the whole log".to_owned(),
        (Some(a), None) => format!("from {}", crate::audit::format_ts(a)),
        (None, Some(b)) => format!("until {}", crate::audit::format_ts(b)),
        (Some(a), Some(b)) => format!(
            "from {} until {}",
            crate::audit::format_ts(a),
            crate::audit::format_ts(b)
        ),
    };
    let _ = write!(
        out,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>tracegate audit report: {}</title><style>{STYLE}</style></head><body><main>\
         <h1>Audit report: <code>{}</code></h1><p class=\"muted\">Covering {}. Log SHA-256 \
         (verified part) <code>{}</code>.</p>",
        escape(&csp),
        escape(name),
        escape(name),
        escape(&range),
        escape(
            st.get("subject")
                .and_then(|x| x.get(0))
                .and_then(|x| s(x, &["digest", "sha256"]))
                .unwrap_or("")
        ),
    );
    let _ = write!(
        out,
        "<section class=\"verdict v-{0}\" id=\"verdict\" data-status=\"{0}\" role=\"status\">\
         <p class=\"headline\">{1}</p><p>{2}</p><p class=\"muted\">Verifier: <code>{3}</code></p>\
         </section>",
        verdict.status,
        escape(&verdict.headline),
        escape(&verdict.meaning),
        escape(&verdict.technical),
    );

    // The timeline.
    out.push_str("<h2>Timeline</h2>");
    let height = AXIS + LANE * lanes.len() as f64 + 8.0;
    let _ = write!(
        out,
        "<svg id=\"timeline\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" \
         aria-labelledby=\"tl-title\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"system-ui,sans-serif\" \
         font-size=\"12\"><title id=\"tl-title\">Capture windows per sink over time; \
         details in the table below</title>"
    );
    pattern_defs(&mut out);
    match (t0, t1) {
        (Some(t0), Some(t1)) => {
            let span = (t1.as_millisecond() - t0.as_millisecond()).max(1) as f64;
            let x = |t: Timestamp| {
                let f = (t.as_millisecond() - t0.as_millisecond()) as f64 / span;
                LABEL + f.clamp(0.0, 1.0) * (WIDTH - LABEL - 10.0)
            };
            // Axis: start, middle, end.
            for (i, t) in [
                t0,
                Timestamp::from_millisecond(t0.as_millisecond() + (span / 2.0) as i64)
                    .unwrap_or(t0),
                t1,
            ]
            .into_iter()
            .enumerate()
            {
                let anchor = ["start", "middle", "end"][i];
                let _ = write!(
                    out,
                    "<text x=\"{:.1}\" y=\"16\" text-anchor=\"{anchor}\" fill=\"#1a1a1a\">{}</text>\
                     <line x1=\"{0:.1}\" y1=\"20\" x2=\"{0:.1}\" y2=\"{height}\" stroke=\"#bbb\"/>",
                    x(t),
                    escape(&crate::audit::format_ts(t)),
                );
            }
            for (i, lane) in lanes.iter().enumerate() {
                let y = AXIS + LANE * i as f64;
                let (id, label) = match *lane {
                    "" => ("policy".to_owned(), "policy".to_owned()),
                    sink => (escape(sink), escape(&format!("sink {sink}"))),
                };
                let _ = write!(
                    out,
                    "<g data-lane=\"{}\"><rect x=\"0\" y=\"{y}\" width=\"{WIDTH}\" height=\"{LANE}\" \
                     fill=\"{}\"/><text x=\"6\" y=\"{:.1}\" fill=\"#1a1a1a\">{}</text>",
                    id,
                    if i % 2 == 0 { "#f7f7f7" } else { "#ffffff" },
                    y + LANE / 2.0 + 4.0,
                    label,
                );
                for b in bars.iter().filter(|b| b.sink == *lane && !lane.is_empty()) {
                    let (x0, x1) = (x(b.from), x(b.to));
                    let w = (x1 - x0).max(3.0);
                    let _ = write!(
                        out,
                        "<g data-window=\"{}\" data-sink=\"{}\" data-cause=\"{}\" data-start=\"{}\" \
                         data-end=\"{}\" data-records=\"{}\" data-bytes=\"{}\"><title>window {} on \
                         sink {}: {} to {}, {}; captured {}, {}</title>\
                         <rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\" \
                         fill=\"url(#p-{})\" stroke=\"#1a1a1a\"/>",
                        escape(b.id),
                        escape(b.sink),
                        b.ending.key,
                        escape(&crate::audit::format_ts(b.from)),
                        escape(&crate::audit::format_ts(b.to)),
                        b.records,
                        b.bytes,
                        escape(b.id),
                        escape(b.sink),
                        escape(&crate::audit::format_ts(b.from)),
                        escape(&crate::audit::format_ts(b.to)),
                        b.ending.words,
                        crate::io_text::counted(b.records, "record", "records"),
                        crate::io_text::counted(b.bytes, "byte", "bytes"),
                        y + 6.0,
                        LANE - 12.0,
                        b.ending.key,
                    );
                    // The window's name and how it ended, in words, when
                    // the bar has room; always in the table.
                    if w > 90.0 {
                        let _ = write!(
                            out,
                            "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#fff\" font-weight=\"600\">{}</text>",
                            x0 + 4.0,
                            y + LANE / 2.0 + 4.0,
                            escape(&format!("{} · {}", b.id, b.ending.key.replace('_', " "))),
                        );
                    }
                    out.push_str("</g>");
                }
                for m in marks.iter().filter(|m| m.lane == *lane) {
                    let mx = x(m.at);
                    let shape = match m.kind {
                        // A triangle for a denial, a diamond for a reload,
                        // a cross for a refused reload.
                        "denial" => {
                            format!(
                                "<path d=\"M{:.1} {:.1} l6 10 h-12 z\" fill=\"#a4120b\" stroke=\"#fff\"/>",
                                mx,
                                y + LANE - 14.0
                            )
                        }
                        "reload" => format!(
                            "<path d=\"M{:.1} {:.1} l6 6 l-6 6 l-6 -6 z\" fill=\"#1d4f91\"/>",
                            mx,
                            y + LANE / 2.0 - 6.0
                        ),
                        _ => {
                            format!(
                                "<path d=\"M{0:.1} {1:.1} l10 10 M{2:.1} {1:.1} l-10 10\" stroke=\"#a4120b\" stroke-width=\"3\"/>",
                                mx - 5.0,
                                y + LANE / 2.0 - 5.0,
                                mx + 5.0
                            )
                        }
                    };
                    let _ = write!(
                        out,
                        "<g data-mark=\"{}\" data-at=\"{}\"><title>{}</title>{shape}</g>",
                        m.kind,
                        escape(&crate::audit::format_ts(m.at)),
                        escape(&m.title),
                    );
                }
                out.push_str("</g>");
            }
        }
        _ => out.push_str(
            "<text x=\"10\" y=\"20\" fill=\"#1a1a1a\">nothing to draw in this range</text>",
        ),
    }
    out.push_str("</svg>");
    // The legend: pattern, colour and words.
    out.push_str("<ul class=\"legend\">");
    for e in ENDINGS.iter().filter(|e| e.key != "unknown") {
        let _ = write!(
            out,
            "<li><svg viewBox=\"0 0 36 16\" aria-hidden=\"true\">{}<rect width=\"36\" height=\"16\" \
             fill=\"url(#l-{})\"/></svg> {}</li>",
            legend_pattern(e),
            e.key,
            e.words
        );
    }
    out.push_str(
        "<li>▲ full capture denied</li><li>◆ policy loaded</li><li>✕ policy reload refused</li></ul>",
    );

    // The windows table.
    out.push_str(
        "<h2>Capture windows</h2><table id=\"windows\"><thead><tr><th>Window</th><th>Sink</th>\
         <th>Requested by</th><th>Reason</th><th>Enabled</th><th>Ended</th><th>How it ended</th>\
         <th>Records</th><th>Bytes</th></tr></thead><tbody>",
    );
    for w in windows {
        let e = ending(s(w, &["ended_by"]));
        let _ = write!(
            out,
            "<tr data-window=\"{}\"><td><code>{}</code>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            escape(s(w, &["window"]).unwrap_or("")),
            escape(s(w, &["window"]).unwrap_or("")),
            if w.get("backdated").and_then(Value::as_bool) == Some(true) {
                " (back-dated)"
            } else {
                ""
            },
            escape(s(w, &["sink"]).unwrap_or("")),
            escape(s(w, &["requested_by"]).unwrap_or("")),
            escape(s(w, &["reason"]).unwrap_or("")),
            escape(s(w, &["enforced", "start"]).unwrap_or("not enabled")),
            escape(s(w, &["enforced", "end"]).unwrap_or("—")),
            e.words,
            n(w, &["captured", "records"]),
            n(w, &["captured", "bytes"]),
        );
    }
    if windows.is_empty() {
        out.push_str(
            "<tr><td colspan=\"9\" class=\"muted\">no capture window in this range</td></tr>",
        );
    }
    out.push_str("</tbody></table>");

    // Denials and refused reloads, in words.
    let denials = arr("denials");
    let _ = write!(
        out,
        "<h2>Full capture denied ({})</h2><table id=\"denials\"><thead><tr><th>Time</th>\
         <th>Sink</th><th>Window</th><th>Why</th></tr></thead><tbody>",
        denials.len()
    );
    for d in denials {
        let _ = write!(
            out,
            "<tr data-denial=\"\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(s(d, &["time"]).unwrap_or("")),
            escape(s(d, &["sink"]).unwrap_or("")),
            escape(s(d, &["window"]).unwrap_or("—")),
            escape(d.get("why").and_then(Value::as_str).unwrap_or("")),
        );
    }
    out.push_str("</tbody></table>");
    let _ = write!(
        out,
        "<h2>Policy reloads refused ({})</h2><ul id=\"refusals\">",
        refusals.len()
    );
    for r in refusals {
        let _ = write!(
            out,
            "<li data-refused=\"\">{}: refused; the last good policy stayed in force</li>",
            escape(&crate::audit::format_ts(r.at)),
        );
    }
    out.push_str("</ul></main></body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_colour_holds_white_text_at_aa_contrast() {
        fn lum(hex: &str) -> f64 {
            let c = |i: usize| {
                let v = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
                if v <= 0.03928 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * c(1) + 0.7152 * c(3) + 0.0722 * c(5)
        }
        for e in &ENDINGS {
            let ratio = (1.0 + 0.05) / (lum(e.fill) + 0.05);
            assert!(ratio >= 4.5, "{} {} {ratio:.2}", e.key, e.fill);
        }
        // Text colours of the page on white, and the muted grey.
        for c in ["#1a1a1a", "#555555", "#a4120b", "#0b6b2b", "#7a4d00"] {
            let ratio = (1.0 + 0.05) / (lum(c) + 0.05);
            assert!(ratio >= 4.5, "{c} {ratio:.2}");
        }
    }

    #[test]
    fn every_ending_has_its_own_pattern_or_is_the_plain_one() {
        let mut seen = std::collections::HashSet::new();
        for e in ENDINGS.iter().filter(|e| e.key != "unknown") {
            assert!(seen.insert(e.pattern), "{} shares its pattern", e.key);
        }
    }
}
