//! The view patches of the game socket: an RFC 6902 JSON Patch (only `add`, `remove` and
//! `replace`) that turns one view into the next. Views change a little per action (a unit's
//! hex, a marker), so the diff walks both values together: objects member by member, arrays of
//! equal length element by element, and anything else replaced whole. Cheaper than a general
//! diff (which looks for moved array elements) and as small for these views.

use serde_json::{Map, Value, json};

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
        }
        assert!(diff(&json!({"a": [1]}), &json!({"a": [1]})).is_empty());
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
