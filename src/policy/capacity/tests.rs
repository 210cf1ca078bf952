use std::path::Path;

use super::*;

fn policy(toml: &str) -> Policy {
    Policy::from_toml(Path::new("p.toml"), toml).unwrap()
}

fn part<'a>(b: &'a Bound, path: &str) -> &'a Part {
    b.parts
        .iter()
        .find(|p| p.path == path)
        .unwrap_or_else(|| panic!("no part {path}: {:#?}", b.parts))
}

fn close(a: f64, exact: f64) {
    assert!(a >= exact, "{a} below {exact}");
    assert!(a - exact < 1e-4, "{a} far above {exact}");
}

/// Tiny cf allowlists whose counts are known by hand.
#[test]
fn tiny_cf_policies_count_exactly() {
    let p = policy(
        r#"
[standard.fields]
replace_defaults = true
a = { type = "string", one_of = ["w", "x", "y", "z"], required = true }
b = { type = "string", pattern = "[ab]{1,3}", required = true }
c = { type = "integer", min = 1, max = 8, required = true }
d = { type = "boolean" }
e = { type = "string", one_of = ["only"], nullable = true }
"#,
    );
    let cap = Capacity::of(&p);
    let cf = &cap.policy[0];
    assert_eq!(cf.format, RecordFormat::Cf);
    close(part(cf, "a").bits, 2.0);
    close(part(cf, "b").bits, 14f64.log2());
    close(part(cf, "c").bits, 3.0);
    // Absent, true or false.
    close(part(cf, "d").bits, 3f64.log2());
    // Absent, null or "only".
    close(part(cf, "e").bits, 3f64.log2());
    close(part(cf, "key order").bits, 120f64.log2());
    close(part(cf, "line").bits, 1.0);
    let sum: f64 = cf.parts.iter().map(|p| p.bits).sum();
    assert_eq!(cf.bits, sum);
}

/// `-0` is a second spelling of zero for an integer.
#[test]
fn integers_count_minus_zero() {
    let p = policy(
        r#"
[standard.fields]
replace_defaults = true
n = { type = "integer", min = 0, max = 2, required = true }
"#,
    );
    close(part(&Capacity::of(&p).policy[0], "n").bits, 4f64.log2());
}

#[test]
fn an_unbounded_rule_says_why() {
    let p = policy(
        r#"
[standard.fields]
replace_defaults = true
note = { type = "string", pattern = "[a-z ]+" }
"#,
    );
    let cf = &Capacity::of(&p).policy[0];
    assert!(!cf.is_bounded());
    let u: Vec<&Part> = cf.unbounded().collect();
    assert_eq!(u.len(), 1);
    assert!(u[0].derivation.contains("no max_len"), "{}", u[0].derivation);
    assert!(u[0].derivation.contains("`note`"), "{}", u[0].derivation);
}

#[test]
fn the_default_policy_is_bounded_in_every_format() {
    let p = policy("");
    let cap = Capacity::of(&p);
    for b in &cap.policy {
        assert!(b.is_bounded(), "{:?}: {:#?}", b.format, b.unbounded().collect::<Vec<_>>());
        eprintln!("{}: {:.1} bits", b.format.as_str(), b.bits);
        for t in b.top(5) {
            eprintln!("  {:>9.1}  {}  {}", t.bits, t.path, t.derivation);
        }
    }
}

#[test]
fn zz_timing() {
    let p = policy("");
    let t = std::time::Instant::now();
    for (name, rule) in p.standard.otlp.span_attributes.iter().chain(p.standard.otlp.resource_attributes.iter()).chain(p.standard.evidence.iter()) {
        if let Some(pat) = &rule.pattern {
            let t1 = std::time::Instant::now();
            let c = count::count(pat.as_str(), false, rule.max_len, rule.segments.as_ref(), count::Mode::Strings);
            eprintln!("{name}: {:?} {:?}", t1.elapsed(), c.map(|c| c.log2));
        }
    }
    let s = &p.standard.otlp.structure;
    for (name, rule) in [("span_name", &s.span_name), ("scope_name", &s.scope_name), ("scope_version", &s.scope_version)] {
        let pat = rule.pattern.as_ref().unwrap();
        let t1 = std::time::Instant::now();
        let c = count::count(pat.as_str(), false, rule.max_len, rule.segments.as_ref(), count::Mode::Strings);
        eprintln!("{name}: {:?} {:?}", t1.elapsed(), c.map(|c| c.log2));
    }
    let t1 = std::time::Instant::now();
    let _ = count::count(&count::number_pattern(false), false, Some(25), None, count::Mode::Strings);
    eprintln!("number: {:?}", t1.elapsed());
    let t1 = std::time::Instant::now();
    let _ = Capacity::of(&p);
    eprintln!("all: {:?} / {:?}", t1.elapsed(), t.elapsed());
}
