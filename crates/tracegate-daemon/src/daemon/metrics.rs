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
        let ld = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let mut one = |name: &str, kind: &str, help: &str, v: u64| {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}"
            );
        };
        one(
            "tracegate_records_received_total",
            "counter",
            "Records received (a line of /v1/records, an OTLP request).",
            ld(&self.records_in),
        );
        one(
            "tracegate_records_malformed_total",
            "counter",
            "Records that were not well formed.",
            ld(&self.malformed),
        );
        one(
            "tracegate_policy_reloads_ok_total",
            "counter",
            "Policy reloads that took effect.",
            ld(&self.reloads_ok),
        );
        one(
            "tracegate_policy_reloads_refused_total",
            "counter",
            "Policy reloads refused (invalid, half-written or deleted policy).",
            ld(&self.reloads_refused),
        );
        one(
            "tracegate_policy_revision",
            "gauge",
            "Revision of the policy in force (1 at start).",
            g.revision,
        );
        one(
            "tracegate_windows_active",
            "gauge",
            "Capture windows enabled now.",
            g.windows_active,
        );
        one(
            "tracegate_audit_failures_total",
            "counter",
            "Audit appends that failed (full capture stays off meanwhile).",
            g.audit_failures,
        );
        one(
            "tracegate_budget_leases_total",
            "counter",
            "Window budget leases this replica took.",
            g.leases,
        );
        if let Some(up) = g.store_up {
            one(
                "tracegate_budget_store_up",
                "gauge",
                "1 when the fleet's budget store answered the last lease request, else 0.",
                u64::from(up),
            );
            one(
                "tracegate_budget_store_failures_total",
                "counter",
                "Lease requests the fleet's budget store could not answer.",
                g.store_failures,
            );
        }
        let _ = writeln!(
            out,
            "# HELP tracegate_requests_refused_total Requests refused, by status code.\n\
             # TYPE tracegate_requests_refused_total counter"
        );
        for (code, a) in [
            ("400", &self.refused_400),
            ("401", &self.refused_401),
            ("413", &self.refused_413),
            ("415", &self.refused_415),
            ("503", &self.refused_503),
        ] {
            let _ = writeln!(
                out,
                "tracegate_requests_refused_total{{code=\"{code}\"}} {}",
                ld(a)
            );
        }
        let sinks = &self.sinks();
        let mut family =
            |name: &str, kind: &str, help: &str, rows: &mut dyn FnMut(&mut String, &str)| {
                let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
                rows(&mut out, name);
            };
        // A family of one counter per sink.
        let each = |get: Counter| {
            move |o: &mut String, name: &str| {
                for (s, c) in sinks {
                    let _ = writeln!(o, "{name}{{sink=\"{}\"}} {}", label(s), ld(get(c)));
                }
            }
        };
        family(
            "tracegate_sink_records_in_total",
            "counter",
            "Records judged for each sink.",
            &mut each(|c| &c.records_in),
        );
        family(
            "tracegate_sink_records_out_total",
            "counter",
            "Records written to each sink, by level.",
            &mut |o, _| {
                for (s, c) in sinks {
                    for (level, a) in [("standard", &c.out_standard), ("full", &c.out_full)] {
                        let _ = writeln!(
                            o,
                            "tracegate_sink_records_out_total{{sink=\"{}\",level=\"{level}\"}} {}",
                            label(s),
                            ld(a)
                        );
                    }
                }
            },
        );
        family(
            "tracegate_sink_records_stripped_total",
            "counter",
            "Records passed to each sink with fields removed.",
            &mut each(|c| &c.stripped),
        );
        family(
            "tracegate_sink_records_dropped_total",
            "counter",
            "Records not written to each sink, by reason.",
            &mut |o, _| {
                for (s, c) in sinks {
                    for why in DropReason::ALL {
                        let _ = writeln!(
                            o,
                            "tracegate_sink_records_dropped_total{{sink=\"{}\",reason=\"{}\"}} {}",
                            label(s),
                            why.as_str(),
                            c.dropped(why)
                        );
                    }
                }
            },
        );
        family(
            "tracegate_items_dropped_total",
            "counter",
            "Spans (signal traces), log records (logs) and other records (records) not written to each sink, by reason and by the finding rule that dropped them.",
            &mut |o, _| {
                for (s, c) in sinks {
                    for ((signal, why, rule), n) in c.items_dropped() {
                        let _ = write!(
                            o,
                            "tracegate_items_dropped_total{{sink=\"{}\",signal=\"{}\",reason=\"{}\"",
                            label(s),
                            signal.as_str(),
                            why.as_str()
                        );
                        if !rule.is_empty() {
                            let _ = write!(o, ",rule=\"{rule}\"");
                        }
                        let _ = writeln!(o, "}} {n}");
                    }
                }
            },
        );
        family(
            "tracegate_fields_stripped_total",
            "counter",
            "Fields removed from spans, log records and records written to each sink, by the finding rule that removed them.",
            &mut |o, _| {
                for (s, c) in sinks {
                    for ((signal, rule), n) in c.fields_stripped() {
                        let _ = writeln!(
                            o,
                            "tracegate_fields_stripped_total{{sink=\"{}\",signal=\"{}\",rule=\"{rule}\"}} {n}",
                            label(s),
                            signal.as_str(),
                        );
                    }
                }
            },
        );
        family(
            "tracegate_sink_up",
            "gauge",
            "1 while each sink can write its output, 0 while it cannot.",
            &mut |o, _| {
                for (s, c) in sinks {
                    let _ = writeln!(
                        o,
                        "tracegate_sink_up{{sink=\"{}\"}} {}",
                        label(s),
                        u8::from(c.health().is_none())
                    );
                }
            },
        );
        family(
            "tracegate_sink_queue_records",
            "gauge",
            "Records waiting in each sink's queue.",
            &mut each(|c| &c.queued),
        );
        family(
            "tracegate_sink_queue_bytes",
            "gauge",
            "Bytes waiting in each sink's queue.",
            &mut each(|c| &c.queued_bytes),
        );
        // Exports: retries, and the spool of OTLP sinks that have one.
        family(
            "tracegate_sink_export_retries_total",
            "counter",
            "Export attempts to each OTLP sink's receiver that failed and are tried again.",
            &mut each(|c| &c.retries),
        );
        family(
            "tracegate_sink_spool_records",
            "gauge",
            "Records waiting in each sink's spool (spool_dir).",
            &mut each(|c| &c.spooled),
        );
        family(
            "tracegate_sink_spool_bytes",
            "gauge",
            "Bytes of the entries in each sink's spool.",
            &mut each(|c| &c.spooled_bytes),
        );
        family(
            "tracegate_sink_records_recovered_total",
            "counter",
            "Records found in each sink's spool at start, left by an earlier run.",
            &mut each(|c| &c.recovered),
        );
        out
    }
}

/// Which counter of a sink a metric family reads.
type Counter = fn(&SinkCounters) -> &AtomicU64;

/// A label value, escaped as the exposition format requires.
fn label(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}
