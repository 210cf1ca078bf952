//! Each sink's redaction, built from the policy's `[redact]` section and
//! its sinks' `redact` / `pseudonymize` settings.
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

use super::compile::Draft;
use super::error::{PolicyError, PolicyErrors};
use super::load::{MAX_KEY_FILE_BYTES, MAX_KEYWORD_FILE_BYTES, read_regular};
use super::{RefKind, Referenced, SinkRedact};
use crate::redact::{Action, KeywordRule, PatternRule, RedactConfig, RedactKey, Redactor};

/// The environment variable that may hold the redaction key (hex, or raw
/// text of at least 16 bytes) when `[redact] key_file` is not set.
pub const KEY_ENV: &str = "TRACEGATE_REDACT_KEY";

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
    standard: Result<Option<Arc<Redactor>>, crate::gate::detect::DetectorsBroken>,
}

impl Redaction {
    /// The standard level's detectors, compiled once (`Err` when they could
    /// not be built: gates then fail closed).
    pub fn standard_detectors(
        &self,
    ) -> Result<Option<Arc<Redactor>>, crate::gate::detect::DetectorsBroken> {
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
    let origin = draft
        .files
        .first()
        .cloned()
        .unwrap_or_else(|| draft.source.clone());
    match read_regular(path, MAX_KEY_FILE_BYTES) {
        Ok(r) => Ok(Some(Referenced {
            kind: RefKind::AuditKey,
            path: Some(path.clone()),
            sha256: key_fingerprint(&r.bytes),
        })),
        Err(cause) => Err(PolicyError::whole(
            &origin,
            format!("cannot read [audit] key_file `{}`: {cause}", path.display()),
        )),
    }
}

/// The referenced files of a policy in force, hashed again as they are
/// now: equal to `refs` exactly when none of them changed. A file that
/// cannot be read hashes as its error, so that a reload is tried (and
/// refused with the cause).
pub fn rehash(refs: &[Referenced]) -> Vec<Referenced> {
    refs.iter()
        .map(|r| {
            let bytes = match &r.path {
                Some(p) => {
                    let max = match r.kind {
                        RefKind::KeywordList => MAX_KEYWORD_FILE_BYTES,
                        RefKind::RedactKey | RefKind::AuditKey => MAX_KEY_FILE_BYTES,
                        RefKind::TlsCert | RefKind::TlsKey => super::tls::MAX_PEM_FILE_BYTES,
                        RefKind::BearerToken => super::tls::MAX_TOKEN_FILE_BYTES,
                    };
                    read_regular(p, max).map(|r| r.bytes)
                }
                None => std::env::var_os(KEY_ENV)
                    .map(|v| v.into_encoded_bytes())
                    .ok_or_else(|| "not set".to_string()),
            };
            let sha256 = match (bytes, r.kind) {
                (Ok(b), RefKind::KeywordList) => hex::encode(Sha256::digest(&b)),
                (Ok(b), k @ (RefKind::TlsCert | RefKind::TlsKey)) => super::tls::fingerprint(k, &b),
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

/// Build the redaction of every sink of `draft`, reporting every error.
pub(super) fn build(policy: &Draft) -> Result<Built, PolicyErrors> {
    let settings = &policy.redact;
    let origin = policy
        .files
        .first()
        .cloned()
        .unwrap_or_else(|| policy.source.clone());
    let mut errors = Vec::new();
    let mut err = |msg: String| errors.push(PolicyError::whole(&origin, msg));

    let mut referenced = Vec::new();
    let mut keywords = Vec::new();
    for k in &settings.keywords {
        let mut words = k.words.clone();
        if let Some(file) = &k.file {
            match read_words(file) {
                Ok((w, sha256)) => {
                    words.extend(w);
                    referenced.push(Referenced {
                        kind: RefKind::KeywordList,
                        path: Some(file.clone()),
                        sha256,
                    });
                }
                Err(e) => err(format!("redact keywords `{}`: {e}", k.name)),
            }
        }
        keywords.push(KeywordRule {
            name: k.name.clone(),
            words,
            case_insensitive: k.case_insensitive,
            whole_word: k.whole_word,
            action: action(&k.action, &k.name, &mut err),
        });
    }
    let patterns = settings
        .patterns
        .iter()
        .map(|p| PatternRule {
            name: p.name.clone(),
            regex: p.regex.clone(),
            action: action(&p.action, &p.name, &mut err),
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
    let key = if needs_key || settings.key_file.is_some() {
        match read_key(settings.key_file.as_deref()) {
            Ok(Some((k, r))) => {
                referenced.push(r);
                Some(k)
            }
            Ok(None) => None,
            Err(e) => {
                err(e);
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
            err(format!("[redact]: {e}"));
        }
        None
    } else {
        match Redactor::compile(&config, key.clone()) {
            Ok(r) => Some(Arc::new(r)),
            Err(es) => {
                for e in es {
                    err(format!("[redact]: {e}"));
                }
                None
            }
        }
    };
    for name in &settings.allow_unredacted_sinks {
        if policy.sink(name).is_none() {
            err(format!(
                "`allow_unredacted_sinks` names unknown sink `{name}`"
            ));
        }
    }
    let mut sinks = HashMap::new();
    for sink in &policy.sinks {
        let allowed = settings.allow_unredacted_sinks.contains(&sink.name);
        let redactor = match &sink.redact {
            SinkRedact::Policy => full.clone(),
            SinkRedact::Off | SinkRedact::Only(_) if !allowed => {
                err(format!(
                    "sink `{}` weakens redaction but is not in [redact] allow_unredacted_sinks",
                    sink.name
                ));
                None
            }
            SinkRedact::Off => None,
            SinkRedact::Only(names) => match &full {
                Some(r) => match r.subset(names) {
                    Ok(sub) => Some(Arc::new(sub)),
                    Err(es) => {
                        for e in es {
                            err(format!("sink `{}` redact: {e}", sink.name));
                        }
                        None
                    }
                },
                None if names.is_empty() => None,
                None => {
                    err(format!(
                        "sink `{}` names detectors but [redact] defines none",
                        sink.name
                    ));
                    None
                }
            },
        };
        sinks.insert(
            sink.name.clone(),
            SinkRedaction {
                redactor,
                pseudonymize: sink.pseudonymize.clone(),
                key: if sink.pseudonymize.is_empty() {
                    None
                } else {
                    key.clone()
                },
            },
        );
    }
    if errors.is_empty() {
        Ok(Built {
            redaction: Redaction {
                sinks,
                policy: full,
                standard: crate::gate::detect::compile(&policy.standard.detectors),
            },
            referenced,
        })
    } else {
        Err(PolicyErrors(errors))
    }
}

fn action(s: &str, name: &str, err: &mut impl FnMut(String)) -> Action {
    match s.parse::<Action>() {
        Ok(a) => a,
        Err(()) => {
            err(format!(
                "redact rule `{name}`: unknown action `{s}` (use mask, hash or drop)"
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
        .map_err(|cause| format!("cannot read `{}`: {cause}", path.display()))?;
    let sha256 = hex::encode(Sha256::digest(&r.bytes));
    let text = String::from_utf8(r.bytes).map_err(|e| {
        format!(
            "`{}` is not valid UTF-8 (byte {})",
            path.display(),
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
                    format!("cannot read [redact] key_file `{}`: {cause}", p.display())
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
        sha256: key_fingerprint(&bytes),
    };
    RedactKey::new(key_bytes)
        .map(|k| Some((k, reference)))
        .map_err(|e| format!("redaction key from {from}: {e}"))
}
