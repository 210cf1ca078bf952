//! The policy in force, each sink's capture state and queue, and the
//! per-record path: judge every record once per sink, exactly as `filter`
//! does, and hand the result to the sink's queue.
//!
//! **Invariant:** a request takes one snapshot of [`Active`]; every record
//! of it is judged by that one policy version. A capture whose policy is
//! newer than the snapshot (a reload landed mid-request) answers standard
//! for that request: fail closed.
//!
//! **Invariant:** a record's path holds a sink's capture lock only to take
//! a grant and to commit what the record carried, never while judging or
//! redacting it and never while waiting for the audit log. Audit work
//! (enabling, leasing, closes, following the log) runs on the ticker
//! ([`Pipeline::tick`]), woken as soon as a capture asks for it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;
use jiff::Timestamp;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;

use super::metrics::{Gauges, Metrics};
use crate::decision::{Delivery, LevelSource, Written, judge_for_sink};
use crate::finding::{Finding, FindingKind, Rule};
use crate::gate::otlp::wire::WireOtlp;
use crate::gate::shared::SharedScan;
use crate::gate::{Gate, Verdict};
use crate::policy::Policy;
use crate::record::Format;
use crate::record::cf_span;
use crate::record::otlp_proto::bounds::{Counts, Signal};
use crate::record::tape::Tape;
use crate::sink::RecordSink as _;
use crate::sink::counters::lock;
use crate::sink::counters::{DropReason, ItemSignal, SinkCounters};
use crate::sink::writer::{self as sink, Queue};
use crate::source::lines::{Line, LineReader, is_blank};
use crate::window::Level;
use crate::window::budget::Units;
use crate::window::clock::Clock;
use crate::window::runtime::{Capture, Grant};
use crate::window::segments::SealedAt;

/// A sink's capture state, tagged with the policy revision it follows.
#[derive(Debug)]
pub struct CaptureSlot {
    /// The revision whose policy `capture` holds.
    pub revision: u64,
    /// The window state.
    pub capture: Capture,
}

/// One sink of the policy in force.
#[derive(Debug)]
pub struct SinkRt {
    /// The sink's name.
    pub name: String,
    /// Capture state, for `full_allowed` sinks.
    pub capture: Option<Arc<Mutex<CaptureSlot>>>,
    /// Where its records go.
    pub queue: Arc<Queue>,
    /// Its counters.
    pub counters: Arc<SinkCounters>,
    /// Its output carries OTLP only (`otlp+...`): cf records go as spans
    /// ([`crate::record::cf_span`]), evidence records cannot go.
    pub otlp_only: bool,
    /// Its full-level records go out sealed (`seal_to`): see
    /// `seal_or_standard`; for an OTLP output, a segment's header goes
    /// out as a log record (`seal::otlp::header_request`).
    pub sealed: bool,
    /// `content_refs`: the index in [`Active::sinks`] of the sealed sink
    /// whose captures this sink's standard records point to.
    pub content_refs: Option<usize>,
    /// When a record this sink cannot carry was last logged (rate limit).
    not_carried_logged: Mutex<Option<std::time::Instant>>,
}

/// One policy version and the sinks built from it.
#[derive(Debug)]
pub struct Active {
    /// The compiled policy.
    pub policy: Arc<Policy>,
    /// 1 at start, +1 per reload that took effect.
    pub revision: u64,
    /// When it took effect.
    pub loaded_at: Timestamp,
    /// The sinks that have an `output`, in policy order.
    pub sinks: Vec<SinkRt>,
    /// The order a record visits them: sealed sinks first, so that a
    /// sink with `content_refs` knows where its record was sealed.
    order: Vec<usize>,
    /// Pooled gate sets.
    gates: Mutex<Vec<GateSet>>,
    /// Every sink is a standard-level OTLP exporter (no capture, no
    /// sealing, no content references): a protobuf request may be judged
    /// on the wire for all of them ([`Pipeline::ingest_protobuf`]).
    wire: bool,
    /// Tells this version's gate sets from every other's, in this process
    /// (a revision is only unique within one pipeline).
    id: u64,
}

/// A new [`Active::id`].
fn next_active_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The longest request line whose gate set a blocking thread keeps for its
/// next request ([`Active::put_local_gate`]); a set grown by a longer one
/// is pooled.
const KEEP_ON_THREAD_MAX: usize = 1 << 20;

thread_local! {
    /// The gate set this thread judged its last request with, and the
    /// [`Active::id`] of the policy version it belongs to.
    static LOCAL_GATES: std::cell::RefCell<Option<(u64, GateSet)>> =
        const { std::cell::RefCell::new(None) };
}

/// What judging one request takes: one gate per sink (each with that
/// sink's redaction and pseudonyms), then one plain gate; and the buffers
/// of the tape the sinks' gates share (see [`SharedScan`]).
#[derive(Debug)]
struct GateSet {
    gates: Vec<Gate>,
    tape: Tape,
    /// The wire judge's buffers of each sink's gate, for a request judged
    /// on the wire ([`Pipeline::ingest_protobuf`]); filled on first use.
    wires: Vec<WireOtlp>,
}

impl Active {
    fn gate(&self) -> GateSet {
        self.gates
            .lock()
            .ok()
            .and_then(|mut g| g.pop())
            .unwrap_or_else(|| GateSet {
                gates: self
                    .sinks
                    .iter()
                    .map(|s| {
                        let mut gate = Gate::for_sink(Arc::clone(&self.policy), &s.name);
                        // A strip is counted by its rule; only a drop's
                        // path is logged: no path is built for a strip.
                        gate.set_strip_paths(false);
                        gate
                    })
                    .chain(std::iter::once(Gate::for_check(Arc::clone(&self.policy))))
                    .collect(),
                tape: Tape::new(),
                wires: Vec::new(),
            })
    }

    fn put_gate(&self, gate: GateSet) {
        if let Ok(mut g) = self.gates.lock()
            && g.len() < 64
        {
            g.push(gate);
        }
    }

    /// A gate set for a request judged on this thread: the one this thread
    /// used last, when it is of this policy version, else one from the pool.
    ///
    /// The set's tape and buffers are written again for every request, and
    /// a set from the shared pool was most often last written by another
    /// thread, on the other core. Measured (benches/README.md, 2026-12-06):
    /// the tape scan ran about a third slower per instruction inside
    /// `serve` than in `filter`, whose workers each keep their own, and at
    /// `filter`'s speed once each thread kept its set.
    fn local_gate(&self) -> GateSet {
        let mine = LOCAL_GATES
            .try_with(|slot| match slot.try_borrow_mut().ok()?.take() {
                Some((id, set)) if id == self.id => Some(set),
                // An older version's (a reload): dropped here.
                _ => None,
            })
            .ok()
            .flatten();
        mine.unwrap_or_else(|| self.gate())
    }

    /// Give back a set from [`Active::local_gate`]: kept on this thread
    /// for its next request (or, if the thread holds one already, pooled).
    ///
    /// A set that judged a line longer than [`KEEP_ON_THREAD_MAX`] is
    /// pooled instead, as every set was before threads kept theirs: kept
    /// on each blocking thread, sets grown by the largest requests held
    /// more memory than the decode budget accounts for (serve_hard's 16
    /// dense requests in flight went past the documented peak).
    fn put_local_gate(&self, set: GateSet, longest_line: usize) {
        if longest_line > KEEP_ON_THREAD_MAX {
            return self.put_gate(set);
        }
        let spare = LOCAL_GATES.try_with(|slot| match slot.try_borrow_mut() {
            Ok(mut slot) => slot
                .replace((self.id, set))
                .filter(|(id, _)| *id == self.id)
                .map(|(_, set)| set),
            Err(_) => Some(set),
        });
        // Else the slot held nothing or an older version's set (dropped),
        // or the thread is ending (the set goes with it).
        if let Ok(Some(set)) = spare {
            self.put_gate(set);
        }
    }
}

