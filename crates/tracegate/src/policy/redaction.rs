//! Each sink's redaction, built from the policy's `[redact]` section and
//! its sinks' `redact` / `pseudonymize` settings; and the other files a
//! policy refers to, read and hashed: the audit key, the TLS files and
//! bearer tokens (`tls_files`), and all of them again (`rehash`).
//!
//! This step reads files (keyword lists, the key) and the
//! `TRACEGATE_REDACT_KEY` variable, so it runs in
//! [`super::Policy::from_files`], after the pure compile. One [`Redactor`]
//! is compiled per policy and shared; a sink with its own `redact = [...]`
//! gets a subset. Every file read here is hashed into the policy's digest
//! (a key by its fingerprint).
//!
//! There is no default [`Redaction`]: the only way to get one is
//! `build`, so a policy cannot be made without its sinks' redaction.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::compile::{Draft, Loc};
use super::env::EnvUse;
use super::error::{PolicyError, PolicyErrors, shown, shown_path};
use super::load::{MAX_KEY_FILE_BYTES, MAX_KEYWORD_FILE_BYTES, read_regular};
use super::tls::{
    LoadedFile, MAX_PEM_FILE_BYTES, MAX_TOKEN_FILE_BYTES, MIN_TOKEN_BYTES, Secret, TlsCheck,
};
use super::{RefKind, Referenced, SinkOutput, SinkRedact};
use crate::redact::{
    Action, KeywordRule, PatternRule, RedactConfig, RedactConfigError, RedactKey, Redactor,
};

/// The environment variable that may hold the redaction key (hex, or raw
/// text of at least 16 bytes) when `[redact] key_file` is not set.
pub const KEY_ENV: &str = "TRACEGATE_REDACT_KEY";

/// The standard detectors could not be built (a bug: the policy compiler
/// refuses unknown names). Gates then fail closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the standard level's detectors could not be built")]
pub struct DetectorsBroken;

/// Compile the built-in detectors `names` (`[standard] detectors`): `Ok(None)` for none, `Err` when
/// they cannot be built.
pub fn compile_detectors(names: &[String]) -> Result<Option<Arc<Redactor>>, DetectorsBroken> {
    if names.is_empty() {
        return Ok(None);
    }
    let cfg = RedactConfig {
        builtin: names.to_vec(),
        patterns: Vec::new(),
        keywords: Vec::new(),
        context: Vec::new(),
    };
    Redactor::compile(&cfg, None)
        .map(|r| Some(Arc::new(r)))
        .map_err(|_| DetectorsBroken)
}

/// What one sink applies to the records it receives.
#[derive(Debug, Clone)]
pub struct SinkRedaction {
    /// Applied to content delivered at full level; `None`: nothing to apply.
    pub redactor: Option<Arc<Redactor>>,
    /// Identifier fields rewritten as keyed pseudonyms, at every level.
    pub pseudonymize: Vec<String>,
    /// The key for pseudonyms (present whenever `pseudonymize` is not empty).
    pub key: Option<RedactKey>,
}

impl SinkRedaction {
    /// Nothing redacted, nothing pseudonymized: only for a gate whose
    /// output never reaches a sink (`check` judges and reports, it never
    /// writes a record). Every path that delivers records takes its
    /// redaction from [`Redaction::sink`] instead.
    pub fn none_for_check() -> SinkRedaction {
        SinkRedaction {
            redactor: None,
            pseudonymize: Vec::new(),
            key: None,
        }
    }
}

/// The redaction of every sink of a policy. Built only by `build`.
#[derive(Debug, Clone)]
pub struct Redaction {
    sinks: HashMap<String, SinkRedaction>,
    policy: Option<Arc<Redactor>>,
    /// `[standard] detectors`, compiled once for every gate of the policy.
    standard: Result<Option<Arc<Redactor>>, DetectorsBroken>,
}

impl Redaction {
    /// The standard level's detectors, compiled once (`Err` when they could
    /// not be built: gates then fail closed).
    pub fn standard_detectors(&self) -> Result<Option<Arc<Redactor>>, DetectorsBroken> {
        self.standard.clone()
    }

