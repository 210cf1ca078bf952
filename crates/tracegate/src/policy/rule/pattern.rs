//! A byte-level matcher for the simple anchored patterns most allowlists
//! use (`chatcmpl-[0-9a-f]+(-[0-9a-f]+)*`, `[a-z][a-z0-9_]{0,63}`): ASCII
//! literals and classes, repeated, plus repeated groups of those.
//!
//! The regex engine answers such a pattern in a few hundred instructions,
//! mostly fixed overhead; on a clean record the `request_id` check alone was
//! a twentieth of the gate's time. [`Simple::compile`] accepts a pattern only
//! when a single greedy left-to-right pass decides membership exactly (see
//! its conditions); everything else keeps using the regex.
//!
//! **Invariant:** when [`Simple::compile`] returns a matcher for an anchored
//! pattern, `matcher.matches(s) == regex.is_match(s)` for every string `s`
//! (held by a property test against the regex).

use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// A set of ASCII bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Set(u128);

impl Set {
    fn has(self, c: u8) -> bool {
        c < 128 && (self.0 >> c) & 1 == 1
    }

    fn union(self, o: Set) -> Set {
        Set(self.0 | o.0)
    }

    fn meets(self, o: Set) -> bool {
        self.0 & o.0 != 0
    }
}

/// One class repeated `min..=max` times (`max` `None`: unbounded).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Piece {
    set: Set,
    min: u32,
    max: Option<u32>,
}

/// A [`Piece`] as the matcher runs it: a byte table (one load per byte,
/// where testing a `u128` bit takes a double-word shift) and the counts.
#[derive(Clone, PartialEq, Eq)]
struct Run {
    table: Box<[bool; 256]>,
    min: usize,
    max: usize,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Run({}..={})", self.min, self.max)
    }
}

impl Run {
    fn of(p: &Piece) -> Run {
        let mut table = Box::new([false; 256]);
        for (c, slot) in table.iter_mut().enumerate().take(128) {
            *slot = p.set.has(c as u8);
        }
        let count = |n: u32| usize::try_from(n).unwrap_or(usize::MAX);
        Run {
            table,
            min: count(p.min),
            max: p.max.map_or(usize::MAX, count),
        }
    }

    /// Consume greedily from `i`; the offset after, or `None` below `min`.
    fn run(&self, s: &[u8], i: usize) -> Option<usize> {
        let rest = s.get(i..)?;
        let n = rest
            .iter()
            .take(self.max)
            .take_while(|&&c| self.table[usize::from(c)])
            .count();
        (n >= self.min).then_some(i + n)
    }
}

/// Bytes that must appear as they are; 8 to 16 of them are compared as
/// two words, not by `memcmp`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Literal {
    bytes: Box<[u8]>,
    head: u64,
    tail: u64,
}

fn word(s: &[u8], i: usize) -> Option<u64> {
    s.get(i..i + 8)
        .and_then(|w| <[u8; 8]>::try_from(w).ok())
        .map(u64::from_le_bytes)
}

impl Literal {
    fn of(bytes: Vec<u8>) -> Literal {
        let n = bytes.len();
        let (head, tail) = if (8..=16).contains(&n) {
            (
                word(&bytes, 0).unwrap_or(0),
                word(&bytes, n - 8).unwrap_or(0),
            )
        } else {
            (0, 0)
        };
        Literal {
            bytes: bytes.into_boxed_slice(),
            head,
            tail,
        }
    }

