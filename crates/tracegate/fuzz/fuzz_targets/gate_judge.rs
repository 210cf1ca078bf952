//! Fuzz target `gate_judge`: see `tracegate_fuzz::invariants::gate_judge`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tracegate_fuzz::invariants::gate_judge(data));
