//! `tracegate audit verify --fleet LOG...`: what every replica of a fleet
//! spent of each window's budget, added up across their audit logs.
//!
//! Each replica keeps its own log. A window's total is, over every log:
//! what each gate's `window_released` says it spent, plus, for a gate that
//! leased and never released (crashed, or still running), all it leased:
//! what it spent is unknown, so it counts in full. The budget is the
//! smallest `max_records` / `max_bytes` any `window_enabled` of the window
//! names. A total above its budget is a breach: exit 1.
//!
//! SECURITY: window ids, replica ids and counts only; entries never hold
//! record content, and nothing here quotes a log line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::audit::{AuditError, AuditEvent, AuditKey, read_entries};

/// One window's totals across a fleet's logs.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct WindowTotal {
    /// The window id.
    pub window: String,
    /// The smallest record budget its enablements name.
    pub max_records: Option<u64>,
    /// The smallest byte budget its enablements name.
    pub max_bytes: Option<u64>,
    /// Records spent (released) or possibly spent (leased, never released).
    pub spent_records: u64,
    /// Bytes, likewise.
    pub spent_bytes: u64,
    /// Records leased in all.
    pub leased_records: u64,
    /// Records given back unused.
    pub returned_records: u64,
    /// Leases taken.
    pub leases: u64,
    /// Gates that leased and never released (their leases count as spent).
    pub unreleased: u64,
    /// Replicas named in the window's entries.
    pub replicas: Vec<String>,
    /// Whether the totals exceed the budget.
    pub over: bool,
}

#[derive(Default)]
struct Gate {
    leased_records: u64,
    leased_bytes: u64,
    released: Option<(u64, u64, u64)>,
    leases: u64,
}

#[derive(Default)]
struct Acc {
    max_records: Option<u64>,
    max_bytes: Option<u64>,
    /// By (log index, holder): holders are unique per process, not per fleet.
    gates: BTreeMap<(usize, String), Gate>,
    replicas: BTreeSet<String>,
}

fn min_opt(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Read every log (checking each chain as it is read) and add up each
/// window's spending. An unreadable or broken log is an error: a total
/// that left out part of the fleet would vouch for nothing.
pub fn fleet_totals(
    files: &[PathBuf],
    key: Option<&AuditKey>,
) -> Result<Vec<WindowTotal>, AuditError> {
    let mut windows: BTreeMap<String, Acc> = BTreeMap::new();
    for (i, file) in files.iter().enumerate() {
        for entry in read_entries(file, key)? {
            let entry = entry?;
            let window = match &entry.event {
                AuditEvent::WindowEnabled { window, .. }
                | AuditEvent::BudgetLeased { window, .. }
                | AuditEvent::WindowReleased { window, .. } => window,
                _ => continue,
            };
            let acc = windows.entry(window.clone()).or_default();
            if let Some(r) = &entry.replica_id {
                acc.replicas.insert(r.clone());
            }
            match &entry.event {
                AuditEvent::WindowEnabled {
                    max_records,
                    max_bytes,
                    ..
                } => {
                    acc.max_records = min_opt(acc.max_records, *max_records);
                    acc.max_bytes = min_opt(acc.max_bytes, *max_bytes);
                }
                AuditEvent::BudgetLeased {
                    holder,
                    records,
                    bytes,
                    ..
                } => {
                    let g = acc.gates.entry((i, holder.clone())).or_default();
                    g.leased_records = g.leased_records.saturating_add(records.unwrap_or(0));
                    g.leased_bytes = g.leased_bytes.saturating_add(bytes.unwrap_or(0));
                    g.leases += 1;
                }
                AuditEvent::WindowReleased {
                    holder,
                    spent_records,
                    spent_bytes,
                    returned_records,
                    ..
                } => {
                    let g = acc.gates.entry((i, holder.clone())).or_default();
                    let prev = g.released.unwrap_or((0, 0, 0));
                    g.released = Some((
                        prev.0.saturating_add(*spent_records),
                        prev.1.saturating_add(*spent_bytes),
                        prev.2.saturating_add(*returned_records),
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(windows
        .into_iter()
        .map(|(window, acc)| {
            let mut t = WindowTotal {
                window,
                max_records: acc.max_records,
                max_bytes: acc.max_bytes,
                replicas: acc.replicas.into_iter().collect(),
                ..WindowTotal::default()
            };
            for g in acc.gates.values() {
                t.leases += g.leases;
                t.leased_records = t.leased_records.saturating_add(g.leased_records);
                match g.released {
                    Some((sr, sb, rr)) => {
                        t.spent_records = t.spent_records.saturating_add(sr);
                        t.spent_bytes = t.spent_bytes.saturating_add(sb);
                        t.returned_records = t.returned_records.saturating_add(rr);
                    }
                    None => {
                        // SECURITY: never released: all it leased may be spent.
                        t.unreleased += 1;
                        t.spent_records = t.spent_records.saturating_add(g.leased_records);
                        t.spent_bytes = t.spent_bytes.saturating_add(g.leased_bytes);
                    }
                }
            }
            t.over = t.max_records.is_some_and(|m| t.spent_records > m)
                || t.max_bytes.is_some_and(|m| t.spent_bytes > m);
            t
        })
        .collect())
}

/// One line of text for a window's totals.
pub fn render(t: &WindowTotal) -> String {
    let of = |m: Option<u64>| m.map_or_else(|| "unbounded".to_owned(), |m| m.to_string());
    format!(
        "fleet: window `{}`: {} {} of max_records {}, {} bytes of max_bytes {} ({}, {} leased, {} returned, {} never released; replicas: {})",
        t.window,
        if t.over { "OVER BUDGET:" } else { "spent" },
        t.spent_records,
        of(t.max_records),
        t.spent_bytes,
        of(t.max_bytes),
        crate::io_text::counted(t.leases, "lease", "leases"),
        crate::io_text::counted(t.leased_records, "record", "records"),
        t.returned_records,
        t.unreleased,
        if t.replicas.is_empty() {
            "-".to_owned()
        } else {
            t.replicas.join(", ")
        }
    )
}
