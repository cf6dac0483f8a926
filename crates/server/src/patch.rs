//! The view patches of the game socket: an RFC 6902 JSON Patch (only `add`, `remove` and
//! `replace`) that turns one view into the next. Views change a little per action (a unit's
//! hex, a marker), so the diff walks both values together: objects member by member, arrays of
//! equal length element by element, and anything else replaced whole. Cheaper than a general
//! diff (which looks for moved array elements) and as small for these views.

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// [`diff`] of two views held as JSON text, without building either whole: equal text is
/// skipped at once, and only the members and elements whose text differs are read further
/// (objects member by member, arrays of equal length element by element), down to the values
/// that changed. The same operations as [`diff`] of the parsed values.
pub fn diff_text(from: &str, to: &str) -> Result<Vec<Value>, serde_json::Error> {
    let mut ops = Vec::new();
    let mut path = String::new();
    let (a, b): (&RawValue, &RawValue) = (serde_json::from_str(from)?, serde_json::from_str(to)?);
    walk_raw(a, b, &mut path, &mut ops)?;
    Ok(ops)
}

fn walk_raw(
    from: &RawValue,
    to: &RawValue,
    path: &mut String,
    ops: &mut Vec<Value>,
) -> Result<(), serde_json::Error> {
    let (x, y) = (from.get(), to.get());
    if x == y {
        return Ok(());
    }
    match (x.as_bytes().first(), y.as_bytes().first()) {
        (Some(b'{'), Some(b'{')) => {
            let a: BTreeMap<Cow<str>, &RawValue> = serde_json::from_str(x)?;
            let b: BTreeMap<Cow<str>, &RawValue> = serde_json::from_str(y)?;
            for (k, v) in &a {
                let len = path.len();
                path.push('/');
                escape(k, path);
                match b.get(k) {
                    Some(w) => walk_raw(v, w, path, ops)?,
                    None => ops.push(json!({"op": "remove", "path": path.clone()})),
                }
                path.truncate(len);
            }
            for (k, w) in &b {
                if !a.contains_key(k) {
                    let len = path.len();
                    path.push('/');
                    escape(k, path);
                    let value: Value = serde_json::from_str(w.get())?;
                    ops.push(json!({"op": "add", "path": path.clone(), "value": value}));
                    path.truncate(len);
                }
            }
        }
        (Some(b'['), Some(b'[')) => {
            let a: Vec<&RawValue> = serde_json::from_str(x)?;
            let b: Vec<&RawValue> = serde_json::from_str(y)?;
            if a.len() == b.len() {
                for (i, (v, w)) in a.iter().zip(&b).enumerate() {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&i.to_string());
                    walk_raw(v, w, path, ops)?;
                    path.truncate(len);
                }
            } else if b.len() > a.len() && a.iter().zip(&b).all(|(v, w)| v.get() == w.get()) {
                for w in &b[a.len()..] {
                    let value: Value = serde_json::from_str(w.get())?;
                    ops.push(json!({"op": "add", "path": format!("{path}/-"), "value": value}));
                }
            } else {
                // Elements written differently may still be equal values (members in
                // another order): the parsed values decide.
                walk(
                    &serde_json::from_str(x)?,
                    &serde_json::from_str(y)?,
                    path,
                    ops,
                );
            }
        }
        _ => walk(
            &serde_json::from_str(x)?,
            &serde_json::from_str(y)?,
            path,
            ops,
        ),
    }
    Ok(())
}

/// The operations that turn `from` into `to` (empty when they are equal).
pub fn diff(from: &Value, to: &Value) -> Vec<Value> {
    let mut ops = Vec::new();
    let mut path = String::new();
    walk(from, to, &mut path, &mut ops);
    ops
}

fn walk(from: &Value, to: &Value, path: &mut String, ops: &mut Vec<Value>) {
    match (from, to) {
        (Value::Object(a), Value::Object(b)) => objects(a, b, path, ops),
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                if x == y {
                    continue;
                }
                let len = path.len();
                path.push('/');
                path.push_str(&i.to_string());
                walk(x, y, path, ops);
                path.truncate(len);
            }
        }
        (Value::Array(a), Value::Array(b)) if b.len() > a.len() && b[..a.len()] == a[..] => {
            for v in &b[a.len()..] {
                ops.push(json!({"op": "add", "path": format!("{path}/-"), "value": v}));
            }
        }
        _ if from == to => {}
        _ => ops.push(json!({"op": "replace", "path": path.clone(), "value": to})),
    }
}

