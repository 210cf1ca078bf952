//! File sinks (`file:PATH`): how a sink's file is opened. Plain `std`, so
//! that every way of writing a sink file shares one set of guarantees.

use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::path::Path;

/// Open a file sink for appending: its folder created private (0700) when
/// missing, the file created private (0600), and a torn last line (a write
/// cut off by a full disk or a crash) ended, so that the next record
/// starts on a line of its own.
pub fn open_sink_file(path: &Path) -> std::io::Result<std::fs::File> {
    use std::io::{Read, Seek, SeekFrom, Write};
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
        && !dir.exists()
    {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    // SECURITY: sink files hold records (capture files hold content):
    // readable by the daemon's user only.
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .mode(0o600)
        .open(path)?;
    let len = f.metadata()?.len();
    if len > 0 {
        let mut last = [0u8; 1];
        f.seek(SeekFrom::Start(len - 1))?;
        f.read_exact(&mut last)?;
        if last[0] != b'\n' {
            f.write_all(b"\n")?;
        }
    }
    Ok(f)
}