/// The last refused reload.
#[derive(Debug, Clone)]
pub struct ReloadError {
    /// When.
    pub at: Timestamp,
    /// The first error line, capped.
    pub cause: String,
}

/// One protobuf request and each sink's judgement of it on the wire (by
/// sink index), for [`Pipeline::judge_record`].
struct OnWire<'a> {
    signal: Signal,
    body: &'a [u8],
    judged: Vec<Option<crate::gate::Judgement>>,
}

/// A protobuf request every sink judged on the wire
/// ([`Pipeline::judge_protobuf`]), nothing of it counted yet:
/// [`Pipeline::record_protobuf`] counts, logs and queues it,
/// [`Pipeline::forget_protobuf`] gives its gates back without.
#[derive(Debug)]
pub struct WireJudged {
    set: GateSet,
    signal: Signal,
    judged: Vec<Option<crate::gate::Judgement>>,
    counts: Counts,
}

impl WireJudged {
    /// The request's structure as `check_protobuf` counts it (which,
    /// with the policy's `[server]` bounds, passes it).
    pub fn counts(&self) -> Counts {
        self.counts
    }
}

/// What one request's records came to.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    /// Records read.
    pub records: u64,
    /// Malformed records.
    pub malformed: u64,
    /// Records dropped for a rule violation by every sink.
    pub rejected: u64,
    /// The first malformed record's rule and message (offsets only).
    pub first_malformed: Option<String>,
    /// The rule that rejected the first rejected record.
    pub first_rejected_rule: Option<&'static str>,
    /// Spans and log records dropped on their own by every sink, in
    /// records that otherwise went through (`partialSuccess`).
    pub rejected_items: u64,
    /// The signal of an OTLP request, when the endpoint says which;
    /// `None` for JSON Lines (each line says what it is).
    pub signal: Option<Signal>,
}

/// The first drop of one record, for the log line and `/v1/status`.
/// SECURITY: a sink name, fixed words, a rule name and a finding's path
/// (keys escaped as findings escape them); never a value.
#[derive(Debug, Clone)]
pub struct DropNote {
    /// When.
    pub at: Timestamp,
    /// The sink.
    pub sink: String,
    /// What was dropped.
    pub signal: ItemSignal,
    /// Why.
    pub reason: DropReason,
    /// The finding rule, or `""`.
    pub rule: &'static str,
    /// Where in the record, when a finding says.
    pub path: Option<String>,
    /// How many items.
    pub items: u64,
}

/// The drop log's rate limit: one line per reason and rule per this long.
pub const DROP_LOG_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// When a drop of each (reason, rule) was last logged, and how many drops
/// since then went unlogged.
type DropLog = HashMap<(DropReason, &'static str), (Timestamp, u64)>;

/// The daemon's shared state.
pub struct Pipeline {
    active: ArcSwap<Active>,
    /// The policy path being served.
    pub policy_path: PathBuf,
    clock: Arc<dyn Clock>,
    /// Counters.
    pub metrics: Arc<Metrics>,
    captures: Mutex<HashMap<String, Arc<Mutex<CaptureSlot>>>>,
    queues: Mutex<HashMap<String, Arc<Queue>>>,
    writers: Mutex<Vec<JoinHandle<()>>>,
    shutdown_tx: watch::Sender<bool>,
    /// The last refused reload, until one succeeds.
    pub last_reload_error: Mutex<Option<ReloadError>>,
    /// The last item dropped, for `/v1/status`.
    pub last_drop: Mutex<Option<DropNote>>,
    drop_log: Mutex<DropLog>,
    /// Per-sink totals sampled by `/v1/status`, for its last-minute counts.
    pub recent: super::status::RecentSlot,
    /// Wakes the ticker when a capture needs audit work.
    work: Notify,
    /// Protobuf requests may be judged on the wire (tests turn it off to
    /// compare the two paths).
    wire_path: std::sync::atomic::AtomicBool,
}

impl std::fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pipeline(revision {})", self.active.load().revision)
    }
}

impl Pipeline {
    /// Build the pipeline for `policy` (revision 1) and start its sink
    /// writers. Must run inside a tokio runtime.
    pub fn start(policy: Arc<Policy>, path: PathBuf, clock: Arc<dyn Clock>) -> Arc<Pipeline> {
        let (shutdown_tx, _) = watch::channel(false);
        let placeholder = Active {
            policy: Arc::clone(&policy),
            revision: 0,
            loaded_at: clock.utc(),
            sinks: Vec::new(),
            order: Vec::new(),
            gates: Mutex::new(Vec::new()),
            wire: false,
            id: next_active_id(),
        };
        let p = Arc::new(Pipeline {
            active: ArcSwap::from_pointee(placeholder),
            policy_path: path,
            clock,
            metrics: Arc::new(Metrics::default()),
            captures: Mutex::new(HashMap::new()),
            queues: Mutex::new(HashMap::new()),
            writers: Mutex::new(Vec::new()),
            shutdown_tx,
            last_reload_error: Mutex::new(None),
            last_drop: Mutex::new(None),
            drop_log: Mutex::new(HashMap::new()),
            recent: Mutex::default(),
            work: Notify::new(),
            wire_path: std::sync::atomic::AtomicBool::new(true),
        });
        let active = p.build(policy, 1);
        p.active.store(Arc::new(active));
        p
    }

    /// The policy version in force now.
    pub fn snapshot(&self) -> Arc<Active> {
        self.active.load_full()
    }

