//! The per-record, per-sink decision (docs/reference.md, "The gate").
//!
//! A [`Gate`] judges one line at a time at a [`Level`] chosen by the caller
//! (the window logic decides the level per sink). It scans the line once,
//! checks every field against the policy, and yields a [`Verdict`]: pass the
//! line verbatim, pass a projection rebuilt from verified parts, drop it, or
//! report it malformed. Findings explain every strip and drop.
//!
//! **Invariant:** the gate never passes through bytes it has not verified. A
//! verbatim pass happens only when every key of the record is allowlisted
//! (or a content field at full level) and every value met its rule.

pub mod detect;
pub mod fast;
pub mod memo;
pub mod otlp;
pub mod shared;
pub mod verify;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod canonical_tests;

use std::sync::Arc;

use crate::finding::{Finding, FindingKind, Rule, escape_key};
use crate::policy::redaction::SinkRedaction;
use crate::policy::{OnViolation, Policy};
use crate::record::canonical;
use crate::record::escape::{write_edited_json_string, write_json_string};
use crate::record::tape::{
    Kind, Malformed, Tape, raw, raw_contents, string_value, string_value_in,
};
use crate::record::{Format, detect};
use crate::source::lines::Line;
use crate::window::Level;
use verify::{Seg, Walk};

/// What happens to a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// The line goes out byte for byte.
    Verbatim,
    /// [`Gate::output`] goes out instead: rebuilt from verified parts.
    Rewritten,
    /// Nothing goes out: an allowlisted field broke its rule.
    Dropped,
    /// Nothing goes out: the line is not a well-formed record.
    Malformed,
}

/// The verdict on one record and what the gate saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Judgement {
    /// The decision.
    pub verdict: Verdict,
    /// The record's format (none when malformed).
    pub format: Option<Format>,
    /// Fields removed (content, unknown, or violating under `drop_field`).
    pub stripped: u32,
    /// The record holds at least one content field.
    pub has_content: bool,
}

/// A reusable judge for one policy version. Holds its buffers, so judging
/// a clean record allocates nothing.
pub struct Gate {
    policy: Arc<Policy>,
    tape: Tape,
    findings: Vec<Finding>,
    out: Vec<u8>,
    segs: Vec<Seg>,
    otlp: otlp::Scratch,
    forced: Option<Format>,
    /// The cf allowlist names no key that format detection looks at, and
    /// the sink rewrites no identifier, so a record that passes
    /// [`fast::clean_flat`] certainly goes out verbatim.
    fast_cf: bool,
    /// The last cf record judged at full level held content: the fast path,
    /// which gives up at the first content field, is likely wasted on the
    /// next one too (a capture stream is all full records), so skip it.
    content_streak: bool,
    /// The last record took the evidence fast path: the next one is likely
    /// evidence too, so that path is tried before the flat one (the two
    /// take disjoint records, so the order changes no verdict).
    evidence_streak: bool,
    /// The sink's redaction and pseudonyms.
    redaction: SinkRedaction,
    /// The built-in detectors run over allowlisted strings.
    detectors: detect::Detectors,
    /// Redacted content of the record being judged, by value token.
    content: Vec<(usize, Content)>,
    /// The JSON string literals of [`Content::Redacted`], end to end: one
    /// buffer reused across records instead of a `String` per field.
    encoded: Vec<u8>,
    /// The content value being redacted, decoded; reused across fields.
    unescaped: String,
    /// Its redaction, and where the replacements went; reused.
    redacted: String,
    edits: Vec<crate::redact::Edit>,
    /// Key order learned by the fast path.
    order: fast::KeyOrder,
    /// Value tokens of allowlisted fields that broke their rule (left out
    /// of the rebuild under `drop_field`).
    violated: Vec<usize>,
    /// The nested evidence fast path (`crate::evidence::FastPath`): `None`
    /// when the sink rewrites identifiers or the allowlist rules it out.
    evidence: Option<crate::evidence::FastPath>,
    /// The last judged line took the evidence fast path.
    evidence_hit: bool,
    /// The OTLP fast path (`otlp::fast`): `None` when turned off (tests).
    otlp_fast: Option<otlp::fast::FastOtlp>,
    /// The last judged line's output is the OTLP fast path's projection.
    fast_projected: bool,
    /// Findings are collected ([`Gate::set_findings`]).
    collect_findings: bool,
    /// The OTLP fast paths' strip findings carry a path and a message
    /// ([`Gate::set_strip_paths`]).
    strip_paths: bool,
    /// Set while `tape` is a [`shared::SharedScan`]'s.
    lent: Option<shared::Lent>,
}

