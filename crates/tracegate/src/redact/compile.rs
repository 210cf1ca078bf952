//! Turning a [`RedactConfig`] into a [`Redactor`]: every check, every error
//! at once, then one multi-pattern regex and the keyword automata.

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use regex_automata::meta;
use regex_automata::{Input, MatchKind};

use super::config::{closest, regex_error_line, shown};
use super::detectors::{BUILTINS, Check, END, Lead, builtin};
use super::keywords::KeywordSet;
use super::shapes::{NEVER, Shapes, first_shape};
use super::token::valid_name;
use super::{Action, Det, RedactConfig, RedactConfigError, RedactKey, Redactor, ShapeRule};

/// Upper bound on the compiled size of a regex (NFA and lazy-DFA cache):
/// an untrusted-but-valid policy cannot make the gate allocate without bound.
pub const REGEX_SIZE_LIMIT: usize = 10 * 1024 * 1024;

fn meta_builder(kind: MatchKind) -> meta::Builder {
    let mut b = meta::Regex::builder();
    b.configure(
        meta::Config::new()
            .match_kind(kind)
            .nfa_size_limit(Some(REGEX_SIZE_LIMIT))
            .onepass_size_limit(Some(REGEX_SIZE_LIMIT))
            .dfa_size_limit(Some(REGEX_SIZE_LIMIT)),
    );
    b
}

/// Texts on which a user pattern must not produce an empty match.
const EMPTY_PROBES: &[&str] = &["", "a", " ", "a b", "0", "\n"];