    fn at(&self, s: &[u8], i: usize) -> bool {
        let n = self.bytes.len();
        if (8..=16).contains(&n) {
            word(s, i) == Some(self.head) && word(s, i + n - 8) == Some(self.tail)
        } else {
            s.get(i..i + n) == Some(&self.bytes[..])
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    /// Bytes that must appear as they are (after [`merge_literals`]).
    Literal(Literal),
    Piece(Piece),
    /// A piece ready to run (after [`merge_literals`]).
    Run(Run),
    /// A group of literals and pieces repeated `min..=max` times.
    Group {
        body: Vec<Item>,
        first: Set,
        min: u32,
        max: Option<u32>,
    },
}

/// A compiled simple pattern; see the module docs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simple {
    items: Vec<Item>,
}

impl Simple {
    /// A matcher equivalent to the anchored regex `pattern` (the text of a
    /// compiled policy pattern, `^(?:...)$`), or `None` when the pattern is
    /// not of a shape this matcher decides exactly.
    ///
    /// The shape: a start anchor, a sequence of ASCII literals, ASCII
    /// classes repeated, and groups of those repeated (no nested groups),
    /// then an end anchor. It is decided by one greedy pass when no choice
    /// is ever open: a piece that may take a variable number of bytes never
    /// shares a byte with what may follow it, and a repeated group's first
    /// bytes never with what may follow the group; so the next byte alone
    /// says whether a repetition goes on.
    ///
    /// With `unicode` off the pattern is read as the ASCII-only allowlist
    /// pattern it is (`\d` is `[0-9]`, `(?i)k` is `[Kk]`); the matcher's
    /// classes hold ASCII bytes only, so it refuses any non-ASCII value, as
    /// [`super::Pattern::is_match`] does in that mode.
    pub fn compile(pattern: &str, unicode: bool) -> Option<Simple> {
        let hir = regex_syntax::ParserBuilder::new()
            .unicode(unicode)
            .utf8(unicode)
            .build()
            .parse(pattern)
            .ok()?;
        let mut flat = Vec::new();
        flatten(&hir, &mut flat);
        // Anchors only at the two ends: `^` before anything, `$` after all.
        let starts = flat
            .iter()
            .take_while(|h| matches!(h.kind(), HirKind::Look(Look::Start)))
            .count();
        let ends = flat[starts..]
            .iter()
            .rev()
            .take_while(|h| matches!(h.kind(), HirKind::Look(Look::End)))
            .count();
        if starts == 0 || ends == 0 {
            return None;
        }
        let items = sequence(&flat[starts..flat.len() - ends], true)?;
        deterministic(&items, Set::default())?;
        Some(Simple {
            items: merge_literals(items),
        })
    }

    /// Whether all of `s` matches.
    pub fn matches(&self, s: &[u8]) -> bool {
        run_items(&self.items, s, 0) == Some(s.len())
    }
}

fn run_items(items: &[Item], s: &[u8], mut i: usize) -> Option<usize> {
    for item in items {
        i = match item {
            Item::Literal(l) => {
                if !l.at(s, i) {
                    return None;
                }
                i + l.bytes.len()
            }
            Item::Run(r) => r.run(s, i)?,
            // Compiled to runs before use.
            Item::Piece(_) => return None,
            Item::Group {
                body,
                first,
                min,
                max,
            } => {
                let mut n: u32 = 0;
                // The next byte decides: one the body may start with cannot
                // be taken by what follows the group (checked at compile).
                while max.is_none_or(|m| n < m) && s.get(i).is_some_and(|&c| first.has(c)) {
                    i = run_items(body, s, i)?;
                    n += 1;
                }
                if n < *min {
                    return None;
                }
                i
            }
        };
    }
    Some(i)
}

/// Concatenations and captures flattened into one sequence.
fn flatten<'h>(h: &'h Hir, out: &mut Vec<&'h Hir>) {
    match h.kind() {
        HirKind::Concat(hs) => hs.iter().for_each(|h| flatten(h, out)),
        HirKind::Capture(c) => flatten(&c.sub, out),
        HirKind::Empty => {}
        _ => out.push(h),
    }
}

/// The ASCII set of a class, or `None` if it reaches beyond ASCII.
fn class_set(c: &Class) -> Option<Set> {
    let mut bits: u128 = 0;
    let mut add = |lo: u32, hi: u32| -> Option<()> {
        if hi > 127 {
            return None;
        }
        for c in lo..=hi {
            bits |= 1 << c;
        }
        Some(())
    };
    match c {
        Class::Unicode(u) => {
            for r in u.ranges() {
                add(u32::from(r.start()), u32::from(r.end()))?;
            }
        }
        Class::Bytes(b) => {
            for r in b.ranges() {
                add(u32::from(r.start()), u32::from(r.end()))?;
            }
        }
    }
    Some(Set(bits))
}

/// The set of one ASCII byte.
fn byte_set(b: u8) -> Option<Set> {
    (b < 128).then(|| Set(1 << b))
}

