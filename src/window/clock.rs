//! The gate's clocks, behind a trait so tests can move time.
//!
//! Windows are judged by two clocks: the UTC wall clock (is `now` inside
//! `start..end`?) and a monotonic clock (has the window been open longer
//! than `end - start`?). A wall clock that jumps backwards cannot extend a
//! window, because the monotonic deadline still passes.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use jiff::Timestamp;

/// A source of UTC time and monotonic time.
pub trait Clock: Send + Sync {
    /// The UTC wall clock.
    fn utc(&self) -> Timestamp;
    /// A monotonic reading: time since an arbitrary, fixed origin.
    fn monotonic(&self) -> Duration;
}

/// The real clocks.
#[derive(Debug)]
pub struct SystemClock {
    origin: Instant,
}

impl SystemClock {
    /// The system's clocks.
    pub fn new() -> SystemClock {
        SystemClock {
            origin: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn utc(&self) -> Timestamp {
        Timestamp::now()
    }
    fn monotonic(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// A clock that moves only when told to (tests, simulations).
#[derive(Debug)]
pub struct ManualClock {
    state: Mutex<(Timestamp, Duration)>,
}

impl ManualClock {
    /// A clock reading `utc`, with the monotonic clock at zero.
    pub fn new(utc: Timestamp) -> ManualClock {
        ManualClock {
            state: Mutex::new((utc, Duration::ZERO)),
        }
    }

    /// Move both clocks forward by `d`.
    pub fn advance(&self, d: Duration) {
        if let Ok(mut s) = self.state.lock() {
            s.0 = s.0.checked_add(d).unwrap_or(s.0);
            s.1 += d;
        }
    }

    /// Set the wall clock only (a jump); the monotonic clock is untouched.
    pub fn set_utc(&self, utc: Timestamp) {
        if let Ok(mut s) = self.state.lock() {
            s.0 = utc;
        }
    }
}

impl Clock for ManualClock {
    fn utc(&self) -> Timestamp {
        self.state
            .lock()
            .map(|s| s.0)
            .unwrap_or(Timestamp::UNIX_EPOCH)
    }
    fn monotonic(&self) -> Duration {
        // A poisoned lock reads as "far future", which closes windows: fail closed.
        self.state.lock().map(|s| s.1).unwrap_or(Duration::MAX)
    }
}
