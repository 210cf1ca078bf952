//! The counts of the built-in rules, made once instead of at every start.
//!
//! Every process that loads a policy built on the defaults counted the
//! same patterns again (most of a one-record `filter`'s instructions,
//! and of each process the integration tests spawn). A count is a pure
//! function of its inputs, so this table holds what [`super::count`]
//! returns for the inputs the shipped policies count, bit for bit; a
//! lookup by every input, whole, replaces the count. Any other input is
//! counted as before.
//!
//! **Invariant:** every entry is what the counter returns now, and the
//! shipped policies count nothing outside the table: the test
//! `capacity::figures::the_built_in_counts_are_known_and_fresh` recounts
//! each entry and fails on any difference, and rewrites this file when
//! run with `TRACEGATE_UPDATE_KNOWN=1` (after a change to the counter or
//! to a built-in rule; review the diff: a count that moved is a figure
//! that moved).
//!
//! Generated: do not edit by hand.

// Which of these an entry names depends on the entries.
#[allow(unused_imports)]
use super::count::{CountError, Counted, Known, Mode};

pub(super) const KNOWN: &[Known] = &[
    Known {
        pattern: "^(?:(?:0(?:\\.(?:0+|0*[1-9][0-9]{0,16}))?|[1-9][0-9]{0}(?:\\.[0-9]{1,16})?|[1-9][0-9]{1}(?:\\.[0-9]{1,15})?|[1-9][0-9]{2}(?:\\.[0-9]{1,14})?|[1-9][0-9]{3}(?:\\.[0-9]{1,13})?|[1-9][0-9]{4}(?:\\.[0-9]{1,12})?|[1-9][0-9]{5}(?:\\.[0-9]{1,11})?|[1-9][0-9]{6}(?:\\.[0-9]{1,10})?|[1-9][0-9]{7}(?:\\.[0-9]{1,9})?|[1-9][0-9]{8}(?:\\.[0-9]{1,8})?|[1-9][0-9]{9}(?:\\.[0-9]{1,7})?|[1-9][0-9]{10}(?:\\.[0-9]{1,6})?|[1-9][0-9]{11}(?:\\.[0-9]{1,5})?|[1-9][0-9]{12}(?:\\.[0-9]{1,4})?|[1-9][0-9]{13}(?:\\.[0-9]{1,3})?|[1-9][0-9]{14}(?:\\.[0-9]{1,2})?|[1-9][0-9]{15}(?:\\.[0-9]{1,1})?|[1-9][0-9]{16})(?:[eE][+-]?[0-9]{1,3})?|-0(?:\\.0+)?(?:[eE][+-]?[0-9]{1,3})?)$",
        unicode: false,
        max_len: Some(25),
        segments: None,
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x40525d258816993d),
            states: 186,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:(chat|generate_content|text_completion|embeddings|retrieval|create_agent|invoke_agent|execute_tool|search_memory|update_memory|delete_memory|create_memory_store|delete_memory_store|invoke_workflow|plan|create_memory|upsert_memory)( [A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127})?)$",
        unicode: false,
        max_len: Some(160),
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(15),
            Some(32),
            Some(7),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x40888ec33b35c6f8),
            states: 284,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:-?(?:0(?:\\.(?:0+|0*[1-9][0-9]{0,16}))?|[1-9][0-9]{0}(?:\\.[0-9]{1,16})?|[1-9][0-9]{1}(?:\\.[0-9]{1,15})?|[1-9][0-9]{2}(?:\\.[0-9]{1,14})?|[1-9][0-9]{3}(?:\\.[0-9]{1,13})?|[1-9][0-9]{4}(?:\\.[0-9]{1,12})?|[1-9][0-9]{5}(?:\\.[0-9]{1,11})?|[1-9][0-9]{6}(?:\\.[0-9]{1,10})?|[1-9][0-9]{7}(?:\\.[0-9]{1,9})?|[1-9][0-9]{8}(?:\\.[0-9]{1,8})?|[1-9][0-9]{9}(?:\\.[0-9]{1,7})?|[1-9][0-9]{10}(?:\\.[0-9]{1,6})?|[1-9][0-9]{11}(?:\\.[0-9]{1,5})?|[1-9][0-9]{12}(?:\\.[0-9]{1,4})?|[1-9][0-9]{13}(?:\\.[0-9]{1,3})?|[1-9][0-9]{14}(?:\\.[0-9]{1,2})?|[1-9][0-9]{15}(?:\\.[0-9]{1,1})?|[1-9][0-9]{16})(?:[eE][+-]?[0-9]{1,3})?)$",
        unicode: false,
        max_len: Some(25),
        segments: None,
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x40529abdb1bf774e),
            states: 179,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:@?[A-Za-z][A-Za-z0-9_-]{0,63}([./][A-Za-z0-9_-]{1,64}){0,15})$",
        unicode: false,
        max_len: Some(128),
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(14),
            Some(32),
            Some(10),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x408823544eea02eb),
            states: 1041,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:[0-9a-f]{32})$",
        unicode: false,
        max_len: Some(32),
        segments: None,
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x406000000218def4),
            states: 33,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:[A-Za-z0-9@][A-Za-z0-9._:/@+-]{0,127})$",
        unicode: false,
        max_len: Some(128),
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(12),
            Some(32),
            Some(6),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x40886e3f61f40bd8),
            states: 129,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:[A-Za-z0-9][A-Za-z0-9.-]{0,127})$",
        unicode: false,
        max_len: Some(128),
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(10),
            Some(32),
            Some(8),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x4087ffd0ba101c95),
            states: 129,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:[A-Za-z0-9][A-Za-z0-9_.-]{0,31}( [A-Za-z0-9][A-Za-z0-9_.-]{0,31}){0,2})$",
        unicode: false,
        max_len: Some(64),
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(4),
            Some(24),
            Some(3),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x4077ec1402938ce4),
            states: 99,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:[A-Za-z0-9][A-Za-z0-9_.:-]{0,127})$",
        unicode: false,
        max_len: Some(128),
        segments: None,
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x40882cea09f122d1),
            states: 129,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:[A-Za-z0-9_.+-]{1,64})$",
        unicode: false,
        max_len: None,
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(6),
            Some(24),
            Some(2),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x407806d1debb3891),
            states: 65,
            segments_counted: true,
        }),
    },
    Known {
        pattern: "^(?:[A-Za-z0-9_.+-]{1,64})$",
        unicode: false,
        max_len: None,
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(8),
            Some(40),
            Some(2),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x407824759028a7b6),
            states: 65,
            segments_counted: true,
        }),
    },
    Known {
        pattern: "^(?:[A-Za-z0-9_.-]{1,64})$",
        unicode: false,
        max_len: None,
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(3),
            Some(24),
            Some(3),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x4077a66f9da03467),
            states: 65,
            segments_counted: true,
        }),
    },
    Known {
        pattern: "^(?:[A-Za-z0-9_.-]{1,64})$",
        unicode: false,
        max_len: None,
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(6),
            Some(32),
            Some(4),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x40780324f637fb26),
            states: 65,
            segments_counted: true,
        }),
    },
    Known {
        pattern: "^(?:[A-Za-z0-9_.:-]{1,128})$",
        unicode: false,
        max_len: None,
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(10),
            Some(40),
            Some(5),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x40882da2c3922072),
            states: 129,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:[A-Za-z0-9_][A-Za-z0-9_.-]{0,63})$",
        unicode: false,
        max_len: Some(64),
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(8),
            Some(32),
            Some(5),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x4078059931b8c8e1),
            states: 65,
            segments_counted: true,
        }),
    },
    Known {
        pattern: "^(?:[A-Za-z0-9_][A-Za-z0-9_.:-]{0,127}(\\$[A-Za-z0-9_]{1,64}){0,2})$",
        unicode: false,
        max_len: Some(128),
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(10),
            Some(48),
            Some(7),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x408830ed009ce4a1),
            states: 259,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:[a-z][a-z0-9_]{0,31}(\\.[a-z][a-z0-9_]{0,31}){0,3})$",
        unicode: false,
        max_len: Some(64),
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(4),
            Some(16),
            Some(3),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x4074ba0d6ac8491b),
            states: 132,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|\\+00:00)$)$",
        unicode: false,
        max_len: None,
        segments: None,
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x4053639b3e2fd2eb),
            states: 36,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:^[A-Za-z0-9]{1,64}([_.:-][A-Za-z0-9]{1,64}){0,5}$)$",
        unicode: false,
        max_len: Some(128),
        segments: None,
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x408815aeb91a1d04),
            states: 390,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:^[A-Za-z0-9]{1,64}([_.:/-][A-Za-z0-9]{1,64}){0,5}$)$",
        unicode: false,
        max_len: Some(128),
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            None,
            None,
            Some(4),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x4088211574120682),
            states: 390,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:^[a-z0-9_-]{1,64}$)$",
        unicode: false,
        max_len: None,
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(4),
            None,
            Some(3),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x4074f14012803ef3),
            states: 65,
            segments_counted: true,
        }),
    },
    Known {
        pattern: "^(?:^[a-z][a-z0-9_.-]{0,63}$)$",
        unicode: false,
        max_len: None,
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(6),
            None,
            Some(4),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x40751159e782786d),
            states: 65,
            segments_counted: true,
        }),
    },
    Known {
        pattern: "^(?:^[a-z][a-z0-9_]{0,63}$)$",
        unicode: false,
        max_len: None,
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(6),
            None,
            Some(4),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x4074cecddf8dd263),
            states: 65,
            segments_counted: true,
        }),
    },
    Known {
        pattern: "^(?:^[a-z][a-z0-9_]{0,63}$)$",
        unicode: false,
        max_len: None,
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            Some(8),
            None,
            Some(6),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x4074cef6357e910a),
            states: 65,
            segments_counted: true,
        }),
    },
    Known {
        pattern: "^(?:chatcmpl-[0-9a-f]+(-[0-9a-f]+)*)$",
        unicode: false,
        max_len: Some(96),
        segments: None,
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x407631fba424fd39),
            states: 13,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:https://opentelemetry\\.io/schemas/[0-9]{1,2}\\.[0-9]{1,3}\\.[0-9]{1,3})$",
        unicode: false,
        max_len: None,
        segments: None,
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x403b0398b1002bf3),
            states: 44,
            segments_counted: false,
        }),
    },
    Known {
        pattern: "^(?:v?[0-9]{1,6}(\\.[0-9]{1,6}){0,3}([a-z]{1,5}[0-9]{0,4})?([-+][0-9A-Za-z.]{1,32})?)$",
        unicode: false,
        max_len: Some(64),
        segments: Some((
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
                44, 45, 46, 47, 58, 59, 60, 61, 62, 63, 64, 91, 92, 93, 94, 95, 96, 123, 124, 125,
                126, 127,
            ],
            None,
            None,
            Some(2),
        )),
        mode: Mode::Strings,
        counted: Ok(Counted {
            log2: f64::from_bits(0x4072c17597f9eb91),
            states: 71,
            segments_counted: true,
        }),
    },
];
