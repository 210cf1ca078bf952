//! Operator mistakes with files that leak or loop: two sinks writing one
//! file, a source that reads what a sink writes (or the audit log), a
//! sink that writes into the policy itself.
//!
//! Paths are compared in their canonical form (through symlinks), which
//! the load step resolves ([`super::load::canonical`]); this module only
//! compares, it does no IO.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::compile::{Draft, Loc};
use super::error::{PolicyError, shown, shown_path};
use super::load::PolicyFile;
use super::{Referenced, SinkOutput};

/// Canonical forms of the paths a policy names.
#[derive(Debug, Default)]
pub struct Canon(HashMap<PathBuf, PathBuf>);

impl Canon {
    /// Canonicalize every path [`wanted`] lists with `resolve` (the load
    /// step passes [`super::load::canonical`]).
    pub fn resolve(
        draft: &Draft,
        files: &[PolicyFile],
        referenced: &[Referenced],
        resolve: impl Fn(&Path) -> PathBuf,
    ) -> Canon {
        Canon(
            wanted(draft, files, referenced)
                .into_iter()
                .map(|p| {
                    let c = resolve(&p);
                    (p, c)
                })
                .collect(),
        )
    }

    /// The canonical form of `p` (itself when it was not resolved).
    fn of(&self, p: &Path) -> PathBuf {
        self.0.get(p).cloned().unwrap_or_else(|| p.to_path_buf())
    }
}

/// Every path the checks compare.
pub fn wanted(draft: &Draft, files: &[PolicyFile], referenced: &[Referenced]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for s in &draft.sinks {
        if let Some(SinkOutput::File(p)) = &s.output {
            out.push(p.clone());
        }
    }
    out.extend(draft.sources.iter().map(|s| s.path.clone()));
    if let Some(a) = &draft.audit {
        out.push(a.path.clone());
        out.push(crate::audit::checkpoint_path(&a.path));
    }
    out.extend(files.iter().map(|f| f.path.clone()));
    out.extend(referenced.iter().filter_map(|r| r.path.clone()));
    out.push(draft.source.clone());
    out.push(draft.source.join("windows"));
    out
}

/// A file tracegate writes, and who writes it.
struct Written {
    path: PathBuf,
    what: String,
    at: Option<Loc>,
}

/// Every error of the kinds above; empty when there is none.
pub fn check(
    draft: &Draft,
    files: &[PolicyFile],
    referenced: &[Referenced],
    canon: &Canon,
) -> Vec<PolicyError> {
    let error = |at: &Option<Loc>, msg: String| draft.error_at(at.as_ref(), msg);
    let mut written: Vec<Written> = Vec::new();
    for (i, s) in draft.sinks.iter().enumerate() {
        if let Some(SinkOutput::File(p)) = &s.output {
            written.push(Written {
                path: canon.of(p),
                what: format!("sink `{}`", shown(&s.name)),
                at: draft.sink_at.get(i).cloned().flatten(),
            });
        }
    }
    if let Some(a) = &draft.audit {
        written.push(Written {
            path: canon.of(&a.path),
            what: "the audit log".to_string(),
            at: draft.audit_at.clone(),
        });
        written.push(Written {
            path: canon.of(&crate::audit::checkpoint_path(&a.path)),
            what: "the audit checkpoint".to_string(),
            at: draft.audit_at.clone(),
        });
    }
    let mut errors = Vec::new();
    // SECURITY: two writers of one file interleave their records (a
    // standard sink's file would receive a full sink's content).
    for (i, w) in written.iter().enumerate() {
        if let Some(first) = written[..i].iter().find(|o| o.path == w.path) {
            errors.push(error(
                &w.at,
                format!(
                    "{} writes to the same file as {} (`{}`)",
                    w.what,
                    first.what,
                    shown_path(&w.path)
                ),
            ));
        }
    }
    // A source that reads a file tracegate writes feeds its own output
    // back in: an endless loop that fills the disk.
    let mut seen: Vec<PathBuf> = Vec::new();
    for (i, s) in draft.sources.iter().enumerate() {
        let at = draft.source_at.get(i).cloned();
        let c = canon.of(&s.path);
        if let Some(w) = written.iter().find(|w| w.path == c) {
            errors.push(error(
                &at,
                format!(
                    "[[source]] `{}` is the file {} writes; tracegate would read its own output",
                    shown_path(&s.path),
                    w.what
                ),
            ));
        }
        if seen.contains(&c) {
            errors.push(error(
                &at,
                format!(
                    "[[source]] `{}` is followed twice; every record would be judged twice",
                    shown_path(&s.path)
                ),
            ));
        }
        seen.push(c);
    }
    // A writer must not touch what the policy is made of.
    let policy_dir = canon.of(&draft.source);
    let windows_dir = canon.of(&draft.source.join("windows"));
    let inputs: Vec<(PathBuf, String)> = files
        .iter()
        .map(|f| (canon.of(&f.path), "a policy file".to_string()))
        .chain(referenced.iter().filter_map(|r| {
            r.path.as_ref().map(|p| {
                (
                    canon.of(p),
                    format!("a file the policy reads ({})", r.kind.as_str()),
                )
            })
        }))
        .collect();
    for w in &written {
        if let Some((_, what)) = inputs.iter().find(|(p, _)| *p == w.path) {
            errors.push(error(
                &w.at,
                format!("{} writes to {what} (`{}`)", w.what, shown_path(&w.path)),
            ));
            continue;
        }
        let in_policy = w
            .path
            .parent()
            .is_some_and(|d| d == policy_dir || d == windows_dir);
        if in_policy
            && w.path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
        {
            errors.push(error(
                &w.at,
                format!(
                    "{} writes a `*.toml` file into the policy folder (`{}`); it would become policy",
                    w.what,
                    shown_path(&w.path)
                ),
            ));
        }
    }
    errors
}