    /// The clock windows are judged by.
    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    /// Build the sinks of `policy` as revision `revision`: captures carry
    /// over (adopting the policy, which closes removed or changed windows,
    /// audited); queues and their writers carry over while the output is
    /// the same (`queue_records` and `flush_interval` of a running writer
    /// change only at restart; `queue_bytes` changes at once).
    /// Captures of sinks the policy dropped are reloaded too (closing their
    /// windows) and then forgotten.
    pub fn build(&self, policy: Arc<Policy>, revision: u64) -> Active {
        let settings = policy.server().clone();
        let mut captures = lock(&self.captures);
        let mut queues = lock(&self.queues);
        let mut new_captures = HashMap::new();
        let mut new_queues = HashMap::new();
        let mut sinks = Vec::new();
        for s in policy.sinks() {
            let Some(output) = s.output.clone() else {
                continue;
            };
            let counters = self.metrics.sink(&s.name);
            let otlp_only = !matches!(
                s.output,
                Some(crate::policy::SinkOutput::File(_) | crate::policy::SinkOutput::Stdout)
            );
            let sealed = !s.seal_to.is_empty();
            let capture = if s.full_allowed {
                let slot = match captures.remove(&s.name) {
                    Some(slot) => {
                        if let Ok(mut g) = slot.lock() {
                            g.capture.reload(Arc::clone(&policy));
                            g.capture.set_sealing(sealed);
                            g.revision = revision;
                        }
                        slot
                    }
                    None => {
                        let mut capture = Capture::background_with(
                            Arc::clone(&policy),
                            Arc::clone(&self.clock),
                            &s.name,
                            super::capture_extensions(),
                        );
                        capture.set_sealing(sealed);
                        // No request can reach it yet: open the log and
                        // enable what is active before it goes live.
                        capture.service_now();
                        Arc::new(Mutex::new(CaptureSlot { revision, capture }))
                    }
                };
                new_captures.insert(s.name.clone(), Arc::clone(&slot));
                Some(slot)
            } else {
                None
            };
            let spool_dir = s.spool.as_ref().map(|x| x.dir.clone());
            let queue = match queues.remove(&s.name) {
                Some(q) if q.output == output && q.spool_dir == spool_dir => {
                    q.set_max_bytes(settings.queue_bytes);
                    q.set_export(settings.retry, s.spool.as_ref());
                    q
                }
                _ => {
                    let (q, handle) = sink::spawn(
                        &s.name,
                        output,
                        sink::WriterSettings {
                            max_records: settings.queue_records,
                            max_bytes: settings.queue_bytes,
                            flush_every: settings.flush_interval,
                            retry: settings.retry,
                            spool: s.spool.clone(),
                        },
                        Arc::clone(&counters),
                        self.shutdown_tx.subscribe(),
                    );
                    lock(&self.writers).push(handle);
                    q
                }
            };
            new_queues.insert(s.name.clone(), Arc::clone(&queue));
            sinks.push(SinkRt {
                name: s.name.clone(),
                capture,
                queue,
                counters,
                otlp_only,
                sealed,
                content_refs: None,
                not_carried_logged: Mutex::new(None),
            });
        }
        // Sinks no longer full_allowed or gone: their open windows close
        // (cause `removed`, audited) before the new version takes effect.
        for (_, slot) in captures.drain() {
            if let Ok(mut g) = slot.lock() {
                g.capture.reload(Arc::clone(&policy));
                g.capture.finish();
            }
        }
        *captures = new_captures;
        *queues = new_queues;
        for (i, p) in policy
            .sinks()
            .iter()
            .filter(|p| p.output.is_some())
            .enumerate()
        {
            let target = p
                .content_refs
                .as_ref()
                .and_then(|t| sinks.iter().position(|s: &SinkRt| s.name == *t));
            if let Some(s) = sinks.get_mut(i) {
                s.content_refs = target;
            }
        }
        let mut order: Vec<usize> = (0..sinks.len()).collect();
        order.sort_by_key(|&i| sinks.get(i).is_none_or(|s| !s.sealed));
        let wire = !sinks.is_empty()
            && sinks.iter().all(|s| {
                s.otlp_only && s.capture.is_none() && !s.sealed && s.content_refs.is_none()
            });
        // Closes and enablements of the new version: write them now.
        self.work.notify_one();
        Active {
            policy,
            revision,
            loaded_at: self.clock.utc(),
            sinks,
            order,
            gates: Mutex::new(Vec::new()),
            wire,
            id: next_active_id(),
        }
    }

    /// Make `active` the version in force.
    pub fn swap(&self, active: Active) {
        self.active.store(Arc::new(active));
    }

    /// Turn judging protobuf requests on the wire on or off (tests compare
    /// the two paths; on by default).
    pub fn set_wire_path(&self, on: bool) {
        self.wire_path.store(on, Ordering::Relaxed);
    }

    /// Judge one protobuf export request of `signal` on the wire for every
    /// sink (`gate::otlp::wire`), without writing its OTLP/JSON line:
    /// only when every sink is a standard-level OTLP exporter, which
    /// forwards the request as it came or with the stripped fields cut.
    /// The counters, metrics, drop log and tally are what
    /// [`Pipeline::ingest_line`] of the request's line gives. `None`, with
    /// nothing counted, when the request must go that way instead (a sink
    /// that needs the line, a request whose line could pass
    /// `limits.max_line_bytes`, or one a sink's wire judge declines).
    pub fn ingest_protobuf(&self, active: &Active, signal: Signal, body: &[u8]) -> Option<Tally> {
        let judged = self.judge_protobuf(active, signal, body)?;
        Some(self.record_protobuf(active, judged, body))
    }

    /// The first half of [`Pipeline::ingest_protobuf`]: every sink's
    /// judgement of the request on the wire, its structure counted on the
    /// way against the policy's `[server]` bounds
    /// ([`Gate::judge_wire_within`]), nothing counted, logged or queued.
    /// `None` (its gates given back) where `ingest_protobuf` is, and for a
    /// request past a bound: `check_protobuf` says which.
    pub fn judge_protobuf(
        &self,
        active: &Active,
        signal: Signal,
        body: &[u8],
    ) -> Option<WireJudged> {
        // The line is at most this many times the request, plus its
        // braces: every field on the wire takes two bytes or more and
        // writes at most its key (22 bytes at most), quotes, a separator
        // and a value of at most six bytes per byte of it (a string of
        // control bytes, each `\u00XX`).
        const GROWTH: usize = 16;
        if !active.wire
            || !self.wire_path.load(Ordering::Relaxed)
            || body.len().saturating_mul(GROWTH).saturating_add(64)
                > active.policy.limits().max_line_bytes
        {
            return None;
        }
        let limits = active.policy.server().structure;
        let mut set = active.local_gate();
        set.wires.resize_with(active.sinks.len(), WireOtlp::default);
        let mut judged = vec![None; active.sinks.len()];
        let mut counts = None;
        for &i in &active.order {
            // Every sink's judgement, or none: a sink left unjudged here
            // would be judged on an empty line below.
            let judgement = match (set.gates.get_mut(i), set.wires.get_mut(i)) {
                (Some(gate), Some(wire)) => gate
                    .judge_wire_within(wire, 1, signal, body, &limits)
                    .map(|j| (j, wire.counts())),
                _ => None,
            };
            match (judgement, judged.get_mut(i)) {
                (Some((j, c)), Some(slot)) => {
                    *slot = Some(j);
                    counts = Some(c);
                }
                _ => {
                    active.put_local_gate(set, 0);
                    return None;
                }
            }
        }
        let Some(counts) = counts else {
            active.put_local_gate(set, 0);
            return None;
        };
        Some(WireJudged {
            set,
            signal,
            judged,
            counts,
        })
    }

    /// The second half of [`Pipeline::ingest_protobuf`]: count, log and
    /// queue what each sink's judgement in `judged` (of `body`, by
    /// `active`) says.
    pub fn record_protobuf(&self, active: &Active, judged: WireJudged, body: &[u8]) -> Tally {
        let WireJudged {
            mut set,
            signal,
            judged,
            counts: _,
        } = judged;
        let mut tally = Tally {
            signal: Some(signal),
            ..Tally::default()
        };
        let wire = OnWire {
            signal,
            body,
            judged,
        };
        self.judge_record(
            active,
            &mut set,
            1,
            &Line::Text(&[]),
            &mut tally,
            Some(&wire),
        );
        active.put_local_gate(set, 0);
        tally
    }

    /// Give back the gates of a request judged on the wire that is not
    /// recorded (empty, or waiting for memory: judged again then).
    pub fn forget_protobuf(&self, active: &Active, judged: WireJudged) {
        active.put_local_gate(judged.set, 0);
    }

    /// Judge one OTLP request (one OTLP/JSON line) of `signal` for every
    /// sink.
    pub fn ingest_line(&self, active: &Active, signal: Signal, line: &[u8]) -> Tally {
        let mut tally = Tally {
            signal: Some(signal),
            ..Tally::default()
        };
        let mut gate = active.local_gate();
        let max = active.policy.limits().max_line_bytes;
        let line = if line.len() > max {
            Line::TooLong {
                len: line.len() as u64,
            }
        } else {
            Line::Text(line)
        };
        self.judge_record(active, &mut gate, 1, &line, &mut tally, None);
        let longest = match line {
            Line::Text(l) => l.len(),
            _ => 0,
        };
        active.put_local_gate(gate, longest);
        tally
    }

    /// Judge one line a file source found longer than
    /// `limits.max_line_bytes`, of which only the length was kept: it is
    /// malformed (`line_too_long`) for every sink.
    pub fn ingest_too_long(&self, active: &Active, len: u64) -> Tally {
        let mut tally = Tally::default();
        let mut gate = active.gate();
        self.judge_record(
            active,
            &mut gate,
            1,
            &Line::TooLong { len },
            &mut tally,
            None,
        );
        active.put_gate(gate);
        tally
    }