    /// The policy's own `[redact]` rules, whatever the sinks say (for
    /// `tracegate redact`).
    pub fn policy_rules(&self) -> SinkRedaction {
        SinkRedaction {
            redactor: self.policy.clone(),
            ..SinkRedaction::none_for_check()
        }
    }

    /// The redaction of `sink`. For a sink the policy does not define, the
    /// policy's own rules: never less than the policy asks for.
    pub fn sink(&self, sink: &str) -> SinkRedaction {
        // SECURITY: an unknown name gets the full rules, not "none".
        self.sinks
            .get(sink)
            .cloned()
            .unwrap_or_else(|| self.policy_rules())
    }
}

/// What `build` made: the redaction and the files it read.
#[derive(Debug)]
pub struct Built {
    /// Each sink's redaction.
    pub redaction: Redaction,
    /// Keyword lists and the key, with their hashes.
    pub referenced: Vec<Referenced>,
}

/// The fingerprint of a key: a domain-separated SHA-256, so that the
/// audit log and `policy check` can say which key was in force without
/// holding it.
pub fn key_fingerprint(bytes: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(b"tracegate key fingerprint v1\0");
    h.update(bytes);
    hex::encode(h.finalize())
}

/// `[audit] key_file` as a referenced file (its fingerprint), read as the
/// policy is loaded so that a changed key changes the policy's digest.
pub(super) fn audit_key_reference(draft: &Draft) -> Result<Option<Referenced>, PolicyError> {
    let Some(path) = draft.audit.as_ref().and_then(|a| a.key_file.as_ref()) else {
        return Ok(None);
    };
    let err = key_error(draft, draft.audit_key_at.as_ref());
    key_reference(path, RefKind::AuditKey, "[audit] key_file", err).map(Some)
}

/// `[fleet] store_key_file` as a referenced file (its fingerprint), read
/// and checked as the policy is loaded: a key a replica cannot use would
/// otherwise only show as a store fault once it leases.
pub(super) fn store_key_reference(draft: &Draft) -> Result<Option<Referenced>, PolicyError> {
    let Some(path) = draft.fleet.store_key_file.as_ref() else {
        return Ok(None);
    };
    const WHAT: &str = "[fleet] store_key_file";
    let err = key_error(draft, draft.store_key_at.as_ref());
    let at = shown_path(path);
    // SECURITY: the same rules as an audit key (at least 32 bytes; a FIFO
    // or device is refused), the ones the replica loads it with
    // (`StoreKey::load`); no error quotes the key.
    match crate::audit::AuditKey::load(path) {
        Ok(_) => {}
        Err(crate::audit::AuditError::KeyTooShort { len, .. }) => {
            return Err(err(format!(
                "{WHAT} `{at}` holds {len} bytes; at least 32 are required"
            )));
        }
        Err(crate::audit::AuditError::Key { cause, .. }) => {
            return Err(err(format!("cannot read {WHAT} `{at}`: {cause}")));
        }
        Err(_) => return Err(err(format!("cannot read {WHAT} `{at}`"))),
    }
    key_reference(path, RefKind::StoreKey, WHAT, err).map(Some)
}

/// The file at `path` as a referenced file of `kind`, by `sha256`.
fn file_ref(kind: RefKind, path: &Path, sha256: String) -> Referenced {
    let path = Some(path.to_path_buf());
    Referenced {
        kind,
        path,
        var: None,
        sha256,
    }
}

/// How an error about a key file is placed: at its key (`at`) when the
/// policy wrote it there, else on the policy as a whole.
fn key_error<'d>(draft: &'d Draft, at: Option<&'d Loc>) -> impl Fn(String) -> PolicyError + 'd {
    move |msg| draft.error_at(at, msg)
}

