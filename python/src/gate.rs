//! `tracegate.Gate`: one sink's gate, with its capture windows, budgets,
//! audit log and (optionally) hot reload, shared with the daemon through
//! the library's `judge_for_sink`.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use tracegate::internals::record::otlp_proto::bounds::Signal;
use tracegate::internals::record::otlp_proto::{
    MappedLine, cut, encode_logs_protobuf, encode_traces_protobuf, request_line,
    request_line_mapped,
};
use tracegate::internals::window::runtime::Extensions;
use tracegate::{
    Capture, Clock, Delivery, Gate as TgGate, Level, Line, Policy, SystemClock, Written,
    judge_for_sink,
};

use crate::reload::{Counters, POLL_EVERY, Watcher};
use crate::{Finding, GateError, PyPolicy};

/// What this package lends its captures: the fleet's budget store client
/// (feature `fleet`, on by default). A policy naming `[fleet]
/// budget_store` without it grants nothing (fail closed). Policies read
/// again have their TLS files fingerprinted, not parsed: no gate here
/// opens a TLS connection of the policy's.
fn extensions() -> Extensions {
    Extensions {
        #[cfg(feature = "fleet")]
        budget_store: Some(tracegate_fleet::client),
        #[cfg(not(feature = "fleet"))]
        budget_store: None,
        tls_check: None,
    }
}

/// The gate that judges for the sink: it writes no findings (what a
/// sink receives is its verdicts and outputs; `check` has its own gate).
fn sink_gate(policy: &Arc<Policy>, sink: Option<&str>) -> TgGate {
    let mut gate = match sink {
        Some(s) => TgGate::for_sink(Arc::clone(policy), s),
        None => TgGate::new(Arc::clone(policy)),
    };
    gate.set_findings(false);
    gate
}

/// Everything one batch is judged with, under one lock: a batch is judged
/// by exactly one policy version, and a reload swaps it whole.
pub struct State {
    /// The policy in force.
    pub policy: Arc<Policy>,
    /// Its revision: 1 at start, +1 per reload.
    pub revision: u64,
    /// The sink judged for (`None`: standard level, the policy's own
    /// redaction).
    sink: Option<String>,
    gate: TgGate,
    /// A gate that only collects findings (as `tracegate check`).
    check: TgGate,
    /// The sink's capture windows and budgets.
    pub capture: Option<Capture>,
    /// The wall and monotonic clock of windows and audit entries.
    pub clock: Arc<dyn Clock>,
    /// Records judged so far (the line numbers of findings).
    line: u64,
    /// After `close()`: nothing is judged any more.
    pub closed: bool,
}

impl State {
    fn new(policy: Arc<Policy>, sink: Option<String>) -> State {
        let clock: Arc<dyn Clock> = Arc::new(SystemClock::new());
        let gate = sink_gate(&policy, sink.as_deref());
        let capture = sink
            .as_deref()
            .map(|s| Capture::start_with(Arc::clone(&policy), Arc::clone(&clock), s, extensions()));
        State {
            check: TgGate::for_check(Arc::clone(&policy)),
            policy,
            revision: 1,
            sink,
            gate,
            capture,
            clock,
            line: 0,
            closed: false,
        }
    }

    /// Adopt a new policy version (hot reload): new gates, and the capture
    /// adopts it as `serve`'s does (a window whose definition changed is
    /// closed).
    pub fn swap(&mut self, policy: Arc<Policy>, revision: u64) {
        self.gate = sink_gate(&policy, self.sink.as_deref());
        self.check = TgGate::for_check(Arc::clone(&policy));
        if let Some(c) = self.capture.as_mut() {
            c.reload(Arc::clone(&policy));
        }
        self.policy = policy;
        self.revision = revision;
    }

    fn next_line(&mut self) -> u64 {
        self.line = self.line.saturating_add(1);
        self.line
    }

    /// Judge one record (a JSON line or an export request's line) for the
    /// sink: what goes out, if anything, and the full units it carried.
    fn deliver(&mut self, line: &Line<'_>) -> (Option<Vec<u8>>, u64) {
        let (written, full) = self.judge_for_sink(line);
        let out = match (written, line) {
            (None, _) => None,
            (Some(Written::Line), Line::Text(b)) => Some(b.to_vec()),
            (Some(Written::Rebuilt), _) => Some(self.gate.output().to_vec()),
            // SECURITY: anything else (a line too long to hold) goes nowhere.
            _ => None,
        };
        (out, full)
    }

