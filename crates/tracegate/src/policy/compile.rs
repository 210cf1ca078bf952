//! From policy text to a [`Draft`], reporting every error of every stage
//! at once.
//!
//! Steps: parse each file, recovering past syntax errors; in each file,
//! check every key and value type against the key table
//! ([`super::schema`]), keep `windows/` files to `[[window]]` tables and
//! expand `${env:VAR}` ([`super::env`]); merge the files generically and
//! lay the built-in defaults under them ([`super::merge`]); deserialize the
//! merged tree once into [`RawPolicy`]; validate and build. A mistake found
//! by one stage is reported and taken out, so that the later stages still
//! run and report theirs: one run shows every error.
//!
//! Spans live in the merged address space ([`super::merge::Bases`]): a span
//! alone says which file and where, so errors need no file bookkeeping.
//!
//! A draft is not a policy: [`super::Policy::from_files`] turns it into
//! one after the IO step (keyword lists, keys, canonical paths). This step
//! does no IO.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use jiff::{SignedDuration, Timestamp};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use toml::Spanned;
use toml::de::DeTable;

use super::env::{EnvUse, Lookup};
use super::error::{PolicyError, PolicyErrors, Snippet, shown};
use super::keys::{Check, Key};
use super::load::PolicyFile;
use super::merge::Bases;
use super::raw::*;
use super::rule::{FieldRule, FieldSet, Segments, ValueType};
use super::schema::{Index, suggestion};
use super::*;

/// A place in a policy file, kept for errors found after compile (in the
/// IO step: two outputs that are one file, a keyword list that cannot be
/// read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    /// The file.
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The dotted key there.
    pub key: Option<String>,
    /// The line, for the terminal.
    pub snippet: Option<Box<Snippet>>,
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
            key: self.key.clone(),
            snippet: self.snippet.clone(),
        }
    }
}

/// Where the parts of `[redact]` are written, for the errors of the IO
/// step that builds the redaction.
#[derive(Debug, Clone, Default)]
pub struct RedactLocs {
    /// The `[redact]` table (or the first file when it is not written).
    pub section: Option<Loc>,
    /// Each `builtin` entry, with its name.
    pub builtin: Vec<(String, Loc)>,
    /// `key_file`.
    pub key_file: Option<Loc>,
    /// Each `allow_unredacted_sinks` entry.
    pub allow_unredacted: Vec<Loc>,
    /// Each `[[redact.pattern]]`: its table, its `regex`, its `action`.
    pub patterns: Vec<RuleLocs>,
    /// Each `[[redact.keywords]]`: its table, its `file`, its `action`.
    pub keywords: Vec<RuleLocs>,
}

/// Where one redaction rule and its parts are written.
#[derive(Debug, Clone)]
pub struct RuleLocs {
    /// The rule's table.
    pub table: Loc,
    /// Its `regex` (patterns) or `file` (keywords), when written.
    pub source: Option<Loc>,
    /// Its `action`, when written.
    pub action: Option<Loc>,
}

impl RuleLocs {
    /// The `action`'s place, else the table's.
    pub fn action(&self) -> &Loc {
        self.action.as_ref().unwrap_or(&self.table)
    }

    /// The `regex`'s or `file`'s place, else the table's.
    pub fn source(&self) -> &Loc {
        self.source.as_ref().unwrap_or(&self.table)
    }
}

/// A compiled policy before its IO step: everything a [`Policy`] holds but
/// its redaction and the hashes of the files it refers to. Only
/// `Draft::finish` (called by [`Policy::from_files`]) makes a `Policy`.
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
    /// The allowlists that replace the built-in rules.
    pub(super) replaced: Vec<String>,
    /// Where each sink's `output` is written (same order as `sinks`).
    pub(super) sink_at: Vec<Option<Loc>>,
    /// Where each sink's table is (same order as `sinks`).
    pub(super) sink_table_at: Vec<Loc>,
    /// Where each sink's `max_free_bits` is written (same order as `sinks`).
    pub(super) sink_free_bits_at: Vec<Option<Loc>>,
    /// Where each source is written (same order as `sources`).
    pub(super) source_at: Vec<Loc>,
    /// Where `audit.path` is written.
    pub(super) audit_at: Option<Loc>,
    /// Where `audit.key_file` is written.
    pub(super) audit_key_at: Option<Loc>,
    /// Where `fleet.store_key_file` is written.
    pub(super) store_key_at: Option<Loc>,
    /// Where the parts of `[redact]` are written.
    pub(super) redact_at: RedactLocs,
    /// The `${env:VAR}` expansions, for the digest.
    pub(super) env: Vec<EnvUse>,
}

impl Draft {
    /// The sink called `name`.
    pub(super) fn sink(&self, name: &str) -> Option<&Sink> {
        self.sinks.iter().find(|s| s.name == name)
    }

    /// Where the sink called `name` is defined.
    pub(super) fn sink_loc(&self, name: &str) -> Option<&Loc> {
        let i = self.sinks.iter().position(|s| s.name == name)?;
        self.sink_table_at.get(i)
    }

    /// An error at `at` when the policy wrote the key there, else on the
    /// policy as a whole (its first file).
    pub(super) fn error_at(&self, at: Option<&Loc>, msg: String) -> PolicyError {
        match at {
            Some(l) => l.error(msg),
            None => PolicyError::whole(self.files.first().unwrap_or(&self.source), msg),
        }
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
            replaced: self.replaced,
            ignored: Vec::new(),
            capacity: std::sync::OnceLock::new(),
        }
    }
}

/// The name errors in the built-in defaults are reported under.
pub const DEFAULTS_NAME: &str = "<built-in defaults>";

type RawFields = BTreeMap<Spanned<String>, Spanned<RawField>>;

/// Where errors go, with the files to resolve spans against.
struct Ctx<'f> {
    /// The files' paths, then [`DEFAULTS_NAME`].
    names: Vec<PathBuf>,
    /// The files' texts, then the defaults'.
    texts: Vec<&'f str>,
    bases: Bases,
    errors: Vec<PolicyError>,
    /// Whether each file is in the policy folder's `windows/`.
    window_file: Vec<bool>,
    /// Every key's place and the values that may be a customer list.
    index: Index,
    /// Entries taken out after an error: (their span, dotted key).
    removed: Vec<(Range<usize>, String)>,
    /// Allowlist patterns compiled so far, by text and Unicode flag: the
    /// defaults use one id pattern for a dozen fields.
    patterns: HashMap<(String, bool), super::rule::Pattern>,
}

