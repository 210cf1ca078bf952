//! From policy text to an immutable [`Policy`], reporting every error at once.
//!
//! Steps: parse each file (syntax errors stop that file only), list every
//! unknown key (with hints), deserialize the typed mirror, merge the files
//! (a key set in two files is an error naming both), fill what is absent
//! from the built-in defaults, then validate and build a [`Draft`].
//!
//! A draft is not a policy: [`super::Policy::from_files`] turns it into
//! one after the IO step (keyword lists, keys, canonical paths). This step
//! does no IO.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use jiff::{SignedDuration, Timestamp};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use toml::Spanned;
use toml::de::DeTable;

use super::defaults::BUILTIN_DEFAULTS;
use super::error::{PolicyError, PolicyErrors};
use super::load::PolicyFile;
use super::raw::*;
use super::rule::{FieldRule, FieldSet, ValueType};
use super::schema::{did_you_mean, unknown_keys};
use super::*;

/// Upper bound of `full.max_window`: 31 days.
pub const MAX_WINDOW_CAP: SignedDuration = SignedDuration::from_hours(31 * 24);
/// Upper bound of `server.flush_interval`.
pub const FLUSH_INTERVAL_CAP: SignedDuration = SignedDuration::from_hours(24);
/// Upper bound of `limits.max_line_bytes`: 1 GiB.
pub const MAX_LINE_BYTES_CAP: i64 = 1 << 30;
/// Upper bound of `server.max_body_bytes`: 1 GiB.
pub const MAX_BODY_BYTES_CAP: i64 = 1 << 30;
/// Upper bound of `server.queue_records`.
pub const QUEUE_RECORDS_CAP: i64 = 100_000_000;
/// Upper bound of `server.queue_bytes`: 64 GiB.
pub const QUEUE_BYTES_CAP: i64 = 64 << 30;

/// A place in a policy file, kept for errors found after compile (in the
/// IO step: two outputs that are one file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    /// The file.
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl Loc {
    /// An error at this place.
    pub fn error(&self, message: impl Into<String>) -> PolicyError {
        PolicyError {
            file: self.file.clone(),
            line: self.line,
            column: self.column,
            message: message.into(),
            hint: None,
        }
    }
}

/// A compiled policy before its IO step: everything a [`Policy`] holds but
/// its redaction and the hashes of the files it refers to. Only
/// [`Draft::finish`] (called by [`Policy::from_files`]) makes a `Policy`.
#[derive(Debug)]
pub struct Draft {
    pub(super) source: PathBuf,
    pub(super) files: Vec<PathBuf>,
    pub(super) limits: Limits,
    pub(super) full: FullRules,
    pub(super) standard: StandardRules,
    pub(super) sinks: Vec<Sink>,
    pub(super) windows: Vec<Window>,
    pub(super) audit: Option<AuditSettings>,
    pub(super) redact: RedactSettings,
    pub(super) server: ServerSettings,
    pub(super) sources: Vec<FileSource>,
    pub(super) fleet: FleetSettings,
    pub(super) origins: Vec<KeyOrigin>,
    /// Where each sink's `output` is written (same order as `sinks`).
    pub(super) sink_at: Vec<Option<Loc>>,
    /// Where each source is written (same order as `sources`).
    pub(super) source_at: Vec<Loc>,
    /// Where `audit.path` is written.
    pub(super) audit_at: Option<Loc>,
}

impl Draft {
    /// The sink called `name`.
    pub(super) fn sink(&self, name: &str) -> Option<&Sink> {
        self.sinks.iter().find(|s| s.name == name)
    }

    /// The policy, with its redaction and referenced files.
    pub(super) fn finish(
        self,
        files: &[PolicyFile],
        redaction: super::redaction::Redaction,
        referenced: Vec<Referenced>,
    ) -> Policy {
        Policy {
            sha256: policy_digest(files, &referenced),
            source: self.source,
            files: self.files,
            limits: self.limits,
            full: self.full,
            standard: self.standard,
            sinks: self.sinks,
            windows: self.windows,
            audit: self.audit,
            redact: self.redact,
            redaction,
            server: self.server,
            sources: self.sources,
            fleet: self.fleet,
            referenced,
            origins: self.origins,
            ignored: Vec::new(),
        }
    }
}

const DEFAULTS_NAME: &str = "<built-in defaults>";

/// A value and the file it came from.
struct At<T> {
    file: usize,
    v: T,
}

type RawFields = BTreeMap<Spanned<String>, Spanned<RawField>>;

/// The policy's files merged key by key.
#[derive(Default)]
struct Merged {
    version: Option<At<Spanned<i64>>>,
    audit_path: Option<At<Spanned<String>>>,
    audit_key_file: Option<At<Spanned<String>>>,
    audit_lock_timeout: Option<At<Spanned<String>>>,
    audit_anchor: Option<At<Spanned<String>>>,
    max_line_bytes: Option<At<Spanned<i64>>>,
    content_fields: Option<At<Vec<Spanned<String>>>>,
    content_attributes: Option<At<Vec<Spanned<String>>>>,
    max_window: Option<At<Spanned<String>>>,
    on_violation: Option<At<Spanned<String>>>,
    detectors: Option<At<Vec<Spanned<String>>>>,
    fields: Option<At<RawFields>>,
    span_names: Option<At<Vec<Spanned<String>>>>,
    span_attributes: Option<At<RawFields>>,
    resource_attributes: Option<At<RawFields>>,
    scope_attributes: Option<At<RawFields>>,
    event_attributes: Option<At<RawFields>>,
    link_attributes: Option<At<RawFields>>,
    log_attributes: Option<At<RawFields>>,
    otlp_rules: [Option<At<Spanned<RawField>>>; 5],
    trace_state: Option<At<RawFields>>,
    otlp_limits: [Option<At<Spanned<i64>>>; 7],
    evidence_fields: Option<At<RawFields>>,
    sinks: Vec<At<Spanned<RawSink>>>,
    sources: Vec<At<Spanned<RawSource>>>,
    windows: Vec<At<Spanned<RawWindow>>>,
    redact_builtin: Option<At<Vec<Spanned<String>>>>,
    redact_key_file: Option<At<Spanned<String>>>,
    allow_unredacted_sinks: Option<At<Vec<Spanned<String>>>>,
    pseudonym_prefixes: Option<At<Vec<Spanned<String>>>>,
    patterns: Vec<At<Spanned<RawPattern>>>,
    keywords: Vec<At<Spanned<RawKeywords>>>,
    /// Per detector, its context and the file that set it (user files
    /// first, then the defaults fill in detectors they left out).
    context: BTreeMap<String, At<Spanned<RawContext>>>,
    listen: Option<At<Spanned<String>>>,
    max_body_bytes: Option<At<Spanned<i64>>>,
    queue_records: Option<At<Spanned<i64>>>,
    queue_bytes: Option<At<Spanned<i64>>>,
    flush_interval: Option<At<Spanned<String>>>,
    budget_store: Option<At<Spanned<String>>>,
    store_password_file: Option<At<Spanned<String>>>,
    replicas: Option<At<Spanned<i64>>>,
    replica_id: Option<At<Spanned<String>>>,
    store_timeout: Option<At<Spanned<String>>>,
    max_connections: Option<At<Spanned<i64>>>,
    max_spans: Option<At<Spanned<i64>>>,
    max_log_records: Option<At<Spanned<i64>>>,
    max_events: Option<At<Spanned<i64>>>,
    max_links: Option<At<Spanned<i64>>>,
    max_attributes: Option<At<Spanned<i64>>>,
    max_nesting: Option<At<Spanned<i64>>>,
    decode_memory_bytes: Option<At<Spanned<i64>>>,
    header_read_timeout: Option<At<Spanned<String>>>,
    body_read_timeout: Option<At<Spanned<String>>>,
    idle_timeout: Option<At<Spanned<String>>>,
    grpc_listen: Option<At<Spanned<String>>>,
    tls_cert_file: Option<At<Spanned<String>>>,
    tls_key_file: Option<At<Spanned<String>>>,
    tls_client_ca_file: Option<At<Spanned<String>>>,
    bearer_token_file: Option<At<Spanned<String>>>,
}

/// Where errors go, with the files to resolve spans against.
struct Ctx<'f> {
    files: &'f [PolicyFile],
    defaults: PolicyFile,
    errors: Vec<PolicyError>,
    /// Whether each file is in the policy folder's `windows/`.
    window_file: Vec<bool>,
    /// Keys set by the user's files, and by which.
    origins: Vec<(String, usize)>,
}