/// What redaction made of one content value.
enum Content {
    /// Unchanged.
    Same,
    /// Replaced by the JSON string literal `Gate::encoded[range]`.
    Redacted(std::ops::Range<usize>),
    /// A `drop` rule matched: the field goes out as `null`.
    Dropped,
}

crate::io_text::debug_as!(Gate, |this| "Gate(policy {})", this.policy.sha256());

impl Gate {
    /// A gate judging by `policy`; content it passes at full level goes
    /// through the policy's own `[redact]` rules (no sink's pseudonyms).
    /// A gate that delivers to a sink is made by [`Gate::for_sink`].
    pub fn new(policy: Arc<Policy>) -> Gate {
        // SECURITY: the default redacts; only `for_check` redacts nothing.
        let redaction = policy.redaction().policy_rules();
        Gate::with_redaction(policy, redaction)
    }

    /// A gate that redacts nothing, for `check`: it judges and reports,
    /// and never writes a record anywhere.
    pub fn for_check(policy: Arc<Policy>) -> Gate {
        Gate::with_redaction(policy, SinkRedaction::none_for_check())
    }

    /// A gate for `sink`: its records are judged by `policy` and, at full
    /// level, redacted by the sink's rules; its identifiers are pseudonymized
    /// as the sink says.
    pub fn for_sink(policy: Arc<Policy>, sink: &str) -> Gate {
        let redaction = policy.redaction().sink(sink);
        Gate::with_redaction(policy, redaction)
    }

    /// A gate applying `redaction` (see [`Gate::for_sink`]).
    pub fn with_redaction(policy: Arc<Policy>, redaction: SinkRedaction) -> Gate {
        let fields = &policy.standard.fields;
        // SECURITY: a fast path passes records verbatim, so it is off for a
        // format whose (top-level) fields the sink pseudonymizes; names of
        // other formats (an OTLP attribute) leave it on.
        let pseudonymizes = |set: &crate::policy::FieldSet| {
            redaction
                .pseudonymize
                .iter()
                .any(|n| set.lookup(n).is_some())
        };
        let fast_cf = !pseudonymizes(fields)
            && [
                "resourceSpans",
                "resourceLogs",
                "schema_version",
                "name",
                "attributes",
            ]
            .iter()
            .all(|k| fields.lookup(k).is_none());
        let evidence = (!pseudonymizes(&policy.standard.evidence))
            .then(|| crate::evidence::FastPath::new(&policy.standard.evidence))
            .flatten();
        Gate {
            fast_cf,
            detectors: detect::Detectors::shared(policy.redaction().standard_detectors()),
            content_streak: false,
            evidence_streak: false,
            redaction,
            content: Vec::new(),
            encoded: Vec::new(),
            unescaped: String::new(),
            redacted: String::new(),
            edits: Vec::new(),
            order: fast::KeyOrder::default(),
            violated: Vec::new(),
            evidence,
            evidence_hit: false,
            otlp_fast: Some(otlp::fast::FastOtlp::default()),
            fast_projected: false,
            collect_findings: true,
            strip_paths: true,
            lent: None,
            policy,
            tape: Tape::new(),
            findings: Vec::new(),
            out: Vec::new(),
            segs: Vec::new(),
            otlp: otlp::Scratch::default(),
            forced: None,
        }
    }

    /// Judge every OTLP line on the tape (tests compare the two paths).
    #[cfg(test)]
    pub(crate) fn disable_otlp_fast_path(&mut self) {
        self.otlp_fast = None;
    }

    /// Treat every line as `format` instead of detecting it.
    pub fn force_format(&mut self, format: Option<Format>) {
        self.forced = format;
    }

    /// The policy this gate judges by.
    pub fn policy(&self) -> &Arc<Policy> {
        &self.policy
    }

