//! Names the commit in `tracegate --version` (`TRACEGATE_VERSION`).
//!
//! From a git checkout of this repository the version reads
//! `0.1.0 (commit 0123456789ab)`, with `, modified` when tracked sources
//! of the binary differ from that commit. Anywhere else (a source
//! tarball, no git installed, the crate vendored inside another
//! repository) it is the crate version alone, unless the packager names
//! the commit in `TRACEGATE_BUILD_COMMIT`. Never fails the build.

use std::path::{Path, PathBuf};
use std::process::Command;

include!("build/version.rs");

/// The files whose state the `modified` mark reflects.
const SOURCES: [&str; 5] = ["src", "build.rs", "build", "Cargo.toml", "Cargo.lock"];

fn main() {
    let pkg = std::env::var("CARGO_PKG_VERSION").unwrap_or_else(|_| "0.0.0".into());
    println!("cargo:rerun-if-env-changed=TRACEGATE_BUILD_COMMIT");
    let version = match std::env::var("TRACEGATE_BUILD_COMMIT") {
        Ok(commit) if !commit.trim().is_empty() => describe_version(&pkg, Some(&commit), false),
        _ => from_git(&pkg),
    };
    println!("cargo:rustc-env=TRACEGATE_VERSION={version}");
    otel_sdk_cfg();
    redis_server_cfg();
}

/// The tests that drive the real OpenTelemetry Python SDK run when
/// `TRACEGATE_OTEL_PYTHON` names its interpreter, and under CI (which must
/// set it: the test then fails without it); elsewhere they are reported
/// as ignored, not passed.
fn otel_sdk_cfg() {
    println!("cargo:rerun-if-env-changed=TRACEGATE_OTEL_PYTHON");
    println!("cargo:rerun-if-env-changed=CI");
    println!("cargo:rustc-check-cfg=cfg(otel_sdk)");
    let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
    if set("TRACEGATE_OTEL_PYTHON") || set("CI") {
        println!("cargo:rustc-cfg=otel_sdk");
    }
}

/// The tests that start a real `redis-server` (the fleet's shared budget
/// store) run when the build finds one on `PATH`, and under CI (which
/// installs it: the test then fails without it); elsewhere they are
/// reported as ignored with the reason, not passed.
fn redis_server_cfg() {
    println!("cargo:rerun-if-env-changed=PATH");
    println!("cargo:rerun-if-env-changed=CI");
    println!("cargo:rustc-check-cfg=cfg(redis_server)");
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    let on_path = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join("redis-server").is_file()));
    if ci || on_path {
        println!("cargo:rustc-cfg=redis_server");
    }
}

fn from_git(pkg: &str) -> String {
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        return pkg.to_string();
    };
    // Only this repository's own commit: a crate vendored inside another
    // repository must not claim that repository's HEAD.
    let top = git(&dir, &["rev-parse", "--show-toplevel"]).map(PathBuf::from);
    let same = match (
        top.and_then(|t| t.canonicalize().ok()),
        dir.canonicalize().ok(),
    ) {
        (Some(t), Some(d)) => t == d,
        _ => false,
    };
    if !same {
        return pkg.to_string();
    }
    // Build again when HEAD moves (a commit, a checkout) or the index
    // changes (what `modified` compares against), and when the sources do.
    for name in ["HEAD", "index", "packed-refs"] {
        watch(&dir, git(&dir, &["rev-parse", "--git-path", name]));
    }
    if let Some(branch) = git(&dir, &["symbolic-ref", "-q", "HEAD"]) {
        watch(&dir, git(&dir, &["rev-parse", "--git-path", &branch]));
    }
    for s in SOURCES {
        if dir.join(s).exists() {
            println!("cargo:rerun-if-changed={s}");
        }
    }
    let commit = git(&dir, &["rev-parse", "--short=12", "HEAD"]);
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(SOURCES);
    let modified = git(&dir, &status).is_some_and(|s| !s.is_empty());
    describe_version(pkg, commit.as_deref(), modified)
}

/// Rerun the build script when `path` (relative to `dir`) changes; only
/// for files that exist (a missing one would rerun it every time).
fn watch(dir: &Path, path: Option<String>) {
    if let Some(p) = path {
        let p = dir.join(p);
        if p.exists() {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
}

/// The trimmed stdout of a successful `git` run in `dir`.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        // `git status` must not rewrite the index it is watched through.
        .env("GIT_OPTIONAL_LOCKS", "0")
        .current_dir(dir)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8(out.stdout)
        .ok()
        .map(|s| s.trim().to_string())
}