impl Ctx<'_> {
    fn file(&self, i: usize) -> &PolicyFile {
        self.files.get(i).unwrap_or(&self.defaults)
    }

    fn err(&mut self, file: usize, span: std::ops::Range<usize>, msg: impl Into<String>) {
        let f = self.file(file);
        let e = PolicyError::at(&f.path, &f.text, span.start, msg);
        self.errors.push(e);
    }

    fn err_hint(
        &mut self,
        file: usize,
        span: std::ops::Range<usize>,
        msg: impl Into<String>,
        hint: impl Into<String>,
    ) {
        let f = self.file(file);
        let e = PolicyError::at(&f.path, &f.text, span.start, msg).with_hint(hint);
        self.errors.push(e);
    }

    fn loc(&self, file: usize, span: std::ops::Range<usize>) -> Loc {
        let f = self.file(file);
        let (line, column) = super::error::line_col(&f.text, span.start);
        Loc {
            file: f.path.clone(),
            line,
            column,
        }
    }

    fn is_window_file(&self, file: usize) -> bool {
        self.window_file.get(file).copied().unwrap_or(false)
    }

    fn whole(&mut self, msg: impl Into<String>) {
        let path = self
            .files
            .first()
            .map_or_else(|| PathBuf::from(DEFAULTS_NAME), |f| f.path.clone());
        self.errors.push(PolicyError::whole(&path, msg));
    }

    /// Resolve a path named in file `file` relative to that file's folder.
    fn resolve(&self, file: usize, p: &str) -> PathBuf {
        let p = Path::new(p);
        if p.is_absolute() {
            return p.to_path_buf();
        }
        match self.file(file).path.parent() {
            Some(dir) => dir.join(p),
            None => p.to_path_buf(),
        }
    }
}

/// Compile policy files (as read by [`super::load::read_policy_files`]).
///
/// `source` is the path the user gave, kept for display and audit.
pub(super) fn compile(source: &Path, files: &[PolicyFile]) -> Result<Draft, PolicyErrors> {
    let windows_dir = source.join("windows");
    let mut ctx = Ctx {
        files,
        defaults: PolicyFile {
            path: PathBuf::from(DEFAULTS_NAME),
            text: BUILTIN_DEFAULTS.to_string(),
        },
        errors: Vec::new(),
        window_file: files
            .iter()
            .map(|f| f.path.parent() == Some(windows_dir.as_path()))
            .collect(),
        origins: Vec::new(),
    };
    let mut merged = Merged::default();
    for (i, f) in files.iter().enumerate() {
        if let Some(raw) = parse_file(&mut ctx, i, &f.text) {
            merge(&mut ctx, &mut merged, i, raw, true);
        }
    }
    let defaults_index = files.len();
    let defaults_text = ctx.defaults.text.clone();
    match parse_file(&mut ctx, defaults_index, &defaults_text) {
        Some(raw) => merge(&mut ctx, &mut merged, defaults_index, raw, false),
        None => ctx.whole("the built-in defaults do not parse (a bug in tracegate)"),
    }
    let policy = build(&mut ctx, source, merged);
    if ctx.errors.is_empty() {
        Ok(policy)
    } else {
        // In file order, then by position, whatever order the checks ran in.
        let order = |p: &Path| files.iter().position(|f| f.path == p).unwrap_or(usize::MAX);
        ctx.errors
            .sort_by_key(|e| (order(&e.file), e.line, e.column));
        Err(PolicyErrors(ctx.errors))
    }
}

fn parse_file(ctx: &mut Ctx<'_>, file: usize, text: &str) -> Option<RawPolicy> {
    let root = match DeTable::parse(text) {
        Ok(r) => r,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            let msg = format!("invalid TOML: {}", first_line(e.message()));
            ctx.err(file, span, msg);
            return None;
        }
    };
    if ctx.is_window_file(file) {
        // SECURITY: a file in `windows/` opens windows and nothing else;
        // redaction, sinks, limits and allowlists come only from the
        // top-level policy, so whoever may write a window file cannot
        // weaken them.
        let mut other = false;
        for (key, _) in root.get_ref() {
            if key.get_ref() != "window" {
                ctx.err_hint(
                    file,
                    key.span(),
                    format!(
                        "a file in windows/ may hold only [[window]] tables, not key `{}`",
                        crate::finding::escape_key(key.get_ref())
                    ),
                    "move this setting to the top-level policy",
                );
                other = true;
            }
        }
        if other {
            return None;
        }
    }
    let unknown = unknown_keys(&root);
    if !unknown.is_empty() {
        for u in unknown {
            match u.hint {
                Some(h) => ctx.err_hint(file, u.span, u.message, h),
                None => ctx.err(file, u.span, u.message),
            }
        }
        return None;
    }
    match RawPolicy::deserialize(toml::de::Deserializer::from(root)) {
        Ok(raw) => Some(raw),
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            ctx.err(file, span, first_line(e.message()).to_string());
            None
        }
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s).trim()
}

/// Put `new` into `slot`, or report that the key is set twice. The defaults
/// layer (`report = false`) only fills what is still empty.
fn put<T>(
    ctx: &mut Ctx<'_>,
    slot: &mut Option<At<T>>,
    file: usize,
    new: Option<T>,
    key: &str,
    span: impl Fn(&T) -> std::ops::Range<usize>,
    report: bool,
) {
    let Some(v) = new else { return };
    match slot {
        None => {
            if report {
                ctx.origins.push((key.to_string(), file));
            }
            *slot = Some(At { file, v })
        }
        Some(old) if report => {
            let other = ctx.file(old.file).path.display().to_string();
            let s = span(&v);
            ctx.err_hint(
                file,
                s,
                format!("key `{key}` is defined twice"),
                format!("it is also set in {other}; keep one"),
            );
        }
        Some(_) => {}
    }
}