pub(crate) fn compile(
    cfg: &RedactConfig,
    key: Option<RedactKey>,
) -> Result<Redactor, Vec<RedactConfigError>> {
    let mut errors = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut dets: Vec<Det> = Vec::new();
    let mut slots = None;
    let mut cards = None;
    let mut keys = None;
    let mut phones = None;
    let mut ssns = None;
    let mut jwts = None;
    let mut emails = None;
    let mut urls = None;
    // Per regex pattern: the cheap scan shape and the exact shape.
    let mut scans: Vec<&str> = Vec::new();
    let mut patterns: Vec<&str> = Vec::new();
    let mut checks: Vec<ShapeRule> = Vec::new();
    let mut email_pids = Vec::new();
    // Per regex pattern: the run a failure at one start rules out for
    // later starts (see `detectors::monotone_run`).
    let mut runs: Vec<Option<super::detectors::Run>> = Vec::new();
    // Per built-in pattern: its shape's index in the built-in pack.
    let mut pack_shapes: Vec<usize> = Vec::new();
    // The built-ins' scans and exact shapes again, with the lifetime a
    // meta regex built after this call needs.
    let mut builtin_scans: Vec<&'static str> = Vec::new();
    let mut builtin_exact: Vec<&'static str> = Vec::new();

    // Built-ins, in their fixed priority order whatever order the policy uses.
    let mut enabled = Vec::new();
    for name in &cfg.builtin {
        match builtin(name) {
            Some((rank, b)) if seen.insert(b.name) => enabled.push((rank, b)),
            Some(_) => errors.push(RedactConfigError::DuplicateName { name: shown(name) }),
            None => errors.push(RedactConfigError::UnknownBuiltin {
                name: shown(name),
                suggestion: closest(name, BUILTINS.iter().map(|b| b.name)),
            }),
        }
    }
    enabled.sort_by_key(|(rank, _)| *rank);
    for (rank, b) in enabled {
        let det = dets.len() as u32;
        if b.name == "api_key" {
            slots = Some(det);
        }
        if b.name == "credit_card" {
            cards = Some(det);
        }
        if b.name == "private_key" {
            keys = Some(det);
        }
        if b.name == "phone" {
            phones = Some(det);
        }
        if b.name == "us_ssn" {
            ssns = Some(det);
        }
        if b.name == "jwt" {
            jwts = Some(det);
        }
        if b.name == "email" {
            emails = Some(det);
        }
        if b.name == "url_credentials" {
            urls = Some(det);
        }
        dets.push(Det {
            name: Arc::from(b.name),
            action: Action::Mask,
            fold_case: false,
            keyword: false,
        });
        for (j, &(scan, p, check, lead)) in b.patterns.iter().enumerate() {
            pack_shapes.push(first_shape(rank) + j);
            if b.name == "email" {
                email_pids.extend(regex_automata::PatternID::new(patterns.len()));
            }
            scans.push(scan);
            patterns.push(p);
            builtin_scans.push(scan);
            builtin_exact.push(p);
            checks.push(ShapeRule {
                det,
                check,
                lead,
                trim: p.contains(END),
            });
            runs.push(super::detectors::monotone_run(b.name, j));
        }
    }

    for p in &cfg.patterns {
        let mut ok = check_name(&p.name, p.action, key.is_some(), &mut seen, &mut errors);
        if let Some(error) = regex_error_line(&p.regex) {
            errors.push(RedactConfigError::BadPattern {
                name: shown(&p.name),
                error,
            });
            continue;
        }
        match meta_builder(MatchKind::LeftmostFirst).build(&p.regex) {
            Ok(re) => {
                let empty = EMPTY_PROBES
                    .iter()
                    .any(|t| re.find_iter(Input::new(t)).any(|m| m.is_empty()));
                if empty {
                    errors.push(RedactConfigError::EmptyMatch {
                        name: shown(&p.name),
                    });
                    ok = false;
                }
            }
            Err(e) => {
                errors.push(match e.size_limit() {
                    Some(limit) => RedactConfigError::PatternTooLarge {
                        name: shown(&p.name),
                        limit,
                    },
                    None => RedactConfigError::BadPattern {
                        name: shown(&p.name),
                        error: first_line(&e.to_string()),
                    },
                });
                ok = false;
            }
        }
        if ok {
            let det = dets.len() as u32;
            dets.push(Det {
                name: Arc::from(p.name.as_str()),
                action: p.action,
                fold_case: false,
                keyword: false,
            });
            scans.push(&p.regex);
            patterns.push(&p.regex);
            checks.push(ShapeRule {
                det,
                check: Check::None,
                lead: Lead::Any,
                trim: false,
            });
            runs.push(None);
        }
    }

    let mut kw_rules = Vec::new();
    for k in &cfg.keywords {
        let mut ok = check_name(&k.name, k.action, key.is_some(), &mut seen, &mut errors);
        if k.words.is_empty() {
            errors.push(RedactConfigError::EmptyKeywords {
                name: shown(&k.name),
            });
            ok = false;
        }
        if let Some(i) = k.words.iter().position(String::is_empty) {
            errors.push(RedactConfigError::EmptyKeyword {
                name: shown(&k.name),
                index: i + 1,
            });
            ok = false;
        }
        if ok {
            let det = dets.len() as u32;
            dets.push(Det {
                name: Arc::from(k.name.as_str()),
                action: k.action,
                fold_case: k.case_insensitive,
                keyword: true,
            });
            kw_rules.push((det, k));
        }
    }

    super::context::validate(&cfg.context, &mut errors);
    let mut contexts = Vec::with_capacity(dets.len());
    for d in &dets {
        let rule = cfg.context.iter().find(|c| *c.detector == *d.name);
        let builtin = !d.keyword && builtin(&d.name).is_some();
        match super::context::Compiled::build(&d.name, rule) {
            Ok(c) if builtin => contexts.push(c),
            Ok(_) => contexts.push(None),
            Err(e) => {
                errors.push(e);
                contexts.push(None);
            }
        }
    }

    if !errors.is_empty() {
        return Err(errors);
    }

    let regexes = if patterns.is_empty() {
        None
    } else {
        let user: Vec<&str> = cfg.patterns.iter().map(|p| p.regex.as_str()).collect();
        // Built-ins come first in pattern-id order, so their DFAs share the
        // meta regexes' ids.
        let shapes = (!pack_shapes.is_empty()).then(|| Shapes::new(&pack_shapes, &email_pids));
        let shapes = shapes.transpose().map_err(|e| vec![e])?;
        let user_scan = (!user.is_empty())
            .then(|| build_combined(&user, MatchKind::LeftmostFirst, Searched::Anywhere))
            .transpose()?;
        let (meta, meta_later) = if user.is_empty() {
            let later = super::MetaPatterns {
                others: without_email(&builtin_scans, &email_pids),
                scans: builtin_scans,
                exact: builtin_exact,
            };
            (OnceLock::new(), Some(later))
        } else {
            let others = without_email(&scans, &email_pids);
            let meta = build_meta(&scans, &others, &patterns)?;
            (OnceLock::from(Some(meta)), None)
        };
        Some(Box::new(super::Regexes {
            shapes,
            user_scan,
            pattern_len: patterns.len(),
            meta,
            meta_later,
            email: email_pids,
            runs,
            #[cfg(test)]
            scan: build_combined(&scans, MatchKind::LeftmostFirst, Searched::Anywhere)?,
        }))
    };
    let keywords = KeywordSet::build(&kw_rules).map_err(|e| vec![e])?;
    let settle = cfg.patterns.is_empty().then(|| super::settle::Settle {
        reach: super::settle::BOUNDED_REACH.max(keywords.ascii_reach() + 4),
        wide_reach: super::settle::BOUNDED_REACH.max(keywords.wide_reach()),
        // Normalized keywords never start or end with a blank.
        spaced_ok: true,
    });
    Ok(Redactor {
        cfg: cfg.clone(),
        key,
        dets,
        regexes,
        checks,
        keywords,
        contexts,
        slots,
        cards,
        phones,
        ssns,
        keys,
        jwts,
        emails,
        urls,
        settle,
        quick: OnceLock::new(),
        #[cfg(test)]
        test_limit: None,
    })
}

