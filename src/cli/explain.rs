//! `tracegate explain`: why the daemon would drop each span or log record
//! of a captured OTLP request body, without reading any source.
//!
//! The body goes through the daemon's own steps (`daemon::ingest`: the
//! structure bounds, the export-request shape, the decode) and the gate's
//! standard judgement; each item is then listed with its index, its ids
//! and what became of it, with the findings (rule and path) that say why.
//!
//! SECURITY: an item is shown by its index and its ids (trace and span id,
//! printed only when they have the hex shape of one); the span's name, its
//! attributes and every other value stay out, and findings hold a rule, a
//! path (keys escaped as findings escape them) and fixed text.

use std::io::{self, BufWriter, Read as _, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context as _;
use clap::{Args, ValueEnum};
use serde_json::{Value, json};

use super::{OutputFormat, exit, load_policy};
use crate::daemon::ingest::{Encoding, body_line, count_body};
use crate::finding::{Finding, FindingKind};
use crate::gate::{Gate, Verdict};
use crate::policy::Policy;
use crate::record::otlp_proto::bounds::Signal;
use crate::source::lines::Line;
use crate::window::Level;

/// `explain` options.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The policy: a TOML file or a folder of them.
    #[arg(long, value_name = "PATH")]
    pub policy: PathBuf,
    /// Which export request a protobuf body is (auto: traces when it
    /// decodes as one with spans, else logs). OTLP/JSON says so itself.
    #[arg(long, value_enum, default_value_t = SignalArg::Auto)]
    pub signal: SignalArg,
    /// Items as text lines or JSON objects (one per line, each with a
    /// `type`: `request`, then one `item` per span or log record).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Captured request bodies: OTLP/protobuf or OTLP/JSON (pretty or on
    /// one line; a file of JSON lines is one request a line), gzip or
    /// not, as `/v1/traces`, `/v1/logs` or the gRPC services receive them;
    /// `-` for stdin.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
}

/// `--signal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SignalArg {
    /// Decide from the body.
    Auto,
    /// `ExportTraceServiceRequest`.
    Traces,
    /// `ExportLogsServiceRequest`.
    Logs,
}

/// Run `explain`; returns the exit code: 0 when every item of every body
/// would be written (fields may be removed), 1 when an item would be
/// dropped or a body refused, 2 on a usage, policy or I/O error.
pub fn run(args: &ExplainArgs) -> u8 {
    let Some(policy) = load_policy(&args.policy).map(Arc::new) else {
        return exit::ERROR;
    };
    let mut gate = Gate::for_check(Arc::clone(&policy));
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut any = false;
    for file in &args.files {
        let body = read_body(file, policy.server().max_body_bytes);
        let Some(body) =
            super::reported(body.with_context(|| format!("cannot read `{}`", file.display())))
        else {
            return exit::ERROR;
        };
        let name = file.display().to_string();
        let requests = split(&body);
        for (n, request) in requests.iter().enumerate() {
            let label = if requests.len() > 1 {
                format!("{name}:{}", n + 1)
            } else {
                name.clone()
            };
            any |= explain_one(&policy, &mut gate, &label, request, args, &mut out);
        }
    }
    if let Err(e) = out.flush()
        && !super::input::is_broken_pipe(&e)
    {
        super::report_error(&anyhow::Error::new(e));
        return exit::ERROR;
    }
    if any { exit::FINDINGS } else { exit::OK }
}

/// Read `file` (or stdin), inflating gzip, within `max` bytes as the
/// daemon would.
fn read_body(file: &Path, max: usize) -> anyhow::Result<Vec<u8>> {
    let mut raw = Vec::new();
    let limit = max as u64 + 1;
    if file == Path::new("-") {
        io::stdin().lock().take(limit).read_to_end(&mut raw)?;
    } else {
        std::fs::File::open(file)?
            .take(limit)
            .read_to_end(&mut raw)?;
    }
    let mut body = if raw.starts_with(&[0x1f, 0x8b]) {
        // SECURITY: bounded inflation, as the daemon's.
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .take(limit)
            .read_to_end(&mut out)
            .map_err(|_| anyhow::anyhow!("the body is not valid gzip"))?;
        out
    } else {
        raw
    };
    if body.len() > max {
        anyhow::bail!(
            "the body is larger than server.max_body_bytes ({max}): the daemon refuses it (413)"
        );
    }
    body.shrink_to_fit();
    Ok(body)
}