fn merge(ctx: &mut Ctx<'_>, m: &mut Merged, file: usize, raw: RawPolicy, user: bool) {
    let sp = |s: &Spanned<String>| s.span();
    let spi = |s: &Spanned<i64>| s.span();
    let spv = |v: &Vec<Spanned<String>>| v.first().map_or(0..0, |s| s.span());
    let spm = |v: &RawFields| v.keys().next().map_or(0..0, |s| s.span());
    put(ctx, &mut m.version, file, raw.version, "version", spi, user);
    if let Some(a) = raw.audit {
        let a = a.into_inner();
        put(ctx, &mut m.audit_path, file, a.path, "audit.path", sp, user);
        put(
            ctx,
            &mut m.audit_key_file,
            file,
            a.key_file,
            "audit.key_file",
            sp,
            user,
        );
        put(
            ctx,
            &mut m.audit_lock_timeout,
            file,
            a.lock_timeout,
            "audit.lock_timeout",
            sp,
            user,
        );
        put(
            ctx,
            &mut m.audit_anchor,
            file,
            a.anchor,
            "audit.anchor",
            sp,
            user,
        );
    }
    if let Some(sv) = raw.server {
        let sv = sv.into_inner();
        put(
            ctx,
            &mut m.listen,
            file,
            sv.listen,
            "server.listen",
            sp,
            user,
        );
        put(
            ctx,
            &mut m.max_body_bytes,
            file,
            sv.max_body_bytes,
            "server.max_body_bytes",
            spi,
            user,
        );
        put(
            ctx,
            &mut m.queue_records,
            file,
            sv.queue_records,
            "server.queue_records",
            spi,
            user,
        );
        put(
            ctx,
            &mut m.queue_bytes,
            file,
            sv.queue_bytes,
            "server.queue_bytes",
            spi,
            user,
        );
        put(
            ctx,
            &mut m.flush_interval,
            file,
            sv.flush_interval,
            "server.flush_interval",
            sp,
            user,
        );
        put(
            ctx,
            &mut m.max_connections,
            file,
            sv.max_connections,
            "server.max_connections",
            spi,
            user,
        );
        put(
            ctx,
            &mut m.max_spans,
            file,
            sv.max_spans,
            "server.max_spans",
            spi,
            user,
        );
        put(
            ctx,
            &mut m.max_log_records,
            file,
            sv.max_log_records,
            "server.max_log_records",
            spi,
            user,
        );
        put(
            ctx,
            &mut m.max_events,
            file,
            sv.max_events,
            "server.max_events",
            spi,
            user,
        );
        put(
            ctx,
            &mut m.max_links,
            file,
            sv.max_links,
            "server.max_links",
            spi,
            user,
        );
        put(
            ctx,
            &mut m.max_attributes,
            file,
            sv.max_attributes,
            "server.max_attributes",
            spi,
            user,
        );
        put(
            ctx,
            &mut m.max_nesting,
            file,
            sv.max_nesting,
            "server.max_nesting",
            spi,
            user,
        );
        put(
            ctx,
            &mut m.decode_memory_bytes,
            file,
            sv.decode_memory_bytes,
            "server.decode_memory_bytes",
            spi,
            user,
        );
        put(
            ctx,
            &mut m.header_read_timeout,
            file,
            sv.header_read_timeout,
            "server.header_read_timeout",
            sp,
            user,
        );
        put(
            ctx,
            &mut m.body_read_timeout,
            file,
            sv.body_read_timeout,
            "server.body_read_timeout",
            sp,
            user,
        );
        put(
            ctx,
            &mut m.idle_timeout,
            file,
            sv.idle_timeout,
            "server.idle_timeout",
            sp,
            user,
        );
        for (slot, v, key) in [
            (&mut m.grpc_listen, sv.grpc_listen, "server.grpc_listen"),
            (
                &mut m.tls_cert_file,
                sv.tls_cert_file,
                "server.tls_cert_file",
            ),
            (&mut m.tls_key_file, sv.tls_key_file, "server.tls_key_file"),
            (
                &mut m.tls_client_ca_file,
                sv.tls_client_ca_file,
                "server.tls_client_ca_file",
            ),
            (
                &mut m.bearer_token_file,
                sv.bearer_token_file,
                "server.bearer_token_file",
            ),
        ] {
            put(ctx, slot, file, v, key, sp, user);
        }
    }
    if let Some(f) = raw.fleet {
        let f = f.into_inner();
        put(
            ctx,
            &mut m.budget_store,
            file,
            f.budget_store,
            "fleet.budget_store",
            sp,
            user,
        );
        put(
            ctx,
            &mut m.store_password_file,
            file,
            f.password_file,
            "fleet.password_file",
            sp,
            user,
        );
        put(
            ctx,
            &mut m.replicas,
            file,
            f.replicas,
            "fleet.replicas",
            spi,
            user,
        );
        put(
            ctx,
            &mut m.replica_id,
            file,
            f.replica_id,
            "fleet.replica_id",
            sp,
            user,
        );
        put(
            ctx,
            &mut m.store_timeout,
            file,
            f.store_timeout,
            "fleet.store_timeout",
            sp,
            user,
        );
    }
    if let Some(l) = raw.limits {
        let l = l.into_inner();
        put(
            ctx,
            &mut m.max_line_bytes,
            file,
            l.max_line_bytes,
            "limits.max_line_bytes",
            spi,
            user,
        );
    }
    if let Some(f) = raw.full {
        let f = f.into_inner();
        put(
            ctx,
            &mut m.content_fields,
            file,
            f.content_fields,
            "full.content_fields",
            spv,
            user,
        );
        put(
            ctx,
            &mut m.content_attributes,
            file,
            f.content_attributes,
            "full.content_attributes",
            spv,
            user,
        );
        put(
            ctx,
            &mut m.max_window,
            file,
            f.max_window,
            "full.max_window",
            sp,
            user,
        );
    }
    if let Some(s) = raw.standard {
        let s = s.into_inner();
        put(
            ctx,
            &mut m.on_violation,
            file,
            s.on_violation,
            "standard.on_violation",
            sp,
            user,
        );
        put(
            ctx,
            &mut m.detectors,
            file,
            s.detectors,
            "standard.detectors",
            spv,
            user,
        );
        put(
            ctx,
            &mut m.fields,
            file,
            s.fields,
            "standard.fields",
            spm,
            user,
        );
        if let Some(o) = s.otlp {
            put(
                ctx,
                &mut m.span_names,
                file,
                o.span_names,
                "standard.otlp.span_names",
                spv,
                user,
            );
            put(
                ctx,
                &mut m.span_attributes,
                file,
                o.span_attributes,
                "standard.otlp.span_attributes",
                spm,
                user,
            );
            put(
                ctx,
                &mut m.resource_attributes,
                file,
                o.resource_attributes,
                "standard.otlp.resource_attributes",
                spm,
                user,
            );
            put(
                ctx,
                &mut m.scope_attributes,
                file,
                o.scope_attributes,
                "standard.otlp.scope_attributes",
                spm,
                user,
            );
            put(
                ctx,
                &mut m.event_attributes,
                file,
                o.event_attributes,
                "standard.otlp.event_attributes",
                spm,
                user,
            );
            put(
                ctx,
                &mut m.link_attributes,
                file,
                o.link_attributes,
                "standard.otlp.link_attributes",
                spm,
                user,
            );
            put(
                ctx,
                &mut m.log_attributes,
                file,
                o.log_attributes,
                "standard.otlp.log_attributes",
                spm,
                user,
            );
            let spr = |v: &Spanned<RawField>| v.span();
            let rules = [
                o.schema_url,
                o.scope_name,
                o.scope_version,
                o.event_name,
                o.span_name,
            ];
            for ((slot, new), key) in m.otlp_rules.iter_mut().zip(rules).zip(OTLP_RULE_KEYS) {
                put(ctx, slot, file, new, key, spr, user);
            }
            put(
                ctx,
                &mut m.trace_state,
                file,
                o.trace_state,
                "standard.otlp.trace_state",
                spm,
                user,
            );
            let limits = [
                o.max_resources,
                o.max_scopes,
                o.max_spans,
                o.max_events,
                o.max_links,
                o.max_log_records,
                o.max_attributes,
            ];
            for ((slot, new), key) in m.otlp_limits.iter_mut().zip(limits).zip(OTLP_LIMIT_KEYS) {
                put(ctx, slot, file, new, key, spi, user);
            }
        }
        if let Some(e) = s.evidence {
            put(
                ctx,
                &mut m.evidence_fields,
                file,
                e.fields,
                "standard.evidence.fields",
                spm,
                user,
            );
        }
    }
    if let Some(r) = raw.redact {
        let mut r = r.into_inner();
        for (name, c) in r.context.take().unwrap_or_default() {
            match m.context.get(&name) {
                None => {
                    if user {
                        ctx.origins.push((format!("redact.context.{name}"), file));
                    }
                    m.context.insert(name, At { file, v: c });
                }
                Some(old) if user => {
                    let other = ctx.file(old.file).path.display().to_string();
                    ctx.err_hint(
                        file,
                        c.span(),
                        format!(
                            "`[redact.context.{}]` is defined twice",
                            crate::finding::escape_key(&name)
                        ),
                        format!("it is also set in {other}; keep one"),
                    );
                }
                Some(_) => {}
            }
        }
        put(
            ctx,
            &mut m.redact_builtin,
            file,
            r.builtin,
            "redact.builtin",
            spv,
            user,
        );
        put(
            ctx,
            &mut m.redact_key_file,
            file,
            r.key_file,
            "redact.key_file",
            sp,
            user,
        );
        put(
            ctx,
            &mut m.allow_unredacted_sinks,
            file,
            r.allow_unredacted_sinks,
            "redact.allow_unredacted_sinks",
            spv,
            user,
        );
        put(
            ctx,
            &mut m.pseudonym_prefixes,
            file,
            r.pseudonym_prefixes,
            "redact.pseudonym_prefixes",
            spv,
            user,
        );
        if user {
            let name = |n: &Option<Spanned<String>>| {
                n.as_ref().map_or("?".to_string(), |n| n.get_ref().clone())
            };
            for p in &r.pattern {
                let key = format!("[[redact.pattern]] {}", name(&p.get_ref().name));
                ctx.origins.push((key, file));
            }
            for k in &r.keywords {
                let key = format!("[[redact.keywords]] {}", name(&k.get_ref().name));
                ctx.origins.push((key, file));
            }
            m.patterns
                .extend(r.pattern.into_iter().map(|v| At { file, v }));
            m.keywords
                .extend(r.keywords.into_iter().map(|v| At { file, v }));
        }
    }
    // Sinks and windows are never defaulted: a policy without sinks has none.
    if user {
        let name = |n: &Option<Spanned<String>>| {
            n.as_ref().map_or("?".to_string(), |n| n.get_ref().clone())
        };
        for s in &raw.sink {
            ctx.origins
                .push((format!("[[sink]] {}", name(&s.get_ref().name)), file));
        }
        for w in &raw.window {
            ctx.origins
                .push((format!("[[window]] {}", name(&w.get_ref().id)), file));
        }
        for s in &raw.source {
            ctx.origins
                .push((format!("[[source]] {}", name(&s.get_ref().path)), file));
        }
        m.sinks.extend(raw.sink.into_iter().map(|v| At { file, v }));
        m.sources
            .extend(raw.source.into_iter().map(|v| At { file, v }));
        m.windows
            .extend(raw.window.into_iter().map(|v| At { file, v }));
    }
}

fn strings(v: Option<At<Vec<Spanned<String>>>>) -> Vec<String> {
    v.map(|a| a.v.into_iter().map(Spanned::into_inner).collect())
        .unwrap_or_default()
}