    /// Judge one record for the sink: how it goes out, if at all (a
    /// rebuilt record is in the gate's output), and the full units it
    /// carried.
    fn judge_for_sink(&mut self, line: &Line<'_>) -> (Option<Written>, u64) {
        let n = self.next_line();
        let capture = self
            .capture
            .as_mut()
            .map(|c| c as &mut dyn tracegate::LevelSource);
        let d: Delivery = judge_for_sink(&mut self.gate, capture, n, line);
        let full = if d.is_full() { d.captured.records } else { 0 };
        (d.written, full)
    }

    /// Findings of one record at standard level.
    fn findings(&mut self, line: &Line<'_>, out: &mut Vec<Finding>) {
        let n = self.next_line();
        self.check.judge(n, line, Level::Standard, false);
        out.extend(self.check.findings().iter().map(Finding::from_lib));
    }

    fn line_of<'a>(&self, text: &'a [u8]) -> Line<'a> {
        let max = self.policy.limits().max_line_bytes;
        if text.len() > max {
            Line::TooLong {
                len: text.len() as u64,
            }
        } else {
            Line::Text(text)
        }
    }
}

/// What an input to `check` or `filter` is.
enum Input {
    /// JSON Lines (cf records, OTLP/JSON requests or spans).
    Lines,
    /// One OTLP protobuf export request.
    Protobuf(Signal),
}

fn parse_signal(signal: Option<&str>) -> PyResult<Option<Signal>> {
    match signal {
        None => Ok(None),
        Some("traces") => Ok(Some(Signal::Traces)),
        Some("logs") => Ok(Some(Signal::Logs)),
        Some(_) => Err(GateError::new_err("signal must be \"traces\" or \"logs\"")),
    }
}

/// JSON Lines start with `{` (after blanks); anything else is protobuf,
/// of the signal named or, when none is, the one it parses as.
fn classify(policy: &Policy, data: &[u8], signal: Option<Signal>) -> Result<Input, &'static str> {
    if let Some(s) = signal {
        return Ok(Input::Protobuf(s));
    }
    match data.iter().find(|b| !b.is_ascii_whitespace()) {
        None | Some(b'{') => return Ok(Input::Lines),
        _ => {}
    }
    let limits = &policy.server().structure;
    let traces = tracegate::internals::record::otlp_proto::bounds::check_protobuf(
        data,
        Signal::Traces,
        limits,
    )
    .is_ok();
    let logs = tracegate::internals::record::otlp_proto::bounds::check_protobuf(
        data,
        Signal::Logs,
        limits,
    )
    .is_ok();
    match (traces, logs) {
        (true, false) => Ok(Input::Protobuf(Signal::Traces)),
        (false, true) => Ok(Input::Protobuf(Signal::Logs)),
        // SECURITY: bytes that parse as both (a log record's body read as a
        // span's name, say) are judged as neither: the caller names it.
        (true, true) => Err(
            "the protobuf request parses as both traces and logs: pass signal=\"traces\" or signal=\"logs\"",
        ),
        (false, false) => {
            Err("input is neither JSON Lines nor a valid OTLP protobuf export request")
        }
    }
}

/// The gate of one sink: `Gate(policy, sink=None, *, watch=False)`.
#[pyclass(module = "tracegate", name = "Gate", frozen)]
pub struct PyGate {
    state: Arc<Mutex<State>>,
    counters: Arc<Counters>,
    watcher: Mutex<Option<Watcher>>,
}

impl PyGate {
    fn with_state<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut State) -> Result<T, String> + Send,
    ) -> PyResult<T> {
        let state = &self.state;
        // The Rust work runs with the GIL released: the engine's other
        // Python threads (the model's scheduler, request handlers) go on.
        let r = py.detach(move || {
            let mut s = state.lock().unwrap_or_else(PoisonError::into_inner);
            if s.closed {
                return Err("the gate is closed".to_string());
            }
            f(&mut s)
        });
        r.map_err(GateError::new_err)
    }
}

/// The error for a protobuf request refused before judging.
/// SECURITY: the library's words and policy limits, never request bytes.
fn refused(e: impl std::fmt::Display) -> String {
    e.to_string()
}