impl Ctx<'_> {
    fn file_of(&self, offset: usize) -> usize {
        self.bases.locate(offset).0
    }

    /// Whether `offset` is in one of the user's files (not the defaults).
    fn is_user(&self, offset: usize) -> bool {
        self.file_of(offset) + 1 < self.names.len()
    }

    fn path_of(&self, offset: usize) -> PathBuf {
        self.names
            .get(self.file_of(offset))
            .cloned()
            .unwrap_or_else(|| PathBuf::from(DEFAULTS_NAME))
    }

    fn loc(&self, span: Range<usize>) -> Loc {
        let (i, local) = self.bases.locate(span.start);
        let text = self.texts.get(i).copied().unwrap_or("");
        let (line, column) = super::error::line_col(text, local);
        let local_span = local..local + span.len();
        Loc {
            file: self.path_of(span.start),
            line,
            column,
            key: self.index.key_at(span.start).map(str::to_string),
            snippet: self
                .snippet(text, span.start - local, local_span)
                .map(Box::new),
        }
    }

    /// Where a key is written, when it is.
    fn loc_of<T>(&self, v: &Option<Spanned<T>>) -> Option<Loc> {
        v.as_ref().map(|v| self.loc(v.span()))
    }

    /// The line of an error, unless it holds (part of) a value that may be
    /// a customer list.
    fn snippet(&self, text: &str, base: usize, span: Range<usize>) -> Option<Snippet> {
        let at = span.start.min(text.len());
        let line_start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
        let line_end = text.get(at..)?.find('\n').map_or(text.len(), |i| at + i);
        let line = base + line_start..base + line_end + 1;
        // SECURITY: never print a line of a keyword list or a pattern.
        let secret = self
            .index
            .secrets
            .iter()
            .any(|s| s.start < line.end && line.start < s.end.max(s.start + 1));
        if secret {
            return None;
        }
        Snippet::of(text, span)
    }

    fn error(&self, span: Range<usize>, msg: impl Into<String>) -> PolicyError {
        self.loc(span).error(msg)
    }

    fn err(&mut self, span: Range<usize>, msg: impl Into<String>) {
        let e = self.error(span, msg);
        self.errors.push(e);
    }

    fn err_hint(&mut self, span: Range<usize>, msg: impl Into<String>, hint: impl Into<String>) {
        let e = self.error(span, msg).with_hint(hint);
        self.errors.push(e);
    }

    /// A required key is missing from the table at `table`; not reported
    /// when it was written but taken out for an error of its own.
    fn absent(&mut self, table: Range<usize>, key: &str, msg: &str, hint: Option<&str>) {
        let reported = self.removed.iter().any(|(span, k)| {
            table.start <= span.start
                && span.end <= table.end.max(table.start + 1)
                && k.ends_with(key)
        });
        if reported {
            return;
        }
        match hint {
            Some(h) => self.err_hint(table, msg, h),
            None => self.err(table, msg),
        }
    }

    /// `[[array]]`'s table at `table` has no `key` (see [`Ctx::absent`]).
    fn missing(&mut self, table: Range<usize>, array: &str, key: &str, hint: Option<&str>) {
        let msg = format!("[[{array}]] has no `{key}`");
        self.absent(table, &format!("{array}.{key}"), &msg, hint);
    }

    /// An integer key held to its range ([`Check::Int`]): its value, or
    /// `None` when absent or refused (reported).
    fn int(&mut self, v: &Option<Spanned<i64>>, table: &str, key: &Key) -> Option<i64> {
        let v = v.as_ref()?;
        if let Check::Int { min, max } = key.spec.check
            && !(min..=max).contains(v.get_ref())
        {
            self.err(
                v.span(),
                format!("{} must be between {min} and {max}", named(table, key.name)),
            );
            return None;
        }
        Some(*v.get_ref())
    }

    /// An integer key held to its range, as a size; its default when
    /// absent or refused.
    fn size(&mut self, v: &Option<Spanned<i64>>, table: &str, key: &Key) -> usize {
        self.int(v, table, key)
            .and_then(|i| usize::try_from(i).ok())
            .unwrap_or(key.spec.size_default())
    }

    /// A duration key: positive and at most its cap ([`Check::Duration`]);
    /// `None` when absent or refused (reported).
    fn duration(
        &mut self,
        v: &Option<Spanned<String>>,
        table: &str,
        key: &Key,
    ) -> Option<SignedDuration> {
        let v = v.as_ref()?;
        let name = named(table, key.name);
        let d = match parse_duration(v.get_ref()) {
            Some(d) if d.is_positive() => d,
            _ => {
                self.err_hint(
                    v.span(),
                    format!("{name} is not a positive duration"),
                    "write it like `30m`, `2h` or `24h`",
                );
                return None;
            }
        };
        if let Check::Duration { max, hint } = key.spec.check
            && d > max
        {
            let hint = hint.map_or_else(
                || format!("the longest `{}` allowed is {}", key.name, friendly(max)),
                str::to_string,
            );
            self.err_hint(
                v.span(),
                format!("{name} is longer than its upper bound ({})", friendly(max)),
                hint,
            );
            return None;
        }
        Some(d)
    }

    /// A duration key, unsigned; its default when absent or refused.
    fn timeout(
        &mut self,
        v: &Option<Spanned<String>>,
        table: &str,
        key: &Key,
    ) -> std::time::Duration {
        self.duration(v, table, key)
            .map_or(key.spec.duration_default(), |d| d.unsigned_abs())
    }

    /// A key that names one of its members ([`Check::OneOf`]): the member,
    /// or `None` when absent or refused (reported, with the nearest member).
    fn member(&mut self, v: &Option<Spanned<String>>, key: &Key) -> Option<&'static str> {
        let v = v.as_ref()?;
        let Check::OneOf(members) = key.spec.check else {
            return None;
        };
        let got = v.get_ref().as_str();
        if let Some(m) = members.iter().find(|m| **m == got) {
            return Some(m);
        }
        let hint = suggestion(got, members).unwrap_or_else(|| {
            let quoted: Vec<String> = members.iter().map(|m| format!("`{m}`")).collect();
            match quoted.split_last() {
                Some((last, rest)) if !rest.is_empty() => {
                    format!("use {} or {last}", rest.join(", "))
                }
                _ => format!("use {}", quoted.join("")),
            }
        });
        self.err_hint(
            v.span(),
            format!("unknown `{}` value `{}`", key.name, shown(got)),
            hint,
        );
        None
    }

    /// Whether an entry under `prefix` (`sink`) was taken out for an error.
    fn removed_under(&self, prefix: &str) -> bool {
        self.removed
            .iter()
            .any(|(_, k)| k == prefix || k.starts_with(&format!("{prefix}.")))
    }

    fn is_window_file(&self, offset: usize) -> bool {
        self.window_file
            .get(self.file_of(offset))
            .copied()
            .unwrap_or(false)
    }

    /// An error about the policy as a whole, reported on its first file.
    fn whole(&mut self, msg: impl Into<String>) {
        let path = self
            .names
            .first()
            .cloned()
            .unwrap_or_else(|| PathBuf::from(DEFAULTS_NAME));
        self.errors.push(PolicyError::whole(&path, msg));
    }

    /// The path `v` says, relative to its file's folder.
    fn path(&self, v: &Spanned<String>) -> PathBuf {
        self.resolve(v.span(), v.get_ref())
    }

    /// Resolve a path written at `span` relative to its file's folder.
    fn resolve(&self, span: Range<usize>, p: &str) -> PathBuf {
        let p = Path::new(p);
        if p.is_absolute() {
            return p.to_path_buf();
        }
        match self.path_of(span.start).parent() {
            Some(dir) => dir.join(p),
            None => p.to_path_buf(),
        }
    }
}

/// Compile policy files (as read by [`super::load::read_policy_files`]),
/// expanding `${env:VAR}` through `env`: the draft (unless the files could
/// not be read as a policy at all) and every error found. The draft is a
/// policy only when there is no error; it is returned anyway so that the
/// IO step can report its errors too.
///
/// `source` is the path the user gave, kept for display and audit.
pub(super) fn compile(
    source: &Path,
    files: &[PolicyFile],
    env: Lookup<'_>,
) -> (Option<Draft>, Vec<PolicyError>) {
    let n = files.len();
    let windows_dir = source.join("windows");
    let mut names: Vec<PathBuf> = files.iter().map(|f| f.path.clone()).collect();
    names.push(PathBuf::from(DEFAULTS_NAME));
    let mut texts: Vec<&str> = files.iter().map(|f| f.text.as_str()).collect();
    texts.push(super::defaults::text());
    let mut ctx = Ctx {
        bases: Bases::new(texts.iter().map(|t| t.len())),
        names,
        texts: texts.clone(),
        errors: Vec::new(),
        window_file: files
            .iter()
            .map(|f| f.path.parent() == Some(windows_dir.as_path()))
            .collect(),
        index: Index::default(),
        removed: Vec::new(),
        patterns: HashMap::new(),
    };
    let root_shape = super::schema::root();
    let mut uses = Vec::new();
    let mut trees = Vec::with_capacity(n + 1);
    for (i, text) in texts.iter().enumerate() {
        let base = ctx.bases.base(i);
        let (tree, syntax) = DeTable::parse_recoverable(text);
        if i == n && !syntax.is_empty() {
            ctx.whole("the built-in defaults do not parse (a bug in tracegate)");
        }
        for e in &syntax {
            let span = e.span().unwrap_or(0..0);
            let msg = format!("invalid TOML: {}", first_line(e.message()));
            ctx.err(span.start + base..span.end + base, msg);
        }
        let mut tree = merge::shift(tree, base).into_inner();
        if ctx.window_file.get(i).copied().unwrap_or(false) {
            window_file_only_windows(&mut ctx, &mut tree);
        }
        let mut problems = Vec::new();
        super::schema::check(&mut tree, &mut problems, &mut ctx.index);
        // Past a syntax error the parser guessed: what it read there is
        // taken out like any mistake but not reported (the syntax error
        // is), so that one missing `]` does not read as ten wrong keys.
        let guessed = syntax
            .iter()
            .filter_map(|e| e.span())
            .map(|s| s.start + base)
            .min();
        for p in problems {
            if guessed.is_some_and(|g| p.span.start >= g) {
                ctx.removed.push((p.span, p.key));
                continue;
            }
            let mut e = ctx.error(p.span.clone(), p.message);
            e.hint = p.hint;
            e.key = Some(p.key.clone());
            ctx.errors.push(e);
            ctx.removed.push((p.span, p.key));
        }
        if i < n {
            let mut problems = Vec::new();
            super::env::expand(&mut tree, env, &mut uses, &mut problems);
            for p in problems {
                if p.removed {
                    ctx.removed.push((p.span.clone(), p.key.clone()));
                }
                let e = ctx
                    .error(p.span, p.message)
                    .with_hint(p.hint)
                    .with_key(p.key);
                ctx.errors.push(e);
            }
        }
        trees.push(tree);
    }
    let defaults = trees.pop().unwrap_or_default();
    let mut merged = DeTable::new();
    let mut clashes = Vec::new();
    for tree in trees {
        merge::merge_user(&mut merged, tree, root_shape, "", &mut clashes);
    }
    for c in clashes {
        let first = ctx.loc(c.first.clone());
        let e = ctx
            .error(c.span, format!("key `{}` is defined twice", shown(&c.key)))
            .with_hint(format!(
                "it is also set in {}:{}:{}; keep one",
                first.file.display(),
                first.line,
                first.column
            ))
            .with_key(c.key);
        ctx.errors.push(e);
    }
    let origins = merge::settings(&merged, root_shape)
        .into_iter()
        .map(|s| KeyOrigin {
            key: s.key,
            file: ctx.path_of(s.span.start),
        })
        .collect();
    merge::fill_defaults(&mut merged, defaults, root_shape);
    let raw = match RawPolicy::deserialize(toml::de::Deserializer::from(Spanned::new(0..0, merged)))
    {
        Ok(raw) => Some(raw),
        Err(e) => {
            // Every type was checked above; this is a value serde refuses
            // for another reason (an integer out of range, say).
            let span = e.span().unwrap_or(0..0);
            ctx.err(span, first_line(e.message()).to_string());
            None
        }
    };
    let draft = raw.map(|raw| build(&mut ctx, source, raw, origins, uses));
    (draft, ctx.errors)
}