fn build(ctx: &mut Ctx<'_>, source: &Path, m: Merged) -> Draft {
    let server = server_settings(ctx, &m);
    let (sources, source_at) = sources(ctx, &m);
    let fleet = fleet_settings(ctx, &m);
    if let Some(v) = &m.version
        && *v.v.get_ref() != 1
    {
        ctx.err_hint(
            v.file,
            v.v.span(),
            "unsupported policy version",
            "this tracegate reads `version = 1`",
        );
    }
    let max_line_bytes = match &m.max_line_bytes {
        Some(At { file, v }) if !(1..=MAX_LINE_BYTES_CAP).contains(v.get_ref()) => {
            ctx.err(
                *file,
                v.span(),
                format!("`max_line_bytes` must be between 1 and {MAX_LINE_BYTES_CAP}"),
            );
            DEFAULT_MAX_LINE_BYTES
        }
        Some(At { v, .. }) => *v.get_ref() as usize,
        None => DEFAULT_MAX_LINE_BYTES,
    };
    let max_window = m
        .max_window
        .as_ref()
        .and_then(|a| capped_duration(ctx, a.file, &a.v, "max_window", MAX_WINDOW_CAP))
        .unwrap_or(SignedDuration::from_hours(24));
    let on_violation = match &m.on_violation {
        Some(At { file, v }) => match v.get_ref().as_str() {
            "drop_record" => OnViolation::DropRecord,
            "drop_field" => OnViolation::DropField,
            other => {
                let hint = did_you_mean(other, &["drop_record", "drop_field"])
                    .map_or("use `drop_record` or `drop_field`".to_string(), |k| {
                        format!("did you mean `{k}`?")
                    });
                ctx.err_hint(
                    *file,
                    v.span(),
                    format!("unknown `on_violation` value `{other}`"),
                    hint,
                );
                OnViolation::DropRecord
            }
        },
        None => OnViolation::DropRecord,
    };
    let fields = field_set(ctx, m.fields);
    let content_fields = strings(m.content_fields);
    for name in &content_fields {
        if fields.lookup(name).is_some() {
            ctx.whole(format!(
                "`{name}` is both a content field and on the standard allowlist; content is never standard"
            ));
        }
    }
    let otlp = OtlpRules {
        span_names: strings(m.span_names),
        span_attributes: field_set(ctx, m.span_attributes),
        resource_attributes: field_set(ctx, m.resource_attributes),
        scope_attributes: field_set(ctx, m.scope_attributes),
        event_attributes: field_set(ctx, m.event_attributes),
        link_attributes: field_set(ctx, m.link_attributes),
        log_attributes: field_set(ctx, m.log_attributes),
        structure: otlp_structure(ctx, m.otlp_rules),
        trace_state: field_set(ctx, m.trace_state),
        limits: otlp_limits(ctx, m.otlp_limits),
    };
    let content_attributes = strings(m.content_attributes);
    // SECURITY: an attribute that is content at full level is never
    // standard; allowlisting it would pass content to every sink.
    for (table, set) in [
        ("span_attributes", &otlp.span_attributes),
        ("resource_attributes", &otlp.resource_attributes),
        ("scope_attributes", &otlp.scope_attributes),
        ("event_attributes", &otlp.event_attributes),
        ("link_attributes", &otlp.link_attributes),
        ("log_attributes", &otlp.log_attributes),
    ] {
        for (name, _) in set.iter() {
            if crate::gate::otlp::content::is_content_attribute(&content_attributes, name) {
                ctx.whole(format!(
                    "`{}` in [standard.otlp.{table}] is a content attribute (`full.content_attributes`); content is never standard",
                    crate::finding::escape_key(name)
                ));
            }
        }
    }
    let evidence = field_set(ctx, m.evidence_fields);
    let detectors = standard_detectors(ctx, m.detectors);
    let audit_at = m.audit_path.as_ref().map(|a| ctx.loc(a.file, a.v.span()));
    let audit = audit_settings(
        ctx,
        m.audit_path,
        m.audit_key_file,
        m.audit_lock_timeout,
        m.audit_anchor,
    );
    // SECURITY: a `pseudonymize` name must be a field some format
    // allowlists (or an OTLP id), or the sink silently pseudonymizes nothing.
    let pseudonymizable = |name: &str| {
        fields.lookup(name).is_some()
            || evidence.lookup(name).is_some()
            || matches!(name, "traceId" | "spanId" | "parentSpanId")
            || [
                &otlp.span_attributes,
                &otlp.resource_attributes,
                &otlp.scope_attributes,
                &otlp.event_attributes,
                &otlp.link_attributes,
                &otlp.log_attributes,
            ]
            .iter()
            .any(|set| set.lookup(name).is_some())
    };
    let (sinks, sink_at) = sinks(ctx, m.sinks, &pseudonymizable);
    let windows = windows(ctx, m.windows, &sinks, max_window);
    if audit.is_none() {
        if let Some(s) = sinks.iter().find(|s| s.full_allowed) {
            ctx.whole(format!(
                "sink `{}` is full_allowed but the policy has no [audit] path; full capture must be audited",
                s.name
            ));
        } else if !windows.is_empty() {
            ctx.whole("the policy has windows but no [audit] path; full capture must be audited");
        }
    }
    let mut context = Vec::new();
    for (detector, a) in m.context {
        let c = a.v.into_inner();
        let window = match c.window {
            None => None,
            Some(w) => match usize::try_from(*w.get_ref()) {
                Ok(v) if (1..=crate::redact::MAX_CONTEXT_WINDOW).contains(&v) => Some(v),
                _ => {
                    ctx.err(
                        a.file,
                        w.span(),
                        format!(
                            "`window` must be 1-{} bytes",
                            crate::redact::MAX_CONTEXT_WINDOW
                        ),
                    );
                    None
                }
            },
        };
        context.push(crate::redact::ContextRule {
            detector,
            words: c.words,
            not_words: c.not_words,
            window,
        });
    }
    let redact = RedactSettings {
        context,
        builtin: strings(m.redact_builtin),
        key_file: m
            .redact_key_file
            .map(|a| ctx.resolve(a.file, a.v.get_ref())),
        allow_unredacted_sinks: strings(m.allow_unredacted_sinks),
        pseudonym_prefixes: strings(m.pseudonym_prefixes),
        patterns: m
            .patterns
            .into_iter()
            .map(|a| {
                let p = a.v.into_inner();
                PatternSetting {
                    name: p.name.map(Spanned::into_inner).unwrap_or_default(),
                    regex: p.regex.map(Spanned::into_inner).unwrap_or_default(),
                    action: p
                        .action
                        .map_or_else(|| "mask".to_string(), Spanned::into_inner),
                }
            })
            .collect(),
        keywords: m
            .keywords
            .into_iter()
            .map(|a| {
                let file = a.file;
                let k = a.v.into_inner();
                KeywordSetting {
                    name: k.name.map(Spanned::into_inner).unwrap_or_default(),
                    words: k.words.unwrap_or_default(),
                    file: k.file.map(|f| ctx.resolve(file, f.get_ref())),
                    case_insensitive: k.case_insensitive.unwrap_or(false),
                    whole_word: k.whole_word.unwrap_or(false),
                    action: k
                        .action
                        .map_or_else(|| "mask".to_string(), Spanned::into_inner),
                }
            })
            .collect(),
    };
    let origins = ctx
        .origins
        .iter()
        .map(|(key, file)| KeyOrigin {
            key: key.clone(),
            file: ctx.file(*file).path.clone(),
        })
        .collect();
    Draft {
        source: source.to_path_buf(),
        files: ctx.files.iter().map(|f| f.path.clone()).collect(),
        limits: Limits { max_line_bytes },
        full: FullRules {
            content_fields,
            content_attributes,
            max_window,
        },
        standard: StandardRules {
            on_violation,
            detectors,
            fields,
            otlp,
            evidence,
        },
        sinks,
        windows,
        audit,
        redact,
        server,
        sources,
        fleet,
        origins,
        sink_at,
        source_at,
        audit_at,
    }
}

