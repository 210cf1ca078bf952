//! Fuzz target `otlp_protobuf`: see `tracegate_fuzz::invariants::otlp_protobuf`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tracegate_fuzz::invariants::otlp_protobuf(data));
