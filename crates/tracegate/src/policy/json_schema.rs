//! A JSON Schema of the policy file, for editors' completion and checks
//! (taplo / Even Better TOML and others read JSON Schema for TOML).
//!
//! Generated from the key table ([`super::keys`]), so it has every key the
//! `Raw*` types accept and no other; `policies/policy.schema.json` is this
//! output, checked in, and a test keeps the two equal
//! (`tracegate policy schema` prints it).

use serde_json::{Map, Value, json};

use super::keys::{Check, REPLACE_DEFAULTS, Shape, TableShape};

/// The JSON Schema (draft 07) of a policy file, pretty-printed with a
/// final newline.
pub fn policy_schema() -> String {
    let mut defs = Map::new();
    let root = super::schema::root();
    let mut schema = table(root, &mut defs);
    if let Value::Object(o) = &mut schema {
        let mut head = Map::new();
        head.insert(
            "$schema".into(),
            json!("http://json-schema.org/draft-07/schema#"),
        );
        head.insert("$id".into(), json!("tracegate-policy.schema.json"));
        head.insert("title".into(), json!("tracegate policy"));
        head.insert(
            "description".into(),
            json!("One file of a tracegate policy (a file, or one of a folder's *.toml files). Every key is optional in a file; absent sections take the built-in defaults."),
        );
        head.append(o);
        head.insert("definitions".into(), Value::Object(defs));
        schema = Value::Object(head);
    }
    let mut out = serde_json::to_string_pretty(&schema).unwrap_or_default();
    out.push('\n');
    out
}

fn definition_name(t: TableShape) -> String {
    let name = t.type_name.strip_prefix("Raw").unwrap_or(t.type_name);
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A `$ref` to the table's definition, made on first use.
fn reference(t: TableShape, defs: &mut Map<String, Value>) -> Value {
    let name = definition_name(t);
    if !defs.contains_key(&name) {
        // Placeholder first: a table may contain itself (a field rule's `items`).
        defs.insert(name.clone(), Value::Null);
        let body = table(t, defs);
        defs.insert(name.clone(), body);
    }
    json!({ "$ref": format!("#/definitions/{name}") })
}

fn table(t: TableShape, defs: &mut Map<String, Value>) -> Value {
    let mut props = Map::new();
    for k in (t.keys)() {
        let mut v = shape(&(k.shape)(), defs);
        if let Value::Object(o) = &mut v {
            // The key's range, members and default, from its spec.
            match k.spec.check {
                Check::Int { min, max } => {
                    o.insert("minimum".into(), json!(min));
                    o.insert("maximum".into(), json!(max));
                }
                Check::OneOf(members) => {
                    o.insert("enum".into(), json!(members));
                }
                Check::Duration { .. } | Check::Any => {}
            }
            if let Some(d) = k.spec.default.json() {
                o.insert("default".into(), d);
            }
        }
        let doc = k.doc.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Value::Object(o) = &mut v
            && !doc.is_empty()
        {
            // A `$ref` with siblings is ignored by draft 07 readers: wrap it.
            if o.contains_key("$ref") {
                v = json!({ "allOf": [v], "description": doc });
            } else {
                o.insert("description".into(), json!(doc));
            }
        }
        props.insert(k.name.to_string(), v);
    }
    json!({
        "type": "object",
        "properties": props,
        "additionalProperties": false,
    })
}

fn shape(s: &Shape, defs: &mut Map<String, Value>) -> Value {
    match s {
        Shape::Str => json!({ "type": "string" }),
        Shape::Int => json!({ "type": "integer" }),
        Shape::Float => json!({ "type": "number" }),
        Shape::Bool => json!({ "type": "boolean" }),
        Shape::Time => json!({ "type": "string", "format": "date-time" }),
        Shape::BoolOrStrings => json!({
            "anyOf": [
                { "type": "boolean" },
                { "type": "array", "items": { "type": "string" } }
            ]
        }),
        Shape::IntOrInts => json!({
            "anyOf": [
                { "type": "integer" },
                { "type": "object", "additionalProperties": { "type": "integer" } }
            ]
        }),
        Shape::List(inner) => json!({ "type": "array", "items": shape(&inner(), defs) }),
        Shape::Table(t) => reference(*t, defs),
        Shape::Tables(t) => json!({ "type": "array", "items": reference(*t, defs) }),
        Shape::Allowlist(rule) => json!({
            "type": "object",
            "properties": {
                REPLACE_DEFAULTS: {
                    "type": "boolean",
                    "description": "true: this table replaces the built-in rules instead of extending them"
                }
            },
            "additionalProperties": shape(&rule(), defs),
        }),
        Shape::Rule(rule) => shape(&rule(), defs),
        Shape::Named(inner) => json!({
            "type": "object",
            "additionalProperties": shape(&inner(), defs),
        }),
        Shape::Map(rule) => json!({
            "type": "object",
            "additionalProperties": shape(&rule(), defs),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_is_closed_and_the_rule_is_recursive() {
        let s: Value = serde_json::from_str(&policy_schema()).unwrap();
        assert_eq!(s["additionalProperties"], json!(false));
        let field = &s["definitions"]["field"];
        assert_eq!(field["properties"]["type"]["type"], json!("string"));
        assert!(
            field["properties"]["items"]["allOf"][0]["$ref"]
                .as_str()
                .unwrap()
                .ends_with("/field")
        );
        assert_eq!(
            s["definitions"]["standard"]["properties"]["fields"]["properties"][REPLACE_DEFAULTS]["type"],
            json!("boolean")
        );
    }

    /// Ranges, members and defaults come from the key table.
    #[test]
    fn ranges_members_and_defaults_come_from_the_key_table() {
        let s: Value = serde_json::from_str(&policy_schema()).unwrap();
        let server = &s["definitions"]["server"]["properties"];
        assert_eq!(server["max_body_bytes"]["minimum"], json!(1));
        assert_eq!(server["max_body_bytes"]["maximum"], json!(1i64 << 30));
        assert_eq!(server["max_body_bytes"]["default"], json!(8i64 << 20));
        assert_eq!(server["idle_timeout"]["default"], json!("1m"));
        assert_eq!(server["listen"]["default"], json!("127.0.0.1:4318"));
        let standard = &s["definitions"]["standard"]["properties"];
        assert_eq!(
            standard["on_violation"]["enum"],
            json!(["drop_record", "drop_field"])
        );
        assert_eq!(standard["on_violation"]["default"], json!("drop_record"));
    }
}
