//! `tracegate audit keygen | head | sign | rotate-key`: the Ed25519 keys
//! of a signed audit log and its publishable head.
//!
//! - `keygen --out PATH` writes a new signing key to `PATH` (PKCS#8 PEM,
//!   created 0600, never over an existing file) and its verifier key to
//!   `PATH.pub` (one line, `<name>+<8 hex>+<base64>`, the signed-note
//!   form), and prints the verifier key.
//! - `head LOG` verifies the log and prints its signed checkpoint (or, for
//!   a log that is not signed, the bare checkpoint text): what an operator
//!   publishes out of their own reach for `audit verify --since-head`.
//! - `sign --signing-key KEY LOG` starts signing a log that already has
//!   entries: it must verify intact first.
//! - `rotate-key --policy P --new-key NEW` appends `key_rotated` under the
//!   policy's current `[audit] signing_key` and signs from then on with
//!   `NEW`; gates still holding the old key refuse to append (full capture
//!   off) until the policy names `NEW`.
//!
//! Exit codes: 0 done; 1 the log is tampered; 2 usage or I/O error; 3 a
//! torn tail; 4 not vouched for (as `audit verify`).

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;

use crate::audit::{
    AuditKey, AuditLog, NoteFile, SigningKey, VerifyStatus, note_path, read_note_file,
};

/// Arguments of `audit keygen`.
#[derive(Debug, Clone, Args)]
pub struct KeygenArgs {
    /// Where to write the private key (PKCS#8 PEM, 0600); the public key
    /// goes to `PATH.pub`. Neither may exist.
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
}

/// Arguments of `audit head`.
#[derive(Debug, Clone, Args)]
pub struct HeadArgs {
    /// The audit log.
    pub file: PathBuf,
    /// Key file of a keyed log (`[audit] key_file`).
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,
    /// Public key the head must be signed by (repeatable; as `audit
    /// verify --public-key`).
    #[arg(long = "public-key", value_name = "PUB")]
    pub public_keys: Vec<PathBuf>,
}

/// Arguments of `audit sign`.
#[derive(Debug, Clone, Args)]
pub struct SignArgs {
    /// The audit log.
    pub file: PathBuf,
    /// The signing key (`[audit] signing_key`).
    #[arg(long, value_name = "PATH")]
    pub signing_key: PathBuf,
    /// Key file of a keyed log (`[audit] key_file`).
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,
    /// The log's anchor (`[audit] anchor`).
    #[arg(long, value_name = "FILE")]
    pub anchor: Option<PathBuf>,
}

/// Arguments of `audit rotate-key`.
#[derive(Debug, Clone, Args)]
pub struct RotateArgs {
    /// The policy whose `[audit]` names the log and its current signing key.
    #[arg(long, value_name = "FILE")]
    pub policy: PathBuf,
    /// The new signing key (from `audit keygen`).
    #[arg(long, value_name = "PATH")]
    pub new_key: PathBuf,
}

/// `.pub` appended to `path`.
fn pub_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".pub");
    PathBuf::from(s)
}

/// Run `audit keygen`.
pub fn keygen(args: &KeygenArgs) -> u8 {
    let public = pub_path(&args.out);
    let made = (|| -> anyhow::Result<String> {
        let (key, pem) = SigningKey::generate()?;
        let text = key.verifier().to_text();
        // SECURITY: the private key is created 0600 and never over an
        // existing file (a key overwritten is a log nobody can sign).
        write_new(&args.out, pem.as_bytes(), 0o600, "")?;
        if let Err(e) = write_new(&public, format!("{text}\n").as_bytes(), 0o644, "") {
            let _ = std::fs::remove_file(&args.out);
            return Err(e);
        }
        Ok(text)
    })();
    match made {
        Ok(text) => {
            sayln!(
                "wrote `{}` (private, 0600) and `{}`:\n{text}",
                args.out.display(),
                public.display()
            );
            0
        }
        Err(e) => super::error_exit(format_args!("{e:#}")),
    }
}