    /// Whether the gate collects findings (on by default). A caller that
    /// reads only verdicts and outputs (the Python exporters) turns them
    /// off: the OTLP fast path then writes no path or message for what it
    /// strips, and [`Gate::findings`] is empty after every judgement.
    /// Verdicts, outputs and counts are the same either way.
    pub fn set_findings(&mut self, on: bool) {
        self.collect_findings = on;
    }

    /// Whether a member the OTLP fast paths (on the line, and on the
    /// protobuf wire: [`Gate::judge_wire`]) strip gets a finding with its
    /// path and message (on by default). A caller that reads only a strip
    /// finding's rule (`serve` counts strips by rule, and logs the path of
    /// what it drops, never of what it strips) turns them off: such a
    /// finding then has no path and an empty message, and nothing is
    /// built or allocated for it. Its line, kind and rule, its place in
    /// [`Gate::findings`], every other finding (of the full path, of a
    /// dropped item, of a malformed line), verdicts, outputs and counts
    /// are the same either way.
    pub fn set_strip_paths(&mut self, on: bool) {
        self.strip_paths = on;
    }

    /// Findings of the last judged record (none with
    /// [`Gate::set_findings`] off).
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The rebuilt record of the last [`Verdict::Rewritten`] judgement.
    pub fn output(&self) -> &[u8] {
        &self.out
    }

    /// [`Gate::output`] taken out of the gate (which keeps an empty
    /// buffer): a request cut on the wire ([`Gate::judge_wire`]) is a
    /// buffer of its own, so a sink's queue can hold it without a copy.
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    /// When the last judged line was [`Verdict::Rewritten`] by the OTLP
    /// fast path: the byte ranges of the line that [`Gate::output`] leaves
    /// out (whole members, in line order; each taken out with one
    /// separator). A caller holding the same request as protobuf can cut
    /// the same members out of that (`record::otlp_proto::cut`). `None`
    /// when the full path wrote the output.
    pub fn stripped_ranges(&self) -> Option<&[(usize, usize)]> {
        match &self.otlp_fast {
            Some(fast) if self.fast_projected => Some(fast.cuts()),
            _ => None,
        }
    }

    /// The tape of the last line judged on the full path.
    pub fn tape(&self) -> &Tape {
        &self.tape
    }

    /// The record the evidence fast path read, when the last judged line
    /// took it (then no tape was built for that line).
    pub fn evidence_record(&self) -> Option<&crate::evidence::Record> {
        self.evidence
            .as_ref()
            .filter(|_| self.evidence_hit)
            .map(|e| e.record())
    }

    /// Turn the nested evidence fast path off (tests hold the two paths
    /// to each other).
    #[cfg(test)]
    pub(crate) fn disable_evidence_fast_path(&mut self) {
        self.evidence = None;
    }

    /// A clean record the fast path passes as it is.
    fn verbatim(format: Format) -> Judgement {
        Judgement {
            verdict: Verdict::Verbatim,
            format: Some(format),
            stripped: 0,
            has_content: false,
        }
    }

    /// Nested evidence records: one pass that checks the allowlist and
    /// keeps what the auditor reads (`crate::evidence::FastPath`). Whether
    /// `bytes` is a clean evidence record; remembered for the next one.
    fn evidence_fast(&mut self, bytes: &[u8]) -> bool {
        let hit = match self.evidence.as_mut() {
            Some(ev) if self.forced.is_none_or(|f| f == Format::Evidence) => ev.clean(
                &self.policy.standard.evidence,
                &self.detectors,
                bytes,
                self.forced.is_some(),
            ),
            _ => false,
        };
        self.evidence_hit = hit;
        self.evidence_streak = hit;
        hit
    }

    /// Judge one line (numbered `line_no`) for a sink at `level`.
    ///
    /// With `rebuild = false` the gate only collects findings (as `check`
    /// does) and [`Gate::output`] is left empty.
    pub fn judge(
        &mut self,
        line_no: u64,
        line: &Line<'_>,
        level: Level,
        rebuild: bool,
    ) -> Judgement {
        let j = self.judge_line(line_no, line, level, rebuild);
        if !self.collect_findings {
            self.findings.clear();
        }
        j
    }