/// The key file at `path` as a referenced file of `kind`: its fingerprint,
/// never its bytes. `what` names its key in errors, the path is shown
/// escaped.
fn key_reference(
    path: &Path,
    kind: RefKind,
    what: &str,
    err: impl Fn(String) -> PolicyError,
) -> Result<Referenced, PolicyError> {
    match read_regular(path, MAX_KEY_FILE_BYTES) {
        Ok(r) => Ok(file_ref(kind, path, key_fingerprint(&r.bytes))),
        Err(cause) => Err(err(format!(
            "cannot read {what} `{}`: {cause}",
            shown_path(path)
        ))),
    }
}

/// The variables `${env:VAR}` expanded, each once, by the SHA-256 of its
/// value: part of the policy's digest, so a changed variable is a changed
/// policy.
pub(super) fn env_references(uses: &[EnvUse]) -> Vec<Referenced> {
    let mut out: Vec<Referenced> = Vec::new();
    for u in uses {
        if out.iter().any(|r| r.var.as_deref() == Some(u.var.as_str())) {
            continue;
        }
        out.push(Referenced {
            kind: RefKind::EnvVar,
            path: None,
            var: Some(u.var.clone()),
            sha256: hex::encode(Sha256::digest(u.value.as_bytes())),
        });
    }
    out
}

/// A certificate's SHA-256; a key's or a token's fingerprint (never the
/// plain hash of a secret).
pub fn tls_fingerprint(kind: RefKind, bytes: &[u8]) -> String {
    match kind {
        RefKind::TlsCert => hex::encode(Sha256::digest(bytes)),
        _ => key_fingerprint(bytes),
    }
}

/// The referenced files of a policy in force, hashed again as they are
/// now: equal to `refs` exactly when none of them changed. A file that
/// cannot be read hashes as its error, so that a reload is tried (and
/// refused with the cause).
pub fn rehash(refs: &[Referenced]) -> Vec<Referenced> {
    refs.iter()
        .map(|r| {
            let bytes = match (&r.path, &r.var) {
                (_, Some(var)) => std::env::var_os(var)
                    .map(|v| v.into_encoded_bytes())
                    .ok_or_else(|| "not set".to_string()),
                (Some(p), None) => {
                    let max = match r.kind {
                        RefKind::KeywordList => MAX_KEYWORD_FILE_BYTES,
                        RefKind::RedactKey
                        | RefKind::AuditKey
                        | RefKind::StoreKey
                        | RefKind::EnvVar => MAX_KEY_FILE_BYTES,
                        RefKind::TlsCert | RefKind::TlsKey => super::tls::MAX_PEM_FILE_BYTES,
                        RefKind::BearerToken => super::tls::MAX_TOKEN_FILE_BYTES,
                    };
                    read_regular(p, max).map(|r| r.bytes)
                }
                (None, None) => std::env::var_os(KEY_ENV)
                    .map(|v| v.into_encoded_bytes())
                    .ok_or_else(|| "not set".to_string()),
            };
            let sha256 = match (bytes, r.kind) {
                (Ok(b), RefKind::KeywordList | RefKind::EnvVar) => hex::encode(Sha256::digest(&b)),
                (Ok(b), k @ (RefKind::TlsCert | RefKind::TlsKey)) => tls_fingerprint(k, &b),
                (Ok(b), _) => key_fingerprint(&b),
                (Err(e), _) => format!("unreadable: {e}"),
            };
            Referenced {
                sha256,
                ..r.clone()
            }
        })
        .collect()
}

