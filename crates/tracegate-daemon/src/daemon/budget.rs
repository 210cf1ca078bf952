//! The memory budget of requests being read and decoded (`[server]
//! decode_memory_bytes`), shared by every transport.
//!
//! A request reserves memory before it holds it: its body as the bytes
//! arrive, its decompressed body as it inflates, and the estimated cost of
//! its decoded form once its structure was counted on the wire
//! ([`crate::record::otlp_proto::bounds`]). A reservation that cannot be
//! had within the wait is refused (503, retry later), and one larger than
//! the whole budget can never fit (413). So the memory that requests hold
//! at once stays under the budget, however many are in flight.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::record::otlp_proto::bounds::Counts;

/// Budget unit: reservations are rounded up to whole KiB.
const UNIT: usize = 1024;

/// Bytes of decoded form per protobuf message counted on the wire: the
/// prost message, its OTLP/JSON text, the gate's tape tokens and output.
/// Set from measurement: the densest request the default limits allow
/// (about 670,000 messages) peaks at about 190 bytes a message
/// (`tests/it/serve_hard.rs` holds the daemon to the documented bound).
pub const PER_MESSAGE: usize = 256;
/// Bytes of the gate's work per token of an OTLP/JSON body.
pub const PER_TOKEN: usize = 48;
/// Bytes of decoded form per body byte: prost's copies of strings, the
/// OTLP/JSON line (escaping can grow a string), the gate's output.
pub const PER_BYTE: usize = 4;

/// Why memory could not be reserved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    /// The request alone needs more than the whole budget.
    #[error("request needs more memory than server.decode_memory_bytes allows")]
    TooLarge,
    /// Other requests hold the budget; retry later.
    #[error("the server is busy decoding other requests; retry later")]
    Busy,
}

/// The shared budget.
#[derive(Debug, Clone)]
pub struct MemoryBudget {
    sem: Arc<Semaphore>,
    units: usize,
}

/// Memory one request holds; given back when dropped.
#[derive(Debug, Default)]
pub struct Reservation {
    permit: Option<OwnedSemaphorePermit>,
}

impl Reservation {
    /// Bytes held (what the tests read; nothing else needs it).
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.permit.as_ref().map_or(0, |p| p.num_permits() * UNIT)
    }
}

impl MemoryBudget {
    /// A budget of `bytes`.
    pub fn new(bytes: usize) -> MemoryBudget {
        let units = bytes.div_ceil(UNIT).clamp(1, Semaphore::MAX_PERMITS);
        MemoryBudget {
            sem: Arc::new(Semaphore::new(units)),
            units,
        }
    }

    /// Bytes not reserved now (what the tests read).
    #[cfg(test)]
    pub fn available(&self) -> usize {
        self.sem.available_permits() * UNIT
    }

    /// Grow `r` to hold at least `bytes` if the memory is free now, without
    /// waiting: `Ok(false)` when other requests hold it (then `r` keeps what
    /// it had, and [`MemoryBudget::reserve`] can wait for it). A plain call,
    /// so the blocking pool can take the next step of a request without a
    /// hop back to the runtime when nobody has to wait.
    pub fn try_reserve(&self, r: &mut Reservation, bytes: usize) -> Result<bool, BudgetError> {
        let want = bytes.div_ceil(UNIT);
        if want > self.units {
            return Err(BudgetError::TooLarge);
        }
        let held = r
            .permit
            .as_ref()
            .map_or(0, OwnedSemaphorePermit::num_permits);
        if want <= held {
            return Ok(true);
        }
        let more = u32::try_from(want - held).map_err(|_| BudgetError::TooLarge)?;
        let Ok(got) = Arc::clone(&self.sem).try_acquire_many_owned(more) else {
            return Ok(false);
        };
        match &mut r.permit {
            Some(p) => p.merge(got),
            None => r.permit = Some(got),
        }
        Ok(true)
    }

    /// Grow `r` to hold at least `bytes`, waiting at most `wait` for other
    /// requests to give memory back. On failure `r` keeps what it had (the
    /// caller drops it with the request).
    pub async fn reserve(
        &self,
        r: &mut Reservation,
        bytes: usize,
        wait: Duration,
    ) -> Result<(), BudgetError> {
        // Try at once first: the common case needs no timer.
        if self.try_reserve(r, bytes)? {
            return Ok(());
        }
        // Held by others now: `r` holds less than `bytes`, which fits.
        let held = r
            .permit
            .as_ref()
            .map_or(0, OwnedSemaphorePermit::num_permits);
        let more = u32::try_from(bytes.div_ceil(UNIT).saturating_sub(held))
            .map_err(|_| BudgetError::TooLarge)?;
        let sem = Arc::clone(&self.sem);
        let got = match tokio::time::timeout(wait, sem.acquire_many_owned(more)).await {
            Ok(Ok(p)) => p,
            _ => return Err(BudgetError::Busy),
        };
        match &mut r.permit {
            Some(p) => p.merge(got),
            None => r.permit = Some(got),
        }
        Ok(())
    }
}

/// What decoding a request with `counts` from a body of `body_len` bytes
/// may cost, beyond the body itself; `protobuf` when the body is decoded
/// into messages first, else an OTLP/JSON body whose tokens were counted.
pub fn decode_estimate(body_len: usize, counts: &Counts, protobuf: bool) -> usize {
    let per_item = if protobuf { PER_MESSAGE } else { PER_TOKEN };
    body_len
        .saturating_mul(PER_BYTE)
        .saturating_add(counts.items.saturating_mul(per_item))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[tokio::test]
    async fn reservations_grow_wait_and_give_back() {
        let b = MemoryBudget::new(10 * UNIT);
        let mut a = Reservation::default();
        b.reserve(&mut a, 6 * UNIT, Duration::ZERO).await.unwrap();
        b.reserve(&mut a, 4 * UNIT, Duration::ZERO).await.unwrap();
        assert_eq!(a.bytes(), 6 * UNIT);
        let mut c = Reservation::default();
        assert_eq!(
            b.reserve(&mut c, 5 * UNIT, Duration::from_millis(10)).await,
            Err(BudgetError::Busy)
        );
        assert_eq!(
            b.reserve(&mut c, 11 * UNIT, Duration::ZERO).await,
            Err(BudgetError::TooLarge)
        );
        drop(a);
        assert_eq!(b.available(), 10 * UNIT);
        b.reserve(&mut c, 10 * UNIT, Duration::ZERO).await.unwrap();
        assert_eq!(b.available(), 0);
    }
}