    fn judge_line(
        &mut self,
        line_no: u64,
        line: &Line<'_>,
        level: Level,
        rebuild: bool,
    ) -> Judgement {
        self.findings.clear();
        self.out.clear();
        self.fast_projected = false;
        self.evidence_hit = false;
        self.reset_otlp();
        let malformed = Judgement {
            verdict: Verdict::Malformed,
            format: None,
            stripped: 0,
            has_content: false,
        };
        let bytes = match line {
            Line::Text(b) => *b,
            Line::TooLong { len } => {
                let max = self.policy.limits.max_line_bytes;
                self.findings.push(malformed_finding(
                    line_no,
                    Rule::LineTooLong,
                    None,
                    format!("line is {len} bytes, longer than limits.max_line_bytes ({max})"),
                ));
                return malformed;
            }
        };
        let evidence_first = self.evidence_streak;
        if evidence_first && self.evidence_fast(bytes) {
            return Self::verbatim(Format::Evidence);
        }
        if self.fast_cf
            && !(level == Level::Full && self.content_streak)
            && self.forced.is_none_or(|f| f == Format::Cf)
            && fast::clean_flat_ordered(
                &self.policy.standard.fields,
                &self.detectors,
                bytes,
                &mut self.order,
            )
        {
            self.evidence_streak = false;
            return Self::verbatim(Format::Cf);
        }
        if !evidence_first && self.evidence_fast(bytes) {
            return Self::verbatim(Format::Evidence);
        }
        // OTLP export requests at standard level: one pass that checks the
        // structure and strips content and unknown attributes
        // (`otlp::fast`), for a sink that pseudonymizes nothing.
        if level == Level::Standard
            && self.forced.is_none_or(|f| f == Format::Otlp)
            && (self.redaction.key.is_none() || self.redaction.pseudonymize.is_empty())
            && let Some(fast) = self.otlp_fast.as_mut()
        {
            let cx = otlp::fast::Context {
                policy: &self.policy,
                detectors: &self.detectors,
                line: line_no,
                project: rebuild,
                findings: self.collect_findings,
                paths: self.strip_paths,
            };
            if let Some(taken) = fast.judge(cx, bytes, &mut self.findings) {
                if rebuild && taken.stripped > 0 {
                    fast.project(bytes, &mut self.out);
                    self.fast_projected = true;
                }
                return self.otlp_taken(taken);
            }
        }
        let text = match self.scan(bytes) {
            Ok(t) => t,
            Err(m) => {
                let f = describe_malformed(line_no, &m, &self.tape, bytes);
                self.findings.push(f);
                return malformed;
            }
        };
        let format = self.forced.unwrap_or_else(|| detect(&self.tape, text));
        match format {
            Format::Cf => {
                let j = self.judge_flat(line_no, text, format, level, rebuild);
                self.content_streak = level == Level::Full && j.has_content;
                j
            }
            // An evidence record is never full (docs/reference.md): content is never allowed in it.
            Format::Evidence => self.judge_flat(line_no, text, format, Level::Standard, rebuild),
            Format::Otlp => {
                let input = otlp::Input {
                    policy: &self.policy,
                    tape: &self.tape,
                    text,
                    line: line_no,
                    level,
                    redactor: self.redaction.redactor.as_deref(),
                    detectors: &self.detectors,
                    pseudonyms: match &self.redaction.key {
                        Some(key) if !self.redaction.pseudonymize.is_empty() => {
                            Some(otlp::Pseudonyms {
                                key,
                                names: &self.redaction.pseudonymize,
                                prefixes: &self.policy.redact().pseudonym_prefixes,
                            })
                        }
                        _ => None,
                    },
                };
                let buffers = otlp::Buffers {
                    findings: &mut self.findings,
                    out: &mut self.out,
                    segs: &mut self.segs,
                    scratch: &mut self.otlp,
                };
                otlp::judge(input, rebuild, buffers)
            }
        }
    }