/// `[fleet]`: a store URL we can use (no password in it: that belongs in
/// `password_file`, never in a policy file that is hashed, shown and
/// copied), a replica count of at least 1, a replica id fit for an audit
/// entry, a store timeout within reason.
fn fleet_settings(ctx: &mut Ctx<'_>, m: &Merged) -> FleetSettings {
    let d = FleetSettings::default();
    let budget_store = m.budget_store.as_ref().and_then(|At { file, v }| {
        match BudgetStoreUrl::parse(v.get_ref()) {
            Ok(url) => Some(url),
            Err(why) => {
                ctx.err_hint(
                    *file,
                    v.span(),
                    format!("`fleet.budget_store` {why}"),
                    "write it like `redis://10.0.0.5:6379` or `rediss://store.internal:6380`; put a password in `fleet.password_file`",
                );
                None
            }
        }
    });
    let password_file = m
        .store_password_file
        .as_ref()
        .map(|a| ctx.resolve(a.file, a.v.get_ref()));
    if let (Some(a), None) = (&m.store_password_file, &m.budget_store) {
        ctx.err(
            a.file,
            a.v.span(),
            "`fleet.password_file` is set but `fleet.budget_store` is not",
        );
    }
    let replicas = match &m.replicas {
        Some(At { file, v }) if !(1..=100_000).contains(v.get_ref()) => {
            ctx.err(
                *file,
                v.span(),
                "`fleet.replicas` must be between 1 and 100000",
            );
            d.replicas
        }
        Some(At { v, .. }) => u64::try_from(*v.get_ref()).unwrap_or(d.replicas),
        None => d.replicas,
    };
    let replica_id = m.replica_id.as_ref().and_then(|At { file, v }| {
        let id = v.get_ref();
        if is_replica_id(id) {
            Some(id.clone())
        } else {
            ctx.err_hint(
                *file,
                v.span(),
                "`fleet.replica_id` is not a valid replica id",
                "use 1 to 64 of `A-Z a-z 0-9 . _ -`",
            );
            None
        }
    });
    let store_timeout = m
        .store_timeout
        .as_ref()
        .and_then(|a| {
            let t = duration(ctx, a.file, &a.v, "store_timeout")?;
            if t.is_zero() || t > SignedDuration::from_secs(60) {
                ctx.err(
                    a.file,
                    a.v.span(),
                    "`fleet.store_timeout` must be more than 0 and at most 60s",
                );
                return None;
            }
            Some(t.unsigned_abs())
        })
        .unwrap_or(d.store_timeout);
    FleetSettings {
        budget_store,
        password_file,
        replicas,
        replica_id,
        store_timeout,
    }
}

/// The policy keys of the OTLP structural rules, in [`OtlpStructure`] order.
const OTLP_RULE_KEYS: [&str; 5] = [
    "standard.otlp.schema_url",
    "standard.otlp.scope_name",
    "standard.otlp.scope_version",
    "standard.otlp.event_name",
    "standard.otlp.span_name",
];

/// The policy keys of the OTLP count limits, in [`OtlpLimits`] order.
const OTLP_LIMIT_KEYS: [&str; 7] = [
    "standard.otlp.max_resources",
    "standard.otlp.max_scopes",
    "standard.otlp.max_spans",
    "standard.otlp.max_events",
    "standard.otlp.max_links",
    "standard.otlp.max_log_records",
    "standard.otlp.max_attributes",
];

/// `[standard.otlp] schema_url`, `scope_name`, `scope_version`,
/// `event_name`, `span_name`: string rules (the defaults always supply them).
fn otlp_structure(ctx: &mut Ctx<'_>, rules: [Option<At<Spanned<RawField>>>; 5]) -> OtlpStructure {
    let [schema_url, scope_name, scope_version, event_name, span_name] = rules.map(|slot| {
        let at = slot?;
        let span = at.v.span();
        let rule = field_rule(ctx, at.file, at.v)?;
        if rule.ty != ValueType::String {
            ctx.err(
                at.file,
                span,
                "an otlp structural rule must be `type = \"string\"`",
            );
            return None;
        }
        Some(rule)
    });
    let fallback = || FieldRule {
        ty: ValueType::String,
        free_text: false,
        nullable: false,
        pattern: None,
        // SECURITY: a missing rule (only if the defaults were broken)
        // admits nothing but the empty string.
        one_of: Some(Vec::new()),
        min: None,
        max: None,
        max_len: None,
        required: false,
        items: None,
        max_items: None,
        fields: None,
    };
    OtlpStructure {
        schema_url: schema_url.unwrap_or_else(fallback),
        scope_name: scope_name.unwrap_or_else(fallback),
        scope_version: scope_version.unwrap_or_else(fallback),
        event_name: event_name.unwrap_or_else(fallback),
        span_name: span_name.unwrap_or_else(fallback),
    }
}

/// `[standard.otlp] max_*`: each between 1 and 1,000,000.
fn otlp_limits(ctx: &mut Ctx<'_>, limits: [Option<At<Spanned<i64>>>; 7]) -> OtlpLimits {
    let mut n = limits
        .iter()
        .zip(OTLP_LIMIT_KEYS)
        .map(|(slot, key)| match slot {
            Some(At { file, v }) if (1..=1_000_000).contains(v.get_ref()) => *v.get_ref() as usize,
            Some(At { file, v }) => {
                let key = key.rsplit('.').next().unwrap_or(key);
                ctx.err(
                    *file,
                    v.span(),
                    format!("`{key}` must be between 1 and 1000000"),
                );
                1
            }
            // Only if the defaults were broken: as tight as possible.
            None => 1,
        });
    let mut next = || n.next().unwrap_or(1);
    OtlpLimits {
        resources: next(),
        scopes: next(),
        spans: next(),
        events: next(),
        links: next(),
        log_records: next(),
        attributes: next(),
    }
}

/// `[standard] detectors`: names of built-in detectors, each once.
fn standard_detectors(ctx: &mut Ctx<'_>, v: Option<At<Vec<Spanned<String>>>>) -> Vec<String> {
    let Some(At { file, v }) = v else {
        return Vec::new();
    };
    let names = crate::redact::builtin_names();
    let mut out: Vec<String> = Vec::new();
    for name in v {
        if !names.contains(&name.get_ref().as_str()) {
            let hint = did_you_mean(name.get_ref(), names).map_or_else(
                || format!("the built-in detectors are {}", names.join(", ")),
                |k| format!("did you mean `{k}`?"),
            );
            ctx.err_hint(
                file,
                name.span(),
                format!(
                    "unknown detector `{}`",
                    crate::finding::escape_key(name.get_ref())
                ),
                hint,
            );
        } else if out.contains(name.get_ref()) {
            ctx.err(
                file,
                name.span(),
                format!("detector `{}` is listed twice", name.get_ref()),
            );
        } else {
            out.push(name.into_inner());
        }
    }
    out
}

/// `[[source]]`: only `kind = "file"` with a `path` exists.
fn sources(ctx: &mut Ctx<'_>, m: &Merged) -> (Vec<FileSource>, Vec<Loc>) {
    let mut out = Vec::new();
    let mut at = Vec::new();
    for At { file, v } in &m.sources {
        let s = v.get_ref();
        match s.kind.as_ref().map(|k| k.get_ref().as_str()) {
            Some("file") => {}
            Some(other) => {
                let span = s.kind.as_ref().map_or(v.span(), |k| k.span());
                ctx.err_hint(
                    *file,
                    span,
                    format!("unknown [[source]] kind `{other}`"),
                    "the only kind is `file`",
                );
                continue;
            }
            None => {
                ctx.err(*file, v.span(), "[[source]] has no `kind`");
                continue;
            }
        }
        match &s.path {
            Some(p) if !p.get_ref().trim().is_empty() => {
                at.push(ctx.loc(*file, p.span()));
                out.push(FileSource {
                    path: ctx.resolve(*file, p.get_ref()),
                })
            }
            _ => ctx.err(*file, v.span(), "[[source]] has no `path`"),
        }
    }
    (out, at)
}