/// Read every TLS file and token `draft` names, bounded, filling in their
/// bytes; with `check`, check that each set makes a working configuration.
/// Returns the files as referenced files, and every error.
pub(super) fn tls_files(
    draft: &mut Draft,
    check: Option<&dyn TlsCheck>,
) -> (Vec<Referenced>, Vec<PolicyError>) {
    let origin = draft.files.first().unwrap_or(&draft.source).clone();
    let mut refs = Vec::new();
    let mut errors = Vec::new();
    let mut err = |msg: String| errors.push(PolicyError::whole(&origin, msg));
    if let Some(tls) = &mut draft.server.tls {
        let ok = read_tls(
            &mut tls.cert,
            "server.tls_cert_file",
            RefKind::TlsCert,
            &mut refs,
        )
        .map_err(&mut err)
        .is_ok()
            & read_tls(
                &mut tls.key,
                "server.tls_key_file",
                RefKind::TlsKey,
                &mut refs,
            )
            .map_err(&mut err)
            .is_ok()
            & tls.client_ca.as_mut().is_none_or(|ca| {
                read_tls(ca, "server.tls_client_ca_file", RefKind::TlsCert, &mut refs)
                    .map_err(&mut err)
                    .is_ok()
            });
        if ok && let Some(Err(e)) = check.map(|c| c.server(tls)) {
            err(format!("[server] TLS: {e}"));
        }
    }
    if let Some(token) = &mut draft.server.bearer_token
        && let Err(e) = read_token(token, "server.bearer_token_file", &mut refs)
    {
        err(e);
    }
    for s in &mut draft.sinks {
        let name = shown(&s.name);
        let Some(SinkOutput::OtlpHttps(x) | SinkOutput::OtlpGrpc(x)) = &mut s.output else {
            continue;
        };
        if let Some(tls) = &mut x.tls {
            let mut ok = true;
            if let Some(ca) = &mut tls.ca {
                ok &= read_tls(ca, "tls_ca_file", RefKind::TlsCert, &mut refs)
                    .map_err(|e| err(format!("sink `{name}`: {e}")))
                    .is_ok();
            }
            if let Some((cert, key)) = &mut tls.identity {
                ok &= read_tls(cert, "tls_cert_file", RefKind::TlsCert, &mut refs)
                    .map_err(|e| err(format!("sink `{name}`: {e}")))
                    .is_ok();
                ok &= read_tls(key, "tls_key_file", RefKind::TlsKey, &mut refs)
                    .map_err(|e| err(format!("sink `{name}`: {e}")))
                    .is_ok();
            }
            if ok && let Some(Err(e)) = check.map(|c| c.client(tls)) {
                err(format!("sink `{name}` TLS: {e}"));
            }
        }
        if let Some(token) = &mut x.bearer_token
            && let Err(e) = read_token(token, "bearer_token_file", &mut refs)
        {
            err(format!("sink `{name}`: {e}"));
        }
    }
    (refs, errors)
}

/// Read a TLS file or a token file (`kind`), bounded, into `f`, and add
/// it to `refs`; `key` names it in the error.
fn read_tls(
    f: &mut LoadedFile,
    key: &str,
    kind: RefKind,
    refs: &mut Vec<Referenced>,
) -> Result<(), String> {
    let max = match kind {
        RefKind::BearerToken => MAX_TOKEN_FILE_BYTES,
        _ => MAX_PEM_FILE_BYTES,
    };
    match read_regular(&f.path, max) {
        Ok(r) => {
            refs.push(file_ref(kind, &f.path, tls_fingerprint(kind, &r.bytes)));
            f.set_bytes(r.bytes);
            Ok(())
        }
        Err(cause) => Err(format!(
            "cannot read {key} `{}`: {cause}",
            shown_path(&f.path)
        )),
    }
}

fn read_token(t: &mut Secret, key: &str, refs: &mut Vec<Referenced>) -> Result<(), String> {
    read_tls(t.file_mut(), key, RefKind::BearerToken, refs)?;
    let len = t.expose().len();
    if len < MIN_TOKEN_BYTES {
        return Err(format!(
            "{key} `{}` holds a token of {len} bytes; at least {MIN_TOKEN_BYTES} are needed",
            shown_path(t.path())
        ));
    }
    if !t.expose().iter().all(|b| b.is_ascii_graphic()) {
        // A header value must be visible ASCII.
        return Err(format!(
            "{key} `{}`: the token must be printable ASCII without blanks",
            shown_path(t.path())
        ));
    }
    Ok(())
}