fn objects(
    a: &Map<String, Value>,
    b: &Map<String, Value>,
    path: &mut String,
    ops: &mut Vec<Value>,
) {
    for (k, x) in a {
        let y = b.get(k);
        if y == Some(x) {
            continue;
        }
        let len = path.len();
        path.push('/');
        escape(k, path);
        match y {
            Some(y) => walk(x, y, path, ops),
            None => ops.push(json!({"op": "remove", "path": path.clone()})),
        }
        path.truncate(len);
    }
    for (k, y) in b {
        if !a.contains_key(k) {
            let len = path.len();
            path.push('/');
            escape(k, path);
            ops.push(json!({"op": "add", "path": path.clone(), "value": y}));
            path.truncate(len);
        }
    }
}

/// A member name in a JSON Pointer: `~` is `~0`, `/` is `~1`.
fn escape(key: &str, path: &mut String) {
    for c in key.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::diff;
    use serde_json::json;

    /// Applies `ops` with an independent implementation of RFC 6902.
    fn apply(mut doc: serde_json::Value, ops: &[serde_json::Value]) -> serde_json::Value {
        let patch: json_patch::Patch = serde_json::from_value(json!(ops)).unwrap();
        json_patch::patch(&mut doc, &patch).unwrap();
        doc
    }

    #[test]
    fn a_patch_turns_the_old_view_into_the_new_one() {
        let cases = [
            (
                json!({"a": 1, "b": [1, 2, 3]}),
                json!({"a": 2, "b": [1, 5, 3]}),
            ),
            (json!({"a": 1}), json!({"b": {"c": null}})),
            (
                json!({"u": [{"at": "D6"}, {"at": "E7"}]}),
                json!({"u": [{"at": "D6", "moved": true}, {"at": "E8"}]}),
            ),
            (json!({"l": [1, 2]}), json!({"l": [1, 2, 3, 4]})),
            (json!({"l": [1, 2, 3]}), json!({"l": [3]})),
            (json!({"a/b": 1, "c~d": 2}), json!({"a/b": 3})),
            (json!([1, {"x": 1}]), json!({"now": "an object"})),
            (json!({"same": [1, 2]}), json!({"same": [1, 2]})),
        ];
        for (from, to) in cases {
            let ops = diff(&from, &to);
            assert_eq!(apply(from.clone(), &ops), to, "{from} → {to}: {ops:?}");
            let text = super::diff_text(&from.to_string(), &to.to_string()).unwrap();
            assert_eq!(text, ops, "the text diff of {from} → {to}");
        }
        assert!(diff(&json!({"a": [1]}), &json!({"a": [1]})).is_empty());
    }

    #[test]
    fn the_text_diff_reads_values_not_spelling() {
        // The same object written with its members in another order, and escaped keys.
        let from = r#"{"u":[{"a":1,"b":2},{"c":[1,2]}],"k\/x":1,"s":"\u00e9"}"#;
        let to = r#"{"s":"é","k\/x":2,"u":[{"b":2,"a":1},{"c":[1,2,3]}]}"#;
        let ops = super::diff_text(from, to).unwrap();
        let (a, b): (serde_json::Value, serde_json::Value) = (
            serde_json::from_str(from).unwrap(),
            serde_json::from_str(to).unwrap(),
        );
        assert_eq!(ops, diff(&a, &b));
        assert_eq!(apply(a, &ops), b);
        assert!(super::diff_text("[1, 2]", "[1,2]").unwrap().is_empty());
        assert!(super::diff_text("{", "{}").is_err());
    }

    #[test]
    fn a_one_field_change_is_one_small_operation() {
        let from = json!({"units": [{"at": "D6"}, {"at": "E7"}, {"at": "F2"}], "turn": 3});
        let to = json!({"units": [{"at": "D6"}, {"at": "E8"}, {"at": "F2"}], "turn": 3});
        assert_eq!(
            diff(&from, &to),
            vec![json!({"op": "replace", "path": "/units/1/at", "value": "E8"})]
        );
    }
}