/// Errors in file order, then by position, whatever order the checks ran in.
pub(super) fn sorted(files: &[PolicyFile], mut errors: Vec<PolicyError>) -> PolicyErrors {
    let order = |p: &Path| files.iter().position(|f| f.path == p).unwrap_or(usize::MAX);
    errors.sort_by_key(|e| (order(&e.file), e.line, e.column));
    errors.dedup();
    PolicyErrors(errors)
}

/// A file in `windows/` opens windows and nothing else: every other key is
/// an error, and taken out.
fn window_file_only_windows(ctx: &mut Ctx<'_>, tree: &mut DeTable<'_>) {
    let mut other = Vec::new();
    for (key, _) in tree.iter() {
        if key.get_ref() != "window" {
            other.push((key.get_ref().to_string(), key.span()));
        }
    }
    for (name, span) in other {
        // SECURITY: a file in `windows/` opens windows and nothing else;
        // redaction, sinks, limits and allowlists come only from the
        // top-level policy, so whoever may write a window file cannot
        // weaken them.
        ctx.err_hint(
            span.clone(),
            format!(
                "a file in windows/ may hold only [[window]] tables, not key `{}`",
                crate::finding::escape_key(&name)
            ),
            "move this setting to the top-level policy",
        );
        ctx.removed.push((span, name.clone()));
        tree.remove(name.as_str());
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s).trim()
}

fn strings(v: Option<Vec<Spanned<String>>>) -> Vec<String> {
    v.map(|a| a.into_iter().map(Spanned::into_inner).collect())
        .unwrap_or_default()
}

/// A table as written, or its default when absent.
fn inner<T: Default>(v: Option<Spanned<T>>) -> T {
    v.map(Spanned::into_inner).unwrap_or_default()
}

fn build(
    ctx: &mut Ctx<'_>,
    source: &Path,
    raw: RawPolicy,
    origins: Vec<KeyOrigin>,
    env: Vec<EnvUse>,
) -> Draft {
    let RawPolicy {
        version,
        audit,
        limits,
        full,
        standard,
        sink,
        window,
        redact,
        server,
        source: raw_sources,
        fleet,
        capture,
    } = raw;
    let server = server_settings(ctx, inner(server));
    let (sources, source_at) = sources(ctx, raw_sources.unwrap_or_default());
    let (fleet, store_key_at) = fleet_settings(ctx, inner(fleet));
    if let Some(v) = &version
        && *v.get_ref() != 1
    {
        ctx.err_hint(
            v.span(),
            "unsupported policy version",
            "this tracegate reads `version = 1`",
        );
    }
    let limits = inner(limits);
    let max_line_bytes = ctx.size(&limits.max_line_bytes, "limits", &RawLimits::max_line_bytes);
    let full = inner(full);
    let max_window = ctx
        .duration(&full.max_window, "full", &RawFull::max_window)
        .unwrap_or(RawFull::max_window.spec.signed_duration_default());
    let standard = inner(standard);
    let on_violation = match ctx.member(&standard.on_violation, &RawStandard::on_violation) {
        Some("drop_field") => OnViolation::DropField,
        // SECURITY: anything but `drop_field`, a refused value included,
        // drops the whole record (fail closed).
        _ => OnViolation::DropRecord,
    };
    let otlp_raw = standard.otlp.unwrap_or_default();
    let evidence_raw = standard.evidence.unwrap_or_default().fields;
    // The allowlists written with `replace_defaults = true`, in the order
    // of `StandardRules::ALLOWLIST_KEYS`.
    let replaced = StandardRules::ALLOWLIST_KEYS
        .into_iter()
        .zip([
            &standard.fields,
            &otlp_raw.span_attributes,
            &otlp_raw.resource_attributes,
            &otlp_raw.scope_attributes,
            &otlp_raw.event_attributes,
            &otlp_raw.link_attributes,
            &otlp_raw.log_attributes,
            &evidence_raw,
        ])
        .filter(|(_, a)| {
            a.as_ref()
                .and_then(|a| a.replace_defaults.as_ref())
                .is_some_and(|r| *r.get_ref())
        })
        .map(|(path, _)| path.to_string())
        .collect();
    let (fields, field_spans) = field_set(ctx, standard.fields);
    for name in full.content_fields.iter().flatten() {
        refuse_reserved(ctx, name.get_ref(), name.span());
        if let Some((_, at)) = field_spans.iter().find(|(n, _)| n == name.get_ref()) {
            // Point at whichever of the two the user wrote.
            let span = if ctx.is_user(at.start) {
                at.clone()
            } else {
                name.span()
            };
            ctx.err_hint(
                span,
                format!(
                    "`{}` is both a content field and on the standard allowlist; content is never standard",
                    crate::finding::escape_key(name.get_ref())
                ),
                "take it off one list (to drop a built-in rule, write the allowlist with `replace_defaults = true`)",
            );
        }
    }
    let content_fields = strings(full.content_fields);
    let content_attr_spans = full.content_attributes.unwrap_or_default();
    for name in &content_attr_spans {
        refuse_reserved(ctx, name.get_ref(), name.span());
    }
    let content_attributes: Vec<String> = content_attr_spans
        .iter()
        .map(|s| s.get_ref().clone())
        .collect();
    let check_content = |ctx: &mut Ctx<'_>, table: &str, spans: &[(String, Range<usize>)]| {
        // SECURITY: an attribute that is content at full level is never
        // standard; allowlisting it would pass content to every sink.
        for (name, at) in spans {
            if super::content::is_content_attribute(&content_attributes, name) {
                let span = if ctx.is_user(at.start) {
                    at.clone()
                } else {
                    content_attr_spans
                        .iter()
                        .find(|c| ctx.is_user(c.span().start))
                        .map_or(at.clone(), |c| c.span())
                };
                ctx.err_hint(
                    span,
                    format!(
                        "`{}` in [standard.otlp.{table}] is a content attribute (`full.content_attributes`); content is never standard",
                        crate::finding::escape_key(name)
                    ),
                    "take it off one list",
                );
            }
        }
    };
    let attrs = |ctx: &mut Ctx<'_>, table: &str, v: Option<RawAllowlist>| {
        let (set, spans) = field_set(ctx, v);
        check_content(ctx, table, &spans);
        set
    };
    let otlp = OtlpRules {
        span_names: strings(otlp_raw.span_names),
        span_attributes: attrs(ctx, "span_attributes", otlp_raw.span_attributes),
        resource_attributes: attrs(ctx, "resource_attributes", otlp_raw.resource_attributes),
        scope_attributes: attrs(ctx, "scope_attributes", otlp_raw.scope_attributes),
        event_attributes: attrs(ctx, "event_attributes", otlp_raw.event_attributes),
        link_attributes: attrs(ctx, "link_attributes", otlp_raw.link_attributes),
        log_attributes: attrs(ctx, "log_attributes", otlp_raw.log_attributes),
        structure: otlp_structure(
            ctx,
            [
                otlp_raw.schema_url,
                otlp_raw.scope_name,
                otlp_raw.scope_version,
                otlp_raw.event_name,
                otlp_raw.span_name,
            ],
        ),
        trace_state: otlp_raw
            .trace_state
            .map(|t| field_map(ctx, t))
            .unwrap_or_default(),
        limits: {
            let mut limit = |v: &Option<Spanned<i64>>, key: &Key| {
                // Absent only if the defaults were broken: as tight as possible.
                ctx.int(v, "standard.otlp", key)
                    .and_then(|i| usize::try_from(i).ok())
                    .unwrap_or(1)
            };
            OtlpLimits {
                resources: limit(&otlp_raw.max_resources, &RawOtlp::max_resources),
                scopes: limit(&otlp_raw.max_scopes, &RawOtlp::max_scopes),
                spans: limit(&otlp_raw.max_spans, &RawOtlp::max_spans),
                events: limit(&otlp_raw.max_events, &RawOtlp::max_events),
                links: limit(&otlp_raw.max_links, &RawOtlp::max_links),
                log_records: limit(&otlp_raw.max_log_records, &RawOtlp::max_log_records),
                attributes: limit(&otlp_raw.max_attributes, &RawOtlp::max_attributes),
            }
        },
    };
    let (evidence, _) = field_set(ctx, evidence_raw);
    let rules = StandardRules {
        on_violation,
        detectors: standard_detectors(ctx, standard.detectors),
        fields,
        otlp,
        evidence,
    };
    let audit_raw = inner(audit);
    let audit_at = ctx.loc_of(&audit_raw.path);
    let audit_key_at = ctx.loc_of(&audit_raw.key_file);
    let audit = audit_settings(ctx, audit_raw);
    let raw_windows = window.unwrap_or_default();
    let first_window = raw_windows.first().map(Spanned::span);
    // SECURITY: a `pseudonymize` name must be a field some format
    // allowlists (or an OTLP id), or the sink silently pseudonymizes nothing.
    let pseudonymizable = |name: &str| {
        matches!(name, "traceId" | "spanId" | "parentSpanId")
            || rules
                .allowlists()
                .iter()
                .any(|(_, set)| set.lookup(name).is_some())
    };
    let (sinks, sink_at, sink_table_at, sink_free_bits_at) =
        sinks(ctx, sink.unwrap_or_default(), &pseudonymizable);
    for (s, at) in sinks.iter().zip(&sink_table_at) {
        // SECURITY: a reference is written by the gate; a producer's own
        // member of that name on the allowlist would pose as one.
        let taken = content_fields
            .iter()
            .map(|c| format!("{c}_ref"))
            .find(|r| rules.fields.lookup(r).is_some())
            .or_else(|| {
                content_attributes
                    .iter()
                    .map(String::as_str)
                    .chain(["body"])
                    .filter(|c| !c.contains('*'))
                    .map(|c| format!("{c}_ref"))
                    .find(|r| pseudonymizable(r))
            });
        if let (Some(_), Some(r)) = (&s.content_refs, taken) {
            let e = at
                .error(format!(
                    "sink `{}` has content_refs, but a standard allowlist holds `{}`, the member or attribute a reference is written to",
                    shown(&s.name),
                    crate::finding::escape_key(&r)
                ))
                .with_hint("take it off the allowlist");
            ctx.errors.push(e);
        }
    }
    let windows = windows(ctx, raw_windows, &sinks, max_window);
    if inner(capture).require_seal == Some(true) {
        // SECURITY: with `require_seal`, no sink may receive content in
        // clear: a full-allowed sink without recipients is refused, so no
        // window can ever open for it.
        for (s, at) in sinks.iter().zip(&sink_table_at) {
            if s.full_allowed && s.seal_to.is_empty() {
                let e = at
                    .error(format!(
                        "sink `{}` is full_allowed without `seal_to`, and [capture] require_seal = true",
                        shown(&s.name)
                    ))
                    .with_hint("add `seal_to = [\"age1...\"]` (`tracegate capture keygen` makes a key), or take the sink off the full allowlist");
                ctx.errors.push(e);
            }
        }
    }
    if audit.is_none() {
        if let Some((s, at)) = sinks
            .iter()
            .zip(&sink_table_at)
            .find(|(s, _)| s.full_allowed)
        {
            let e = at.error(format!(
                "sink `{}` is full_allowed but the policy has no [audit] path; full capture must be audited",
                shown(&s.name)
            )).with_hint("add `[audit] path = \"audit.jsonl\"`");
            ctx.errors.push(e);
        } else if let Some(span) = first_window {
            ctx.err_hint(
                span,
                "the policy has windows but no [audit] path; full capture must be audited",
                "add `[audit] path = \"audit.jsonl\"`",
            );
        }
    }
    let (redact, redact_at) = redact_settings(ctx, redact);
    Draft {
        source: source.to_path_buf(),
        files: ctx
            .names
            .iter()
            .take(ctx.names.len().saturating_sub(1))
            .cloned()
            .collect(),
        limits: Limits { max_line_bytes },
        full: FullRules {
            content_fields,
            content_attributes,
            max_window,
        },
        standard: rules,
        sinks,
        windows,
        audit,
        redact,
        server,
        sources,
        fleet,
        origins,
        replaced,
        sink_at,
        sink_table_at,
        sink_free_bits_at,
        source_at,
        audit_at,
        audit_key_at,
        store_key_at,
        redact_at,
        env,
    }
}