/// Build the redaction of every sink of `draft`, reporting every error.
pub(super) fn build(policy: &Draft) -> Result<Built, PolicyErrors> {
    let settings = &policy.redact;
    let at = &policy.redact_at;
    let mut errors = Vec::new();
    // Every error names the line it is about; the whole policy only when
    // nothing in it is to blame.
    let mut err = |loc: Option<&Loc>, msg: String| {
        errors.push(policy.error_at(loc.or(at.section.as_ref()), msg))
    };

    let mut referenced = Vec::new();
    let mut keywords = Vec::new();
    // Rules whose list could not be read: already reported, not "empty" too.
    let mut unread = Vec::new();
    for (i, k) in settings.keywords.iter().enumerate() {
        let locs = at.keywords.get(i);
        let mut words = k.words.clone();
        if let Some(file) = &k.file {
            match read_words(file) {
                Ok((w, sha256)) => {
                    words.extend(w);
                    referenced.push(file_ref(RefKind::KeywordList, file, sha256));
                }
                Err(e) => {
                    unread.push(crate::redact::RedactConfigError::EmptyKeywords {
                        name: k
                            .name
                            .chars()
                            .take(64)
                            .flat_map(char::escape_debug)
                            .collect(),
                    });
                    err(
                        locs.map(|l| l.source()),
                        format!("redact keywords `{}`: {e}", shown(&k.name)),
                    )
                }
            }
        }
        keywords.push(KeywordRule {
            name: k.name.clone(),
            words,
            case_insensitive: k.case_insensitive,
            whole_word: k.whole_word,
            action: action(&k.action, &k.name, &mut |m| {
                err(locs.map(|l| l.action()), m)
            }),
        });
    }
    let patterns = settings
        .patterns
        .iter()
        .enumerate()
        .map(|(i, p)| PatternRule {
            name: p.name.clone(),
            regex: p.regex.clone(),
            action: action(&p.action, &p.name, &mut |m| {
                err(at.patterns.get(i).map(|l| l.action()), m)
            }),
        })
        .collect();
    let config = RedactConfig {
        builtin: settings.builtin.clone(),
        patterns,
        keywords,
        context: settings.context.clone(),
    };
    let needs_key = config.patterns.iter().any(|p| p.action == Action::Hash)
        || config.keywords.iter().any(|k| k.action == Action::Hash)
        || policy.sinks.iter().any(|s| !s.pseudonymize.is_empty());
    // A key set only in the environment still turns on the sinks' default
    // pseudonyms: look for one whenever a sink would take them.
    let wants_default = policy
        .sinks
        .iter()
        .any(|s| !s.pseudonymize_by_default.is_empty());
    let key = if needs_key
        || settings.key_file.is_some()
        || (wants_default && std::env::var_os(KEY_ENV).is_some())
    {
        match read_key(settings.key_file.as_deref()) {
            Ok(Some((k, r))) => {
                referenced.push(r);
                Some(k)
            }
            Ok(None) => None,
            Err(e) => {
                // At `key_file`, else at what needs the key.
                err(key_loc(policy), e);
                None
            }
        }
    } else {
        None
    };
    let empty =
        config.builtin.is_empty() && config.patterns.is_empty() && config.keywords.is_empty();
    let full = if empty {
        // No redactor is built, but a context the policy sets must still
        // be one that could be used.
        for e in crate::redact::check_context(&config.context) {
            let loc = config_error_loc(policy, &e);
            err(loc, format!("[redact]: {e}"));
        }
        None
    } else {
        match Redactor::compile(&config, key.clone()) {
            Ok(r) => Some(Arc::new(r)),
            Err(es) => {
                for e in es.into_iter().filter(|e| !unread.contains(e)) {
                    let loc = config_error_loc(policy, &e);
                    err(loc, format!("[redact]: {e}"));
                }
                None
            }
        }
    };
    for (i, name) in settings.allow_unredacted_sinks.iter().enumerate() {
        if policy.sink(name).is_none() {
            err(
                at.allow_unredacted.get(i),
                format!(
                    "`allow_unredacted_sinks` names unknown sink `{}`",
                    shown(name)
                ),
            );
        }
    }
    let mut sinks = HashMap::new();
    for sink in &policy.sinks {
        let allowed = settings.allow_unredacted_sinks.contains(&sink.name);
        let here = policy.sink_loc(&sink.name);
        let redactor = match &sink.redact {
            SinkRedact::Policy => full.clone(),
            SinkRedact::Off | SinkRedact::Only(_) if !allowed => {
                err(
                    here,
                    format!(
                        "sink `{}` weakens redaction but is not in [redact] allow_unredacted_sinks",
                        shown(&sink.name)
                    ),
                );
                None
            }
            SinkRedact::Off => None,
            SinkRedact::Only(names) => match &full {
                Some(r) => match r.subset(names) {
                    Ok(sub) => Some(Arc::new(sub)),
                    Err(es) => {
                        for e in es {
                            err(here, format!("sink `{}` redact: {e}", shown(&sink.name)));
                        }
                        None
                    }
                },
                None if names.is_empty() => None,
                None => {
                    err(
                        here,
                        format!(
                            "sink `{}` names detectors but [redact] defines none",
                            shown(&sink.name)
                        ),
                    );
                    None
                }
            },
        };
        // SECURITY: with a key, a sink that names nothing pseudonymizes the
        // default identifiers; without one they pass as the allowlist says.
        let pseudonymize = if sink.pseudonymize.is_empty() && key.is_some() {
            sink.pseudonymize_by_default.clone()
        } else {
            sink.pseudonymize.clone()
        };
        sinks.insert(
            sink.name.clone(),
            SinkRedaction {
                redactor,
                key: if pseudonymize.is_empty() {
                    None
                } else {
                    key.clone()
                },
                pseudonymize,
            },
        );
    }
    if errors.is_empty() {
        Ok(Built {
            redaction: Redaction {
                sinks,
                policy: full,
                standard: compile_detectors(&policy.standard.detectors),
            },
            referenced,
        })
    } else {
        Err(PolicyErrors(errors))
    }
}

