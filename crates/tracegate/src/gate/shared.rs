//! One line's scan shared by the gates that judge that line in turn.
//!
//! `serve` judges every request once per sink, each sink with its own gate
//! (its own redaction and pseudonyms). The tape of the line is the same
//! for all of them: the first gate that needs it builds it in a
//! [`SharedScan`], the others judge on it as built.
//!
//! **Invariant:** a gate reuses the shared tape only for the very bytes
//! the [`SharedScan`] borrows (same address, same length). The borrow
//! keeps those bytes unchanged for as long as the scan exists, so the tape
//! cannot describe other bytes than the ones being judged. A gate that
//! scans anything else there marks the shared tape as not built.

use super::Gate;
use crate::record::tape::Tape;

/// The scan of one line, lent to each gate that judges it (see
/// [`Gate::with_shared_scan`]).
#[derive(Debug)]
pub struct SharedScan<'a> {
    line: &'a [u8],
    tape: Tape,
    built: bool,
}

/// What a gate knows, while it holds a [`SharedScan`]'s tape, about what
/// the tape describes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Lent {
    addr: usize,
    len: usize,
    /// The tape is a successful scan of exactly these bytes.
    pub(super) built: bool,
}

impl Lent {
    /// Whether `bytes` are the line the scan was lent for.
    pub(super) fn is_of(&self, bytes: &[u8]) -> bool {
        bytes.as_ptr() as usize == self.addr && bytes.len() == self.len
    }
}

impl<'a> SharedScan<'a> {
    /// A scan of `line`, not built yet, in `tape`'s buffers (reuse one).
    pub fn new(line: &'a [u8], tape: Tape) -> SharedScan<'a> {
        SharedScan {
            line,
            tape,
            built: false,
        }
    }

    /// The tape's buffers back, for the next line.
    pub fn into_tape(self) -> Tape {
        self.tape
    }
}

impl Gate {
    /// Run `judge` on this gate with the shared scan's tape in place of
    /// its own: a judgement of the scan's line uses the tape as already
    /// built, or builds it there for the gates after this one.
    ///
    /// Everything the gate reads from its tape must be read inside
    /// `judge`; after it returns the gate holds its own tape again.
    pub fn with_shared_scan<T>(
        &mut self,
        scan: &mut SharedScan<'_>,
        judge: impl FnOnce(&mut Gate) -> T,
    ) -> T {
        std::mem::swap(&mut self.tape, &mut scan.tape);
        self.lent = Some(Lent {
            addr: scan.line.as_ptr() as usize,
            len: scan.line.len(),
            built: scan.built,
        });
        let r = judge(self);
        scan.built = self.lent.take().is_some_and(|l| l.built);
        std::mem::swap(&mut self.tape, &mut scan.tape);
        r
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use std::sync::Arc;

    use super::*;
    use crate::policy::Policy;
    use crate::source::lines::Line;
    use crate::window::Level;

    fn policy() -> Arc<Policy> {
        Arc::new(
            Policy::from_toml(
                std::path::Path::new("p.toml"),
                r#"
[audit]
path = "audit.jsonl"
[[sink]]
name = "a"
[[sink]]
name = "b"
full_allowed = true
"#,
            )
            .unwrap(),
        )
    }

    /// An OTLP request with content: the standard gate must strip it,
    /// which takes the full path (and so the tape).
    const WITH_CONTENT: &[u8] = br#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","name":"llm_request","attributes":[{"key":"gen_ai.prompt","value":{"stringValue":"CANARY secret prompt"}},{"key":"gen_ai.usage.input_tokens","value":{"intValue":"12"}}]}]}]}]}"#;

    fn judged(gate: &mut Gate, line: &[u8], level: Level) -> (crate::gate::Verdict, Vec<u8>) {
        let j = gate.judge(1, &Line::Text(line), level, true);
        (j.verdict, gate.output().to_vec())
    }

    #[test]
    fn gates_sharing_a_scan_judge_as_each_would_alone() {
        let p = policy();
        let mut alone_a = Gate::for_sink(Arc::clone(&p), "a");
        let mut alone_b = Gate::for_sink(Arc::clone(&p), "b");
        let mut a = Gate::for_sink(Arc::clone(&p), "a");
        let mut b = Gate::for_sink(Arc::clone(&p), "b");
        // As long as the lent line, laid out otherwise (attributes swapped):
        // a tape of the one read over the other would misjudge it.
        let swapped = String::from_utf8(WITH_CONTENT.to_vec())
            .unwrap()
            .replace(
                r#"{"key":"gen_ai.prompt","value":{"stringValue":"CANARY secret prompt"}},{"key":"gen_ai.usage.input_tokens","value":{"intValue":"12"}}"#,
                r#"{"key":"gen_ai.usage.input_tokens","value":{"intValue":"12"}},{"key":"gen_ai.prompt","value":{"stringValue":"CANARY secret prompt"}}"#,
            );
        assert_eq!(swapped.len(), WITH_CONTENT.len());
        assert_ne!(swapped.as_bytes(), WITH_CONTENT);
        let other = swapped.into_bytes();
        let mut tape = Tape::new();
        for line in [WITH_CONTENT, br#"{"resourceSpans":[]}"#, b"{not json"] {
            let mut scan = SharedScan::new(line, tape);
            let ja = a.with_shared_scan(&mut scan, |g| judged(g, line, Level::Standard));
            // A gate judging other bytes in between must not take the
            // shared tape for them, nor leave it marked as built.
            let jo = b.with_shared_scan(&mut scan, |g| judged(g, &other, Level::Standard));
            let jb = b.with_shared_scan(&mut scan, |g| judged(g, line, Level::Full));
            tape = scan.into_tape();
            assert_eq!(ja, judged(&mut alone_a, line, Level::Standard));
            assert_eq!(jb, judged(&mut alone_b, line, Level::Full));
            assert_eq!(jo, judged(&mut alone_b, &other, Level::Standard));
        }
    }

    #[test]
    fn a_scan_is_reused_only_for_the_bytes_it_was_lent_for() {
        let p = policy();
        let mut a = Gate::for_sink(Arc::clone(&p), "a");
        // One separator spaced in a compact line: the OTLP fast path
        // leaves it to the full path, which scans.
        let mixed = String::from_utf8(WITH_CONTENT.to_vec()).unwrap().replacen(
            r#""key":"gen_ai.prompt""#,
            r#""key": "gen_ai.prompt""#,
            1,
        );
        assert_ne!(mixed.as_bytes(), WITH_CONTENT);
        let line = mixed.as_bytes();
        let mut scan = SharedScan::new(line, Tape::new());
        a.with_shared_scan(&mut scan, |g| judged(g, line, Level::Standard));
        assert!(
            scan.built,
            "the full path scanned the line into the shared tape"
        );
        // The same content at another address: scanned afresh, and the
        // shared tape no longer describes the lent line.
        let copy = line.to_vec();
        let (v, out) = a.with_shared_scan(&mut scan, |g| judged(g, &copy, Level::Standard));
        assert!(!scan.built);
        assert_eq!(v, crate::gate::Verdict::Rewritten);
        assert!(!out.windows(6).any(|w| w == b"CANARY"));
    }
}