/// `[server]`: every number positive and bounded, the address parseable.
fn server_settings(ctx: &mut Ctx<'_>, m: &Merged) -> ServerSettings {
    let d = ServerSettings::default();
    let listen = match &m.listen {
        Some(At { file, v }) => match v.get_ref().parse::<std::net::SocketAddr>() {
            Ok(a) => a,
            Err(_) => {
                ctx.err_hint(
                    *file,
                    v.span(),
                    "`server.listen` is not a socket address",
                    "write it like `127.0.0.1:4318` or `[::1]:4318`",
                );
                d.listen
            }
        },
        None => d.listen,
    };
    let mut count =
        |slot: &Option<At<Spanned<i64>>>, key: &str, default: usize, cap: i64| match slot {
            Some(At { file, v }) if !(1..=cap).contains(v.get_ref()) => {
                ctx.err(
                    *file,
                    v.span(),
                    format!("`server.{key}` must be between 1 and {cap}"),
                );
                default
            }
            Some(At { v, .. }) => usize::try_from(*v.get_ref()).unwrap_or(default),
            None => default,
        };
    let max_body_bytes = count(
        &m.max_body_bytes,
        "max_body_bytes",
        d.max_body_bytes,
        MAX_BODY_BYTES_CAP,
    );
    let queue_records = count(
        &m.queue_records,
        "queue_records",
        d.queue_records,
        QUEUE_RECORDS_CAP,
    );
    let queue_bytes = count(
        &m.queue_bytes,
        "queue_bytes",
        d.queue_bytes,
        QUEUE_BYTES_CAP,
    );
    let flush_interval = m
        .flush_interval
        .as_ref()
        .and_then(|a| capped_duration(ctx, a.file, &a.v, "flush_interval", FLUSH_INTERVAL_CAP))
        .map_or(d.flush_interval, |s| s.unsigned_abs());
    // Resource bounds of `serve`: each has an upper bound too, so that no
    // setting can switch a bound off.
    let mut bounded =
        |slot: &Option<At<Spanned<i64>>>, key: &str, max: i64, default: usize| match slot {
            Some(At { file, v }) if !(1..=max).contains(v.get_ref()) => {
                ctx.err(
                    *file,
                    v.span(),
                    format!("`server.{key}` must be between 1 and {max}"),
                );
                default
            }
            Some(At { v, .. }) => usize::try_from(*v.get_ref()).unwrap_or(default),
            None => default,
        };
    let max_connections = bounded(
        &m.max_connections,
        "max_connections",
        65_536,
        d.max_connections,
    );
    let structure = crate::policy::StructureLimits {
        max_spans: bounded(&m.max_spans, "max_spans", 1 << 20, d.structure.max_spans),
        max_log_records: bounded(
            &m.max_log_records,
            "max_log_records",
            1 << 20,
            d.structure.max_log_records,
        ),
        max_events: bounded(&m.max_events, "max_events", 1 << 22, d.structure.max_events),
        max_links: bounded(&m.max_links, "max_links", 1 << 22, d.structure.max_links),
        max_attributes: bounded(
            &m.max_attributes,
            "max_attributes",
            1 << 22,
            d.structure.max_attributes,
        ),
        max_nesting: bounded(&m.max_nesting, "max_nesting", 16, d.structure.max_nesting),
    };
    let decode_memory_bytes = bounded(
        &m.decode_memory_bytes,
        "decode_memory_bytes",
        1 << 40,
        d.decode_memory_bytes,
    );
    let mut timeout =
        |slot: &Option<At<Spanned<String>>>, key: &str, default: std::time::Duration| {
            let Some(a) = slot else { return default };
            match duration(ctx, a.file, &a.v, key).map(|s| s.unsigned_abs()) {
                Some(t) if t <= std::time::Duration::from_secs(3600) => t,
                Some(_) => {
                    ctx.err(
                        a.file,
                        a.v.span(),
                        format!("`server.{key}` must be at most 1h"),
                    );
                    default
                }
                None => default,
            }
        };
    let header_read_timeout = timeout(
        &m.header_read_timeout,
        "header_read_timeout",
        d.header_read_timeout,
    );
    let body_read_timeout = timeout(
        &m.body_read_timeout,
        "body_read_timeout",
        d.body_read_timeout,
    );
    let idle_timeout = timeout(&m.idle_timeout, "idle_timeout", d.idle_timeout);
    let grpc_listen = match &m.grpc_listen {
        Some(At { v, .. }) if v.get_ref() == "off" => None,
        Some(At { file, v }) => match v.get_ref().parse::<std::net::SocketAddr>() {
            Ok(a) => Some(a),
            Err(_) => {
                ctx.err_hint(
                    *file,
                    v.span(),
                    "`server.grpc_listen` is not a socket address",
                    "write it like `127.0.0.1:4317` or `[::1]:4317`, or `off`",
                );
                d.grpc_listen
            }
        },
        None => d.grpc_listen,
    };
    let path = |ctx: &Ctx<'_>, a: &At<Spanned<String>>| ctx.resolve(a.file, a.v.get_ref());
    let tls = match (&m.tls_cert_file, &m.tls_key_file) {
        (Some(c), Some(k)) => Some(crate::policy::tls::ServerTls {
            cert: crate::policy::tls::LoadedFile::at(path(ctx, c)),
            key: crate::policy::tls::LoadedFile::at(path(ctx, k)),
            client_ca: m
                .tls_client_ca_file
                .as_ref()
                .map(|a| crate::policy::tls::LoadedFile::at(path(ctx, a))),
        }),
        (None, None) => {
            if let Some(a) = &m.tls_client_ca_file {
                ctx.err(
                    a.file,
                    a.v.span(),
                    "`server.tls_client_ca_file` needs `tls_cert_file` and `tls_key_file`",
                );
            }
            None
        }
        (Some(a), None) | (None, Some(a)) => {
            ctx.err(
                a.file,
                a.v.span(),
                "`server.tls_cert_file` and `server.tls_key_file` go together",
            );
            None
        }
    };
    let bearer_token = m
        .bearer_token_file
        .as_ref()
        .map(|a| crate::policy::tls::Secret::at(path(ctx, a)));
    ServerSettings {
        listen,
        max_body_bytes,
        queue_records,
        queue_bytes,
        flush_interval,
        max_connections,
        header_read_timeout,
        body_read_timeout,
        idle_timeout,
        structure,
        decode_memory_bytes,
        grpc_listen,
        tls,
        bearer_token,
    }
}

/// A sink's `tls_ca_file`, `tls_cert_file`, `tls_key_file` and
/// `bearer_token_file`, put into its exporter; each needs a TLS output
/// (`otlp+https://`, `otlp+grpcs://`).
fn exporter_settings(
    ctx: &mut Ctx<'_>,
    file: usize,
    output: Option<SinkOutput>,
    [ca, cert, key, token]: [&Option<Spanned<String>>; 4],
) -> Option<SinkOutput> {
    use crate::policy::tls::{LoadedFile, Secret};
    let mut output = output;
    let exporter = match &mut output {
        Some(SinkOutput::OtlpHttps(x) | SinkOutput::OtlpGrpc(x)) if x.tls.is_some() => x,
        _ => {
            // SECURITY: TLS keys on a cleartext output would be silently
            // ignored, and a token sent in the clear: refuse both.
            for (v, k) in [
                (ca, "tls_ca_file"),
                (cert, "tls_cert_file"),
                (key, "tls_key_file"),
                (token, "bearer_token_file"),
            ] {
                if let Some(v) = v {
                    ctx.err_hint(
                        file,
                        v.span(),
                        format!("sink `{k}` needs a TLS output"),
                        "use `otlp+https://HOST:PORT` or `otlp+grpcs://HOST:PORT`",
                    );
                }
            }
            return output;
        }
    };
    let at = |v: &Spanned<String>| LoadedFile::at(ctx.resolve(file, v.get_ref()));
    if let Some(tls) = &mut exporter.tls {
        tls.ca = ca.as_ref().map(at);
        match (cert, key) {
            (Some(c), Some(k)) => tls.identity = Some((at(c), at(k))),
            (None, None) => {}
            (Some(v), None) | (None, Some(v)) => ctx.err(
                file,
                v.span(),
                "sink `tls_cert_file` and `tls_key_file` go together",
            ),
        }
    }
    exporter.bearer_token = token
        .as_ref()
        .map(|v| Secret::at(ctx.resolve(file, v.get_ref())));
    output
}

/// SHA-256 over each file's path and text, then over each referenced
/// file's kind, path and hash, length-prefixed so that no two different
/// policies hash alike. A policy that refers to no file hashes as its
/// files alone.
pub fn policy_digest(files: &[PolicyFile], referenced: &[Referenced]) -> String {
    let mut h = Sha256::new();
    let mut field = |b: &[u8]| {
        h.update((b.len() as u64).to_le_bytes());
        h.update(b);
    };
    for f in files {
        field(f.path.to_string_lossy().as_bytes());
        field(f.text.as_bytes());
    }
    if !referenced.is_empty() {
        field(b"referenced");
        for r in referenced {
            field(r.kind.as_str().as_bytes());
            let p = r
                .path
                .as_ref()
                .map_or_else(String::new, |p| p.to_string_lossy().into_owned());
            field(p.as_bytes());
            field(r.sha256.as_bytes());
        }
    }
    hex::encode(h.finalize())
}

/// A positive duration no longer than `cap`.
fn capped_duration(
    ctx: &mut Ctx<'_>,
    file: usize,
    v: &Spanned<String>,
    key: &str,
    cap: SignedDuration,
) -> Option<SignedDuration> {
    let d = duration(ctx, file, v, key)?;
    if d > cap {
        ctx.err_hint(
            file,
            v.span(),
            format!("`{key}` is longer than its upper bound ({})", friendly(cap)),
            format!("the longest `{key}` allowed is {}", friendly(cap)),
        );
        return None;
    }
    Some(d)
}

fn duration(
    ctx: &mut Ctx<'_>,
    file: usize,
    v: &Spanned<String>,
    key: &str,
) -> Option<SignedDuration> {
    match parse_duration(v.get_ref()) {
        Some(d) if d.is_positive() => Some(d),
        _ => {
            ctx.err_hint(
                file,
                v.span(),
                format!("`{key}` is not a positive duration"),
                "write it like `30m`, `2h` or `24h`",
            );
            None
        }
    }
}

/// Parse `30m`, `2h 30m`, `PT2H`.
pub fn parse_duration(s: &str) -> Option<SignedDuration> {
    s.trim().parse::<SignedDuration>().ok()
}

fn field_set(ctx: &mut Ctx<'_>, fields: Option<At<RawFields>>) -> FieldSet {
    let Some(At { file, v }) = fields else {
        return FieldSet::default();
    };
    field_map(ctx, file, v)
}