    /// Judge every non-blank line of a JSON Lines body for every sink, as
    /// `filter` reads its input.
    pub fn ingest_lines(&self, active: &Active, body: &[u8]) -> Tally {
        let mut tally = Tally::default();
        let mut gate = active.local_gate();
        let mut reader = LineReader::new(body, active.policy.limits().max_line_bytes);
        let mut longest = 0;
        // Reading a byte slice cannot fail.
        while let Ok(Some((n, line))) = reader.next_line() {
            if let Line::Text(b) = &line
                && is_blank(b)
            {
                continue;
            }
            if let Line::Text(b) = &line {
                longest = longest.max(b.len());
            }
            self.judge_record(active, &mut gate, n, &line, &mut tally, None);
        }
        active.put_local_gate(gate, longest);
        tally
    }

    /// Judge one record for every sink, or (with `wire`) take each sink's
    /// judgement of it on the wire, and count, log and queue what each
    /// sink's judgement says.
    fn judge_record(
        &self,
        active: &Active,
        set: &mut GateSet,
        n: u64,
        line: &Line<'_>,
        tally: &mut Tally,
        wire: Option<&OnWire<'_>>,
    ) {
        // Every sink's gate judges this one line: the first that needs its
        // tape builds it, the others reuse it.
        let bytes = match line {
            Line::Text(b) => *b,
            _ => &[][..],
        };
        let mut scan = SharedScan::new(bytes, std::mem::take(&mut set.tape));
        let gates = &mut set.gates[..];
        tally.records += 1;
        self.metrics.records_in.fetch_add(1, Ordering::Relaxed);
        let mut malformed = false;
        let mut violated_everywhere = true;
        let mut rule = None;
        // The items (spans, log records) every sink that took the record
        // dropped on its own; `None` until a sink took it.
        let mut items_everywhere: Option<Vec<u32>> = None;
        // The plain gate is last; a sink's own gate sits at the sink's index.
        let plain = gates.len().saturating_sub(1);
        if active.sinks.is_empty()
            && let Some(gate) = gates.get_mut(plain)
        {
            let j = gate.judge(n, line, Level::Standard, false);
            malformed = j.verdict == Verdict::Malformed;
            violated_everywhere = false;
        }
        let mut judged_by = plain;
        let mut note: Option<DropNote> = None;
        // Where this record was sealed, per sealed sink (index, place).
        let mut sealed_at: Vec<(usize, SealedAt)> = Vec::new();
        for &i in &active.order {
            let (Some(s), Some(gate)) = (active.sinks.get(i), gates.get_mut(i)) else {
                continue;
            };
            judged_by = i;
            s.counters.records_in.fetch_add(1, Ordering::Relaxed);
            // Judged on the wire already: a standard sink's delivery.
            let on_wire = wire.and_then(|w| w.judged.get(i).copied().flatten());
            let d = if let Some(judged) = on_wire {
                Sent::Not(Delivery::standard(judged))
            } else {
                gate.with_shared_scan(&mut scan, |gate| match &s.capture {
                    Some(slot) => {
                        let mut source = SlotSource {
                            slot,
                            revision: active.revision,
                            wake: &self.work,
                        };
                        let d = judge_for_sink(gate, Some(&mut source), n, line);
                        // A cf record for an OTLP output is sealed as its span,
                        // in `send_as_otlp`.
                        let as_span = s.otlp_only && d.judged.format != Some(Format::Otlp);
                        if d.is_full() && s.sealed && !as_span {
                            seal_or_standard(&source, s, gate, n, line, d)
                        } else {
                            Sent::Not(d)
                        }
                    }
                    None => Sent::Not(judge_for_sink(gate, None, n, line)),
                })
            };
            let (d, sent) = match d {
                Sent::Sealed(d, at) => {
                    sealed_at.push((i, at));
                    (d, true)
                }
                Sent::Not(d) => (d, false),
            };
            let what = item_signal(tally.signal, d.judged.format, bytes);
            // SECURITY: what is counted and logged of a drop is the rule and
            // the path of a finding, never a value.
            let mut noted = |reason: DropReason, f: Option<&Finding>, items: u64| {
                let rule = f.map_or("", |f| f.rule.as_str());
                s.counters.drop_items(what, reason, rule, items);
                if note.is_none() {
                    note = Some(DropNote {
                        at: self.clock.utc(),
                        sink: s.name.clone(),
                        signal: what,
                        reason,
                        rule,
                        path: f.and_then(|f| f.field.clone()),
                        items,
                    });
                }
            };
            match d.judged.verdict {
                Verdict::Malformed => {
                    malformed = true;
                    s.counters.drop_one(DropReason::Malformed);
                    noted(DropReason::Malformed, gate.findings().first(), 1);
                    continue;
                }
                Verdict::Verbatim | Verdict::Rewritten => {
                    for f in gate.item_drops() {
                        noted(DropReason::Violation, first_violation(f), 1);
                    }
                    count_strips(gate, &s.counters, what);
                    violated_everywhere = false;
                    let here = gate.rejected_items();
                    if !here.is_empty() && rule.is_none() {
                        rule = gate.findings().first().map(|f| f.rule.as_str());
                    }
                    match &mut items_everywhere {
                        None => items_everywhere = Some(here.to_vec()),
                        Some(all) => all.retain(|i| here.contains(i)),
                    }
                }
                // Dropped, and any verdict this daemon does not know yet:
                // fails closed.
                _ => {
                    s.counters.drop_one(DropReason::Violation);
                    if rule.is_none() {
                        rule = gate.findings().first().map(|f| f.rule.as_str());
                    }
                    // Each item under the rule that dropped it, when every
                    // one was dropped on its own; else all of them under the
                    // first violation (a resource's, a bare span's).
                    let items = u64::from(gate.otlp_items());
                    let each: Vec<Option<&Finding>> =
                        gate.item_drops().map(first_violation).collect();
                    if items > 0 && each.len() as u64 == items {
                        for f in each {
                            noted(DropReason::Violation, f, 1);
                        }
                    } else {
                        noted(
                            DropReason::Violation,
                            first_violation(gate.findings()),
                            items.max(1),
                        );
                    }
                    continue;
                }
            }
            if d.judged.stripped > 0 {
                s.counters.stripped.fetch_add(1, Ordering::Relaxed);
            }
            let mut queue: &Queue = &s.queue;
            let refs = s.content_refs.and_then(|t| {
                let at = sealed_at.iter().find(|(j, _)| *j == t)?;
                Some((active.sinks.get(t)?.name.as_str(), &at.1))
            });
            if sent {
                // Sealed and queued already.
            } else if let Some((target, at)) = refs.filter(|_| !d.is_full())
                && !(s.otlp_only && d.judged.format != Some(Format::Otlp))
                && let Some(bytes) = written_bytes(gate, line, &d)
                && let Some(with) = with_refs(d.judged.format, bytes, target, at)
            {
                if (&mut queue).put(&with, false).is_err() {
                    s.counters.drop_one(DropReason::QueueFull);
                    noted(DropReason::QueueFull, None, 1);
                }
            } else if s.otlp_only && d.judged.format != Some(Format::Otlp) {
                let source = s.capture.as_deref().map(|slot| SlotSource {
                    slot,
                    revision: active.revision,
                    wake: &self.work,
                });
                send_as_otlp(s, source.as_ref(), refs, gate, n, line, &d);
            } else {
                let queued = match wire.filter(|_| on_wire.is_some()) {
                    // The request as it came, or cut: an exporter's request.
                    Some(w) => {
                        // The cut request is the gate's own buffer (built
                        // for this request by `WireOtlp::project`): queued
                        // as it is, not copied.
                        let bytes = match d.written {
                            Some(Written::Rebuilt) => gate.take_output(),
                            _ => w.body.to_vec(),
                        };
                        queue
                            .offer(sink::Rec {
                                bytes,
                                full: false,
                                encoded: Some(w.signal),
                            })
                            .is_ok()
                    }
                    None => crate::sink::send(&mut queue, gate, line, &d).is_ok(),
                };
                if !queued {
                    s.counters.drop_one(DropReason::QueueFull);
                    let kept = match d.judged.format {
                        Some(crate::record::Format::Otlp) => u64::from(gate.otlp_items())
                            .saturating_sub(gate.rejected_items().len() as u64)
                            .max(1),
                        _ => 1,
                    };
                    noted(DropReason::QueueFull, None, kept);
                }
            }
        }
        set.tape = scan.into_tape();
        if let Some(n) = note {
            let _logged = self.log_drop(n);
        }
        if malformed {
            tally.malformed += 1;
            self.metrics.malformed.fetch_add(1, Ordering::Relaxed);
            if tally.first_malformed.is_none()
                && let Some(gate) = gates.get(judged_by)
            {
                // SECURITY: malformed findings carry offsets and fixed text only.
                tally.first_malformed = gate
                    .findings()
                    .first()
                    .map(|f| format!("line {}: {}: {}", f.line, f.rule, f.message));
            }
        } else if violated_everywhere {
            tally.rejected += 1;
            if tally.first_rejected_rule.is_none() {
                tally.first_rejected_rule = rule;
            }
        } else if let Some(items) = items_everywhere.filter(|i| !i.is_empty()) {
            tally.rejected_items += items.len() as u64;
            if tally.first_rejected_rule.is_none() {
                tally.first_rejected_rule = rule;
            }
        }
    }

