//! Which budget source a capture leases from, as `[fleet]` asks:
//!
//! | `[fleet]` | budgets come from |
//! |---|---|
//! | `budget_store = "redis://..."` + `store_key_file` | the shared store, its counts sealed with the key, exact for the fleet, through the [`StoreClient`] the daemon lends (`budget_redis::RedisBudget`); without one, nothing ([`NoStoreClient`]) |
//! | `replicas = N` (N > 1), no store | this replica's own log, `floor(budget / N)` ([`ShareBudget`]) |
//! | neither | this host's audit log, the whole budget ([`LogBudget`]) |
//!
//! The library holds no client of a shared store (no Redis client, no
//! network): `filter` and `serve` hand theirs to each capture
//! (`runtime::Extensions`). A capture without one whose policy names a
//! store grants nothing from it (fail closed).

use jiff::Timestamp;

use super::budget::{BudgetSource, Claim, Lease, Ledger, LogBudget, StoreFault, Units};
use super::budget_share::ShareBudget;
use crate::audit::AuditError;
use crate::policy::{BudgetStoreUrl, FleetSettings};

/// A client of the fleet's shared budget store: the source that leases
/// from the store at the URL for this replica (`[fleet]`, the replica id).
pub type StoreClient = fn(&BudgetStoreUrl, &FleetSettings, &str) -> Box<dyn BudgetSource>;

/// The budget source `[fleet]` asks for (see the module table); `store`
/// reaches `[fleet] budget_store` when the policy names one.
pub fn budget_source(
    fleet: &FleetSettings,
    replica_id: &str,
    store: Option<StoreClient>,
) -> Box<dyn BudgetSource> {
    match (&fleet.budget_store, store) {
        (Some(url), Some(connect)) => connect(url, fleet, replica_id),
        // SECURITY: a store this build cannot reach grants nothing; the
        // replica's own log does not stand in for the fleet's budget.
        (Some(_), None) => Box::new(NoStoreClient),
        (None, _) if fleet.replicas > 1 => Box::new(ShareBudget::new(fleet.replicas)),
        (None, _) => Box::new(LogBudget),
    }
}

/// The source of a capture whose policy names a budget store it was given
/// no client for: every lease is refused as if the store were unreachable,
/// so nothing is enabled or spent, and the capture reports the store as
/// failing. It never touches the log: there is nothing to record.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoStoreClient;

impl BudgetSource for NoStoreClient {
    fn lease(
        &mut self,
        _ledger: &mut Ledger,
        _claim: Claim<'_>,
        _need: Units,
        _enable: bool,
        _ts: Timestamp,
    ) -> Result<Lease, AuditError> {
        Ok(Lease::Unavailable(StoreFault::Unreachable))
    }

    fn release(
        &mut self,
        _ledger: &mut Ledger,
        _claim: Claim<'_>,
        _ts: Timestamp,
    ) -> Result<(), AuditError> {
        // Nothing was leased, so nothing is given back.
        Ok(())
    }

    fn store_state(&self) -> Option<Option<StoreFault>> {
        Some(Some(StoreFault::Unreachable))
    }
}