/// Create `path` with `mode`, never over an existing file, and write and
/// fsync `bytes`; `note` follows the path in the error when it cannot be
/// created.
pub(crate) fn write_new(path: &Path, bytes: &[u8], mode: u32, note: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(path)
        .with_context(|| format!("cannot create `{}`{note}", path.display()))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .with_context(|| format!("cannot write `{}`", path.display()))?;
    Ok(())
}

/// Run `audit head`.
pub fn head(args: &HeadArgs) -> u8 {
    let verified = AuditKey::load_if(args.key_file.as_deref()).and_then(|key| {
        let check = super::audit_verify::signed_check(&args.public_keys, None)?;
        let report = crate::audit::verify_signed(&args.file, key.as_ref(), None, &check)?;
        let note = read_note_file(&note_path(&args.file))
            .map_err(|e| crate::audit::AuditError::read(&args.file, &e))?;
        Ok((report, note))
    });
    let (report, note) = match verified {
        Ok(v) => v,
        Err(e) => return super::error_exit(e),
    };
    let file = args.file.display();
    if report.status != VerifyStatus::Intact {
        // SECURITY: a head is published to be relied on; never print one
        // for a log that does not verify.
        esayln!("error: no head printed: {file}: {}", report.message());
        return report.exit_code();
    }
    let Some(head) = report.head else {
        let no_head = format_args!("{file} has no entries yet; there is no head");
        return super::error_exit(no_head);
    };
    let text = match note {
        NoteFile::Note(n) if n.head().as_ref() == Ok(&head) => n.render(),
        NoteFile::Note(_) | NoteFile::Invalid(_) => {
            esayln!(
                "error: no head printed: {file}: the signed checkpoint does not name the log's last entry"
            );
            return 4;
        }
        // Not signed: the bare head still catches a rollback, for whoever
        // keeps it beyond the operator's reach.
        NoteFile::Missing => head.text(),
    };
    say!("{text}");
    0
}

/// Run `audit sign`.
pub fn sign(args: &SignArgs) -> u8 {
    let file = args.file.display();
    let done = (|| -> Result<Result<Option<crate::audit::Head>, u8>, crate::audit::AuditError> {
        let key = AuditKey::load_if(args.key_file.as_deref())?;
        let signer = Arc::new(SigningKey::load(&args.signing_key)?);
        let report =
            crate::audit::verify_anchored(&args.file, key.as_ref(), args.anchor.as_deref())?;
        if report.status != VerifyStatus::Intact {
            esayln!("error: not signed: {file}: {}", report.message());
            return Ok(Err(report.exit_code()));
        }
        let mut log = AuditLog::open(&args.file, key, std::time::Duration::from_secs(10))?
            .with_anchor(args.anchor.clone())?
            .with_signer(Some(signer));
        log.start_signing().map(Ok)
    })();
    match done {
        Ok(Ok(Some(head))) => {
            sayln!(
                "{file}: signed checkpoint written for {}",
                crate::io_text::counted(head.size, "entry", "entries")
            );
            0
        }
        Ok(Ok(None)) => {
            sayln!("{file}: no entries yet; the first append signs");
            0
        }
        Ok(Err(code)) => code,
        Err(e) => super::error_exit(e),
    }
}

/// Run `audit rotate-key`.
pub fn rotate(args: &RotateArgs) -> u8 {
    let Some(policy) = super::load_policy(&args.policy) else {
        return 2;
    };
    let Some(settings) = policy.audit() else {
        return super::error_exit("the policy has no [audit] table");
    };
    if settings.signing_key.is_none() {
        let no_key = "the policy's [audit] has no signing_key to rotate from";
        return super::error_exit(no_key);
    }
    let done = (|| -> Result<u64, crate::audit::AuditError> {
        let new = Arc::new(SigningKey::load(&args.new_key)?);
        let mut log = crate::window::budget::open_configured(settings)?;
        log.set_replica_id(Some(crate::fleet::replica_id(policy.fleet())));
        Ok(log.rotate_signing_key(new, jiff::Timestamp::now())?.seq)
    })();
    match done {
        Ok(seq) => {
            sayln!(
                "key_rotated written at seq {seq}; set `[audit] signing_key = \"{}\"` in the policy now: gates holding the old key refuse to append until they load it",
                args.new_key.display()
            );
            0
        }
        Err(e) => super::error_exit(e),
    }
}