fn field_map(ctx: &mut Ctx<'_>, file: usize, v: RawFields) -> FieldSet {
    let mut entries = Vec::with_capacity(v.len());
    for (name, rule) in v {
        if let Some(r) = field_rule(ctx, file, rule) {
            entries.push((name.into_inner(), r));
        }
    }
    FieldSet::new(entries)
}

fn field_rule(ctx: &mut Ctx<'_>, file: usize, raw: Spanned<RawField>) -> Option<FieldRule> {
    let span = raw.span();
    let r = raw.into_inner();
    let Some(ty_name) = r.ty else {
        ctx.err_hint(
            file,
            span,
            "field rule has no `type`",
            "add `type = \"string\"` (or number, integer, boolean, null, array, object)",
        );
        return None;
    };
    let Some(ty) = ValueType::parse(ty_name.get_ref()) else {
        let names = [
            "string", "number", "integer", "boolean", "null", "array", "object",
        ];
        let hint = did_you_mean(ty_name.get_ref(), &names).map_or_else(
            || format!("use one of {}", names.join(", ")),
            |k| format!("did you mean `{k}`?"),
        );
        ctx.err_hint(
            file,
            ty_name.span(),
            format!("unknown type `{}`", ty_name.get_ref()),
            hint,
        );
        return None;
    };
    let unicode = r.unicode.unwrap_or(false);
    let has_pattern = r.pattern.is_some();
    let pattern = match r.pattern {
        Some(p) if ty != ValueType::String => {
            ctx.err(file, p.span(), "`pattern` applies only to strings");
            None
        }
        Some(p) => match super::rule::Pattern::compile(p.get_ref(), unicode) {
            Ok(re) => Some(re),
            Err(e) => {
                ctx.err(file, p.span(), e.to_string());
                None
            }
        },
        None => None,
    };
    // SECURITY: a standard string with neither a pattern nor a list of
    // values admits any sentence; the policy must say that is intended.
    if ty == ValueType::String
        && r.one_of.is_none()
        && !has_pattern
        && !r.free_text.unwrap_or(false)
    {
        ctx.err_hint(
            file,
            span.clone(),
            "string field has no `pattern` or `one_of`: it admits free text",
            "constrain it with `pattern` or `one_of`, or set `free_text = true` if free text is what it is for",
        );
    }
    let usize_of = |ctx: &mut Ctx<'_>, v: Option<Spanned<i64>>, key: &str| -> Option<usize> {
        let v = v?;
        match usize::try_from(*v.get_ref()) {
            Ok(n) => Some(n),
            Err(_) => {
                ctx.err(file, v.span(), format!("`{key}` must not be negative"));
                None
            }
        }
    };
    let max_len = usize_of(ctx, r.max_len, "max_len");
    let max_items = usize_of(ctx, r.max_items, "max_items");
    if let (Some(lo), Some(hi)) = (r.min, r.max)
        && lo > hi
    {
        ctx.err(file, span.clone(), "`min` is greater than `max`");
    }
    let items = match r.items {
        Some(i) if ty == ValueType::Array => field_rule(ctx, file, *i).map(Box::new),
        Some(i) => {
            ctx.err(file, i.span(), "`items` applies only to arrays");
            None
        }
        None if ty == ValueType::Array => {
            ctx.err_hint(
                file,
                span.clone(),
                "array field has no `items` rule",
                "say what every element must be, e.g. `items = { type = \"string\" }`",
            );
            None
        }
        None => None,
    };
    let fields = match r.fields {
        Some(f) if ty == ValueType::Object => Some(field_map(ctx, file, f)),
        Some(f) => {
            let s = f.keys().next().map_or(span.clone(), |k| k.span());
            ctx.err(file, s, "`fields` applies only to objects");
            None
        }
        None if ty == ValueType::Object => Some(FieldSet::default()),
        None => None,
    };
    Some(FieldRule {
        ty,
        free_text: r.free_text.unwrap_or(false),
        nullable: r.nullable.unwrap_or(false),
        pattern,
        one_of: r.one_of,
        min: r.min,
        max: r.max,
        max_len,
        required: r.required.unwrap_or(false),
        items,
        max_items,
        fields,
    })
}

/// The longest `[audit] lock_timeout`: an append holds up whatever waits on
/// it, so a policy cannot make that wait unbounded.
pub const MAX_LOCK_TIMEOUT: SignedDuration = SignedDuration::from_secs(30);

fn audit_settings(
    ctx: &mut Ctx<'_>,
    path: Option<At<Spanned<String>>>,
    key_file: Option<At<Spanned<String>>>,
    lock_timeout: Option<At<Spanned<String>>>,
    anchor: Option<At<Spanned<String>>>,
) -> Option<AuditSettings> {
    let timeout = lock_timeout
        .and_then(|a| {
            let d = duration(ctx, a.file, &a.v, "lock_timeout")?;
            if d > MAX_LOCK_TIMEOUT {
                ctx.err_hint(
                    a.file,
                    a.v.span(),
                    "`audit.lock_timeout` is over its upper bound of 30s",
                    "an append waits this long for another writer; keep it short (the default is 5s)",
                );
                return None;
            }
            Some(d)
        })
        .unwrap_or(SignedDuration::from_secs(5));
    let key_file = key_file.map(|a| ctx.resolve(a.file, a.v.get_ref()));
    let path = path?;
    if path.v.get_ref().trim().is_empty() {
        ctx.err(path.file, path.v.span(), "`audit.path` is empty");
        return None;
    }
    let log = ctx.resolve(path.file, path.v.get_ref());
    let anchor = match anchor {
        None => None,
        Some(a) => {
            let resolved = ctx.resolve(a.file, a.v.get_ref());
            // SECURITY: an anchor beside the log falls with it; the lexical
            // check here is repeated on resolved folders when the log opens.
            if a.v.get_ref().trim().is_empty() {
                ctx.err(a.file, a.v.span(), "`audit.anchor` is empty");
            } else if resolved.is_absolute()
                && log.is_absolute()
                && lexical_parent(&resolved).starts_with(lexical_parent(&log))
            {
                ctx.err_hint(
                    a.file,
                    a.v.span(),
                    "`audit.anchor` is inside the audit log's folder",
                    "keep the anchor where whoever can rewrite the log cannot: another folder, disk or host",
                );
            }
            Some(resolved)
        }
    };
    Some(AuditSettings {
        path: log,
        key_file,
        lock_timeout: timeout.unsigned_abs(),
        anchor,
    })
}

/// The folder of `p` with `.` and `..` folded without touching the disk.
fn lexical_parent(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.parent().unwrap_or(Path::new("")).components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn sinks(
    ctx: &mut Ctx<'_>,
    raw: Vec<At<Spanned<RawSink>>>,
    pseudonymizable: &dyn Fn(&str) -> bool,
) -> (Vec<Sink>, Vec<Option<Loc>>) {
    let mut out: Vec<Sink> = Vec::new();
    let mut at = Vec::new();
    for At { file, v } in raw {
        let span = v.span();
        let s = v.into_inner();
        let Some(name) = s.name else {
            ctx.err(file, span, "[[sink]] has no `name`");
            continue;
        };
        if !valid_name(name.get_ref()) {
            ctx.err_hint(
                file,
                name.span(),
                "sink name is not a valid name",
                "use letters, digits, `-`, `_` and `.`, at most 64",
            );
            continue;
        }
        if out.iter().any(|o| o.name == *name.get_ref()) {
            ctx.err(
                file,
                name.span(),
                format!("sink `{}` is defined twice", name.get_ref()),
            );
            continue;
        }
        let output_at = s.output.as_ref().map(|o| ctx.loc(file, o.span()));
        let output = match s.output {
            Some(o) => match SinkOutput::parse(o.get_ref(), |p| ctx.resolve(file, p)) {
                Some(out) => Some(out),
                None => {
                    ctx.err_hint(
                        file,
                        o.span(),
                        "unknown sink output",
                        "use `file:PATH`, `stdout`, or `otlp+http://`, `otlp+https://`, `otlp+grpc://` or `otlp+grpcs://` and `HOST:PORT`",
                    );
                    None
                }
            },
            None => None,
        };
        let output = exporter_settings(
            ctx,
            file,
            output,
            [
                &s.tls_ca_file,
                &s.tls_cert_file,
                &s.tls_key_file,
                &s.bearer_token_file,
            ],
        );
        let redact = match s.redact {
            None => SinkRedact::Policy,
            Some(v) => match v.get_ref() {
                toml::Value::Boolean(true) => SinkRedact::Policy,
                toml::Value::Boolean(false) => SinkRedact::Off,
                toml::Value::Array(a) if a.iter().all(|x| x.is_str()) => SinkRedact::Only(
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect(),
                ),
                _ => {
                    ctx.err(
                        file,
                        v.span(),
                        "sink `redact` must be `false` or a list of detector names",
                    );
                    SinkRedact::Policy
                }
            },
        };
        at.push(output_at);
        let mut pseudonymize = Vec::new();
        for p in s.pseudonymize.unwrap_or_default() {
            if pseudonymizable(p.get_ref()) {
                pseudonymize.push(p.into_inner());
            } else {
                ctx.err_hint(
                    file,
                    p.span(),
                    format!(
                        "`pseudonymize` names `{}`, which no standard allowlist holds",
                        crate::finding::escape_key(p.get_ref())
                    ),
                    "name a string field of [standard.fields], [standard.evidence.fields], an attribute of [standard.otlp.*_attributes], or traceId, spanId, parentSpanId",
                );
            }
        }
        out.push(Sink {
            name: name.into_inner(),
            full_allowed: s.full_allowed.unwrap_or(false),
            output,
            redact,
            pseudonymize,
        });
    }
    (out, at)
}

/// Names of sinks and windows: safe in file names, logs and metrics.
pub fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && !s.starts_with('.')
}

