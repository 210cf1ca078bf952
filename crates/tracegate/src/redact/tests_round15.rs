//! Issue 36, fifteenth round: heldout16's misses and false positives,
//! closed by structure rather than by container.

use super::tests_detectors::{all, keeps, redacts_exactly};