    /// The tape of `bytes`: as a shared scan already built it for these
    /// very bytes (see [`shared`]), else scanned now.
    fn scan<'b>(&mut self, bytes: &'b [u8]) -> Result<&'b str, Malformed> {
        if let Some(lent) = &mut self.lent {
            if lent.built && lent.is_of(bytes) {
                // The scan accepted these bytes: they are UTF-8.
                return crate::record::tape::utf8(bytes).map_err(|e| Malformed::InvalidUtf8 {
                    offset: e.valid_up_to(),
                });
            }
            // The tape is about to describe these bytes (or nothing).
            lent.built = false;
        }
        let scanned = self.tape.scan(bytes);
        if let Some(lent) = &mut self.lent {
            lent.built = scanned.is_ok() && lent.is_of(bytes);
        }
        scanned
    }

    /// Judge a flat record (cf or evidence): top-level allowlist, content
    /// fields, constraints; then decide and rebuild.
    fn judge_flat(
        &mut self,
        line_no: u64,
        text: &str,
        format: Format,
        level: Level,
        rebuild: bool,
    ) -> Judgement {
        let policy = &*self.policy;
        let fields = match format {
            Format::Evidence => &policy.standard.evidence,
            _ => &policy.standard.fields,
        };
        let walk = Walk {
            text,
            tape: &self.tape,
            line: line_no,
            detectors: &self.detectors,
        };
        let tokens = self.tape.tokens();
        let mut stripped = 0u32;
        let mut violated_any = false;
        let mut has_content = false;
        let mut rewrite = false;
        // Non-canonical content strings at full level: content is content,
        // its escapes included, so they do not force a rewrite.
        let mut excused = 0u32;
        let mut seen = 0u64;
        self.content.clear();
        self.encoded.clear();
        self.violated.clear();
        for (k, v) in self.tape.members(0) {
            let name = string_value(text, &tokens[k]);
            self.segs.clear();
            self.segs.push(Seg::Key(k));
            if let Some((i, rule)) = fields.lookup(&name) {
                if i < 64 {
                    seen |= 1 << i;
                }
                if tokens[v].kind == Kind::String
                    && self.redaction.pseudonymize.iter().any(|p| *p == name)
                {
                    rewrite = true;
                }
                let c = walk.check(rule, v, &mut self.segs, &mut self.findings);
                rewrite |= c.rewrite;
                if c.violated {
                    violated_any = true;
                    rewrite = true;
                    self.violated.push(v);
                    if policy.standard.on_violation == OnViolation::DropField {
                        stripped += 1;
                    }
                } else if c.stripped > 0 {
                    stripped += c.stripped;
                    rewrite = true;
                }
            } else if policy.is_content_field(&name) {
                has_content = true;
                if level == Level::Full {
                    let kind = tokens[v].kind;
                    if kind != Kind::String && kind != Kind::Null {
                        // SECURITY: content at full level is text; anything else is dropped.
                        self.findings.push(walk.finding(
                            &self.segs,
                            Rule::Type,
                            format!(
                                "content field must be a string, found {}",
                                verify::kind_name(kind)
                            ),
                        ));
                        stripped += 1;
                        rewrite = true;
                    } else if kind == Kind::String
                        && let Some(r) = &self.redaction.redactor
                    {
                        if !tokens[v].canonical && !self.tape.separators() {
                            excused += 1;
                        }
                        let original = string_value_in(text, &tokens[v], &mut self.unescaped);
                        self.redacted.clear();
                        let result =
                            r.redact_with_edits(original, &mut self.redacted, &mut self.edits);
                        let content = if result.over_budget {
                            // SECURITY: the scan stopped before the end of
                            // the text: the field does not pass.
                            self.findings.push(walk.finding(
                                &self.segs,
                                Rule::RedactBudget,
                                "redaction of this field ran out of its work budget; the field goes out as null".into(),
                            ));
                            Content::Dropped
                        } else if result.drop_field {
                            self.findings.push(walk.finding(
                                &self.segs,
                                Rule::RedactDrop,
                                "a redaction rule with action `drop` matched; the field goes out as null".into(),
                            ));
                            Content::Dropped
                        } else if result.changed {
                            let start = self.encoded.len();
                            // The raw value is already escaped: copy it around
                            // the edits rather than escape the whole text again.
                            // SECURITY: each edit's span is replaced; a token
                            // span that did not exist (a bug) would put nothing
                            // there, never the original text.
                            let redacted = &self.redacted;
                            let edits = self.edits.iter().map(|e| {
                                (
                                    e.from.clone(),
                                    redacted.get(e.to.clone()).unwrap_or_default(),
                                )
                            });
                            if self.edits.is_empty()
                                || !write_edited_json_string(
                                    raw_contents(text, &tokens[v]),
                                    edits,
                                    &mut self.encoded,
                                )
                            {
                                write_json_string(redacted, &mut self.encoded);
                            }
                            Content::Redacted(start..self.encoded.len())
                        } else {
                            Content::Same
                        };
                        if !matches!(content, Content::Same) {
                            rewrite = true;
                        }
                        self.content.push((v, content));
                    } else if kind == Kind::String
                        && !tokens[v].canonical
                        && !self.tape.separators()
                    {
                        excused += 1;
                    }
                } else {
                    self.findings.push(walk.finding(
                        &self.segs,
                        Rule::ContentField,
                        "content field is not allowed at standard level".into(),
                    ));
                    stripped += 1;
                    rewrite = true;
                }
            } else {
                self.findings.push(walk.finding(
                    &self.segs,
                    Rule::UnknownField,
                    "field is not on the standard allowlist".into(),
                ));
                stripped += 1;
                rewrite = true;
            }
        }
        self.segs.clear();
        let mut c = verify::Checked::default();
        walk.check_required(fields, seen, &[], &mut self.findings, &mut c);
        if c.violated {
            violated_any = true;
        }
        let judged = |verdict, stripped| Judgement {
            verdict,
            format: Some(format),
            stripped,
            has_content,
        };
        if violated_any && (policy.standard.on_violation == OnViolation::DropRecord || c.violated) {
            return judged(Verdict::Dropped, 0);
        }
        // SECURITY: verbatim only when every byte is canonical too
        // (`record::canonical`): whitespace, number spellings and escapes
        // are no channel.
        let canonical = self.tape.ws_canonical() && self.tape.noncanonical() == excused;
        if !rewrite && canonical {
            return judged(Verdict::Verbatim, 0);
        }
        if rebuild {
            let extras = Extras {
                content: &self.content,
                encoded: &self.encoded,
                violated: &self.violated,
                redaction: &self.redaction,
            };
            rebuild_flat(policy, &walk, fields, level, &extras, &mut self.out);
        }
        judged(Verdict::Rewritten, stripped)
    }
}