/// Checks a user rule's name and action; false when the rule must not be
/// built.
fn check_name<'a>(
    name: &'a str,
    action: Action,
    has_key: bool,
    seen: &mut HashSet<&'a str>,
    errors: &mut Vec<RedactConfigError>,
) -> bool {
    let mut ok = true;
    if !valid_name(name) {
        errors.push(RedactConfigError::BadName { name: shown(name) });
        ok = false;
    } else if !seen.insert(name) {
        errors.push(RedactConfigError::DuplicateName { name: shown(name) });
        ok = false;
    }
    // SECURITY: an unkeyed hash of a low-entropy secret is reversible.
    if action == Action::Hash && !has_key {
        errors.push(RedactConfigError::HashWithoutKey { name: shown(name) });
        ok = false;
    }
    ok
}

/// How a combined regex is searched.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Searched {
    /// From any position (a user pattern's scan): with a prefilter.
    Anywhere,
    /// Only anchored at a start the trigger found, for where a match ends
    /// or which shapes start there: no prefilter (an anchored search never
    /// uses one) and no capture groups (only whole matches are asked for).
    /// Building those was most of a policy's start-up.
    Anchored,
}

/// `scans` with the email shape's (pattern ids `email`) replaced by one
/// that matches nothing (an empty class), so pattern ids stay the same.
fn without_email<'a>(scans: &[&'a str], email: &[regex_automata::PatternID]) -> Vec<&'a str> {
    let mut out = scans.to_vec();
    for e in email {
        if let Some(p) = out.get_mut(e.as_usize()) {
            *p = NEVER;
        }
    }
    out
}

/// The meta regexes of a regex pass: `scans` (`MatchKind::All`), the same
/// with the email shape's replaced (`others`), and the `exact` shapes.
pub(super) fn build_meta(
    scans: &[&str],
    others: &[&str],
    exact: &[&str],
) -> Result<super::Meta, Vec<RedactConfigError>> {
    Ok(super::Meta {
        scan_all: build_combined(scans, MatchKind::All, Searched::Anchored)?,
        scan_others: build_combined(others, MatchKind::All, Searched::Anchored)?,
        exact: build_combined(exact, MatchKind::LeftmostFirst, Searched::Anchored)?,
    })
}

/// One multi-pattern regex over all of `patterns`.
fn build_combined(
    patterns: &[&str],
    kind: MatchKind,
    searched: Searched,
) -> Result<meta::Regex, Vec<RedactConfigError>> {
    let mut builder = meta_builder(kind);
    if searched == Searched::Anchored {
        builder.configure(
            meta::Config::new()
                .which_captures(regex_automata::nfa::thompson::WhichCaptures::Implicit)
                .auto_prefilter(false),
        );
    }
    builder.build_many(patterns).map_err(|e| {
        vec![match e.size_limit() {
            Some(limit) => RedactConfigError::PatternsTooLarge { limit },
            None => RedactConfigError::BadPattern {
                name: "(all patterns)".into(),
                error: first_line(&e.to_string()),
            },
        }]
    })
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().to_string()
}