/// Where a missing or bad redaction key is to blame: `key_file`, else
/// the first rule or sink that needs a key.
fn key_loc(policy: &Draft) -> Option<&Loc> {
    let at = &policy.redact_at;
    if let Some(k) = &at.key_file {
        return Some(k);
    }
    let s = &policy.redact;
    let hash = |a: &str| a == "hash";
    s.patterns
        .iter()
        .zip(&at.patterns)
        .find(|(p, _)| hash(&p.action))
        .map(|(_, l)| l.action())
        .or_else(|| {
            s.keywords
                .iter()
                .zip(&at.keywords)
                .find(|(k, _)| hash(&k.action))
                .map(|(_, l)| l.action())
        })
        .or_else(|| {
            policy
                .sinks
                .iter()
                .find(|k| !k.pseudonymize.is_empty())
                .and_then(|k| policy.sink_loc(&k.name))
        })
}

/// The place a redaction config error is about, found by the detector
/// name it carries.
fn config_error_loc<'d>(policy: &'d Draft, e: &RedactConfigError) -> Option<&'d Loc> {
    let at = &policy.redact_at;
    let s = &policy.redact;
    // Names as the redactor's errors show them (escaped, cut to 64
    // characters), so each error is matched back to its table.
    let shown = crate::redact::config::shown;
    let pattern = |name: &str, last: bool| {
        let mut it = s
            .patterns
            .iter()
            .zip(&at.patterns)
            .filter(|(p, _)| shown(&p.name) == name);
        if last { it.next_back() } else { it.next() }.map(|(_, l)| l)
    };
    let keyword = |name: &str, last: bool| {
        let mut it = s
            .keywords
            .iter()
            .zip(&at.keywords)
            .filter(|(k, _)| shown(&k.name) == name);
        if last { it.next_back() } else { it.next() }.map(|(_, l)| l)
    };
    match e {
        RedactConfigError::UnknownBuiltin { name, .. } => at
            .builtin
            .iter()
            .find(|(b, _)| shown(b) == *name)
            .map(|(_, l)| l),
        RedactConfigError::BadPattern { name, .. }
        | RedactConfigError::PatternTooLarge { name, .. }
        | RedactConfigError::EmptyMatch { name } => pattern(name, false).map(|l| l.source()),
        RedactConfigError::EmptyKeywords { name }
        | RedactConfigError::EmptyKeyword { name, .. } => keyword(name, false).map(|l| &l.table),
        RedactConfigError::DuplicateName { name } => pattern(name, true)
            .or_else(|| keyword(name, true))
            .map(|l| &l.table),
        RedactConfigError::BadName { name } => pattern(name, false)
            .or_else(|| keyword(name, false))
            .map(|l| &l.table),
        RedactConfigError::HashWithoutKey { name } => pattern(name, false)
            .or_else(|| keyword(name, false))
            .map(|l| l.action()),
        RedactConfigError::KeyTooShort { .. } => key_loc(policy),
        RedactConfigError::BadContext { .. } => at.section.as_ref(),
        _ => None,
    }
}