    /// Log a drop, at most one line per reason and rule per
    /// [`DROP_LOG_EVERY`] (the next line says how many went unlogged), and
    /// keep it as the last drop for `/v1/status`.
    fn log_drop(&self, n: DropNote) -> Option<u64> {
        let quiet = {
            let mut log = lock(&self.drop_log);
            let key = (n.reason, n.rule);
            match log.get_mut(&key) {
                Some((last, unlogged))
                    if n.at.duration_since(*last).unsigned_abs() < DROP_LOG_EVERY =>
                {
                    *unlogged += 1;
                    None
                }
                _ => {
                    let unlogged = log.insert(key, (n.at, 0)).map_or(0, |(_, u)| u);
                    Some(unlogged)
                }
            }
        };
        if let Some(unlogged) = quiet {
            // SECURITY: the path is a finding's, its keys escaped as
            // findings escape them; no value is in it.
            tracing::warn!(
                sink = %n.sink,
                signal = n.signal.as_str(),
                reason = n.reason.as_str(),
                rule = n.rule,
                path = n.path.as_deref().unwrap_or("-"),
                items = n.items,
                unlogged_since_last = unlogged,
                "dropped: not written to the sink (`tracegate explain` on an OTLP request body, `tracegate check` on a record, shows why)"
            );
        }
        *lock(&self.last_drop) = Some(n);
        quiet
    }

    /// Whether every sink's queue is full: then nothing could be accepted.
    pub fn overloaded(&self, active: &Active) -> bool {
        !active.sinks.is_empty() && active.sinks.iter().all(|s| s.queue.is_full())
    }

    /// Do each capture's audit work: open the log, enable windows that
    /// started, lease budget, write closes and releases, follow what other
    /// processes wrote. Windows open and expire on time with no traffic.
    /// The capture lock is held only to take the job out and to put its
    /// result back, never while the job waits for the audit log.
    pub fn tick(&self) {
        let active = self.snapshot();
        for s in &active.sinks {
            let Some(slot) = &s.capture else { continue };
            let job = match slot.lock() {
                Ok(mut g) => g.capture.job(),
                Err(_) => None,
            };
            let Some(job) = job else { continue };
            let done = job.run();
            if let Ok(mut g) = slot.lock() {
                g.capture.apply(done);
            }
        }
    }

    /// Resolves when a capture asked for audit work (see [`Pipeline::tick`]).
    pub async fn work_wanted(&self) {
        self.work.notified().await;
    }

    /// Close and bar, on every sink, each window whose id `keep` rejects
    /// (see [`Capture::revoke`]): a refused reload still takes effect where
    /// it only takes rights away.
    pub fn revoke(&self, keep: &dyn Fn(&str) -> bool) {
        let slots: Vec<_> = lock(&self.captures).values().cloned().collect();
        for slot in slots {
            lock(&slot).capture.revoke(keep);
        }
    }

    /// The windows open now, by id.
    pub fn open_windows(&self) -> Vec<String> {
        let slots: Vec<_> = lock(&self.captures).values().cloned().collect();
        slots
            .iter()
            .filter_map(|slot| lock(slot).capture.open_window().map(str::to_string))
            .collect()
    }

    /// Live values for `/metrics` and `/v1/status`.
    pub fn gauges(&self) -> Gauges {
        let active = self.snapshot();
        let f = self.fleet_state();
        let mut g = Gauges {
            revision: active.revision,
            store_up: f.budget_store.as_ref().map(|_| f.store_fault.is_none()),
            leases: f.leases,
            store_failures: f.store_failures,
            ..Gauges::default()
        };
        for s in &active.sinks {
            if let Some(slot) = &s.capture
                && let Ok(c) = slot.lock()
            {
                if c.capture.open_window().is_some() {
                    g.windows_active += 1;
                }
                g.audit_failures += c.capture.stats().audit_failures;
            }
        }
        g
    }

    /// The fleet as this replica sees it: its id, its budget store and
    /// whether the store answered the last lease request, leases taken.
    pub fn fleet_state(&self) -> FleetState {
        let active = self.snapshot();
        let fleet = &active.policy.fleet();
        let mut state = FleetState {
            replica_id: crate::fleet::replica_id(fleet),
            replicas: fleet.replicas,
            budget_store: fleet.budget_store.as_ref().map(ToString::to_string),
            ..FleetState::default()
        };
        for s in &active.sinks {
            if let Some(slot) = &s.capture
                && let Ok(c) = slot.lock()
            {
                let stats = c.capture.stats();
                state.leases += stats.leases;
                state.store_failures += stats.store_failures;
                if let Some(Some(f)) = c.capture.store_state() {
                    state.store_fault.get_or_insert(f);
                }
            }
        }
        state
    }

    /// `None` when ready; else why not, in one line.
    pub fn not_ready(&self) -> Option<String> {
        let active = self.snapshot();
        if active.revision == 0 {
            return Some("no valid policy is active".into());
        }
        // A refused reload may have been meant to end capture: say so while
        // a window is open, so that the operator looks.
        let refused = lock(&self.last_reload_error).clone();
        if let Some(err) = refused
            && let Some(w) = self.open_windows().first()
        {
            return Some(format!(
                "a policy reload was refused while window `{w}` is open: {}",
                err.cause
            ));
        }
        for s in &active.sinks {
            if let Some(slot) = &s.capture {
                match slot.lock() {
                    Ok(c) if c.capture.audit_ready() => {}
                    _ => {
                        return Some(format!(
                            "the audit log is not writable: full capture for sink `{}` is off",
                            s.name
                        ));
                    }
                }
            }
        }
        None
    }

    /// Stop: writers drain their queues and flush, then each open window is
    /// released (`window_released`: what this process spent, the rest of
    /// its lease given back). No `window_closed`: the window goes on for
    /// other gates and the next run. Call after the server stopped
    /// accepting.
    pub async fn shutdown(&self, within: std::time::Duration) {
        let _ = self.shutdown_tx.send(true);
        let handles: Vec<JoinHandle<()>> = lock(&self.writers).drain(..).collect();
        let drained = tokio::time::timeout(within, async {
            for h in handles {
                let _ = h.await;
            }
        })
        .await;
        if drained.is_err() {
            tracing::warn!("sink writers did not finish in time");
        }
        let slots: Vec<_> = lock(&self.captures).values().cloned().collect();
        for slot in slots {
            if let Ok(mut g) = slot.lock() {
                g.capture.finish();
            }
        }
    }
}

