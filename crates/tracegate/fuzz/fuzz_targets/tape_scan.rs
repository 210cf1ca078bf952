//! Fuzz target `tape_scan`: see `tracegate_fuzz::invariants::tape_scan`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tracegate_fuzz::invariants::tape_scan(data));