impl crate::evidence::Judged for Gate {
    fn evidence_record(&self) -> Option<&crate::evidence::Record> {
        Gate::evidence_record(self)
    }

    fn tape(&self) -> &Tape {
        Gate::tape(self)
    }
}

/// What the rebuild writes besides verified raw bytes.
struct Extras<'a> {
    content: &'a [(usize, Content)],
    /// [`Gate::encoded`].
    encoded: &'a [u8],
    violated: &'a [usize],
    redaction: &'a SinkRedaction,
}

/// Write `{...}` holding only what the sink may receive.
fn rebuild_flat(
    policy: &Policy,
    walk: &Walk<'_>,
    fields: &crate::policy::FieldSet,
    level: Level,
    extras: &Extras<'_>,
    out: &mut Vec<u8>,
) {
    let tokens = walk.tape.tokens();
    out.push(b'{');
    let mut first = true;
    for (k, v) in walk.tape.members(0) {
        let name = string_value(walk.text, &tokens[k]);
        let kind = tokens[v].kind;
        // What goes out for this member, decided before anything is written
        // so that values go straight into `out`.
        let value = if let Some((_, rule)) = fields.lookup(&name) {
            // The judgement already found which fields broke their rule.
            if extras.violated.contains(&v) {
                continue;
            }
            match (&extras.redaction.key, kind) {
                (Some(key), Kind::String)
                    if extras.redaction.pseudonymize.iter().any(|p| *p == name) =>
                {
                    Value::Pseudonym(key)
                }
                _ => Value::Projected(rule),
            }
        } else if level == Level::Full && policy.is_content_field(&name) {
            if kind != Kind::String && kind != Kind::Null {
                continue;
            }
            match extras.content.iter().find(|(t, _)| *t == v).map(|(_, c)| c) {
                Some(Content::Redacted(range)) => {
                    Value::Encoded(extras.encoded.get(range.clone()).unwrap_or(b"null"))
                }
                // SECURITY: a `drop` rule matched: the value is replaced by null.
                Some(Content::Dropped) => Value::Null,
                Some(Content::Same) | None => Value::Raw,
            }
        } else {
            continue;
        };
        if !first {
            out.push(b',');
        }
        first = false;
        canonical::write_string(walk.text, &tokens[k], out);
        out.push(b':');
        match value {
            Value::Pseudonym(key) => {
                let id = string_value(walk.text, &tokens[v]);
                let prefixes = &policy.redact().pseudonym_prefixes;
                write_json_string(&crate::redact::pseudonymize(key, &id, prefixes), out);
            }
            Value::Projected(rule) => walk.project(rule, v, out),
            Value::Encoded(json) => out.extend_from_slice(json),
            Value::Null => out.extend_from_slice(b"null"),
            // Content as written, escapes and all, unless the line holds a
            // raw U+2028/U+2029, which output always escapes.
            Value::Raw if walk.tape.separators() => {
                canonical::write_scalar(walk.text, &tokens[v], out)
            }
            Value::Raw => out.extend_from_slice(raw(walk.text, &tokens[v]).as_bytes()),
        }
    }
    out.push(b'}');
}