fn redact_settings(
    ctx: &mut Ctx<'_>,
    redact: Option<Spanned<RawRedact>>,
) -> (RedactSettings, RedactLocs) {
    let section = redact
        .as_ref()
        .map(|r| ctx.loc(r.span()))
        .or_else(|| (ctx.names.len() > 1).then(|| ctx.loc(0..0)));
    let r = inner(redact);
    let mut at = RedactLocs {
        section,
        builtin: r
            .builtin
            .iter()
            .flatten()
            .map(|b| (b.get_ref().clone(), ctx.loc(b.span())))
            .collect(),
        key_file: ctx.loc_of(&r.key_file),
        allow_unredacted: r
            .allow_unredacted_sinks
            .iter()
            .flatten()
            .map(|s| ctx.loc(s.span()))
            .collect(),
        ..RedactLocs::default()
    };
    let key_file = r.key_file.map(|v| ctx.path(&v));
    let locs = |ctx: &Ctx<'_>, table, [source, action]: [&Option<Spanned<String>>; 2]| RuleLocs {
        table: ctx.loc(table),
        source: ctx.loc_of(source),
        action: ctx.loc_of(action),
    };
    let text = |v: Option<Spanned<String>>| v.map(Spanned::into_inner).unwrap_or_default();
    // An absent `action` masks.
    let action = |v: Option<Spanned<String>>| v.map_or_else(|| "mask".into(), Spanned::into_inner);
    let mut patterns = Vec::new();
    for p in r.pattern.unwrap_or_default() {
        let (table, p) = (p.span(), p.into_inner());
        at.patterns.push(locs(ctx, table, [&p.regex, &p.action]));
        patterns.push(PatternSetting {
            name: text(p.name),
            regex: text(p.regex),
            action: action(p.action),
        });
    }
    let mut keywords = Vec::new();
    for k in r.keywords.unwrap_or_default() {
        let (table, k) = (k.span(), k.into_inner());
        at.keywords.push(locs(ctx, table, [&k.file, &k.action]));
        keywords.push(KeywordSetting {
            name: text(k.name),
            words: k.words.unwrap_or_default(),
            file: k.file.map(|v| ctx.path(&v)),
            case_insensitive: k.case_insensitive.unwrap_or(false),
            whole_word: k.whole_word.unwrap_or(false),
            action: action(k.action),
        });
    }
    // Per detector: the user's table where they wrote one, else the
    // built-in one (`merge::fill_defaults`); detector names and word lists
    // are checked where they are used (`redact::check_context`).
    let mut context = Vec::new();
    for (detector, c) in r.context.map(|c| c.0).unwrap_or_default() {
        let c = c.into_inner();
        // Named bare: the detector's name is not a key, and a public form
        // of the error would hide a path holding it.
        let window = ctx
            .int(&c.window, "", &RawContext::window)
            .and_then(|w| usize::try_from(w).ok());
        context.push(crate::redact::ContextRule {
            detector,
            words: c.words,
            not_words: c.not_words,
            window,
        });
    }
    let settings = RedactSettings {
        context,
        builtin: strings(r.builtin),
        key_file,
        allow_unredacted_sinks: strings(r.allow_unredacted_sinks),
        pseudonym_prefixes: strings(r.pseudonym_prefixes),
        patterns,
        keywords,
    };
    (settings, at)
}

/// `[fleet]`: a store URL we can use (no password in it: that belongs in
/// `password_file`, never in a policy file that is hashed, shown and
/// copied), a replica count of at least 1, a replica id fit for an audit
/// entry, a store timeout within reason, and a store key whenever there is
/// a store (with where it is written).
fn fleet_settings(ctx: &mut Ctx<'_>, m: RawFleet) -> (FleetSettings, Option<Loc>) {
    let d = FleetSettings::default();
    let budget_store = m
        .budget_store
        .as_ref()
        .and_then(|v| match BudgetStoreUrl::parse(v.get_ref()) {
            Ok(url) => Some(url),
            Err(why) => {
                // SECURITY: `why` is a fixed phrase; the URL, which may
                // hold a password, is never quoted.
                ctx.err_hint(
                    v.span(),
                    format!("`fleet.budget_store` {why}"),
                    "write it like `redis://10.0.0.5:6379` or `rediss://store.internal:6380`; put a password in `fleet.password_file`",
                );
                None
            }
        });
    let password_file = m.password_file.as_ref().map(|v| ctx.path(v));
    if let (Some(v), None) = (&m.password_file, &m.budget_store) {
        ctx.err(
            v.span(),
            "`fleet.password_file` is set but `fleet.budget_store` is not",
        );
    }
    let store_key_file = m.store_key_file.as_ref().map(|v| ctx.path(v));
    let store_key_at = ctx.loc_of(&m.store_key_file);
    match (&m.store_key_file, &m.budget_store) {
        (Some(v), None) => ctx.err(
            v.span(),
            "`fleet.store_key_file` is set but `fleet.budget_store` is not",
        ),
        // SECURITY: a store whose counts are not sealed can be raised by
        // anyone who can write to it.
        (None, Some(v)) => ctx.err_hint(
            v.span(),
            "`fleet.budget_store` needs `fleet.store_key_file`",
            "the replicas seal the budget counts in the store with a key the store never sees: write one with `openssl rand -hex 32 > store.key`, give every replica the same file and name it in `fleet.store_key_file`",
        ),
        _ => {}
    }
    let replicas = ctx
        .int(&m.replicas, "fleet", &RawFleet::replicas)
        .and_then(|v| u64::try_from(v).ok())
        .unwrap_or(d.replicas);
    let replica_id = m.replica_id.as_ref().and_then(|v| {
        let id = v.get_ref();
        if is_replica_id(id) {
            Some(id.clone())
        } else {
            ctx.err_hint(
                v.span(),
                "`fleet.replica_id` is not a valid replica id",
                "use 1 to 64 of `A-Z a-z 0-9 . _ -`",
            );
            None
        }
    });
    let store_timeout = ctx.timeout(&m.store_timeout, "fleet", &RawFleet::store_timeout);
    let settings = FleetSettings {
        budget_store,
        password_file,
        store_key_file,
        replicas,
        replica_id,
        store_timeout,
    };
    (settings, store_key_at)
}