#[pymethods]
impl PyGate {
    #[new]
    #[pyo3(signature = (policy, sink=None, *, watch=false))]
    fn new(py: Python<'_>, policy: &PyPolicy, sink: Option<String>, watch: bool) -> PyResult<Self> {
        if let Some(s) = &sink
            && policy.inner.sink(s).is_none()
        {
            // A sink name is policy, not record, text.
            return Err(GateError::new_err(format!("the policy has no sink `{s}`")));
        }
        let policy = Arc::clone(&policy.inner);
        // Starting a capture opens and reads the audit log: off the GIL.
        let state = py.detach(move || State::new(policy, sink));
        let state = Arc::new(Mutex::new(state));
        let counters = Arc::new(Counters::default());
        let watcher = if watch {
            Some(
                Watcher::start(Arc::clone(&state), Arc::clone(&counters), POLL_EVERY).map_err(
                    |e| GateError::new_err(format!("cannot start the policy watcher: {e}")),
                )?,
            )
        } else {
            None
        };
        Ok(PyGate {
            state,
            counters,
            watcher: Mutex::new(watcher),
        })
    }

    /// The findings of `data` at standard level, as `tracegate check`
    /// reports them: for each JSON line, or for one OTLP protobuf export
    /// request. Findings hold rule names, field paths and offsets, never a
    /// value of the record.
    #[pyo3(signature = (data, signal=None))]
    fn check(&self, py: Python<'_>, data: &[u8], signal: Option<&str>) -> PyResult<Vec<Finding>> {
        let signal = parse_signal(signal)?;
        self.with_state(py, move |s| {
            let mut out = Vec::new();
            match classify(&s.policy, data, signal)? {
                Input::Lines => {
                    for text in lines(data) {
                        let line = s.line_of(text);
                        s.findings(&line, &mut out);
                    }
                }
                Input::Protobuf(sig) => {
                    let limits = s.policy.server().structure;
                    if let Some(line) = request_line(data, sig, &limits).map_err(refused)? {
                        s.findings(&Line::Text(&line), &mut out);
                    }
                }
            }
            Ok(out)
        })
    }

    /// What the sink receives of `data`: the surviving JSON lines (each
    /// ending in a newline) for JSON Lines input, or the gated export
    /// request, re-encoded, for protobuf input. `None` when nothing passes.
    #[pyo3(signature = (data, signal=None))]
    fn filter<'py>(
        &self,
        py: Python<'py>,
        data: &[u8],
        signal: Option<&str>,
    ) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let signal = parse_signal(signal)?;
        let out = self.with_state(py, move |s| match classify(&s.policy, data, signal)? {
            Input::Lines => {
                let mut out = Vec::new();
                for text in lines(data) {
                    let line = s.line_of(text);
                    if let (Some(b), _) = s.deliver(&line) {
                        out.extend_from_slice(&b);
                        out.push(b'\n');
                    }
                }
                Ok((!out.is_empty()).then_some(out))
            }
            Input::Protobuf(sig) => Ok(gate_request_protobuf(s, data, sig)?.0),
        })?;
        Ok(out.map(|b| PyBytes::new(py, &b)))
    }

    /// For the exporters: gate one OTLP protobuf export request of
    /// `signal` and return the gated request as OTLP/JSON (`json=True`) or
    /// protobuf, or `None`, with the number of spans or log records that
    /// went out at full level.
    #[pyo3(signature = (data, signal, json))]
    fn _export<'py>(
        &self,
        py: Python<'py>,
        data: &[u8],
        signal: &str,
        json: bool,
    ) -> PyResult<(Option<Bound<'py, PyBytes>>, u64)> {
        let Some(sig) = parse_signal(Some(signal))? else {
            return Err(GateError::new_err("signal must be \"traces\" or \"logs\""));
        };
        let (out, full) = self.with_state(py, move |s| {
            if json {
                gate_request(s, data, sig)
            } else {
                gate_request_protobuf(s, data, sig)
            }
        })?;
        Ok((out.map(|b| PyBytes::new(py, &b)), full))
    }

    /// The id of the capture window open for the sink right now, if any.
    #[getter]
    fn open_window(&self) -> Option<String> {
        let s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.capture
            .as_ref()
            .and_then(|c| c.open_window().map(str::to_string))
    }

    /// The SHA-256 of the policy in force.
    #[getter]
    fn policy_sha256(&self) -> String {
        let s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.policy.sha256().to_string()
    }

    /// The policy revision in force: 1 at start, +1 per reload.
    #[getter]
    fn revision(&self) -> u64 {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .revision
    }

    /// `(loaded, refused)`: policy reloads swapped in and refused.
    #[getter]
    fn reloads(&self) -> (u64, u64) {
        (
            self.counters.loaded.load(Ordering::Relaxed),
            self.counters.refused.load(Ordering::Acquire),
        )
    }

    /// The sink judged for, if any.
    #[getter]
    fn sink(&self) -> Option<String> {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .sink
            .clone()
    }

    /// Stop watching the policy, release the open window (as `serve` does
    /// at shutdown: what was spent, the rest of the lease given back) and
    /// write what is queued for the audit log. Idempotent; the gate judges
    /// nothing afterwards.
    fn close(&self, py: Python<'_>) {
        let watcher = self
            .watcher
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let state = &self.state;
        py.detach(move || {
            drop(watcher);
            let mut s = state.lock().unwrap_or_else(PoisonError::into_inner);
            if !s.closed {
                s.closed = true;
                if let Some(c) = s.capture.as_mut() {
                    c.finish();
                }
            }
        });
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.close(py);
        false
    }

    fn __repr__(&self) -> String {
        let s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match &s.sink {
            Some(k) => format!("Gate(sink={k:?}, policy_sha256={:?})", s.policy.sha256()),
            None => format!("Gate(policy_sha256={:?})", s.policy.sha256()),
        }
    }
}

