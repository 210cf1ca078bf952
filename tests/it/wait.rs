//! Waiting on another process or thread: bounded polls on a condition,
//! never a sleep that hopes the other side is done.

use std::time::{Duration, Instant};

/// How long a test waits for a server to answer, a file to appear or a
/// window to open: generous, for a loaded two-core machine.
pub(crate) const DEADLINE: Duration = Duration::from_secs(20);

/// Ask `f` every 20 ms until it answers, for at most `within`; the test
/// fails naming `what` when it never does.
pub(crate) fn poll_within<T>(what: &str, within: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let end = Instant::now() + within;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < end, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// [`poll_within`] the [`DEADLINE`].
pub(crate) fn poll<T>(what: &str, f: impl FnMut() -> Option<T>) -> T {
    poll_within(what, DEADLINE, f)
}
