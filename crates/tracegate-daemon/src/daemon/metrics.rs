//! Counters of the daemon and their Prometheus text form.
//!
//! SECURITY: labels are sink names (policy identifiers) and fixed words;
//! no metric ever carries a record value or a record identifier.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::sink::counters::{DropReason, SinkCounters};

/// The daemon's counters.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Records received (lines of `/v1/records`, OTLP requests).
    pub records_in: AtomicU64,
    /// Malformed records.
    pub malformed: AtomicU64,
    /// Requests refused: 400, 413, 415, 503.
    pub refused_400: AtomicU64,
    /// Requests without the bearer token (`[server] bearer_token_file`).
    pub refused_401: AtomicU64,
    /// Requests over `max_body_bytes`.
    pub refused_413: AtomicU64,
    /// Requests with another content type or encoding.
    pub refused_415: AtomicU64,
    /// Requests refused because every queue was full.
    pub refused_503: AtomicU64,
    /// Policy reloads that took effect.
    pub reloads_ok: AtomicU64,
    /// Policy reloads refused.
    pub reloads_refused: AtomicU64,
    sinks: Mutex<BTreeMap<String, Arc<SinkCounters>>>,
}

/// Values read from the live state when rendering.
#[derive(Debug, Default)]
pub struct Gauges {
    /// The policy revision in force.
    pub revision: u64,
    /// Windows enabled now.
    pub windows_active: u64,
    /// Failed audit appends so far.
    pub audit_failures: u64,
    /// `Some(up)` when a fleet budget store is configured.
    pub store_up: Option<bool>,
    /// Budget leases taken.
    pub leases: u64,
    /// Lease requests the budget store could not answer.
    pub store_failures: u64,
}

impl Metrics {
    /// The counters of sink `name`, created on first use; kept across
    /// reloads so totals never go backwards.
    pub fn sink(&self, name: &str) -> Arc<SinkCounters> {
        match self.sinks.lock() {
            Ok(mut m) => Arc::clone(m.entry(name.to_string()).or_default()),
            // A poisoned map only loses metrics, never a privacy property.
            Err(_) => Arc::new(SinkCounters::default()),
        }
    }