/// `[standard.otlp] schema_url`, `scope_name`, `scope_version`,
/// `event_name`, `span_name`: string rules (the defaults always supply them).
fn otlp_structure(ctx: &mut Ctx<'_>, rules: [Option<Spanned<RawRule>>; 5]) -> OtlpStructure {
    let [schema_url, scope_name, scope_version, event_name, span_name] = rules.map(|slot| {
        let slot = slot?;
        let span = slot.span();
        let rule = field_rule(ctx, Spanned::new(span.clone(), slot.into_inner().0))?;
        if rule.ty != ValueType::String {
            ctx.err(span, "an otlp structural rule must be `type = \"string\"`");
            return None;
        }
        Some(rule)
    });
    let fallback = || FieldRule {
        ty: ValueType::String,
        free_text: false,
        nullable: false,
        pattern: None,
        // SECURITY: a missing rule (only if the defaults were broken, or
        // the user's rule was refused) admits nothing but the empty string.
        one_of: Some(Vec::new()),
        min: None,
        max: None,
        max_len: None,
        segments: None,
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

/// `[standard] detectors`: names of built-in detectors, each once.
fn standard_detectors(ctx: &mut Ctx<'_>, v: Option<Vec<Spanned<String>>>) -> Vec<String> {
    let Some(v) = v else {
        return Vec::new();
    };
    let names = crate::redact::builtin_names();
    let mut out: Vec<String> = Vec::new();
    for name in v {
        if !names.contains(&name.get_ref().as_str()) {
            let hint = suggestion(name.get_ref(), names)
                .unwrap_or_else(|| format!("the built-in detectors are {}", names.join(", ")));
            ctx.err_hint(
                name.span(),
                format!(
                    "unknown detector `{}`",
                    crate::finding::escape_key(name.get_ref())
                ),
                hint,
            );
        } else if out.contains(name.get_ref()) {
            ctx.err(
                name.span(),
                format!("detector `{}` is listed twice", shown(name.get_ref())),
            );
        } else {
            out.push(name.into_inner());
        }
    }
    out
}

/// `[[source]]`: only `kind = "file"` with a `path` exists.
fn sources(ctx: &mut Ctx<'_>, raw: Vec<Spanned<RawSource>>) -> (Vec<FileSource>, Vec<Loc>) {
    let mut out = Vec::new();
    let mut at = Vec::new();
    for v in &raw {
        let s = v.get_ref();
        match s.kind.as_ref().map(|k| k.get_ref().as_str()) {
            Some("file") => {}
            Some(other) => {
                let span = s.kind.as_ref().map_or(v.span(), |k| k.span());
                ctx.err_hint(
                    span,
                    format!("unknown [[source]] kind `{}`", shown(other)),
                    "the only kind is `file`",
                );
                continue;
            }
            None => {
                ctx.missing(v.span(), "source", "kind", None);
                continue;
            }
        }
        match &s.path {
            Some(p) if !p.get_ref().trim().is_empty() => {
                at.push(ctx.loc(p.span()));
                out.push(FileSource { path: ctx.path(p) })
            }
            Some(p) => ctx.err(p.span(), "[[source]] has an empty `path`"),
            None => ctx.missing(v.span(), "source", "path", None),
        }
    }
    (out, at)
}

/// `[server]`: every number positive and bounded, the address parseable.
fn server_settings(ctx: &mut Ctx<'_>, m: RawServer) -> ServerSettings {
    let d = ServerSettings::default();
    // A socket address, or `None` with the error reported.
    let addr = |ctx: &mut Ctx<'_>, v: &Spanned<String>, key: &str, example: &str| {
        let a = v.get_ref().parse::<std::net::SocketAddr>();
        a.map_err(|_| {
            let msg = format!("`server.{key}` is not a socket address");
            ctx.err_hint(v.span(), msg, format!("write it like {example}"));
        })
        .ok()
    };
    let listen = m.listen.as_ref().map_or(d.listen, |v| {
        addr(ctx, v, "listen", "`127.0.0.1:4318` or `[::1]:4318`").unwrap_or(d.listen)
    });
    // Resource bounds of `serve`: each has an upper bound too, so that no
    // setting can switch a bound off.
    let mut bounded = |v: &Option<Spanned<i64>>, key: &Key| ctx.size(v, "server", key);
    let max_body_bytes = bounded(&m.max_body_bytes, &RawServer::max_body_bytes);
    let queue_records = bounded(&m.queue_records, &RawServer::queue_records);
    let queue_bytes = bounded(&m.queue_bytes, &RawServer::queue_bytes);
    let max_connections = bounded(&m.max_connections, &RawServer::max_connections);
    let structure = crate::policy::StructureLimits {
        max_spans: bounded(&m.max_spans, &RawServer::max_spans),
        max_log_records: bounded(&m.max_log_records, &RawServer::max_log_records),
        max_events: bounded(&m.max_events, &RawServer::max_events),
        max_links: bounded(&m.max_links, &RawServer::max_links),
        max_attributes: bounded(&m.max_attributes, &RawServer::max_attributes),
        max_nesting: bounded(&m.max_nesting, &RawServer::max_nesting),
    };
    let decode_memory_bytes = bounded(&m.decode_memory_bytes, &RawServer::decode_memory_bytes);
    let mut timeout = |v: &Option<Spanned<String>>, key: &Key| ctx.timeout(v, "server", key);
    let flush_interval = timeout(&m.flush_interval, &RawServer::flush_interval);
    let header_read_timeout = timeout(&m.header_read_timeout, &RawServer::header_read_timeout);
    let body_read_timeout = timeout(&m.body_read_timeout, &RawServer::body_read_timeout);
    let idle_timeout = timeout(&m.idle_timeout, &RawServer::idle_timeout);
    let retry = export_retry(ctx, &m);
    let grpc_listen = match &m.grpc_listen {
        Some(v) if v.get_ref() == "off" => None,
        Some(v) => addr(
            ctx,
            v,
            "grpc_listen",
            "`127.0.0.1:4317` or `[::1]:4317`, or `off`",
        )
        .or(d.grpc_listen),
        None => d.grpc_listen,
    };
    let tls = match (&m.tls_cert_file, &m.tls_key_file) {
        (Some(c), Some(k)) => Some(crate::policy::tls::ServerTls {
            cert: crate::policy::tls::LoadedFile::at(ctx.path(c)),
            key: crate::policy::tls::LoadedFile::at(ctx.path(k)),
            client_ca: m
                .tls_client_ca_file
                .as_ref()
                .map(|v| crate::policy::tls::LoadedFile::at(ctx.path(v))),
        }),
        (None, None) => {
            if let Some(v) = &m.tls_client_ca_file {
                ctx.err(
                    v.span(),
                    "`server.tls_client_ca_file` needs `tls_cert_file` and `tls_key_file`",
                );
            }
            None
        }
        (Some(v), None) | (None, Some(v)) => {
            ctx.err(
                v.span(),
                "`server.tls_cert_file` and `server.tls_key_file` go together",
            );
            None
        }
    };
    let bearer_token = m
        .bearer_token_file
        .as_ref()
        .map(|v| crate::policy::tls::Secret::at(ctx.path(v)));
    ServerSettings {
        listen,
        max_body_bytes,
        queue_records,
        queue_bytes,
        flush_interval,
        retry,
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

/// `[server] retry_*`: positive durations, each at most its cap, the
/// first wait no longer than the longest.
fn export_retry(ctx: &mut Ctx<'_>, m: &RawServer) -> ExportRetry {
    let mut get = |v: &Option<Spanned<String>>, key: &Key| ctx.timeout(v, "server", key);
    let r = ExportRetry {
        initial_interval: get(
            &m.retry_initial_interval,
            &RawServer::retry_initial_interval,
        ),
        max_interval: get(&m.retry_max_interval, &RawServer::retry_max_interval),
        max_elapsed: get(&m.retry_max_elapsed, &RawServer::retry_max_elapsed),
    };
    if r.initial_interval > r.max_interval
        && let Some(v) = m
            .retry_initial_interval
            .as_ref()
            .or(m.retry_max_interval.as_ref())
    {
        ctx.err_hint(
            v.span(),
            "`server.retry_initial_interval` is longer than `server.retry_max_interval`",
            "the first wait cannot be longer than the longest",
        );
    }
    r
}

/// A sink's `spool_dir` and `spool_max_bytes`: an OTLP output of a
/// standard sink only.
fn spool_settings(
    ctx: &mut Ctx<'_>,
    dir: Option<&Spanned<String>>,
    max_bytes_v: Option<&Spanned<i64>>,
    full_allowed: Option<bool>,
    output: Option<&SinkOutput>,
) -> Option<SpoolSettings> {
    let Some(dir) = dir else {
        if let Some(v) = max_bytes_v {
            ctx.err(v.span(), "sink `spool_max_bytes` needs `spool_dir`");
        }
        return None;
    };
    let mut ok = true;
    if full_allowed == Some(true) {
        // SECURITY: a spool is a store of what the sink receives, in the
        // clear on this host's disk; a full sink receives content. Content
        // is kept only where the policy's sinks and windows say, so it is
        // never spooled.
        ctx.err_hint(
            dir.span(),
            "sink `spool_dir` on a `full_allowed` sink would keep content on disk",
            "spool only standard sinks; a full sink's exports that the receiver does not take are dropped and counted",
        );
        ok = false;
    }
    if let Some(SinkOutput::File(_) | SinkOutput::Stdout) = output {
        ctx.err_hint(
            dir.span(),
            "sink `spool_dir` is for OTLP outputs",
            "a `file:PATH` or `stdout` output does not retry: remove `spool_dir`",
        );
        ok = false;
    }
    if dir.get_ref().is_empty() {
        ctx.err(dir.span(), "sink `spool_dir` is empty");
        ok = false;
    }
    let max_bytes = match max_bytes_v {
        Some(v) => match ctx.int(&Some(v.clone()), "sink", &RawSink::spool_max_bytes) {
            Some(n) => n.unsigned_abs(),
            None => {
                ok = false;
                0
            }
        },
        None => DEFAULT_SPOOL_MAX_BYTES,
    };
    ok.then(|| SpoolSettings {
        dir: ctx.resolve(dir.span(), dir.get_ref()),
        max_bytes,
    })
}

/// A sink's `tls_ca_file`, `tls_cert_file`, `tls_key_file` and
/// `bearer_token_file`, put into its exporter; each needs a TLS output
/// (`otlp+https://`, `otlp+grpcs://`).
fn exporter_settings(
    ctx: &mut Ctx<'_>,
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
                        v.span(),
                        format!("sink `{}` needs a TLS output", shown(k)),
                        "use `otlp+https://HOST:PORT` or `otlp+grpcs://HOST:PORT`",
                    );
                }
            }
            return output;
        }
    };
    let at = |v: &Spanned<String>| LoadedFile::at(ctx.path(v));
    if let Some(tls) = &mut exporter.tls {
        tls.ca = ca.as_ref().map(at);
        match (cert, key) {
            (Some(c), Some(k)) => tls.identity = Some((at(c), at(k))),
            (None, None) => {}
            (Some(v), None) | (None, Some(v)) => ctx.err(
                v.span(),
                "sink `tls_cert_file` and `tls_key_file` go together",
            ),
        }
    }
    exporter.bearer_token = token.as_ref().map(|v| Secret::at(ctx.path(v)));
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