fn action(s: &str, name: &str, err: &mut impl FnMut(String)) -> Action {
    match s.parse::<Action>() {
        Ok(a) => a,
        Err(()) => {
            err(format!(
                "redact rule `{}`: unknown action `{}` (use mask, hash or drop)",
                shown(name),
                shown(s)
            ));
            // SECURITY: an unreadable action drops the field rather than weakening.
            Action::Drop
        }
    }
}

/// Words of a keyword file: one a line, blank lines and `#` comments
/// skipped; with the SHA-256 (hex) of the file's bytes.
fn read_words(path: &Path) -> Result<(Vec<String>, String), String> {
    let r = read_regular(path, MAX_KEYWORD_FILE_BYTES)
        .map_err(|cause| format!("cannot read `{}`: {cause}", shown_path(path)))?;
    let sha256 = hex::encode(Sha256::digest(&r.bytes));
    let text = String::from_utf8(r.bytes).map_err(|e| {
        format!(
            "`{}` is not valid UTF-8 (byte {})",
            shown_path(path),
            e.utf8_error().valid_up_to()
        )
    })?;
    let words = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    Ok((words, sha256))
}

/// The key from `key_file`, else from [`KEY_ENV`], with its fingerprint.
/// An error when neither is set (the caller asks only when a key is
/// needed or named).
fn read_key(key_file: Option<&Path>) -> Result<Option<(RedactKey, Referenced)>, String> {
    let (bytes, from) = match key_file {
        Some(p) => (
            read_regular(p, MAX_KEY_FILE_BYTES)
                .map_err(|cause| {
                    format!("cannot read [redact] key_file `{}`: {cause}", shown_path(p))
                })?
                .bytes,
            p.display().to_string(),
        ),
        None => match std::env::var_os(KEY_ENV) {
            Some(v) => (v.into_encoded_bytes(), KEY_ENV.to_string()),
            None => {
                return Err(format!(
                    "a redaction key is needed (a `hash` action or a sink's `pseudonymize`): set [redact] key_file or {KEY_ENV}"
                ));
            }
        },
    };
    let trimmed = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    let trimmed = trimmed.strip_suffix(b"\r").unwrap_or(trimmed);
    let decoded = std::str::from_utf8(trimmed)
        .ok()
        .filter(|s| s.len() >= 32 && s.bytes().all(|b| b.is_ascii_hexdigit()))
        .and_then(|s| hex::decode(s).ok());
    let key_bytes = decoded.as_deref().unwrap_or(trimmed);
    let reference = Referenced {
        kind: RefKind::RedactKey,
        path: key_file.map(Path::to_path_buf),
        var: None,
        sha256: key_fingerprint(&bytes),
    };
    RedactKey::new(key_bytes)
        .map(|k| Some((k, reference)))
        .map_err(|e| format!("redaction key from {from}: {e}"))
}
