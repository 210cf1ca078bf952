// The version string of `tracegate --version`, shared by `build.rs` (which
// includes this file) and the unit test that checks the fallbacks
// (`src/cli/completions.rs`). Kept free of dependencies: a build script
// runs before anything else is compiled.

/// `0.1.0 (commit 0123456789ab)`, with `, modified` when the sources that
/// go into the binary differ from that commit, or the bare crate version
/// when no commit is known.
fn describe_version(pkg_version: &str, commit: Option<&str>, modified: bool) -> String {
    match commit.map(str::trim).filter(|c| is_commit_id(c)) {
        Some(c) if modified => format!("{pkg_version} (commit {c}, modified)"),
        Some(c) => format!("{pkg_version} (commit {c})"),
        None => pkg_version.to_string(),
    }
}

/// Whether `s` looks like an abbreviated or full commit id: never let an
/// error message of some tool become the version.
fn is_commit_id(s: &str) -> bool {
    (7..=64).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}