/// Parse `30m`, `2h 30m`, `PT2H`.
pub fn parse_duration(s: &str) -> Option<SignedDuration> {
    s.trim().parse::<SignedDuration>().ok()
}

/// An allowlist's rules, with each name and where it is written.
fn field_set(
    ctx: &mut Ctx<'_>,
    fields: Option<RawAllowlist>,
) -> (FieldSet, Vec<(String, Range<usize>)>) {
    let Some(a) = fields else {
        return (FieldSet::default(), Vec::new());
    };
    let spans: Vec<(String, Range<usize>)> = a
        .fields
        .keys()
        .map(|k| (k.get_ref().clone(), k.span()))
        .collect();
    for (name, at) in &spans {
        refuse_reserved(ctx, name, at.clone());
    }
    (field_map(ctx, a.fields), spans)
}

/// SECURITY: the names sealed capture writes (`tracegate.sealed`,
/// `tracegate.segment`) are the gate's alone. On an allowlist, a
/// producer's own member of that name would pass and pose as a sealed
/// value or a segment header in a capture (or fail its opening); as a
/// content field it would be sealed as content. Refused wherever a policy
/// names a field or attribute.
fn refuse_reserved(ctx: &mut Ctx<'_>, name: &str, at: Range<usize>) {
    if crate::seal::is_reserved_key(name) {
        ctx.err_hint(
            at,
            format!("`{name}` is reserved for sealed capture: only the gate writes it"),
            "remove it from this list (a record's own member of that name is always stripped)",
        );
    }
}

fn field_map(ctx: &mut Ctx<'_>, v: RawFields) -> FieldSet {
    let mut entries = Vec::with_capacity(v.len());
    for (name, rule) in v {
        if let Some(r) = field_rule(ctx, rule) {
            entries.push((name.into_inner(), r));
        }
    }
    FieldSet::new(entries)
}

fn field_rule(ctx: &mut Ctx<'_>, raw: Spanned<RawField>) -> Option<FieldRule> {
    let span = raw.span();
    let r = raw.into_inner();
    let Some(ty_name) = r.r#type else {
        ctx.absent(
            span,
            ".type",
            "field rule has no `type`",
            Some("add `type = \"string\"` (or number, integer, boolean, null, array, object)"),
        );
        return None;
    };
    let Some(ty) = ValueType::from_name(ty_name.get_ref()) else {
        let names = ValueType::ALL.map(ValueType::as_str);
        let hint = suggestion(ty_name.get_ref(), &names)
            .unwrap_or_else(|| format!("use one of {}", names.join(", ")));
        ctx.err_hint(
            ty_name.span(),
            format!("unknown type `{}`", shown(ty_name.get_ref())),
            hint,
        );
        return None;
    };
    let unicode = r.unicode.unwrap_or(false);
    let has_pattern = r.pattern.is_some();
    let pattern = match r.pattern {
        Some(p) if ty != ValueType::String => {
            ctx.err(p.span(), "`pattern` applies only to strings");
            None
        }
        // SECURITY: `Pattern::compile` anchors every pattern, so `abc`
        // cannot match a sentence containing abc.
        Some(p) => {
            let key = (p.get_ref().clone(), unicode);
            let cached = ctx.patterns.get(&key).cloned();
            match cached.map_or_else(|| super::rule::Pattern::compile(p.get_ref(), unicode), Ok) {
                Ok(re) => {
                    ctx.patterns.insert(key, re.clone());
                    Some(re)
                }
                Err(e) => {
                    ctx.err(p.span(), e.to_string());
                    None
                }
            }
        }
        None => None,
    };
    // A key of this rule taken out for an error of its own (a `patern`
    // typo, a `one_of` that is not a list) was most likely the constraint:
    // that error is reported, this one would be its echo. The policy is
    // refused either way.
    let lost_a_key = ctx
        .removed
        .iter()
        .any(|(s, _)| span.start <= s.start && s.end <= span.end);
    // SECURITY: a standard string with neither a pattern nor a list of
    // values admits any sentence; the policy must say that is intended.
    if ty == ValueType::String
        && r.one_of.is_none()
        && !has_pattern
        && !r.free_text.unwrap_or(false)
        && !lost_a_key
    {
        ctx.err_hint(
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
                ctx.err(v.span(), format!("`{key}` must not be negative"));
                None
            }
        }
    };
    let segments = segments(
        ctx,
        ty,
        [r.max_segments, r.max_segment_len, r.max_words],
        r.separators,
    );
    let max_len = usize_of(ctx, r.max_len, "max_len");
    let max_items = usize_of(ctx, r.max_items, "max_items");
    if let (Some(lo), Some(hi)) = (r.min, r.max)
        && lo > hi
    {
        ctx.err(span.clone(), "`min` is greater than `max`");
    }
    let items = match r.items {
        Some(i) if ty == ValueType::Array => field_rule(ctx, *i).map(Box::new),
        Some(i) => {
            ctx.err(i.span(), "`items` applies only to arrays");
            None
        }
        None if ty == ValueType::Array => {
            ctx.err_hint(
                span.clone(),
                "array field has no `items` rule",
                "say what every element must be, e.g. `items = { type = \"string\" }`",
            );
            None
        }
        None => None,
    };
    let fields = match r.fields {
        Some(f) if ty == ValueType::Object => Some(field_map(ctx, f)),
        Some(f) => {
            let s = f.keys().next().map_or(span.clone(), |k| k.span());
            ctx.err(s, "`fields` applies only to objects");
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
        segments,
        required: r.required.unwrap_or(false),
        items,
        max_items,
        fields,
    })
}

