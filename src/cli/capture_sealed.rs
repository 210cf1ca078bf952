//! `tracegate capture keygen | ls | open`: keys for sealed capture, the
//! segments a log and a capture file hold, and opening them.
//!
//! `open` trusts nothing in the capture file by itself: the audit log's
//! chain must verify, every segment must be vouched for by a
//! `capture_segment_opened` entry (its header's SHA-256) and a
//! `capture_segment_closed` entry (its records, bytes and running SHA-256,
//! recomputed here from the file without a key), and a `capture_read`
//! entry is appended before anything is decrypted. Errors name the file,
//! the line and the cause, never a value.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::exit;
use crate::audit::{AuditEvent, ReadFile, VerifyStatus, parent_or_dot};
use crate::seal::cf::{self, SplitLine};
use crate::seal::otlp;
use crate::seal::{Identity, SegmentDigest, SegmentHeader, SegmentId};

/// A segment as the audit log describes it.
#[derive(Debug, Default, Clone)]
struct Vouched {
    sink: String,
    window: String,
    recipients: Vec<String>,
    header_sha256: String,
    closed: Option<(u64, u64, String)>,
    read: u64,
}

/// A segment as found in a capture file.
struct Found {
    header: SegmentHeader,
    header_sha256: String,
    header_line: usize,
    digest: SegmentDigest,
    /// Sealed records: line number and record, in file order.
    records: Vec<(usize, Sealed)>,
    /// The sequence number the next sealed value must carry.
    next_seq: u64,
}

/// One sealed line of a segment.
enum Sealed {
    /// A cf record: its clear part and sealed value.
    Cf(SplitLine),
    /// An OTLP/JSON export request: its spans and log records each hold a
    /// sealed value (`crate::seal::otlp`).
    Otlp(Vec<u8>),
}

/// `capture keygen --out PATH`.
pub fn keygen(out: &Path) -> anyhow::Result<u8> {
    let id = Identity::generate()?;
    let created = jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let text = id.file_text(&created);
    // SECURITY: the identity is readable by its owner only, from its
    // first byte.
    let note = " (an existing file is never replaced)";
    super::audit_keys::write_new(out, text.as_bytes(), 0o600, note)?;
    sayln!("{}", id.recipient().encode());
    esayln!(
        "identity written to `{}` (keep it secret; the line above is its recipient for `seal_to`)",
        out.display()
    );
    Ok(exit::OK)
}