/// One body, or one request per line when the body is JSON lines (a
/// pretty-printed request is one body).
fn split(body: &[u8]) -> Vec<Body<'_>> {
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        return vec![Body::Protobuf(body)];
    }
    let mut tape = crate::record::tape::Tape::new();
    if tape.scan(body.trim_ascii()).is_ok() {
        return vec![Body::Json(body.trim_ascii())];
    }
    let lines: Vec<&[u8]> = body
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.len() > 1 {
        lines.into_iter().map(Body::Json).collect()
    } else {
        vec![Body::Json(body.trim_ascii())]
    }
}

/// A request body by encoding.
#[derive(Clone, Copy)]
enum Body<'a> {
    Protobuf(&'a [u8]),
    Json(&'a [u8]),
}

/// Explain one request: whether it was refused or an item of it dropped.
fn explain_one(
    policy: &Policy,
    gate: &mut Gate,
    label: &str,
    body: &Body<'_>,
    args: &ExplainArgs,
    out: &mut dyn Write,
) -> bool {
    let (bytes, enc) = match *body {
        Body::Protobuf(b) => (b, Encoding::Protobuf),
        Body::Json(b) => (b, Encoding::Json),
    };
    let signal = match (args.signal, *body) {
        (SignalArg::Traces, _) => Signal::Traces,
        (SignalArg::Logs, _) => Signal::Logs,
        (SignalArg::Auto, Body::Json(b)) => json_signal(b),
        (SignalArg::Auto, Body::Protobuf(b)) => protobuf_signal(b, policy),
    };
    let structure = policy.server().structure;
    let line =
        count_body(bytes, signal, enc, &structure).and_then(|_| body_line(bytes, signal, enc));
    let line = match line {
        Ok(l) => l,
        Err(r) => {
            // The daemon's own refusal: fixed words, limits and offsets.
            let code = r.http_status();
            write_request(
                out,
                args.format,
                label,
                signal,
                &format!("refused ({code})"),
                &[(None, r.message.as_str())],
            );
            return true;
        }
    };
    let too_long = line.len() > policy.limits().max_line_bytes;
    let judged_line = if too_long {
        Line::TooLong {
            len: line.len() as u64,
        }
    } else {
        Line::Text(&line)
    };
    let j = gate.judge(1, &judged_line, Level::Standard, false);
    let findings: Vec<Finding> = gate.findings().to_vec();
    if j.verdict == Verdict::Malformed {
        let f: Vec<(Option<&Finding>, &str)> = findings
            .iter()
            .map(|f| (Some(f), f.message.as_str()))
            .collect();
        write_request(out, args.format, label, signal, "refused (400)", &f);
        return true;
    }
    let value: Value = serde_json::from_slice(&line).unwrap_or(Value::Null);
    let items = items_of(&value, signal);
    let rejected: Vec<u32> = gate.rejected_items().to_vec();
    let whole = j.verdict == Verdict::Dropped;
    let mut any_dropped = false;
    // Findings outside every item: the request's own (resource, scope).
    let outside: Vec<&Finding> = findings
        .iter()
        .filter(|f| !items.iter().any(|it| under(f, &it.path)))
        .collect();
    let outcome = if whole {
        "dropped whole"
    } else if j.verdict == Verdict::Verbatim {
        "accepted as sent"
    } else {
        "accepted"
    };
    let summary = format!(
        "{outcome}: {} {}, {} written, {} dropped",
        items.len(),
        noun(signal, items.len()),
        if whole {
            0
        } else {
            items.len() - rejected.len()
        },
        if whole { items.len() } else { rejected.len() }
    );
    let shown: Vec<(Option<&Finding>, &str)> = outside
        .iter()
        .map(|f| (Some(*f), f.message.as_str()))
        .collect();
    write_request(out, args.format, label, signal, &summary, &shown);
    for (i, item) in items.iter().enumerate() {
        let dropped = whole || rejected.contains(&(i as u32));
        let mine: Vec<&Finding> = findings.iter().filter(|f| under(f, &item.path)).collect();
        let state = match (dropped, mine.is_empty()) {
            (true, _) => "dropped",
            (false, true) => "written",
            (false, false) => "written, fields removed",
        };
        any_dropped |= dropped;
        write_item(out, args.format, label, signal, i, item, state, &mine);
    }
    any_dropped
}

/// Whether finding `f` is about the item at `path` (or inside it).
fn under(f: &Finding, path: &str) -> bool {
    f.field.as_deref().is_some_and(|field| {
        field
            .strip_prefix(path)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
    })
}

/// A span or log record of a request: its path and ids.
struct Item {
    path: String,
    trace_id: Option<String>,
    span_id: Option<String>,
}

/// Every span or log record of `v`, in walk order (the order of
/// [`Gate::rejected_items`]).
fn items_of(v: &Value, signal: Signal) -> Vec<Item> {
    let (top, mid, leaf) = match signal {
        Signal::Traces => ("resourceSpans", "scopeSpans", "spans"),
        Signal::Logs => ("resourceLogs", "scopeLogs", "logRecords"),
    };
    let list = |v: &Value, k: &str| {
        v.get(k)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let mut out = Vec::new();
    for (r, res) in list(v, top).iter().enumerate() {
        for (s, scope) in list(res, mid).iter().enumerate() {
            for (i, item) in list(scope, leaf).iter().enumerate() {
                out.push(Item {
                    path: format!("{top}[{r}].{mid}[{s}].{leaf}[{i}]"),
                    trace_id: hex_id(item.get("traceId"), 32),
                    span_id: hex_id(item.get("spanId"), 16),
                });
            }
        }
    }
    out
}

/// An id, only when it has the shape of one.
/// SECURITY: anything else could be a value; it is not shown.
fn hex_id(v: Option<&Value>, digits: usize) -> Option<String> {
    let s = v?.as_str()?;
    (s.len() == digits && s.bytes().all(|b| b.is_ascii_hexdigit())).then(|| s.to_ascii_lowercase())
}

fn noun(signal: Signal, n: usize) -> &'static str {
    match (signal, n == 1) {
        (Signal::Traces, true) => "span",
        (Signal::Traces, false) => "spans",
        (Signal::Logs, true) => "log record",
        (Signal::Logs, false) => "log records",
    }
}

/// The signal an OTLP/JSON body names (traces unless it holds
/// `resourceLogs` at the top).
fn json_signal(b: &[u8]) -> Signal {
    let mut tape = crate::record::tape::Tape::new();
    let Ok(text) = tape.scan(b) else {
        return Signal::Traces;
    };
    let logs = tape.members(0).any(|(k, _)| {
        tape.tokens()
            .get(k)
            .is_some_and(|t| crate::record::tape::string_value(text, t) == "resourceLogs")
    });
    if logs { Signal::Logs } else { Signal::Traces }
}

/// Traces when the body decodes as a trace request with spans, else logs
/// when it decodes as a logs request with log records, else traces.
fn protobuf_signal(b: &[u8], policy: &Policy) -> Signal {
    let s = &policy.server().structure;
    let traces = crate::record::otlp_proto::bounds::check_protobuf(b, Signal::Traces, s);
    if traces.is_ok_and(|c| c.spans > 0) && body_line(b, Signal::Traces, Encoding::Protobuf).is_ok()
    {
        return Signal::Traces;
    }
    let logs = crate::record::otlp_proto::bounds::check_protobuf(b, Signal::Logs, s);
    if logs.is_ok_and(|c| c.log_records > 0)
        && body_line(b, Signal::Logs, Encoding::Protobuf).is_ok()
    {
        return Signal::Logs;
    }
    Signal::Traces
}

fn finding_json(f: &Finding) -> Value {
    json!({
        "kind": f.kind.as_str(),
        "rule": f.rule.as_str(),
        "field": f.field,
        "message": f.message,
    })
}

fn write_request(
    out: &mut dyn Write,
    format: OutputFormat,
    label: &str,
    signal: Signal,
    summary: &str,
    findings: &[(Option<&Finding>, &str)],
) {
    let _ = match format {
        OutputFormat::Text => {
            let mut s = format!("{label}: {} request: {summary}\n", signal.as_str());
            for (f, message) in findings {
                s.push_str(&finding_text(*f, message));
            }
            out.write_all(s.as_bytes())
        }
        OutputFormat::Json => {
            let v = json!({
                "type": "request",
                "file": label,
                "signal": signal.as_str(),
                "outcome": summary,
                "findings": findings.iter().map(|(f, m)| match f {
                    Some(f) => finding_json(f),
                    None => json!({"kind": FindingKind::Malformed.as_str(), "message": m}),
                }).collect::<Vec<_>>(),
            });
            writeln!(out, "{v}")
        }
    };
}

fn finding_text(f: Option<&Finding>, message: &str) -> String {
    match f {
        Some(f) => format!(
            "    {}: {}: {}\n",
            f.rule,
            f.field.as_deref().unwrap_or("-"),
            f.message
        ),
        None => format!("    {message}\n"),
    }
}

#[allow(clippy::too_many_arguments)]
fn write_item(
    out: &mut dyn Write,
    format: OutputFormat,
    label: &str,
    signal: Signal,
    index: usize,
    item: &Item,
    state: &str,
    findings: &[&Finding],
) {
    let one = noun(signal, 1);
    let _ = match format {
        OutputFormat::Text => {
            let mut s = format!(
                "  {one} {index} (trace {}, span {}): {state}\n",
                item.trace_id.as_deref().unwrap_or("-"),
                item.span_id.as_deref().unwrap_or("-"),
            );
            for f in findings {
                s.push_str(&finding_text(Some(f), &f.message));
            }
            out.write_all(s.as_bytes())
        }
        OutputFormat::Json => {
            let v = json!({
                "type": "item",
                "file": label,
                "signal": signal.as_str(),
                "index": index,
                "path": item.path,
                "trace_id": item.trace_id,
                "span_id": item.span_id,
                "outcome": state,
                "findings": findings.iter().map(|f| finding_json(f)).collect::<Vec<_>>(),
            });
            writeln!(out, "{v}")
        }
    };
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn ids_are_shown_only_with_the_shape_of_an_id() {
        let v = json!({"resourceSpans": [{"scopeSpans": [{"spans": [
            {"traceId": "5B8EFFF798038103D269B633813FC601", "spanId": "0101010101010101"},
            {"traceId": "CANARY-not-an-id-but-32-chars-xx", "spanId": "secret"},
        ]}]}]});
        let items = items_of(&v, Signal::Traces);
        assert_eq!(items.len(), 2);
        assert_eq!(
            items[0].trace_id.as_deref(),
            Some("5b8efff798038103d269b633813fc601")
        );
        assert_eq!(items[1].trace_id, None);
        assert_eq!(items[1].span_id, None);
        assert_eq!(items[1].path, "resourceSpans[0].scopeSpans[0].spans[1]");
    }

    #[test]
    fn findings_belong_to_the_item_whose_path_they_start_with() {
        let f = |field: &str| Finding {
            line: 1,
            kind: FindingKind::Violation,
            rule: crate::finding::Rule::OneOf,
            field: Some(field.into()),
            message: String::new(),
        };
        let item = "resourceSpans[0].scopeSpans[0].spans[1]";
        assert!(under(
            &f("resourceSpans[0].scopeSpans[0].spans[1].name"),
            item
        ));
        assert!(under(&f("resourceSpans[0].scopeSpans[0].spans[1]"), item));
        assert!(!under(
            &f("resourceSpans[0].scopeSpans[0].spans[10].name"),
            item
        ));
        assert!(!under(&f("resourceSpans[0].resource"), item));
    }
}