/// Hand a cf record the sink's gate judged (`d`) to an OTLP-only sink as
/// the span it describes ([`cf_span`]), judged again by the same gate at
/// the same level against the sink's OTLP allowlist: what goes out is what
/// that judgement lets through. An evidence record, or a span the
/// allowlist refuses, is dropped, counted and logged: never a silent drop
/// (issue 35 item 3).
fn send_as_otlp(
    s: &SinkRt,
    source: Option<&SlotSource<'_>>,
    refs: Option<(&str, &SealedAt)>,
    gate: &mut Gate,
    n: u64,
    line: &Line<'_>,
    d: &Delivery,
) {
    let record: &[u8] = match (d.written, line) {
        (Some(Written::Line), Line::Text(b)) => b,
        (Some(Written::Rebuilt), _) => gate.output(),
        _ => return,
    };
    let span = match d.judged.format {
        Some(Format::Cf) => cf_span::export_line(record),
        _ => None,
    };
    let Some(span) = span else {
        s.counters.drop_one(DropReason::SinkError);
        not_carried(
            s,
            match d.judged.format {
                Some(Format::Evidence) => {
                    "an evidence record cannot go to an OTLP sink (it has no span form): dropped"
                }
                _ => "a record with no span form cannot go to an OTLP sink: dropped",
            },
        );
        return;
    };
    // SECURITY: the converted span is held to the sink's OTLP allowlist at
    // the level the record was judged at; content it carries was already
    // charged to the window's budget and redacted (redaction is
    // idempotent).
    gate.set_allowance(None);
    let j = gate.judge(n, &Line::Text(&span), d.at, true);
    let bytes: &[u8] = match j.verdict {
        Verdict::Verbatim => &span,
        Verdict::Rewritten => gate.output(),
        // Dropped, malformed, and any verdict this daemon does not know
        // yet: fails closed.
        _ => {
            s.counters.drop_one(DropReason::Violation);
            let rule = gate
                .findings()
                .first()
                .map_or("unknown", |f| f.rule.as_str());
            // Counted by rule like every other dropped item (the record is
            // a cf record, so its signal is `records`).
            s.counters
                .drop_items(ItemSignal::Records, DropReason::Violation, rule, 1);
            if not_carried_due(s) {
                // SECURITY: the rule's name and the attribute's path, never a value.
                let path = gate.findings().first().and_then(|f| f.field.as_deref());
                tracing::warn!(
                    sink = %s.name,
                    rule,
                    path = path.unwrap_or(""),
                    "a cf record converted to a span for an OTLP sink broke the sink's OTLP allowlist: dropped"
                );
            }
            return;
        }
    };
    if j.stripped > 0 {
        s.counters.stripped.fetch_add(1, Ordering::Relaxed);
    }
    if d.is_full() && s.sealed {
        let mut emit = |b: &[u8]| put_sealed(s, b);
        let sealed =
            source.is_some_and(|src| src.with(false, |c| c.seal(bytes, &mut emit).is_ok()));
        if !sealed {
            // SECURITY: not sealed, not full: the record goes again, as
            // its standard span.
            let standard = judge_for_sink(gate, None, n, line);
            send_as_otlp(s, None, None, gate, n, line, &standard);
        }
        return;
    }
    // The standard span of a record sealed for `content_refs`' sink
    // points to it.
    let with = refs
        .filter(|_| !d.is_full())
        .and_then(|(target, at)| with_refs(Some(Format::Otlp), bytes, target, at));
    let bytes = with.as_deref().unwrap_or(bytes);
    let mut queue: &Queue = &s.queue;
    if crate::sink::RecordSink::put(&mut queue, bytes, d.is_full()).is_err() {
        s.counters.drop_one(DropReason::QueueFull);
        s.counters
            .drop_items(ItemSignal::Records, DropReason::QueueFull, "", 1);
    }
}

/// A standard record with references to where it was sealed (`at`, in
/// sink `target`): `<field>_ref` members of a cf record, `<key>_ref`
/// attributes of each span or log record of an OTLP request.
fn with_refs(format: Option<Format>, bytes: &[u8], target: &str, at: &SealedAt) -> Option<Vec<u8>> {
    match format {
        Some(Format::Otlp) => {
            tracegate::seal::otlp::with_refs(bytes, target, &at.segment, &at.items)
        }
        _ => tracegate::seal::cf::with_refs(bytes, target, &at.segment, at.seq, &at.keys),
    }
}

/// A record's delivery, after [`seal_or_standard`].
enum Sent {
    /// Sealed and queued at full level; where it was sealed.
    Sealed(Delivery, SealedAt),
    /// Not sent yet: this delivery goes out as any other.
    Not(Delivery),
}

/// A record judged full (`d`) for a sealed sink: sealed in the capture's
/// open segment and queued as one write (a new segment's header with its
/// first record). When it cannot be (no segment the log vouches for yet,
/// no content to seal, a queue that did not take it), the record is
/// judged again at standard level: content that is not sealed never goes
/// out to a sealed sink. The budget the full judgement took stays spent.
fn seal_or_standard(
    source: &SlotSource<'_>,
    s: &SinkRt,
    gate: &mut Gate,
    n: u64,
    line: &Line<'_>,
    d: Delivery,
) -> Sent {
    let bytes = written_bytes(gate, line, &d).unwrap_or_default();
    let mut emit = |b: &[u8]| put_sealed(s, b);
    let sealed = source.with(None, |c| c.seal(bytes, &mut emit).ok());
    if let Some(at) = sealed {
        Sent::Sealed(d, at)
    } else {
        // SECURITY: not sealed, not full.
        Sent::Not(judge_for_sink(gate, None, n, line))
    }
}

/// Queue what sealing hands out (`header\nrecord`, or a record) for `s`:
/// one write for a file or stdout; for an OTLP output the header goes as
/// its own log record (`seal::otlp::header_request`), then the record.
/// Whether the queue took it all.
fn put_sealed(s: &SinkRt, b: &[u8]) -> bool {
    let mut q: &Queue = &s.queue;
    let split = b.iter().position(|&c| c == b'\n');
    match split {
        Some(i) if s.otlp_only => {
            let (header, record) = (&b[..i], &b[i + 1..]);
            q.put(&tracegate::seal::otlp::header_request(header), false)
                .is_ok()
                && q.put(record, true).is_ok()
        }
        _ => q.put(b, true).is_ok(),
    }
}

/// The bytes `d` writes: the input line itself or what `gate` rebuilt;
/// `None` when nothing goes out.
fn written_bytes<'a>(gate: &'a Gate, line: &'a Line<'_>, d: &Delivery) -> Option<&'a [u8]> {
    match (d.written, line) {
        (Some(Written::Line), Line::Text(b)) => Some(*b),
        (Some(Written::Rebuilt), _) => Some(gate.output()),
        _ => None,
    }
}

/// Log, at most every [`NOT_CARRIED_LOG_EVERY`] per sink, that `s` could
/// not carry a record.
fn not_carried(s: &SinkRt, what: &'static str) {
    if not_carried_due(s) {
        tracing::warn!(sink = %s.name, "{what}");
    }
}

/// The least time between two log lines about records a sink could not
/// carry.
pub const NOT_CARRIED_LOG_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

