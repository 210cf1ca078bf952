//! Each sink's redaction, built from the policy's `[redact]` section and
//! its sinks' `redact` / `pseudonymize` settings.
//!
//! This step reads files (keyword lists, the key) and the
//! `TRACEGATE_REDACT_KEY` variable, so it runs in [`super::Policy::load`],
//! after the pure compile. One [`Redactor`] is compiled per policy and
//! shared; a sink with its own `redact = [...]` gets a subset.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::error::{PolicyError, PolicyErrors};
use super::{Policy, SinkRedact};
use crate::redact::{Action, KeywordRule, PatternRule, RedactConfig, RedactKey, Redactor};

/// The environment variable that may hold the redaction key (hex, or raw
/// text of at least 16 bytes) when `[redact] key_file` is not set.
pub const KEY_ENV: &str = "TRACEGATE_REDACT_KEY";

/// What one sink applies to the records it receives.
#[derive(Debug, Clone, Default)]
pub struct SinkRedaction {
    /// Applied to content delivered at full level; `None`: nothing to apply.
    pub redactor: Option<Arc<Redactor>>,
    /// Identifier fields rewritten as keyed pseudonyms, at every level.
    pub pseudonymize: Vec<String>,
    /// The key for pseudonyms (present whenever `pseudonymize` is not empty).
    pub key: Option<RedactKey>,
}

/// The redaction of every sink of a policy.
#[derive(Debug, Clone, Default)]
pub struct Redaction {
    sinks: HashMap<String, SinkRedaction>,
    policy: Option<Arc<Redactor>>,
}

impl Redaction {
    /// The policy's own `[redact]` rules, whatever the sinks say (for
    /// `tracegate redact`).
    pub fn policy_rules(&self) -> SinkRedaction {
        SinkRedaction {
            redactor: self.policy.clone(),
            ..SinkRedaction::default()
        }
    }

    /// The redaction of `sink` (none for an unknown sink).
    pub fn sink(&self, sink: &str) -> SinkRedaction {
        self.sinks.get(sink).cloned().unwrap_or_default()
    }
}

/// Build the redaction of every sink of `policy`, reporting every error.
pub fn build(policy: &Policy) -> Result<Redaction, PolicyErrors> {
    let settings = &policy.redact;
    let origin = policy
        .files
        .first()
        .cloned()
        .unwrap_or_else(|| policy.source.clone());
    let mut errors = Vec::new();
    let mut err = |msg: String| errors.push(PolicyError::whole(&origin, msg));

    let mut keywords = Vec::new();
    for k in &settings.keywords {
        let mut words = k.words.clone();
        if let Some(file) = &k.file {
            match read_words(file) {
                Ok(w) => words.extend(w),
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
    };
    let needs_key = config.patterns.iter().any(|p| p.action == Action::Hash)
        || config.keywords.iter().any(|k| k.action == Action::Hash)
        || policy.sinks.iter().any(|s| !s.pseudonymize.is_empty());
    let key = if needs_key || settings.key_file.is_some() {
        match read_key(settings.key_file.as_deref()) {
            Ok(k) => k,
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
        Ok(Redaction {
            sinks,
            policy: full,
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

/// Words of a keyword file: one a line, blank lines and `#` comments skipped.
fn read_words(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "cannot read `{}`: {}",
            path.display(),
            super::load::io_cause(&e)
        )
    })?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect())
}

/// The key from `key_file`, else from [`KEY_ENV`]; `Ok(None)` when neither
/// is set (the caller decides whether that is an error).
fn read_key(key_file: Option<&Path>) -> Result<Option<RedactKey>, String> {
    let (bytes, from) = match key_file {
        Some(p) => (
            std::fs::read(p).map_err(|e| {
                format!(
                    "cannot read [redact] key_file `{}`: {}",
                    p.display(),
                    super::load::io_cause(&e)
                )
            })?,
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
    RedactKey::new(key_bytes)
        .map(Some)
        .map_err(|e| format!("redaction key from {from}: {e}"))
}