    /// Every sink's counters, by name.
    pub fn sinks(&self) -> Vec<(String, Arc<SinkCounters>)> {
        match self.sinks.lock() {
            Ok(m) => m.iter().map(|(k, v)| (k.clone(), Arc::clone(v))).collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The Prometheus text exposition.
    pub fn render(&self, g: &Gauges) -> String {
        let mut out = String::with_capacity(4096);
        let head = |out: &mut String, name: &str, kind: &str, help: &str| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
        };
        for (name, kind, help, value) in SCALARS {
            if let Some(v) = value(self, g) {
                head(&mut out, name, kind, help);
                let _ = writeln!(out, "{name} {v}");
            }
        }
        let refused = "tracegate_requests_refused_total";
        head(
            &mut out,
            refused,
            "counter",
            "Requests refused, by status code.",
        );
        for (code, a) in [
            ("400", &self.refused_400),
            ("401", &self.refused_401),
            ("413", &self.refused_413),
            ("415", &self.refused_415),
            ("503", &self.refused_503),
        ] {
            let _ = writeln!(out, "{refused}{{code=\"{code}\"}} {}", ld(a));
        }
        let sinks = self.sinks();
        for (name, kind, help, rows) in PER_SINK {
            head(&mut out, name, kind, help);
            for (s, c) in &sinks {
                rows(c, &mut |labels, v| {
                    let _ = writeln!(out, "{name}{{sink=\"{}\"{labels}}} {v}", label(s));
                });
            }
        }
        out
    }
}

/// A counter's value now.
pub(super) fn ld(a: &AtomicU64) -> u64 {
    a.load(Ordering::Relaxed)
}

/// A metric of the daemon: name, type, help and its value (`None`: not on the page).
type Scalar = (
    &'static str,
    &'static str,
    &'static str,
    fn(&Metrics, &Gauges) -> Option<u64>,
);

/// The daemon's own metrics, in the page's order; one row per metric, so
/// the table is kept as written.
#[rustfmt::skip]
const SCALARS: [Scalar; 10] = [
    ("tracegate_records_received_total", "counter", "Records received (a line of /v1/records, an OTLP request).", |m, _| Some(ld(&m.records_in))),
    ("tracegate_records_malformed_total", "counter", "Records that were not well formed.", |m, _| Some(ld(&m.malformed))),
    ("tracegate_policy_reloads_ok_total", "counter", "Policy reloads that took effect.", |m, _| Some(ld(&m.reloads_ok))),
    ("tracegate_policy_reloads_refused_total", "counter", "Policy reloads refused (invalid, half-written or deleted policy).", |m, _| Some(ld(&m.reloads_refused))),
    ("tracegate_policy_revision", "gauge", "Revision of the policy in force (1 at start).", |_, g| Some(g.revision)),
    ("tracegate_windows_active", "gauge", "Capture windows enabled now.", |_, g| Some(g.windows_active)),
    ("tracegate_audit_failures_total", "counter", "Audit appends that failed (full capture stays off meanwhile).", |_, g| Some(g.audit_failures)),
    ("tracegate_budget_leases_total", "counter", "Window budget leases this replica took.", |_, g| Some(g.leases)),
    // Only when a fleet budget store is configured.
    ("tracegate_budget_store_up", "gauge", "1 when the fleet's budget store answered the last lease request, else 0.", |_, g| g.store_up.map(u64::from)),
    ("tracegate_budget_store_failures_total", "counter", "Lease requests the fleet's budget store could not answer.", |_, g| g.store_up.map(|_| g.store_failures)),
];

/// A family with rows for each sink: name, type, help, and what writes one
/// sink's rows (each row's labels after `sink`, and its value).
type PerSink = (
    &'static str,
    &'static str,
    &'static str,
    fn(&SinkCounters, &mut dyn FnMut(&str, u64)),
);

/// The families per sink, in the page's order; one row per family, so the
/// table is kept as written.
#[rustfmt::skip]
const PER_SINK: [PerSink; 13] = [
    ("tracegate_sink_records_in_total", "counter", "Records judged for each sink.", |c, row| row("", ld(&c.records_in))),
    ("tracegate_sink_records_out_total", "counter", "Records written to each sink, by level.", |c, row| {
        row(",level=\"standard\"", ld(&c.out_standard));
        row(",level=\"full\"", ld(&c.out_full));
    }),
    ("tracegate_sink_records_stripped_total", "counter", "Records passed to each sink with fields removed.", |c, row| row("", ld(&c.stripped))),
    ("tracegate_sink_records_dropped_total", "counter", "Records not written to each sink, by reason.", |c, row| {
        for why in DropReason::ALL {
            row(&format!(",reason=\"{}\"", why.as_str()), c.dropped(why));
        }
    }),
    ("tracegate_items_dropped_total", "counter", "Spans (signal traces), log records (logs) and other records (records) not written to each sink, by reason and by the finding rule that dropped them.", |c, row| {
        for ((signal, why, rule), n) in c.items_dropped() {
            let rule = if rule.is_empty() { String::new() } else { format!(",rule=\"{rule}\"") };
            row(&format!(",signal=\"{}\",reason=\"{}\"{rule}", signal.as_str(), why.as_str()), n);
        }
    }),
    ("tracegate_fields_stripped_total", "counter", "Fields removed from spans, log records and records written to each sink, by the finding rule that removed them.", |c, row| {
        for ((signal, rule), n) in c.fields_stripped() {
            row(&format!(",signal=\"{}\",rule=\"{rule}\"", signal.as_str()), n);
        }
    }),
    ("tracegate_sink_up", "gauge", "1 while each sink can write its output, 0 while it cannot.", |c, row| row("", u64::from(c.health().is_none()))),
    ("tracegate_sink_queue_records", "gauge", "Records waiting in each sink's queue.", |c, row| row("", ld(&c.queued))),
    ("tracegate_sink_queue_bytes", "gauge", "Bytes waiting in each sink's queue.", |c, row| row("", ld(&c.queued_bytes))),
    // Exports: retries, and the spool of OTLP sinks that have one.
    ("tracegate_sink_export_retries_total", "counter", "Export attempts to each OTLP sink's receiver that failed and are tried again.", |c, row| row("", ld(&c.retries))),
    ("tracegate_sink_spool_records", "gauge", "Records waiting in each sink's spool (spool_dir).", |c, row| row("", ld(&c.spooled))),
    ("tracegate_sink_spool_bytes", "gauge", "Bytes of the entries in each sink's spool.", |c, row| row("", ld(&c.spooled_bytes))),
    ("tracegate_sink_records_recovered_total", "counter", "Records found in each sink's spool at start, left by an earlier run.", |c, row| row("", ld(&c.recovered))),
];

/// A label value, escaped as the exposition format requires.
fn label(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}