fn not_carried_due(s: &SinkRt) -> bool {
    let mut last = lock(&s.not_carried_logged);
    let now = std::time::Instant::now();
    if last.is_some_and(|t| now.duration_since(t) < NOT_CARRIED_LOG_EVERY) {
        return false;
    }
    *last = Some(now);
    true
}

/// See [`Pipeline::fleet_state`]. Identifiers and counts only.
#[derive(Debug, Clone, Default)]
pub struct FleetState {
    /// `[fleet] replica_id` (or the host name).
    pub replica_id: String,
    /// `[fleet] replicas`.
    pub replicas: u64,
    /// The store's address (never a password), when one is configured.
    pub budget_store: Option<String>,
    /// Why the store failed the last lease request of some sink, if it did.
    pub store_fault: Option<crate::window::budget::StoreFault>,
    /// Leases taken by this replica's captures.
    pub leases: u64,
    /// Lease requests the store could not answer.
    pub store_failures: u64,
}

/// A sink's capture behind its lock, as a record's path sees it: each call
/// takes the lock briefly; no IO happens under it.
struct SlotSource<'a> {
    slot: &'a Mutex<CaptureSlot>,
    revision: u64,
    wake: &'a Notify,
}

impl SlotSource<'_> {
    fn with<T>(&self, fail: T, f: impl FnOnce(&mut Capture) -> T) -> T {
        match self.slot.lock() {
            Ok(mut g) if g.revision == self.revision => {
                let r = f(&mut g.capture);
                if g.capture.wants_job() {
                    self.wake.notify_one();
                }
                r
            }
            // SECURITY: the capture follows another policy version (or is
            // poisoned): this record goes out standard.
            _ => fail,
        }
    }
}

impl LevelSource for SlotSource<'_> {
    fn level(&mut self) -> Level {
        match self.grant() {
            Some(_) => Level::Full,
            None => Level::Standard,
        }
    }
    fn spend(&mut self, _bytes: usize) -> bool {
        // Every charge goes through `commit` with the grant it was judged under.
        false
    }
    fn grant(&mut self) -> Option<Grant> {
        self.with(None, Capture::grant)
    }
    fn refill(&mut self, grant: Grant, need: Units) -> Option<Grant> {
        self.with(None, |c| c.refill(grant, need))
    }
    fn commit(&mut self, grant: Grant, spent: Units) -> bool {
        self.with(false, |c| c.commit(grant, spent))
    }
}

/// Why a dropped item or record was dropped, among its `findings`: the
/// first violation of a rule that drops (a field that breaks its rule),
/// not a strip that merely preceded it (an unknown or content field, a
/// redaction); else the first finding.
fn first_violation(findings: &[Finding]) -> Option<&Finding> {
    let strips_only = |r: Rule| {
        matches!(
            r,
            Rule::UnknownField | Rule::ContentField | Rule::RedactDrop | Rule::RedactBudget
        )
    };
    findings
        .iter()
        .find(|f| f.kind != FindingKind::Evidence && !strips_only(f.rule))
        .or_else(|| findings.first())
}

/// Count the fields `gate` removed from the record it just passed: every
/// finding that no dropped item accounts for (one lock per record).
fn count_strips(gate: &Gate, counters: &SinkCounters, what: ItemSignal) {
    let findings = gate.findings();
    if findings.is_empty() {
        return;
    }
    let ranges = gate.item_drop_ranges();
    let in_dropped = |i: usize| {
        ranges
            .iter()
            .any(|&(a, b)| (a as usize..b as usize).contains(&i))
    };
    counters.strip_fields(
        what,
        findings
            .iter()
            .enumerate()
            .filter(|(i, _)| !in_dropped(*i))
            .map(|(_, f)| f.rule.as_str()),
    );
}

