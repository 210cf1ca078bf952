//! Reading a policy path: one file, or a folder of `*.toml` files plus its
//! `windows/` subfolder, in name order. This is the policy's only IO.

use std::path::{Path, PathBuf};

use super::error::{PolicyError, PolicyErrors};

/// One policy file's path and text.
#[derive(Debug, Clone)]
pub struct PolicyFile {
    /// The file's path.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

/// Read every file of the policy at `path`.
pub fn read_policy_files(path: &Path) -> Result<Vec<PolicyFile>, PolicyErrors> {
    let meta = std::fs::metadata(path)
        .map_err(|e| one(path, format!("cannot read policy: {}", io_cause(&e))))?;
    let paths = if meta.is_dir() {
        let mut paths = toml_files_in(path)?;
        let windows = path.join("windows");
        if windows.is_dir() {
            paths.extend(toml_files_in(&windows)?);
        }
        if paths.is_empty() {
            return Err(one(
                path,
                "policy folder holds no `*.toml` file".to_string(),
            ));
        }
        paths
    } else {
        vec![path.to_path_buf()]
    };
    let mut files = Vec::with_capacity(paths.len());
    let mut errors = Vec::new();
    for p in paths {
        match std::fs::read(&p) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => files.push(PolicyFile { path: p, text }),
                Err(e) => errors.push(PolicyError::whole(
                    &p,
                    format!(
                        "policy is not valid UTF-8 (byte {})",
                        e.utf8_error().valid_up_to()
                    ),
                )),
            },
            Err(e) => errors.push(PolicyError::whole(
                &p,
                format!("cannot read policy: {}", io_cause(&e)),
            )),
        }
    }
    if errors.is_empty() {
        Ok(files)
    } else {
        Err(PolicyErrors(errors))
    }
}

fn toml_files_in(dir: &Path) -> Result<Vec<PathBuf>, PolicyErrors> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| one(dir, format!("cannot list policy folder: {}", io_cause(&e))))?;
    let mut out = Vec::new();
    for entry in entries {
        let entry =
            entry.map_err(|e| one(dir, format!("cannot list policy folder: {}", io_cause(&e))))?;
        let p = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        // Editors' and tools' temporaries (`.x.toml.swp`, `.tmp`) are not policy.
        if name.starts_with('.') || p.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        if p.is_file() {
            out.push(p);
        }
    }
    out.sort();
    Ok(out)
}

fn one(path: &Path, message: String) -> PolicyErrors {
    PolicyErrors(vec![PolicyError::whole(path, message)])
}

pub use crate::io_text::io_cause;