/// The log's segments, after its chain verified intact.
fn read_log(audit: &Path) -> anyhow::Result<BTreeMap<String, Vouched>> {
    let report = crate::audit::verify(audit, None)
        .with_context(|| format!("cannot verify the audit log `{}`", audit.display()))?;
    match &report.status {
        VerifyStatus::Intact => {}
        VerifyStatus::Tampered { seq, detail, .. } => bail!(
            "the audit log `{}` is tampered at seq {seq} ({detail}): it vouches for nothing",
            audit.display()
        ),
        VerifyStatus::TornTail { .. } => bail!(
            "the audit log `{}` ends with a torn line: run `tracegate audit verify` first",
            audit.display()
        ),
        VerifyStatus::Unvouched(_) => bail!(
            "the audit log `{}` is not vouched for by its checkpoint: it vouches for nothing",
            audit.display()
        ),
        _ => bail!(
            "the audit log `{}` did not verify intact: it vouches for nothing",
            audit.display()
        ),
    }
    let mut out: BTreeMap<String, Vouched> = BTreeMap::new();
    for e in crate::audit::read_entries(audit, None)? {
        let e = e?;
        match e.event {
            AuditEvent::CaptureSegmentOpened {
                sink,
                window,
                segment,
                recipients,
                header_sha256,
            } => {
                let v = out.entry(segment).or_default();
                v.sink = sink;
                v.window = window;
                v.recipients = recipients;
                v.header_sha256 = header_sha256;
            }
            AuditEvent::CaptureSegmentClosed {
                segment,
                records,
                bytes,
                sha256,
                ..
            } => {
                out.entry(segment).or_default().closed = Some((records, bytes, sha256));
            }
            AuditEvent::CaptureRead { files, .. } => {
                for f in files {
                    for s in f.segments {
                        out.entry(s).or_default().read += 1;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// Scan a capture file: its segments, their digests recomputed from the
/// lines as they are. Errors: file:line and cause.
fn scan(path: &Path, bytes: &[u8]) -> anyhow::Result<Vec<Found>> {
    let name = path.display();
    let mut found: Vec<Found> = Vec::new();
    let mut by_id: HashMap<SegmentId, usize> = HashMap::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let n = i + 1;
        if line.trim_ascii().is_empty() {
            continue;
        }
        if SegmentHeader::is_header_line(line) {
            let header =
                SegmentHeader::parse_line(line).map_err(|e| anyhow::anyhow!("{name}:{n}: {e}"))?;
            if by_id.contains_key(&header.id) {
                bail!("{name}:{n}: segment {} has a second header", header.id);
            }
            let mut digest = SegmentDigest::default();
            digest.header(line);
            by_id.insert(header.id, found.len());
            found.push(Found {
                header,
                header_sha256: crate::seal::sha256_hex(line),
                header_line: n,
                digest,
                records: Vec::new(),
                next_seq: 0,
            });
            continue;
        }
        let bad = |e: crate::seal::SealError| anyhow::anyhow!("{name}:{n}: {e}");
        let (values, sealed) = if cf::is_sealed_line(line) {
            let split = cf::split_line(line).map_err(bad)?;
            (vec![split.sealed.clone()], Sealed::Cf(split))
        } else if otlp::is_sealed_request(line) {
            let values = otlp::sealed_values(line).map_err(bad)?;
            (values, Sealed::Otlp(line.to_vec()))
        } else {
            // A standard record (outside any window): in clear, not ours.
            continue;
        };
        let Some(first) = values.first() else {
            continue;
        };
        let Some(&at) = by_id.get(&first.segment) else {
            bail!(
                "{name}:{n}: sealed record of segment {} before (or without) its header",
                first.segment
            );
        };
        let seg = &mut found[at];
        for v in &values {
            let expected = seg.next_seq;
            if v.segment != seg.header.id || v.seq != expected {
                bail!(
                    "{name}:{n}: record out of order in segment {} (sequence {}, expected {expected}): records were moved, removed or added",
                    seg.header.id,
                    v.seq
                );
            }
            seg.next_seq = expected.saturating_add(1);
        }
        seg.digest.record(line);
        seg.records.push((n, sealed));
    }
    Ok(found)
}

/// Whether the log vouches for a found segment: `Ok(())`, or why not.
fn vouch(found: &Found, log: &BTreeMap<String, Vouched>) -> Result<(), String> {
    let id = found.header.id.to_string();
    let Some(v) = log.get(&id).filter(|v| !v.header_sha256.is_empty()) else {
        return Err(format!("segment {id}: the audit log never opened it"));
    };
    if v.header_sha256 != found.header_sha256 {
        return Err(format!(
            "segment {id}: its header is not the one the audit log vouches for"
        ));
    }
    if v.sink != found.header.sink || v.window != found.header.window {
        return Err(format!(
            "segment {id}: its header names another sink or window than the audit log"
        ));
    }
    let Some((records, bytes, sha)) = &v.closed else {
        return Err(format!(
            "segment {id}: the audit log never closed it (its end is not vouched for)"
        ));
    };
    if *records != found.digest.records || *bytes != found.digest.bytes {
        let c = |n: u64| crate::io_text::counted(n, "record", "records");
        return Err(format!(
            "segment {id}: {} ({} bytes) in the file, the audit log vouches for {} ({bytes} bytes): truncated, extended or edited",
            c(found.digest.records),
            found.digest.bytes,
            c(*records)
        ));
    }
    if *sha != found.digest.hex() {
        return Err(format!(
            "segment {id}: its lines are not the ones the audit log vouches for (digest differs): edited"
        ));
    }
    Ok(())
}

fn read_file(p: &Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(p).with_context(|| format!("cannot read `{}`", p.display()))
}

/// `capture ls --audit LOG [CAPTURE...]`.
pub fn ls(audit: &Path, captures: &[PathBuf]) -> anyhow::Result<u8> {
    let log = read_log(audit)?;
    sayln!("segment\tsink\twindow\trecords\tbytes\trecipients\tstate\tread");
    let mut code = exit::OK;
    let mut listed = std::collections::HashSet::new();
    for p in captures {
        let bytes = read_file(p)?;
        for f in scan(p, &bytes)? {
            let id = f.header.id.to_string();
            let state = match vouch(&f, &log) {
                Ok(()) => "vouched".to_owned(),
                Err(why) => {
                    code = exit::FINDINGS;
                    format!("NOT VOUCHED: {why}")
                }
            };
            let read = log.get(&id).map_or(0, |v| v.read);
            sayln!(
                "{id}\t{}\t{}\t{}\t{}\t{}\t{}:{} {state}\t{}",
                f.header.sink,
                f.header.window,
                f.digest.records,
                f.digest.bytes,
                f.header.hints().join(","),
                p.display(),
                f.header_line,
                if read > 0 {
                    format!("opened {read}x")
                } else {
                    "never opened".into()
                }
            );
            listed.insert(id);
        }
    }
    for (id, v) in &log {
        if listed.contains(id) || v.header_sha256.is_empty() {
            continue;
        }
        let (records, bytes) = v
            .closed
            .as_ref()
            .map_or((String::from("?"), String::from("?")), |c| {
                (c.0.to_string(), c.1.to_string())
            });
        sayln!(
            "{id}\t{}\t{}\t{records}\t{bytes}\t{}\t{}\t{}",
            v.sink,
            v.window,
            v.recipients.join(","),
            if v.closed.is_some() {
                "in the log"
            } else {
                "in the log, not closed"
            },
            if v.read > 0 {
                format!("opened {}x", v.read)
            } else {
                "never opened".into()
            }
        );
    }
    Ok(code)
}

/// `capture open` options, as given.
#[derive(Debug)]
pub struct OpenRequest<'a> {
    /// Identity file.
    pub identity: &'a Path,
    /// The audit log.
    pub audit: &'a Path,
    /// Why.
    pub reason: &'a str,
    /// Who.
    pub by: Option<&'a str>,
    /// Output file (default stdout).
    pub out: Option<&'a Path>,
    /// Capture files.
    pub captures: &'a [PathBuf],
    /// The files are an OTLP/JSON export of what an OTLP sink sent
    /// (`--otlp-export`): see [`open_export`].
    pub otlp_export: bool,
}

/// `capture open`.
pub fn open(req: &OpenRequest<'_>) -> anyhow::Result<u8> {
    if req.captures.is_empty() {
        bail!("name the capture files to open");
    }
    if req.reason.trim().is_empty() {
        bail!("--reason must say why the content is read");
    }
    let id_text = zeroize::Zeroizing::new(
        std::fs::read_to_string(req.identity)
            .with_context(|| format!("cannot read the identity `{}`", req.identity.display()))?,
    );
    let identities = Identity::parse_file(&id_text)
        .map_err(|e| anyhow::anyhow!("`{}`: {e}", req.identity.display()))?;
    if let Some(out) = req.out {
        refuse_sink_as_output(out, req.captures, req.audit)?;
    }
    let log = read_log(req.audit)?;
    if req.otlp_export {
        return open_export(req, &identities, &log);
    }
    // Everything is checked before the read is logged, and logged before
    // anything is decrypted.
    let mut files: Vec<(PathBuf, Vec<u8>, Vec<Found>)> = Vec::new();
    for p in req.captures {
        let bytes = read_file(p)?;
        let found = scan(p, &bytes)?;
        if found.is_empty() {
            bail!("{}: no sealed segment in it", p.display());
        }
        for f in &found {
            vouch(f, &log)
                .map_err(|why| anyhow::anyhow!("{}:{}: {why}", p.display(), f.header_line))?;
        }
        files.push((p.clone(), bytes, found));
    }
    let reads: Vec<ReadFile> = files
        .iter()
        .map(|(p, bytes, found)| ReadFile {
            path: p.display().to_string(),
            sha256: crate::seal::sha256_hex(bytes),
            segments: found.iter().map(|f| f.header.id.to_string()).collect(),
        })
        .collect();
    log_read(req, reads)?;
    write_opened(req.out, |sink| {
        for (p, _, found) in &files {
            for f in found {
                let opener = f.header.unwrap_key(&identities).map_err(|e| {
                    anyhow::anyhow!(
                        "{}:{}: segment {}: {e}",
                        p.display(),
                        f.header_line,
                        f.header.id
                    )
                })?;
                for (n, sealed) in &f.records {
                    let line = match sealed {
                        Sealed::Cf(split) => cf::open_line(&opener, split),
                        Sealed::Otlp(line) => otlp::open_request(&opener, line),
                    }
                    .map_err(|e| anyhow::anyhow!("{}:{n}: {e}", p.display()))?;
                    sink.write(&line)?;
                }
            }
        }
        Ok(())
    })
}

/// `capture open --otlp-export`: the files hold OTLP/JSON export requests
/// as a trace backend or collector exports what an OTLP sink sent it: the
/// segment headers as `tracegate.segment` log records, the sealed spans
/// and log records in the backend's own order and batching. Each header
/// must be the one the audit log opened (its SHA-256, sink and window);
/// a sealed value whose segment no header here names, or a sequence
/// number seen twice, is refused. There is no byte digest to recompute
/// (the backend re-encoded the lines), so a span the backend lost is not
/// detected; each value's seal still binds it to its span's ids and time.
fn open_export(
    req: &OpenRequest<'_>,
    identities: &[Identity],
    log: &BTreeMap<String, Vouched>,
) -> anyhow::Result<u8> {
    let mut headers: HashMap<SegmentId, SegmentHeader> = HashMap::new();
    // Each file: its path, its bytes, and its sealed lines by line number.
    type ExportFile = (PathBuf, Vec<u8>, Vec<(usize, Vec<u8>)>);
    let mut files: Vec<ExportFile> = Vec::new();
    let mut seen: std::collections::HashSet<(SegmentId, u64)> = std::collections::HashSet::new();
    for p in req.captures {
        let bytes = read_file(p)?;
        let name = p.display();
        let mut sealed = Vec::new();
        for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
            let n = i + 1;
            for text in otlp::header_lines(line) {
                let header = SegmentHeader::parse_line(text.as_bytes())
                    .map_err(|e| anyhow::anyhow!("{name}:{n}: {e}"))?;
                let id = header.id.to_string();
                let vouched = log.get(&id).filter(|v| !v.header_sha256.is_empty());
                match vouched {
                    None => bail!("{name}:{n}: segment {id}: the audit log never opened it"),
                    Some(v) if v.header_sha256 != crate::seal::sha256_hex(text.as_bytes()) => {
                        bail!(
                            "{name}:{n}: segment {id}: its header is not the one the audit log vouches for"
                        )
                    }
                    Some(v) if v.sink != header.sink || v.window != header.window => bail!(
                        "{name}:{n}: segment {id}: its header names another sink or window than the audit log"
                    ),
                    Some(_) => {}
                }
                headers.insert(header.id, header);
            }
            if otlp::is_sealed_request(line) {
                let values =
                    otlp::sealed_values(line).map_err(|e| anyhow::anyhow!("{name}:{n}: {e}"))?;
                for v in &values {
                    if !seen.insert((v.segment, v.seq)) {
                        bail!(
                            "{name}:{n}: sealed value {} of segment {} appears twice: duplicated or replayed",
                            v.seq,
                            v.segment
                        );
                    }
                }
                sealed.push((n, line.to_vec()));
            }
        }
        files.push((p.clone(), bytes, sealed));
    }
    for (p, _, lines) in &files {
        for (n, line) in lines {
            for v in otlp::sealed_values(line)
                .map_err(|e| anyhow::anyhow!("{}:{n}: {e}", p.display()))?
            {
                if !headers.contains_key(&v.segment) {
                    bail!(
                        "{}:{n}: sealed value of segment {}, whose header is in none of the files",
                        p.display(),
                        v.segment
                    );
                }
            }
        }
    }
    if seen.is_empty() {
        bail!("no sealed span or log record in the files");
    }
    let reads: Vec<ReadFile> = files
        .iter()
        .map(|(p, bytes, _)| ReadFile {
            path: p.display().to_string(),
            sha256: crate::seal::sha256_hex(bytes),
            segments: headers.keys().map(ToString::to_string).collect(),
        })
        .collect();
    log_read(req, reads)?;
    let mut openers = HashMap::new();
    for (id, h) in &headers {
        let o = h
            .unwrap_key(identities)
            .map_err(|e| anyhow::anyhow!("segment {id}: {e}"))?;
        openers.insert(*id, o);
    }
    write_opened(req.out, |sink| {
        for (p, _, lines) in &files {
            for (n, line) in lines {
                let opened = otlp::open_request_with(&|id| openers.get(id), line)
                    .map_err(|e| anyhow::anyhow!("{}:{n}: {e}", p.display()))?;
                sink.write(&opened)?;
            }
        }
        Ok(())
    })
}

/// Append the `capture_read` entries of `reads` (reason, reader, files),
/// durable, before anything is decrypted.
fn log_read(req: &OpenRequest<'_>, reads: Vec<ReadFile>) -> anyhow::Result<()> {
    let by = reader(req.by);
    // SECURITY: the read is in the log, durable, before any key is
    // unwrapped; if it cannot be written nothing is opened.
    let mut alog = crate::audit::AuditLog::open(req.audit, None, std::time::Duration::from_secs(5))
        .with_context(|| format!("cannot open the audit log `{}`", req.audit.display()))?;
    for event in AuditEvent::capture_reads(req.reason, &by, "capture open", reads) {
        alog.append(&event, jiff::Timestamp::now())
            .context("cannot append capture_read: nothing opened")?;
    }
    Ok(())
}

/// Who reads captured content: `--by`, else `$USER`.
pub(crate) fn reader(by: Option<&str>) -> String {
    by.map(str::to_owned)
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Write what `open` decrypts to `out` (or stdout), all or nothing.
fn write_opened(
    out: Option<&Path>,
    open: impl FnOnce(&mut Output) -> anyhow::Result<()>,
) -> anyhow::Result<u8> {
    let mut sink = Output::new(out)?;
    match open(&mut sink) {
        Ok(()) => {
            sink.commit()?;
            Ok(exit::OK)
        }
        Err(e) => {
            sink.abort();
            Err(e)
        }
    }
}

/// `--out` must not be a capture file (or the audit log): plaintext never
/// goes into a sink.
fn refuse_sink_as_output(out: &Path, captures: &[PathBuf], audit: &Path) -> anyhow::Result<()> {
    let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    };
    for c in captures.iter().map(PathBuf::as_path).chain([audit]) {
        if same(out, c) {
            bail!(
                "--out `{}` is a file being read: plaintext is never written into a capture or the audit log",
                out.display()
            );
        }
    }
    Ok(())
}

/// Where opened records go: a temporary file renamed into place on
/// success, or a buffer written to stdout on success. Nothing is left
/// half-written on error.
struct Output {
    tmp: Option<(PathBuf, PathBuf, std::fs::File)>,
    buf: zeroize::Zeroizing<Vec<u8>>,
}

impl Output {
    fn new(out: Option<&Path>) -> anyhow::Result<Output> {
        let tmp = match out {
            None => None,
            Some(p) => {
                let dir = parent_or_dot(p);
                let name = super::file_name(p);
                let t = dir.join(format!(".{name}.tracegate-open-{}", std::process::id()));
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    // SECURITY: plaintext content, owner only.
                    .mode(0o600)
                    .open(&t)
                    .with_context(|| format!("cannot create `{}`", t.display()))?;
                Some((t, p.to_path_buf(), f))
            }
        };
        Ok(Output {
            tmp,
            buf: zeroize::Zeroizing::new(Vec::new()),
        })
    }

    fn write(&mut self, line: &[u8]) -> anyhow::Result<()> {
        match &mut self.tmp {
            Some((t, _, f)) => f
                .write_all(line)
                .and_then(|()| f.write_all(b"\n"))
                .with_context(|| format!("cannot write `{}`", t.display())),
            None => {
                self.buf.extend_from_slice(line);
                self.buf.push(b'\n');
                Ok(())
            }
        }
    }

    fn commit(self) -> anyhow::Result<()> {
        match self.tmp {
            Some((t, p, f)) => {
                f.sync_all()
                    .with_context(|| format!("cannot write `{}`", t.display()))?;
                drop(f);
                std::fs::rename(&t, &p)
                    .with_context(|| format!("cannot write `{}`", p.display()))?;
                Ok(())
            }
            None => {
                let mut out = std::io::stdout().lock();
                out.write_all(&self.buf)?;
                out.flush()?;
                Ok(())
            }
        }
    }

    fn abort(self) {
        if let Some((t, _, f)) = self.tmp {
            drop(f);
            let _ = std::fs::remove_file(&t);
        }
    }
}
