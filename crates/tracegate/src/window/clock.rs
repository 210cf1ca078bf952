//! The gate's clocks, behind a trait so tests can move time.
//!
//! Windows are judged by two clocks: the UTC wall clock (is `now` inside
//! `start..end`?) and a monotonic clock (has the window been open longer
//! than `end - start`?). A wall clock that jumps backwards cannot extend a
//! window, because the monotonic deadline still passes.
//!
//! Across runs there is no monotonic clock, so a gate also judges a
//! window's end by times that have surely passed: the audit log's newest
//! entry, its clock mark and its files' modification times
//! ([`crate::audit::AuditLog::time_floor`]). [`Clock::file_time`] says how
//! a file time reads on this clock.

use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use jiff::Timestamp;

/// A source of UTC time and monotonic time.
pub trait Clock: Send + Sync {
    /// The UTC wall clock.
    fn utc(&self) -> Timestamp;
    /// A monotonic reading: time since an arbitrary, fixed origin.
    fn monotonic(&self) -> Duration;
    /// A file's modification time as a time on this clock, or `None` when
    /// file times cannot be placed on it (a simulated clock). The default
    /// takes the file time as it is: the file system keeps the host's
    /// clock, which is this one unless only this process's clock was moved.
    fn file_time(&self, t: SystemTime) -> Option<Timestamp> {
        Timestamp::try_from(t).ok()
    }
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
///
/// File times are not placed on it (they come from the host's real clock,
/// unrelated to a simulated one) unless it was made with
/// [`ManualClock::with_file_times`].
#[derive(Debug)]
pub struct ManualClock {
    state: Mutex<(Timestamp, Duration)>,
    file_times: bool,
}

impl ManualClock {
    /// A clock reading `utc`, with the monotonic clock at zero.
    pub fn new(utc: Timestamp) -> ManualClock {
        ManualClock {
            state: Mutex::new((utc, Duration::ZERO)),
            file_times: false,
        }
    }

    /// A clock reading `utc` that takes file times as the host's real
    /// time, as [`SystemClock`] does: a process whose clock alone was
    /// moved (set back, say) while the files it writes keep real time.
    pub fn with_file_times(utc: Timestamp) -> ManualClock {
        ManualClock {
            file_times: true,
            ..ManualClock::new(utc)
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
    fn file_time(&self, t: SystemTime) -> Option<Timestamp> {
        if self.file_times {
            Timestamp::try_from(t).ok()
        } else {
            None
        }
    }
}
