//! This thread's CPU time, for the examples that time redaction on a
//! shared machine (`detect_quality`, `adversarial_sweep`).

use std::time::Duration;

/// This thread's CPU time: what a redaction costs, whatever else the
/// (shared) machine runs meanwhile.
pub fn cpu_now() -> Duration {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(
        u64::try_from(ts.tv_sec).unwrap_or(0),
        u32::try_from(ts.tv_nsec).unwrap_or(0),
    )
}
