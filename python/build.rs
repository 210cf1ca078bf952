//! With the `bundle-bin` feature (the wheel's build turns it on in
//! `pyproject.toml`), put the `tracegate` binary into the package folder
//! (`tracegate/bin/tracegate`), so that `pip install` also gives the
//! command and `tracegate.serve`.
//!
//! The binary is the root package's, built by a nested `cargo build
//! --release -p tracegate-cli` into its own target folder (`target/wheel-bin`:
//! the outer build holds the lock of its own), or, when
//! `TRACEGATE_WHEEL_BIN` names an already built binary (CI, after `cargo
//! test` built one), copied from there. The extension itself links none of
//! it: the binary is a separate file beside the module.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=TRACEGATE_WHEEL_BIN");
    println!("cargo:rerun-if-changed=build.rs");
    if env::var_os("CARGO_FEATURE_BUNDLE_BIN").is_none() {
        return;
    }
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let root = manifest.parent().unwrap_or(Path::new("..")).to_path_buf();
    let exe = if cfg!(windows) {
        "tracegate.exe"
    } else {
        "tracegate"
    };
    let dest_dir = manifest.join("tracegate").join("bin");
    if let Err(e) = std::fs::create_dir_all(&dest_dir) {
        println!("cargo:warning=cannot create {}: {e}", dest_dir.display());
        std::process::exit(1);
    }
    let src = match env::var_os("TRACEGATE_WHEEL_BIN") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => {
            let target = root.join("target").join("wheel-bin");
            let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let mut cmd = Command::new(cargo);
            cmd.args([
                "build",
                "--release",
                "-p",
                "tracegate-cli",
                "--bin",
                "tracegate",
            ])
            .arg("--manifest-path")
            .arg(root.join("Cargo.toml"))
            .arg("--target-dir")
            .arg(&target);
            // The outer build's settings are for the extension, not this.
            for k in [
                "CARGO_TARGET_DIR",
                "CARGO_BUILD_TARGET",
                "CARGO_ENCODED_RUSTFLAGS",
                "RUSTFLAGS",
                "CARGO_MAKEFLAGS",
                "CARGO_PRIMARY_PACKAGE",
            ] {
                cmd.env_remove(k);
            }
            match cmd.status() {
                Ok(s) if s.success() => {}
                Ok(s) => {
                    println!("cargo:warning=building the tracegate binary failed ({s})");
                    std::process::exit(1);
                }
                Err(e) => {
                    println!("cargo:warning=cannot run cargo to build the tracegate binary: {e}");
                    std::process::exit(1);
                }
            }
            target.join("release").join(exe)
        }
    };
    let dest = dest_dir.join(exe);
    if let Err(e) = std::fs::copy(&src, &dest) {
        println!(
            "cargo:warning=cannot copy the tracegate binary from {}: {e}",
            src.display()
        );
        std::process::exit(1);
    }
    println!("cargo:rerun-if-changed={}", src.display());
}