/// A string rule's segment bounds (`max_segments`, `max_segment_len`,
/// `max_words`, `separators`), checked: `None` when it sets none of them
/// (or they are refused, with an error).
fn segments(
    ctx: &mut Ctx<'_>,
    ty: ValueType,
    values: [Option<Spanned<i64>>; 3],
    separators: Option<Spanned<String>>,
) -> Option<Segments> {
    let keys = [
        ("max_segments", 1),
        ("max_segment_len", 1),
        ("max_words", 0),
    ];
    let mut bounds = [None; 3];
    let mut ok = true;
    for (((key, least), value), bound) in keys.into_iter().zip(values).zip(bounds.iter_mut()) {
        let Some(v) = value else { continue };
        if ty != ValueType::String {
            ctx.err(v.span(), format!("`{key}` applies only to strings"));
            ok = false;
            continue;
        }
        match usize::try_from(*v.get_ref()) {
            Ok(n) if n >= least => *bound = Some(n),
            _ => {
                ctx.err(v.span(), format!("`{key}` must be at least {least}"));
                ok = false;
            }
        }
    }
    let separators = match separators {
        None => None,
        Some(s) if ty != ValueType::String => {
            ctx.err(s.span(), "`separators` applies only to strings");
            return None;
        }
        // Only punctuation and space separate: a segment then stays a run
        // of letters, digits and non-ASCII text, and a word one without a
        // digit, whatever the policy lists (a digit that separated could
        // not also make its segment no word).
        Some(s)
            if s.get_ref().is_empty()
                || !s
                    .get_ref()
                    .bytes()
                    .all(|b| b == b' ' || b.is_ascii_punctuation()) =>
        {
            ctx.err_hint(
                s.span(),
                "`separators` must hold ASCII punctuation or space, and at least one",
                "list punctuation such as `._-`, or leave the key out: then every ASCII byte that is not a letter or digit separates",
            );
            return None;
        }
        Some(s) => Some(s),
    };
    if bounds.iter().all(Option::is_none) {
        if let (Some(s), true) = (&separators, ok) {
            ctx.err_hint(
                s.span(),
                "`separators` without a bound does nothing",
                "add `max_segments`, `max_segment_len` or `max_words`",
            );
        }
        return None;
    }
    let [max_segments, max_segment_len, max_words] = bounds;
    Segments::new(
        separators.as_ref().map(|s| s.get_ref().as_bytes()),
        max_segments,
        max_segment_len,
        max_words,
    )
}