/// How [`rebuild_flat`] writes one kept member's value.
enum Value<'a> {
    /// A keyed pseudonym of the string.
    Pseudonym(&'a crate::redact::RedactKey),
    /// The allowlisted projection of the value.
    Projected(&'a crate::policy::FieldRule),
    /// Redacted content, a JSON string literal.
    Encoded(&'a [u8]),
    /// `null`.
    Null,
    /// The verified raw bytes.
    Raw,
}

fn malformed_finding(line: u64, rule: Rule, field: Option<String>, message: String) -> Finding {
    Finding {
        line,
        kind: FindingKind::Malformed,
        rule,
        field,
        message,
    }
}

/// A finding for a malformed line. SECURITY: offsets and fixed text only;
/// a duplicate key's name is shown escaped and cut, as docs/reference.md allows.
fn describe_malformed(line: u64, m: &Malformed, tape: &Tape, bytes: &[u8]) -> Finding {
    match *m {
        Malformed::InvalidUtf8 { offset } => malformed_finding(
            line,
            m.rule(),
            None,
            format!("line is not valid UTF-8 (byte {})", offset + 1),
        ),
        // A UTF-8 byte order mark is not JSON whitespace; editors on some
        // systems write one at the start of a file. Say so rather than
        // leave "expected a value at byte 1" to puzzle over. The line is
        // still malformed: nothing is forwarded on a guess.
        Malformed::InvalidJson { offset: 0, .. } if bytes.starts_with(b"\xEF\xBB\xBF") => {
            malformed_finding(
                line,
                m.rule(),
                None,
                "line starts with a UTF-8 byte order mark (BOM), which JSON does not allow; write the file without one".into(),
            )
        }
        Malformed::InvalidJson { offset, expected } => malformed_finding(
            line,
            m.rule(),
            None,
            format!(
                "line is not valid JSON (byte {}: expected {expected})",
                offset + 1
            ),
        ),
        Malformed::NotObject => {
            malformed_finding(line, m.rule(), None, "line is not a JSON object".into())
        }
        Malformed::DuplicateKey { offset, token } => {
            let name = std::str::from_utf8(bytes)
                .ok()
                .and_then(|text| {
                    tape.tokens()
                        .get(token)
                        .map(|t| string_value(text, t).into_owned())
                })
                .map(|k| escape_key(&k));
            malformed_finding(
                line,
                m.rule(),
                name,
                format!(
                    "key appears twice in one object, compared after unescaping (byte {})",
                    offset + 1
                ),
            )
        }
        Malformed::TooDeep { offset } => malformed_finding(
            line,
            m.rule(),
            None,
            format!(
                "nesting is deeper than {} levels (byte {})",
                crate::record::tape::MAX_DEPTH,
                offset + 1
            ),
        ),
    }
}