/// What the items of a judged record are: the endpoint's signal, else, for
/// an OTLP line, the request's list (its first member), else records.
fn item_signal(
    signal: Option<Signal>,
    format: Option<crate::record::Format>,
    bytes: &[u8],
) -> ItemSignal {
    match signal {
        Some(Signal::Traces) => ItemSignal::Traces,
        Some(Signal::Logs) => ItemSignal::Logs,
        None if format == Some(crate::record::Format::Otlp) => {
            let rest = bytes
                .iter()
                .position(|b| !matches!(b, b'{' | b' ' | b'\t' | b'\n' | b'\r'))
                .and_then(|i| bytes.get(i..))
                .unwrap_or_default();
            if rest.starts_with(b"\"resourceLogs\"") {
                ItemSignal::Logs
            } else {
                ItemSignal::Traces
            }
        }
        None => ItemSignal::Records,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use std::time::Duration;

    use super::*;
    use crate::window::clock::ManualClock;

    const POLICY: &str = "[audit]\npath = \"audit.jsonl\"\n[server]\nflush_interval = \"10ms\"\n\
         [[sink]]\nname = \"std\"\noutput = \"file:std.jsonl\"\n";

    fn start(dir: &std::path::Path, clock: Arc<ManualClock>) -> Arc<Pipeline> {
        let path = dir.join("policy.toml");
        std::fs::write(&path, POLICY).unwrap();
        let policy = Arc::new(Policy::load(&path).unwrap());
        Pipeline::start(policy, path, clock)
    }

    /// Every signal is counted under its own label, items dropped under
    /// the rule that dropped them and fields stripped under theirs; no key
    /// or note holds a value of the records.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn drops_and_strips_are_counted_per_signal_reason_and_rule() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(ManualClock::new("2030-01-01T10:00:00Z".parse().unwrap()));
        let p = start(dir.path(), clock);
        let active = p.snapshot();
        let logs = br#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"severityText":"CANARY words","severityNumber":9},{"severityNumber":9,"attributes":[{"key":"gen_ai.prompt","value":{"stringValue":"CANARY-PROMPT"}}]}]}]}]}"#;
        let t = p.ingest_line(&active, Signal::Logs, logs);
        assert_eq!((t.records, t.rejected_items), (1, 1));
        // Strips before the rule that drops: the drop is the rule's.
        let lines = b"{\"zzz\":1,\"request_id\":\"chatcmpl-1\",\"prompt_tokens\":\"CANARY\"}\n\
                      {\"request_id\":\"chatcmpl-2\",\"zzz\":\"CANARY\"}\n\
                      not json CANARY\n\
                      {\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"attributes\":[{\"key\":\"zzz\",\"value\":{\"stringValue\":\"CANARY\"}}],\"name\":\"CANARY span\"},{\"name\":\"llm_request\"}]}]}]}\n";
        let t = p.ingest_lines(&active, lines);
        assert_eq!((t.records, t.malformed), (4, 1));
        let c = p.metrics.sink("std");
        assert_eq!(
            c.items_dropped(),
            vec![
                ((ItemSignal::Traces, DropReason::Violation, "one_of"), 1),
                ((ItemSignal::Logs, DropReason::Violation, "one_of"), 1),
                (
                    (ItemSignal::Records, DropReason::Malformed, "invalid_json"),
                    1
                ),
                ((ItemSignal::Records, DropReason::Violation, "type"), 1),
            ]
        );
        assert_eq!(
            c.fields_stripped(),
            vec![
                ((ItemSignal::Logs, "content_field"), 1),
                ((ItemSignal::Records, "unknown_field"), 1),
            ]
        );
        let last = lock(&p.last_drop).clone().unwrap();
        assert_eq!((last.reason, last.rule), (DropReason::Violation, "one_of"));
        assert_eq!(
            last.path.as_deref(),
            Some("resourceSpans[0].scopeSpans[0].spans[0].name")
        );
        // SECURITY: nothing counted or kept holds a value.
        let shown = format!("{:?} {:?} {last:?}", c.items_dropped(), c.fields_stripped());
        assert!(!shown.contains("CANARY"), "{shown}");
        p.shutdown(Duration::from_secs(5)).await;
    }

    /// A thread keeps the gate set it judged with for its next request,
    /// but never across a reload: the first request after it, on the same
    /// thread, is judged by the new version's gates (here: a field the new
    /// version allows is kept, where the old one stripped it).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_reload_reaches_the_next_request_on_a_thread_that_kept_its_gates() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(ManualClock::new("2030-01-01T10:00:00Z".parse().unwrap()));
        let p = start(dir.path(), clock);
        let line = b"{\"request_id\":\"chatcmpl-1\",\"tenant_tier\":\"gold\"}\n";
        let stripped = |p: &Pipeline| {
            p.metrics
                .sink("std")
                .fields_stripped()
                .into_iter()
                .map(|(_, n)| n)
                .sum::<u64>()
        };
        // Judged on this thread twice: the second time with the set the
        // first one left here.
        for _ in 0..2 {
            let t = p.ingest_lines(&p.snapshot(), line);
            assert_eq!((t.records, t.malformed, t.rejected), (1, 0, 0));
        }
        assert_eq!(stripped(&p), 2, "the first version strips the field");
        let path = dir.path().join("policy.toml");
        std::fs::write(
            &path,
            format!(
                "{POLICY}[standard.fields]\ntenant_tier = {{ type = \"string\", one_of = [\"gold\"] }}\n"
            ),
        )
        .unwrap();
        let v2 = Arc::new(Policy::load(&path).unwrap());
        p.swap(p.build(v2, 2));
        let t = p.ingest_lines(&p.snapshot(), line);
        assert_eq!((t.records, t.malformed, t.rejected), (1, 0, 0));
        assert_eq!(stripped(&p), 2, "the new version keeps the field");
        p.shutdown(Duration::from_secs(5)).await;
    }

    /// The lines each sink (`std`, then `cap` at full level) wrote for the
    /// OTLP/JSON requests `lines`, judged one after the other on this
    /// thread by a new pipeline in `dir`.
    async fn judged_in_turn(dir: &std::path::Path, lines: &[String]) -> Vec<Vec<String>> {
        let path = dir.join("policy.toml");
        let text = format!(
            "{POLICY}[[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"file:cap.jsonl\"\n\
             [[window]]\nid = \"w\"\nsink = \"cap\"\nstart = \"2030-01-01T09:00:00Z\"\n\
             end = \"2030-01-01T12:00:00Z\"\nreason = \"test\"\nrequested_by = \"tests\"\n\
             unbounded = true\n"
        );
        std::fs::write(&path, text).unwrap();
        let clock = Arc::new(ManualClock::new("2030-01-01T10:00:00Z".parse().unwrap()));
        let p = Pipeline::start(Arc::new(Policy::load(&path).unwrap()), path, clock);
        p.tick();
        assert_eq!(p.open_windows(), ["w"]);
        for line in lines {
            let t = p.ingest_line(&p.snapshot(), Signal::Traces, line.as_bytes());
            assert_eq!((t.records, t.malformed, t.rejected), (1, 0, 0));
        }
        p.shutdown(Duration::from_secs(5)).await;
        ["std.jsonl", "cap.jsonl"]
            .iter()
            .map(|f| {
                let out = std::fs::read_to_string(dir.join(f)).unwrap();
                out.lines().map(str::to_string).collect()
            })
            .collect()
    }

    /// A thread's kept gate set carries nothing of one request into the
    /// next: a small request judged right after a large one (same thread,
    /// same set, its tape and buffers grown by the large one) is written
    /// exactly as a new pipeline writes it on its own.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_small_request_after_a_large_one_is_written_as_on_its_own() {
        let request = |spans: u32, tag: &str| {
            let spans: Vec<serde_json::Value> = (0..spans)
                .map(|i| {
                    serde_json::json!({
                        "traceId": format!("{:032x}", i + 1), "spanId": format!("{:016x}", i + 1),
                        "name": "llm_request", "kind": 1,
                        "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000001000000000",
                        "attributes": [
                            {"key": "cf.request_id", "value": {"stringValue": format!("chatcmpl-{tag}{i:x}")}},
                            {"key": "gen_ai.prompt", "value": {"stringValue": format!("CANARY {tag} {i}")}}
                        ]
                    })
                })
                .collect();
            serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}).to_string()
        };
        let (large, small) = (request(2000, "a"), request(2, "b"));
        let both = tempfile::tempdir().unwrap();
        let alone = tempfile::tempdir().unwrap();
        let after_large = judged_in_turn(both.path(), &[large, small.clone()]).await;
        let on_its_own = judged_in_turn(alone.path(), &[small]).await;
        for (sink, (after, own)) in ["std", "cap"]
            .iter()
            .zip(after_large.iter().zip(&on_its_own))
        {
            assert_eq!((after.len(), own.len()), (2, 1), "{sink}");
            assert!(
                after[1] == own[0],
                "{sink}: the small request's line differs after the large one"
            );
            assert!(after[0].len() > 100 * own[0].len(), "{sink}");
        }
        // The full-level sink took the content (its judge reads the tape).
        assert!(on_its_own[1][0].contains("CANARY b 1"));
    }

    /// A gate set that judged a line past `KEEP_ON_THREAD_MAX` is not kept
    /// on its thread (it would hold its grown tape outside the decode
    /// budget on every blocking thread); a set that judged an ordinary
    /// line is, by `ingest_line` and `ingest_lines` alike.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_set_grown_by_a_huge_line_is_pooled_not_kept_on_the_thread() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(ManualClock::new("2030-01-01T10:00:00Z".parse().unwrap()));
        let p = start(dir.path(), clock);
        let kept = || LOCAL_GATES.with(|slot| slot.borrow().is_some());
        let small = b"{\"request_id\":\"chatcmpl-1\"}\n".to_vec();
        let huge = format!(
            "{{\"request_id\":\"chatcmpl-1\",\"pad\":\"{}\"}}\n",
            "a".repeat(KEEP_ON_THREAD_MAX)
        )
        .into_bytes();
        for ingest in [
            |p: &Pipeline, l: &[u8]| p.ingest_line(&p.snapshot(), Signal::Traces, l),
            |p: &Pipeline, l: &[u8]| p.ingest_lines(&p.snapshot(), l),
        ] {
            ingest(&p, &small);
            assert!(kept(), "an ordinary line's set stays on its thread");
            ingest(&p, &huge);
            assert!(!kept(), "a huge line's set goes back to the pool");
        }
        p.shutdown(Duration::from_secs(5)).await;
    }

    /// One log line per reason and rule per `DROP_LOG_EVERY`; the next
    /// says how many went unlogged; another rule is not held back.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_drop_log_is_rate_limited_per_reason_and_rule() {
        let dir = tempfile::tempdir().unwrap();
        let t0: Timestamp = "2030-01-01T10:00:00Z".parse().unwrap();
        let clock = Arc::new(ManualClock::new(t0));
        let p = start(dir.path(), Arc::clone(&clock));
        let note = |rule: &'static str| DropNote {
            at: clock.utc(),
            sink: "std".into(),
            signal: ItemSignal::Records,
            reason: DropReason::Violation,
            rule,
            path: Some("prompt_tokens".into()),
            items: 1,
        };
        assert_eq!(p.log_drop(note("type")), Some(0));
        assert_eq!(p.log_drop(note("type")), None);
        assert_eq!(p.log_drop(note("type")), None);
        assert_eq!(p.log_drop(note("one_of")), Some(0), "another rule");
        clock.advance(DROP_LOG_EVERY - Duration::from_millis(1));
        assert_eq!(p.log_drop(note("type")), None);
        clock.advance(Duration::from_millis(1));
        assert_eq!(p.log_drop(note("type")), Some(3));
        assert_eq!(p.log_drop(note("type")), None);
        p.shutdown(Duration::from_secs(5)).await;
    }
}