fn audit_settings(ctx: &mut Ctx<'_>, a: RawAudit) -> Option<AuditSettings> {
    let RawAudit {
        path,
        key_file,
        lock_timeout,
        anchor,
        signing_key,
    } = a;
    let timeout = ctx.timeout(&lock_timeout, "audit", &RawAudit::lock_timeout);
    let key_file = key_file.map(|v| ctx.path(&v));
    let signing_key = signing_key.and_then(|a| {
        if a.get_ref().trim().is_empty() {
            ctx.err(a.span(), "`audit.signing_key` is empty");
            return None;
        }
        Some(ctx.path(&a))
    });
    let path = path?;
    if path.get_ref().trim().is_empty() {
        ctx.err(path.span(), "`audit.path` is empty");
        return None;
    }
    let log = ctx.resolve(path.span(), path.get_ref());
    let anchor = match anchor {
        None => None,
        Some(a) => {
            let resolved = ctx.path(&a);
            // SECURITY: an anchor beside the log falls with it; the lexical
            // check here is repeated on resolved folders when the log opens.
            if a.get_ref().trim().is_empty() {
                ctx.err(a.span(), "`audit.anchor` is empty");
            } else if resolved.is_absolute()
                && log.is_absolute()
                && lexical_parent(&resolved).starts_with(lexical_parent(&log))
            {
                ctx.err_hint(
                    a.span(),
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
        lock_timeout: timeout,
        anchor,
        signing_key,
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

/// The sinks, where each one's `output` is, where its table is, and where
/// its `max_free_bits` is (each in sink order).
type Sinks = (Vec<Sink>, Vec<Option<Loc>>, Vec<Loc>, Vec<Option<Loc>>);

fn sinks(
    ctx: &mut Ctx<'_>,
    raw: Vec<Spanned<RawSink>>,
    pseudonymizable: &dyn Fn(&str) -> bool,
) -> Sinks {
    let mut out: Vec<Sink> = Vec::new();
    let mut at = Vec::new();
    let mut table_at = Vec::new();
    let mut free_bits_at = Vec::new();
    let mut refs: Vec<(usize, Spanned<String>)> = Vec::new();
    for v in raw {
        let span = v.span();
        let s = v.into_inner();
        let Some(name) = s.name else {
            ctx.missing(span, "sink", "name", None);
            continue;
        };
        if !valid_name(name.get_ref()) {
            ctx.err_hint(
                name.span(),
                "sink name is not a valid name",
                "use letters, digits, `-`, `_` and `.`, at most 64",
            );
            continue;
        }
        if out.iter().any(|o| o.name == *name.get_ref()) {
            ctx.err(
                name.span(),
                format!("sink `{}` is defined twice", shown(name.get_ref())),
            );
            continue;
        }
        let output_at = ctx.loc_of(&s.output);
        let output = s.output.and_then(|o| {
            let parsed = SinkOutput::parse(o.get_ref(), |p| ctx.resolve(o.span(), p));
            if parsed.is_none() {
                ctx.err_hint(
                    o.span(),
                    "unknown sink output",
                    "use `file:PATH`, `stdout`, or `otlp+http://`, `otlp+https://`, `otlp+grpc://` or `otlp+grpcs://` and `HOST:PORT`",
                );
            }
            parsed
        });
        let spool = spool_settings(
            ctx,
            s.spool_dir.as_ref(),
            s.spool_max_bytes.as_ref(),
            s.full_allowed,
            output.as_ref(),
        );
        if let (Some(sp), Some(v)) = (&spool, &s.spool_dir)
            && let Some(other) = out
                .iter()
                .find(|o| o.spool.as_ref().is_some_and(|x| x.dir == sp.dir))
        {
            // Each spool has one writer: its entries are one sink's queue.
            ctx.err(
                v.span(),
                format!(
                    "sink `spool_dir` is the spool of sink `{}` too",
                    shown(&other.name)
                ),
            );
        }
        let output = exporter_settings(
            ctx,
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
            Some(v) => match &v.get_ref().0 {
                toml::Value::Boolean(true) => SinkRedact::Policy,
                toml::Value::Boolean(false) => SinkRedact::Off,
                toml::Value::Array(a) if a.iter().all(|x| x.is_str()) => SinkRedact::Only(
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect(),
                ),
                _ => {
                    ctx.err(
                        v.span(),
                        "sink `redact` must be `false` or a list of detector names",
                    );
                    SinkRedact::Policy
                }
            },
        };
        at.push(output_at);
        table_at.push(ctx.loc(span.clone()));
        let mut pseudonymize = Vec::new();
        for p in s.pseudonymize.clone().unwrap_or_default() {
            if pseudonymizable(p.get_ref()) {
                pseudonymize.push(p.into_inner());
            } else {
                ctx.err_hint(
                    p.span(),
                    format!(
                        "`pseudonymize` names `{}`, which no standard allowlist holds",
                        crate::finding::escape_key(p.get_ref())
                    ),
                    "name a string field of [standard.fields], [standard.evidence.fields], an attribute of [standard.otlp.*_attributes], or traceId, spanId, parentSpanId",
                );
            }
        }
        // A sink that says nothing about pseudonyms gets the identifiers
        // the defaults name, wherever a redaction key is set (decided with
        // the key, in `redaction.rs`); `pseudonymize = []` opts out.
        let pseudonymize_by_default = if s.pseudonymize.is_none() {
            DEFAULT_PSEUDONYMIZED
                .iter()
                .filter(|n| pseudonymizable(n))
                .map(|n| n.to_string())
                .collect()
        } else {
            Vec::new()
        };
        let max_free_bits = s.max_free_bits.as_ref().and_then(|v| {
            free_bits_limit(&v.get_ref().0)
                .map_err(|e| ctx.err(v.span(), e))
                .ok()
        });
        free_bits_at.push(ctx.loc_of(&s.max_free_bits));
        let seal_to = seal_recipients(ctx, s.seal_to.as_deref(), s.full_allowed, span.clone());
        if let Some(r) = s.content_refs {
            refs.push((out.len(), r));
        }
        out.push(Sink {
            name: name.into_inner(),
            full_allowed: s.full_allowed.unwrap_or(false),
            output,
            redact,
            pseudonymize,
            pseudonymize_by_default,
            spool,
            max_free_bits,
            seal_to,
            content_refs: None,
        });
    }
    for (i, r) in refs {
        let target = out.iter().find(|t| t.name == *r.get_ref());
        let problem = match (target, out.get(i)) {
            (None, _) => Some("names no sink of this policy"),
            (Some(t), Some(s)) if t.name == s.name => Some("names the sink itself"),
            (Some(t), _) if t.seal_to.is_empty() => Some(
                "names a sink that does not seal (`seal_to`): its captures hold content in clear, so nothing to point to",
            ),
            (_, Some(s)) if s.output.is_none() => {
                Some("is for a sink with an `output` (references are written by serve)")
            }
            _ => None,
        };
        match problem {
            Some(p) => ctx.err(
                r.span(),
                format!("sink `content_refs` = `{}` {p}", shown(r.get_ref())),
            ),
            None => {
                if let Some(s) = out.get_mut(i) {
                    s.content_refs = Some(r.into_inner());
                }
            }
        }
    }
    (out, at, table_at, free_bits_at)
}

/// A sink's `seal_to`: age X25519 recipients, each once, for a
/// `full_allowed` sink only (a standard sink holds no content to seal).
/// Errors never quote a key (a mistyped identity pasted here is secret).
fn seal_recipients(
    ctx: &mut Ctx<'_>,
    keys: Option<&[Spanned<String>]>,
    full_allowed: Option<bool>,
    table: std::ops::Range<usize>,
) -> Vec<crate::seal::Recipient> {
    let Some(keys) = keys else {
        return Vec::new();
    };
    if full_allowed != Some(true) {
        ctx.err_hint(
            table,
            "sink `seal_to` on a sink that is not full_allowed: it never holds content to seal",
            "remove `seal_to`, or set `full_allowed = true`",
        );
        return Vec::new();
    }
    if keys.is_empty() || keys.len() > crate::seal::MAX_RECIPIENTS {
        ctx.err(
            table,
            format!(
                "sink `seal_to` needs 1 to {} recipients",
                crate::seal::MAX_RECIPIENTS
            ),
        );
        return Vec::new();
    }
    let mut out: Vec<crate::seal::Recipient> = Vec::with_capacity(keys.len());
    for k in keys {
        match crate::seal::Recipient::parse(k.get_ref()) {
            Ok(r) if out.contains(&r) => {
                ctx.err(k.span(), "sink `seal_to` names a recipient twice")
            }
            Ok(r) => out.push(r),
            Err(_) => {
                // SECURITY: the line is not shown: a value here that is not
                // a recipient may be an identity pasted by mistake.
                let mut loc = ctx.loc(k.span());
                loc.snippet = None;
                let e = loc
                    .error("sink `seal_to` holds a value that is not an age X25519 recipient")
                    .with_hint("write the public key `age1...` that `tracegate capture keygen` or `age-keygen` prints (never the AGE-SECRET-KEY-1 line)");
                ctx.errors.push(e);
            }
        }
    }
    out
}

/// A sink's `max_free_bits`: one integer for every record format, or a
/// table of integers by format name.
fn free_bits_limit(v: &toml::Value) -> Result<FreeBitsLimit, String> {
    let bits = |key: &str, v: &toml::Value| match v.as_integer() {
        Some(n) if n >= 0 => Ok(n as u64),
        _ => Err(format!("`{key}` must be a whole number of bits, 0 or more")),
    };
    let mut limit = FreeBitsLimit::default();
    match v {
        toml::Value::Table(t) => {
            if t.is_empty() {
                return Err("`max_free_bits` names no record format: write `{ otlp_span = 20000 }`, or one number for every format".into());
            }
            for (name, n) in t {
                let Some(format) = capacity::RecordFormat::from_name(name) else {
                    return Err(format!(
                        "`max_free_bits` names `{}`, not a record format: use `cf`, `otlp_span`, `otlp_log` or `evidence`",
                        shown(name)
                    ));
                };
                limit.set(
                    format,
                    bits(&format!("max_free_bits.{}", format.as_str()), n)?,
                );
            }
        }
        n => {
            let n = bits("max_free_bits", n)?;
            for format in capacity::RecordFormat::ALL {
                limit.set(format, n);
            }
        }
    }
    Ok(limit)
}

/// Identifiers a sink without a `pseudonymize` key pseudonymizes when a
/// redaction key is set: ids that link a person's conversations across
/// requests, which a standard sink needs to group by but not to read
/// (`gen_ai.conversation.id`), and the user, client and MCP resource
/// identifiers of the current conventions, wherever an allowlist holds
/// them (the defaults do not: a policy that allows them gets them
/// pseudonymized).
pub const DEFAULT_PSEUDONYMIZED: &[&str] = &[
    "gen_ai.conversation.id",
    "user.id",
    "client.address",
    "mcp.resource.uri",
];

/// Names of sinks and windows: safe in file names, logs and metrics.
pub fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && !s.starts_with('.')
}

fn timestamp(ctx: &mut Ctx<'_>, v: &Spanned<RawTime>, key: &str) -> Option<Timestamp> {
    let text = match v.get_ref() {
        RawTime::Text(s) => s.clone(),
        RawTime::Toml(d) => d.to_string(),
    };
    match text.parse::<Timestamp>() {
        Ok(t) => Some(t),
        Err(_) => {
            ctx.err_hint(
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
    raw: Vec<Spanned<RawWindow>>,
    sinks: &[Sink],
    max: SignedDuration,
) -> Vec<Window> {
    let mut out: Vec<Window> = Vec::new();
    let mut ids = HashSet::new();
    for v in raw {
        let span = v.span();
        let w = v.into_inner();
        let mut ok = true;
        let id = match w.id {
            Some(id) if valid_name(id.get_ref()) => {
                if !ids.insert(id.get_ref().clone()) {
                    ctx.err(
                        id.span(),
                        format!("window id `{}` is used twice", shown(id.get_ref())),
                    );
                    ok = false;
                }
                id.into_inner()
            }
            Some(id) => {
                ctx.err_hint(
                    id.span(),
                    "window id is not a valid name",
                    "use letters, digits, `-`, `_` and `.`, at most 64",
                );
                ok = false;
                String::new()
            }
            None => {
                ctx.missing(span.clone(), "window", "id", None);
                ok = false;
                String::new()
            }
        };
        let sink = match w.sink {
            Some(s) => {
                match sinks.iter().find(|k| k.name == *s.get_ref()) {
                    // A sink entry already reported broken: not a second error.
                    None if ctx.removed_under("sink") => ok = false,
                    None => {
                        let names: Vec<&str> = sinks.iter().map(|k| k.name.as_str()).collect();
                        let hint = suggestion(s.get_ref(), &names).unwrap_or_else(|| {
                            "windows open a sink defined by [[sink]]".to_string()
                        });
                        ctx.err_hint(
                            s.span(),
                            format!("window names unknown sink `{}`", shown(s.get_ref())),
                            hint,
                        );
                        ok = false;
                    }
                    Some(k) if !k.full_allowed => {
                        ctx.err_hint(s.span(), format!("sink `{}` is not full_allowed", shown(s.get_ref())), "a window opens only a sink on the full allowlist (`full_allowed = true`)");
                        ok = false;
                    }
                    Some(_) => {}
                }
                s.into_inner()
            }
            None => {
                ctx.missing(span.clone(), "window", "sink", None);
                ok = false;
                String::new()
            }
        };
        let start = match &w.start {
            Some(s) => timestamp(ctx, s, "start"),
            None => {
                ctx.missing(span.clone(), "window", "start", None);
                None
            }
        };
        let end = match &w.end {
            Some(e) => timestamp(ctx, e, "end"),
            None => {
                ctx.missing(
                    span.clone(),
                    "window",
                    "end",
                    Some("an unbounded window is not allowed; set `end`"),
                );
                None
            }
        };
        let text = |ctx: &mut Ctx<'_>, v: Option<Spanned<String>>, key: &str| -> Option<String> {
            match v {
                Some(s) if !s.get_ref().trim().is_empty() => Some(s.into_inner()),
                Some(s) => {
                    ctx.err(s.span(), format!("window `{key}` is empty"));
                    None
                }
                None => {
                    ctx.missing(span.clone(), "window", key, None);
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
                    ctx.err(v.span(), format!("`{key}` must be positive"));
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
                    sp,
                    "`unbounded = true` contradicts the window's `max_records`/`max_bytes`",
                );
                ok = false;
            }
            Some((true, _)) => {}
            // SECURITY: a window file caught half-written may lack its
            // budget lines; a window in windows/ must say it has none.
            _ if !has_budget && ctx.is_window_file(span.start) => {
                ctx.err_hint(
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
            ctx.err(end_span, "window ends before it starts");
            continue;
        }
        let length = end.duration_since(start);
        if length > max {
            ctx.err_hint(
                end_span,
                format!(
                    "window is {} long, longer than `[full] max_window` ({})",
                    friendly(length),
                    friendly(max)
                ),
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
                "window `{}` overlaps window `{}` on sink `{}`",
                shown(&id),
                shown(&other.id),
                shown(&sink)
            );
            ctx.err_hint(span.clone(), msg, "close one window before the next opens");
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
                span.clone(),
                format!(
                    "sink `{}` has more than {} windows",
                    shown(&sink),
                    super::chain::MAX_WINDOWS_PER_SINK
                ),
                "remove windows that have ended (`tracegate window close`, or delete their files)",
            );
            continue;
        }
        if let Some(open) = super::chain::too_much(&same_sink, (start, end), max) {
            ctx.err_hint(
                span.clone(),
                format!(
                    "window `{}` and the other windows of sink `{}` are open {} within {}, more than `max_window` ({})",
                    shown(&id),
                    shown(&sink),
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
            file: ctx.path_of(span.start),
        });
    }
    out
}

/// How messages name `key` of the table at `table`: `` `server.max_spans` ``,
/// or for an array of tables `` sink `spool_max_bytes` ``.
fn named(table: &str, key: &str) -> String {
    match table {
        "sink" | "window" | "source" => format!("{table} `{key}`"),
        "" => format!("`{key}`"),
        t => format!("`{t}.{key}`"),
    }
}

/// A duration as `2h 30m`.
pub fn friendly(d: SignedDuration) -> String {
    format!("{d:#}")
}
