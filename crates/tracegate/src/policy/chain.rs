//! `max_window` over a sink's windows together, not one at a time.
//!
//! Seven back-to-back 24-hour windows are a week of capture, each within a
//! 24-hour `max_window`. So the bound is applied to every period: in any
//! stretch of twice `max_window`, a sink's windows together are open at
//! most `max_window`. Back-to-back or closely spaced windows add up; two
//! short windows a day apart do not. And a sink may have at most
//! [`MAX_WINDOWS_PER_SINK`] windows in the policy at once.

use jiff::{SignedDuration, Timestamp};

/// Most windows one sink may have in the policy.
pub const MAX_WINDOWS_PER_SINK: usize = 16;

/// How long `[a, b)` and `[from, to)` overlap.
fn overlap(a: Timestamp, b: Timestamp, from: Timestamp, to: Timestamp) -> SignedDuration {
    let start = a.max(from);
    let end = b.min(to);
    if end > start {
        end.duration_since(start)
    } else {
        SignedDuration::ZERO
    }
}

/// Whether `new` joins `existing` (one sink's windows, none overlapping)
/// into more than `max` of open time within some period of `2 * max`; the
/// open time of the worst period when it does.
///
/// The worst period starts where a window starts (sliding it later from
/// any other start loses open time at its front before it gains any), so
/// only those starts are tried.
pub fn too_much(
    existing: &[(Timestamp, Timestamp)],
    new: (Timestamp, Timestamp),
    max: SignedDuration,
) -> Option<SignedDuration> {
    let period = max.checked_mul(2)?;
    let all: Vec<(Timestamp, Timestamp)> = existing.iter().copied().chain([new]).collect();
    let mut worst = SignedDuration::ZERO;
    for &(from, _) in &all {
        let Ok(to) = from.checked_add(period) else {
            continue;
        };
        let open = all.iter().fold(SignedDuration::ZERO, |acc, &(a, b)| {
            acc.saturating_add(overlap(a, b, from, to))
        });
        worst = worst.max(open);
    }
    (worst > max).then_some(worst)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn at(h: i64) -> Timestamp {
        Timestamp::from_second(1_800_000_000 + h * 3600).unwrap()
    }

    #[test]
    fn back_to_back_windows_add_up() {
        let day = SignedDuration::from_hours(24);
        // The attack: seven 24-hour windows, each within `max_window`.
        let mut open = Vec::new();
        let mut refused = 0;
        for d in 0..7 {
            let w = (at(24 * d), at(24 * d + 24));
            if too_much(&open, w, day).is_some() {
                refused += 1;
            } else {
                open.push(w);
            }
        }
        // Every other day at most: no two full days touch.
        assert_eq!(open.len(), 4, "{open:?}");
        assert_eq!(refused, 3);
        assert!(
            open.windows(2)
                .all(|p| p[1].0 >= p[0].1.checked_add(day).unwrap())
        );
        // With gaps shorter than the windows it is the same.
        let open = [(at(0), at(20))];
        assert!(too_much(&open, (at(21), at(41)), day).is_some());
    }

    #[test]
    fn spaced_short_windows_are_fine() {
        let day = SignedDuration::from_hours(24);
        // Half an hour a day, every day of a week.
        let mut open: Vec<(Timestamp, Timestamp)> = Vec::new();
        for d in 0..7 {
            let w = (
                at(24 * d),
                at(24 * d)
                    .checked_add(SignedDuration::from_mins(30))
                    .unwrap(),
            );
            assert_eq!(too_much(&open, w, day), None, "day {d}");
            open.push(w);
        }
        // One full window, then another two max_windows later.
        assert_eq!(too_much(&[(at(0), at(24))], (at(48), at(72)), day), None);
        // ...but not sooner.
        assert!(too_much(&[(at(0), at(24))], (at(47), at(71)), day).is_some());
    }

    proptest::proptest! {
        /// Whatever windows are accepted one by one, no period of twice
        /// `max` holds more than `max` of open time.
        #[test]
        fn accepted_windows_never_exceed_the_bound(
            ws in proptest::collection::vec((0i64..400, 1i64..30), 0..20)
        ) {
            let max = SignedDuration::from_hours(24);
            let mut open: Vec<(Timestamp, Timestamp)> = Vec::new();
            for (s, len) in ws {
                let w = (at(s), at(s + len));
                if open.iter().any(|&(a, b)| a < w.1 && w.0 < b) {
                    continue;
                }
                if too_much(&open, w, max).is_none() {
                    open.push(w);
                }
            }
            for h in -30..430 {
                let from = at(h);
                let to = at(h + 48);
                let total = open.iter().fold(SignedDuration::ZERO, |acc, &(a, b)| {
                    acc.saturating_add(overlap(a, b, from, to))
                });
                proptest::prop_assert!(total <= max, "{total:?} from hour {h}");
            }
        }
    }
}