/// Items of a flattened sequence; groups only when `top`.
fn sequence(hs: &[&Hir], top: bool) -> Option<Vec<Item>> {
    let mut items = Vec::new();
    for h in hs {
        match h.kind() {
            HirKind::Literal(l) => {
                for &b in l.0.iter() {
                    items.push(Item::Piece(Piece {
                        set: byte_set(b)?,
                        min: 1,
                        max: Some(1),
                    }));
                }
            }
            HirKind::Class(c) => items.push(Item::Piece(Piece {
                set: class_set(c)?,
                min: 1,
                max: Some(1),
            })),
            HirKind::Repetition(r) => {
                let mut inner = Vec::new();
                flatten(&r.sub, &mut inner);
                let single = match inner.as_slice() {
                    [one] => match one.kind() {
                        HirKind::Class(c) => Some(class_set(c)?),
                        HirKind::Literal(l) if l.0.len() == 1 => Some(byte_set(l.0[0])?),
                        _ => None,
                    },
                    _ => None,
                };
                if let Some(set) = single {
                    items.push(Item::Piece(Piece {
                        set,
                        min: r.min,
                        max: r.max,
                    }));
                } else if top {
                    let body = sequence(&inner, false)?;
                    let (first, nullable) = first_of(&body);
                    // A body that can match nothing would make the group's
                    // count ambiguous.
                    if nullable {
                        return None;
                    }
                    items.push(Item::Group {
                        body,
                        first,
                        min: r.min,
                        max: r.max,
                    });
                } else {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(items)
}

/// The bytes `items` may start with, and whether they may match nothing.
fn first_of(items: &[Item]) -> (Set, bool) {
    let mut first = Set::default();
    for item in items {
        let (set, nullable) = match item {
            // Literals and runs appear only after the checks.
            Item::Literal(_) | Item::Run(_) => (Set::default(), true),
            Item::Piece(p) => (p.set, p.min == 0),
            Item::Group { first, min, .. } => (*first, *min == 0),
        };
        first = first.union(set);
        if !nullable {
            return (first, false);
        }
    }
    (first, true)
}

/// `Some(())` when one greedy pass decides `items` exactly, given that
/// `after` is what may follow them.
fn deterministic(items: &[Item], after: Set) -> Option<()> {
    for (k, item) in items.iter().enumerate() {
        let (rest, nullable) = first_of(&items[k + 1..]);
        let follow = if nullable { rest.union(after) } else { rest };
        match item {
            // Literals and runs appear only after the checks.
            Item::Literal(_) | Item::Run(_) => return None,
            Item::Piece(p) => {
                if p.max != Some(p.min) && p.set.meets(follow) {
                    return None;
                }
            }
            Item::Group { body, first, .. } => {
                if first.meets(follow) {
                    return None;
                }
                // After the body: another round or what follows the group.
                deterministic(body, first.union(follow))?;
            }
        }
    }
    Some(())
}

/// Runs of single fixed bytes become one literal compare; other pieces
/// become [`Run`]s.
fn merge_literals(items: Vec<Item>) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    let mut lit: Vec<u8> = Vec::new();
    let flush = |lit: &mut Vec<u8>, out: &mut Vec<Item>| {
        if !lit.is_empty() {
            out.push(Item::Literal(Literal::of(std::mem::take(lit))));
        }
    };
    for item in items {
        match item {
            Item::Piece(p) if p.min == 1 && p.max == Some(1) && p.set.0.count_ones() == 1 => {
                lit.push(p.set.0.trailing_zeros() as u8);
            }
            Item::Group {
                body,
                first,
                min,
                max,
            } => {
                flush(&mut lit, &mut out);
                out.push(Item::Group {
                    body: merge_literals(body),
                    first,
                    min,
                    max,
                });
            }
            Item::Piece(p) => {
                flush(&mut lit, &mut out);
                out.push(Item::Run(Run::of(&p)));
            }
            other => {
                flush(&mut lit, &mut out);
                out.push(other);
            }
        }
    }
    flush(&mut lit, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn anchored(p: &str) -> String {
        format!("^(?:{p})$")
    }

    /// Patterns of the default policy and shapes around them.
    const SIMPLE: &[&str] = &[
        "chatcmpl-[0-9a-f]+(-[0-9a-f]+)*",
        "[A-Za-z0-9_.-]{1,64}",
        "[A-Za-z0-9_.+-]{1,64}",
        "[A-Za-z0-9_.:-]{1,128}",
        "[a-z0-9_+-]{1,32}",
        "^[A-Za-z0-9_.:-]{1,128}$",
        "^[a-z][a-z0-9_.-]{0,63}$",
        "^[a-z][a-z0-9_]{0,63}$",
        "^[a-z0-9_]{1,64}$",
        "^[A-Za-z0-9_.:/-]{1,128}$",
        "ab?c",
        "a(?:-b)*",
        "(?:ab){2,3}",
        "x(-y+){1,2}z",
        "",
        "a*b",
    ];

    /// Shapes a greedy pass would get wrong, or that reach beyond ASCII:
    /// they must stay with the regex.
    const NOT_SIMPLE: &[&str] = &[
        "a*a",
        "a?a",
        "[a-z]+[0-9a-z]",
        "(?:ab)?ab",
        "(?:ab)*a",
        "(?:a-)*a",
        "é+",
        ".+",
        "(?i)k",
        "a\\b",
        "(?m)^a$",
        "(?:a+)+",
        "a+(?:ab)*",
    ];

    /// Either way, as long as the answer agrees with the regex.
    const EITHER: &[&str] = &[
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|\\+00:00)$",
        "(a|b)c",
        "(?:a*)*",
        "[a-c]{2,4}x?",
        "chatcmpl-[0-9a-f]{8}",
    ];

    #[test]
    fn shapes_are_accepted_or_left_to_the_regex() {
        for p in SIMPLE {
            assert!(Simple::compile(&anchored(p), true).is_some(), "{p}");
        }
        for p in NOT_SIMPLE {
            assert!(Simple::compile(&anchored(p), true).is_none(), "{p}");
        }
        // Without the anchors the pattern would match inside a string.
        assert!(Simple::compile("[a-z]+", true).is_none());
    }

    #[test]
    fn request_id_pattern_examples() {
        let m = Simple::compile(&anchored("chatcmpl-[0-9a-f]+(-[0-9a-f]+)*"), false).unwrap();
        for ok in ["chatcmpl-9f2c41d0", "chatcmpl-a-b-c", "chatcmpl-0"] {
            assert!(m.matches(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "chatcmpl-",
            "chatcmpl--a",
            "chatcmpl-a-",
            "chatcmpl-a--b",
            "chatcmpl-A",
            "xchatcmpl-a",
            "chatcmpl-a\n",
            "chatcmpl-aé",
            "",
        ] {
            assert!(!m.matches(bad.as_bytes()), "{bad}");
        }
    }

    /// The invariant: an accepted pattern's matcher and its regex agree on
    /// every string (strings drawn mostly from the pattern's own alphabet).
    #[test]
    fn agrees_with_the_regex() {
        for (p, unicode) in SIMPLE
            .iter()
            .chain(NOT_SIMPLE)
            .chain(EITHER)
            .flat_map(|p| [(p, true), (p, false)])
        {
            let a = anchored(p);
            let Some(m) = Simple::compile(&a, unicode) else {
                continue;
            };
            let re = super::super::Pattern::compile(p, unicode).unwrap();
            let cfg = ProptestConfig {
                cases: 2000,
                ..ProptestConfig::default()
            };
            let alphabet = "chatmpl09afAZ_.:/+xyzbTZ\\-é\n ";
            let chars: Vec<char> = alphabet.chars().collect();
            proptest!(cfg, |(picks in proptest::collection::vec(0..chars.len(), 0..24), prefix in any::<bool>())| {
                let mut s: String = if prefix { "chatcmpl-".into() } else { String::new() };
                s.extend(picks.iter().map(|&i| chars[i]));
                prop_assert_eq!(m.matches(s.as_bytes()), re.is_match(&s), "{} on {:?}", p, s);
            });
            proptest!(|(s in "\\PC{0,20}")| {
                prop_assert_eq!(m.matches(s.as_bytes()), re.is_match(&s), "{} on {:?}", p, s);
            });
        }
    }
}