fn timestamp(ctx: &mut Ctx<'_>, file: usize, v: &Spanned<RawTime>, key: &str) -> Option<Timestamp> {
    let text = match v.get_ref() {
        RawTime::Text(s) => s.clone(),
        RawTime::Toml(d) => d.to_string(),
    };
    match text.parse::<Timestamp>() {
        Ok(t) => Some(t),
        Err(_) => {
            ctx.err_hint(
                file,
                v.span(),
                format!("`{key}` is not an RFC 3339 time with an offset"),
                "write it like `2026-12-01T10:00:00Z`",
            );
            None
        }
    }
}

fn windows(
    ctx: &mut Ctx<'_>,
    raw: Vec<At<Spanned<RawWindow>>>,
    sinks: &[Sink],
    max: SignedDuration,
) -> Vec<Window> {
    let mut out: Vec<Window> = Vec::new();
    let mut ids = HashSet::new();
    for At { file, v } in raw {
        let span = v.span();
        let w = v.into_inner();
        let mut ok = true;
        let id = match w.id {
            Some(id) if valid_name(id.get_ref()) => {
                if !ids.insert(id.get_ref().clone()) {
                    ctx.err(
                        file,
                        id.span(),
                        format!("window id `{}` is used twice", id.get_ref()),
                    );
                    ok = false;
                }
                id.into_inner()
            }
            Some(id) => {
                ctx.err_hint(
                    file,
                    id.span(),
                    "window id is not a valid name",
                    "use letters, digits, `-`, `_` and `.`, at most 64",
                );
                ok = false;
                String::new()
            }
            None => {
                ctx.err(file, span.clone(), "[[window]] has no `id`");
                ok = false;
                String::new()
            }
        };
        let sink = match w.sink {
            Some(s) => {
                match sinks.iter().find(|k| k.name == *s.get_ref()) {
                    None => {
                        let names: Vec<&str> = sinks.iter().map(|k| k.name.as_str()).collect();
                        let hint = did_you_mean(s.get_ref(), &names).map_or_else(
                            || "windows open a sink defined by [[sink]]".to_string(),
                            |k| format!("did you mean `{k}`?"),
                        );
                        ctx.err_hint(
                            file,
                            s.span(),
                            format!("window names unknown sink `{}`", s.get_ref()),
                            hint,
                        );
                        ok = false;
                    }
                    Some(k) if !k.full_allowed => {
                        ctx.err_hint(file, s.span(), format!("sink `{}` is not full_allowed", s.get_ref()), "a window opens only a sink on the full allowlist (`full_allowed = true`)");
                        ok = false;
                    }
                    Some(_) => {}
                }
                s.into_inner()
            }
            None => {
                ctx.err(file, span.clone(), "[[window]] has no `sink`");
                ok = false;
                String::new()
            }
        };
        let start = match &w.start {
            Some(s) => timestamp(ctx, file, s, "start"),
            None => {
                ctx.err(file, span.clone(), "[[window]] has no `start`");
                None
            }
        };
        let end = match &w.end {
            Some(e) => timestamp(ctx, file, e, "end"),
            None => {
                ctx.err_hint(
                    file,
                    span.clone(),
                    "[[window]] has no `end`",
                    "an unbounded window is not allowed; set `end`",
                );
                None
            }
        };
        let text = |ctx: &mut Ctx<'_>, v: Option<Spanned<String>>, key: &str| -> Option<String> {
            match v {
                Some(s) if !s.get_ref().trim().is_empty() => Some(s.into_inner()),
                Some(s) => {
                    ctx.err(file, s.span(), format!("window `{key}` is empty"));
                    None
                }
                None => {
                    ctx.err(file, span.clone(), format!("[[window]] has no `{key}`"));
                    None
                }
            }
        };
        let reason = text(ctx, w.reason, "reason");
        let requested_by = text(ctx, w.requested_by, "requested_by");
        let budget = |ctx: &mut Ctx<'_>, v: Option<Spanned<i64>>, key: &str| -> Option<u64> {
            let v = v?;
            match u64::try_from(*v.get_ref()) {
                Ok(n) if n > 0 => Some(n),
                _ => {
                    ctx.err(file, v.span(), format!("`{key}` must be positive"));
                    None
                }
            }
        };
        let has_budget = w.max_records.is_some() || w.max_bytes.is_some();
        let max_records = budget(ctx, w.max_records, "max_records");
        let max_bytes = budget(ctx, w.max_bytes, "max_bytes");
        match w.unbounded.as_ref().map(|u| (*u.get_ref(), u.span())) {
            Some((true, sp)) if has_budget => {
                ctx.err(
                    file,
                    sp,
                    "`unbounded = true` contradicts the window's `max_records`/`max_bytes`",
                );
                ok = false;
            }
            Some((true, _)) => {}
            // SECURITY: a window file caught half-written may lack its
            // budget lines; a window in windows/ must say it has none.
            _ if !has_budget && ctx.is_window_file(file) => {
                ctx.err_hint(
                    file,
                    span.clone(),
                    "a window in windows/ needs `max_records`, `max_bytes` or `unbounded = true`",
                    "say explicitly that the window has no budget, so that a file cut short is refused rather than enabled unbudgeted",
                );
                ok = false;
            }
            _ => {}
        }
        let (Some(start), Some(end), Some(reason), Some(requested_by)) =
            (start, end, reason, requested_by)
        else {
            continue;
        };
        let end_span = w.end.as_ref().map_or(span.clone(), |e| e.span());
        if end <= start {
            ctx.err(file, end_span, "window ends before it starts");
            continue;
        }
        let length = end.duration_since(start);
        if length > max {
            ctx.err_hint(
                file,
                end_span,
                format!("window is longer than `max_window` ({})", friendly(length)),
                format!("the longest window allowed is {}", friendly(max)),
            );
            continue;
        }
        if !ok {
            continue;
        }
        if let Some(other) = out
            .iter()
            .find(|o| o.sink == sink && o.start < end && start < o.end)
        {
            let msg = format!(
                "window `{id}` overlaps window `{}` on sink `{sink}`",
                other.id
            );
            ctx.err_hint(
                file,
                span.clone(),
                msg,
                "close one window before the next opens",
            );
            continue;
        }
        // SECURITY: `max_window` bounds a sink's windows together
        // (`policy::chain`), so back-to-back windows are not a longer one.
        let same_sink: Vec<(Timestamp, Timestamp)> = out
            .iter()
            .filter(|o| o.sink == sink)
            .map(|o| (o.start, o.end))
            .collect();
        if same_sink.len() >= super::chain::MAX_WINDOWS_PER_SINK {
            ctx.err_hint(
                file,
                span.clone(),
                format!(
                    "sink `{sink}` has more than {} windows",
                    super::chain::MAX_WINDOWS_PER_SINK
                ),
                "remove windows that have ended (`tracegate window close`, or delete their files)",
            );
            continue;
        }
        if let Some(open) = super::chain::too_much(&same_sink, (start, end), max) {
            ctx.err_hint(
                file,
                span.clone(),
                format!(
                    "window `{id}` and the other windows of sink `{sink}` are open {} within {}, more than `max_window` ({})",
                    friendly(open),
                    friendly(max.checked_mul(2).unwrap_or(max)),
                    friendly(max)
                ),
                "in any period of twice `max_window` a sink's windows together may be open at most `max_window`; space them out or shorten them",
            );
            continue;
        }
        out.push(Window {
            id,
            sink,
            start,
            end,
            reason,
            requested_by,
            max_records,
            max_bytes,
            file: ctx.file(file).path.clone(),
        });
    }
    out
}

/// A duration as `2h 30m`.
pub fn friendly(d: SignedDuration) -> String {
    format!("{d:#}")
}