impl Drop for PyGate {
    fn drop(&mut self) {
        // A gate dropped unclosed still releases its window.
        if let Some(mut w) = self
            .watcher
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            w.stop();
        }
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if !s.closed {
            s.closed = true;
            if let Some(c) = s.capture.as_mut() {
                c.finish();
            }
        }
    }
}

/// The lines of `data` (`\n` or `\r\n`), blank ones skipped as `filter`
/// skips them.
fn lines(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    data.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
}

/// Gate one protobuf export request: its OTLP/JSON line after the gate,
/// if anything passed, and the full units it carried.
fn gate_request(s: &mut State, data: &[u8], sig: Signal) -> Result<(Option<Vec<u8>>, u64), String> {
    let limits = s.policy.server().structure;
    let Some(line) = request_line(data, sig, &limits).map_err(refused)? else {
        return Ok((None, 0));
    };
    Ok(s.deliver(&Line::Text(&line)))
}

/// Gate one protobuf export request: what passes, as protobuf, and the
/// full units it carried. A request whose line passed whole goes on as it
/// came; one whose members the gate only stripped goes on with those
/// fields cut out (`record::otlp_proto::cut`); both rest on the wire
/// walk's invariant (its line means exactly what the request says), so a
/// request it left to the fallback (`merge`), and anything the gate
/// rewrote, is encoded from the gated line.
fn gate_request_protobuf(
    s: &mut State,
    data: &[u8],
    sig: Signal,
) -> Result<(Option<Vec<u8>>, u64), String> {
    let limits = s.policy.server().structure;
    let Some(MappedLine { line, pieces }) =
        request_line_mapped(data, sig, &limits).map_err(refused)?
    else {
        return Ok((None, 0));
    };
    let (written, full) = s.judge_for_sink(&Line::Text(&line));
    let out = match (written, &pieces) {
        (None, _) => None,
        (Some(Written::Line), Some(_)) => Some(data.to_vec()),
        (Some(Written::Line), None) => Some(encode(&line, sig)?),
        (Some(Written::Rebuilt), _) => {
            let cut = match (&pieces, s.gate.stripped_ranges()) {
                (Some(p), Some(ranges)) => cut::project(data, p, ranges),
                _ => None,
            };
            match cut {
                Some(b) => Some(b),
                None => Some(encode(s.gate.output(), sig)?),
            }
        }
        // SECURITY: anything else goes nowhere.
        (Some(_), _) => None,
    };
    Ok((out, full))
}

/// A gated OTLP/JSON request line, as protobuf again.
fn encode(json: &[u8], sig: Signal) -> Result<Vec<u8>, String> {
    // SECURITY: the gate's own output; an encoding failure drops it whole
    // (fail closed) with a fixed message.
    let text =
        std::str::from_utf8(json).map_err(|_| "the gated request is not UTF-8".to_string())?;
    let pb = match sig {
        Signal::Traces => encode_traces_protobuf(text),
        Signal::Logs => encode_logs_protobuf(text),
    };
    pb.map_err(|_| "the gated request could not be encoded as protobuf".to_string())
}
