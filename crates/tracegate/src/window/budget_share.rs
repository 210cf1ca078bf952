//! A replica's fixed share of every window budget: `[fleet] replicas = N`
//! without a store.
//!
//! Each of `N` replicas may spend `floor(budget / N)` of a window's
//! `max_records` and `max_bytes`, leased from its own audit log exactly as
//! one gate leases its whole budget ([`super::budget::LogBudget`]). No
//! replica talks to another, and yet the fleet as a whole cannot exceed
//! the budget: `N * floor(budget / N) <= budget`. The price is that a
//! replica that gets little traffic strands its share; a shared store
//! (`budget_redis`, on the daemon's floor) avoids that.
//!
//! Two replicas that (against the advice) share one audit log also share
//! one share: the bound then only gets tighter.

use jiff::Timestamp;

use super::budget::{Budget, BudgetSource, Claim, Lease, Ledger, Units, log_lease, log_release};
use crate::audit::AuditError;
use crate::policy::Window;

/// Leases from the replica's own audit log, under `floor(budget / N)`.
#[derive(Debug, Clone, Copy)]
pub struct ShareBudget {
    replicas: u64,
}

impl ShareBudget {
    /// The share of one replica out of `replicas` (at least 1).
    pub fn new(replicas: u64) -> ShareBudget {
        ShareBudget {
            replicas: replicas.max(1),
        }
    }

    /// This replica's budget for `w`: each bounded measure divided by the
    /// number of replicas, rounded down (unbounded stays unbounded).
    pub fn budget(&self, w: &Window) -> Budget {
        let n = self.replicas;
        Budget {
            records: w.max_records.map(|m| m / n),
            bytes: w.max_bytes.map(|m| m / n),
        }
    }
}

impl BudgetSource for ShareBudget {
    fn lease(
        &mut self,
        ledger: &mut Ledger,
        claim: Claim<'_>,
        need: Units,
        enable: bool,
        ts: Timestamp,
    ) -> Result<Lease, AuditError> {
        // SECURITY: every lease is checked against this replica's share,
        // never the whole budget.
        let budget = self.budget(claim.window);
        log_lease(ledger, claim, budget, need, enable, ts)
    }

    fn release(
        &mut self,
        ledger: &mut Ledger,
        claim: Claim<'_>,
        ts: Timestamp,
    ) -> Result<(), AuditError> {
        let budget = self.budget(claim.window);
        log_release(ledger, claim, budget, ts)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn window(max_records: Option<u64>, max_bytes: Option<u64>) -> Window {
        Window {
            id: "w".into(),
            sink: "s".into(),
            start: "2026-12-01T10:00:00Z".parse().unwrap(),
            end: "2026-12-01T12:00:00Z".parse().unwrap(),
            reason: "r".into(),
            requested_by: "q".into(),
            max_records,
            max_bytes,
            file: "p.toml".into(),
        }
    }

    #[test]
    fn a_share_is_the_floor_of_the_budget_over_the_replicas() {
        let s = ShareBudget::new(3);
        assert_eq!(
            s.budget(&window(Some(50), Some(1000))),
            Budget {
                records: Some(16),
                bytes: Some(333)
            }
        );
        assert_eq!(s.budget(&window(None, Some(2))).records, None);
        assert_eq!(s.budget(&window(Some(2), None)).records, Some(0));
        assert_eq!(
            ShareBudget::new(0).budget(&window(Some(7), None)).records,
            Some(7)
        );
    }

    proptest! {
        /// However many replicas, their shares never add up to more than
        /// the budget.
        #[test]
        fn shares_never_add_up_past_the_budget(max in 0u64..u64::MAX / 2, n in 1u64..10_000) {
            let b = ShareBudget::new(n).budget(&window(Some(max), Some(max)));
            let r = b.records.unwrap();
            prop_assert!(r.checked_mul(n).is_some_and(|t| t <= max));
            prop_assert!(max - r * n < n);
        }
    }
}
