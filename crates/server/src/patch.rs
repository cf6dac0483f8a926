//! The view patches of the game socket: an RFC 6902 JSON Patch (only `add`, `remove` and
//! `replace`) that turns one view into the next. Views change a little per action (a unit's
//! hex, a marker), so the diff walks both values together: objects member by member, arrays of
//! equal length element by element, and anything else replaced whole. Cheaper than a general
//! diff (which looks for moved array elements) and as small for these views.

use serde_json::{Map, Value, json};
use std::borrow::Cow;

/// [`diff`] of two views held as JSON text, without building either whole: equal text is
/// skipped at once, and only the members and elements whose text differs are read further
/// (objects member by member, arrays of equal length element by element), down to the values
/// that changed. The same operations as [`diff`] of the parsed values.
///
/// The texts are cut into members and elements by a small scanner of their structure (one
/// pass over each level that differs, nothing allocated but the slices), not by parsing: the
/// scanner trusts that what it skips is well formed, as the engine's `view_text` writes it;
/// every value that changed is parsed, and text the scanner cannot read is parsed whole, so
/// malformed JSON is still an error wherever the two texts differ.
pub fn diff_text(from: &str, to: &str) -> Result<Vec<Value>, serde_json::Error> {
    let mut ops = Vec::new();
    let mut path = String::new();
    walk_text(from, to, &mut path, &mut ops)?;
    Ok(ops)
}

fn walk_text(
    x: &str,
    y: &str,
    path: &mut String,
    ops: &mut Vec<Value>,
) -> Result<(), serde_json::Error> {
    if x == y {
        return Ok(());
    }
    let (xt, yt) = (x.trim_start().as_bytes(), y.trim_start().as_bytes());
    match (xt.first(), yt.first()) {
        (Some(b'{'), Some(b'{')) => {
            if let (Some(a), Some(b)) = (members(x), members(y)) {
                let (a, b) = (keyed(a)?, keyed(b)?);
                for (k, v) in &a {
                    let len = path.len();
                    path.push('/');
                    escape(k, path);
                    match find(&b, k) {
                        Some(w) => walk_text(v, w, path, ops)?,
                        None => ops.push(json!({"op": "remove", "path": path.clone()})),
                    }
                    path.truncate(len);
                }
                for (k, w) in &b {
                    if find(&a, k).is_none() {
                        let len = path.len();
                        path.push('/');
                        escape(k, path);
                        let value: Value = serde_json::from_str(w)?;
                        ops.push(json!({"op": "add", "path": path.clone(), "value": value}));
                        path.truncate(len);
                    }
                }
                return Ok(());
            }
        }
        (Some(b'['), Some(b'[')) => {
            if let (Some(a), Some(b)) = (elements(x), elements(y)) {
                if a.len() == b.len() {
                    for (i, (v, w)) in a.iter().zip(&b).enumerate() {
                        let len = path.len();
                        path.push('/');
                        path.push_str(&i.to_string());
                        walk_text(v, w, path, ops)?;
                        path.truncate(len);
                    }
                    return Ok(());
                }
                if b.len() > a.len() && a.iter().zip(&b).all(|(v, w)| v == w) {
                    for w in &b[a.len()..] {
                        let value: Value = serde_json::from_str(w)?;
                        ops.push(json!({"op": "add", "path": format!("{path}/-"), "value": value}));
                    }
                    return Ok(());
                }
                // Elements written differently may still be equal values (members in
                // another order): the parsed values decide, below.
            }
        }
        _ => {}
    }
    walk(
        &serde_json::from_str(x)?,
        &serde_json::from_str(y)?,
        path,
        ops,
    );
    Ok(())
}

/// An object's members by name, in the order of names (as [`diff`] walks a `Map`); a name
/// written with escapes is read as JSON.
fn keyed<'a>(
    raw: Vec<(&'a str, &'a str)>,
) -> Result<Vec<(Cow<'a, str>, &'a str)>, serde_json::Error> {
    let mut out = Vec::with_capacity(raw.len());
    for (k, v) in raw {
        let name = if k.contains('\\') {
            Cow::Owned(serde_json::from_str::<String>(&format!("\"{k}\""))?)
        } else {
            Cow::Borrowed(k)
        };
        out.push((name, v));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    // A name given twice: the last one counts, as in a parsed `Map`.
    out.dedup_by(|later, earlier| {
        let same = later.0 == earlier.0;
        if same {
            earlier.1 = later.1;
        }
        same
    });
    Ok(out)
}

fn find<'a>(members: &[(Cow<'_, str>, &'a str)], key: &str) -> Option<&'a str> {
    members
        .binary_search_by(|(k, _)| k.as_ref().cmp(key))
        .ok()
        .map(|i| members[i].1)
}

fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// The end of the string opening at `i` (just past its closing quote).
fn string_end(s: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < s.len() {
        match s[j] {
            b'"' => return Some(j + 1),
            b'\\' => j += 2,
            _ => j += 1,
        }
    }
    None
}

/// The end of the value starting at `i` (strings and nesting followed, the rest not checked).
fn value_end(s: &[u8], i: usize) -> Option<usize> {
    match *s.get(i)? {
        b'"' => string_end(s, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while j < s.len() {
                match s[j] {
                    b'"' => {
                        j = string_end(s, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            let mut j = i;
            while j < s.len() && !matches!(s[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

/// The members of the object `text` as (name as written, value text), or `None` when the
/// scanner cannot read it.
fn members(text: &str) -> Option<Vec<(&str, &str)>> {
    let s = text.as_bytes();
    let mut i = skip_ws(s, 0);
    if s.get(i) != Some(&b'{') {
        return None;
    }
    let mut out = Vec::new();
    i = skip_ws(s, i + 1);
    if s.get(i) == Some(&b'}') {
        return (skip_ws(s, i + 1) == s.len()).then_some(out);
    }
    loop {
        if s.get(i) != Some(&b'"') {
            return None;
        }
        let k_end = string_end(s, i)?;
        let key = text.get(i + 1..k_end - 1)?;
        i = skip_ws(s, k_end);
        if s.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(s, i + 1);
        let v_end = value_end(s, i)?;
        out.push((key, text.get(i..v_end)?));
        i = skip_ws(s, v_end);
        match s.get(i) {
            Some(b',') => i = skip_ws(s, i + 1),
            Some(b'}') => return (skip_ws(s, i + 1) == s.len()).then_some(out),
            _ => return None,
        }
    }
}

/// The elements of the array `text`, or `None` when the scanner cannot read it.
fn elements(text: &str) -> Option<Vec<&str>> {
    let s = text.as_bytes();
    let mut i = skip_ws(s, 0);
    if s.get(i) != Some(&b'[') {
        return None;
    }
    let mut out = Vec::new();
    i = skip_ws(s, i + 1);
    if s.get(i) == Some(&b']') {
        return (skip_ws(s, i + 1) == s.len()).then_some(out);
    }
    loop {
        let v_end = value_end(s, i)?;
        out.push(text.get(i..v_end)?);
        i = skip_ws(s, v_end);
        match s.get(i) {
            Some(b',') => i = skip_ws(s, i + 1),
            Some(b']') => return (skip_ws(s, i + 1) == s.len()).then_some(out),
            _ => return None,
        }
    }
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

    /// A small random JSON value (objects, arrays, strings with escapes, numbers, literals).
    fn random_value(seed: &mut u64, depth: u32) -> serde_json::Value {
        fn below(seed: &mut u64, n: u64) -> u64 {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed % n
        }
        let pick = if depth == 0 {
            below(seed, 4)
        } else {
            below(seed, 6)
        };
        match pick {
            0 => json!(below(seed, 5) as i64 - 2),
            1 => json!(["a", "b\"q", "é\\", "x/y", "~"][below(seed, 5) as usize]),
            2 => [json!(null), json!(true), json!(false), json!(1.5)][below(seed, 4) as usize]
                .clone(),
            3 => json!(format!("s{}", below(seed, 3))),
            4 => {
                let n = below(seed, 4);
                json!(
                    (0..n)
                        .map(|_| random_value(seed, depth - 1))
                        .collect::<Vec<_>>()
                )
            }
            _ => {
                let n = below(seed, 4);
                let mut m = serde_json::Map::new();
                for _ in 0..n {
                    let k = ["a", "b", "c/d", "e~f", "q\"k"][below(seed, 5) as usize];
                    m.insert(k.to_string(), random_value(seed, depth - 1));
                }
                json!(m)
            }
        }
    }

    /// Changes a few places of `v` at random: what one action does to a view.
    fn mutate(v: &mut serde_json::Value, seed: &mut u64) {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        match v {
            serde_json::Value::Object(m) if !m.is_empty() && *seed % 3 != 0 => {
                let k = m
                    .keys()
                    .nth((*seed >> 33) as usize % m.len())
                    .unwrap()
                    .clone();
                mutate(m.get_mut(&k).unwrap(), seed);
            }
            serde_json::Value::Array(a) if !a.is_empty() && *seed % 3 != 0 => {
                let i = (*seed >> 33) as usize % a.len();
                mutate(&mut a[i], seed);
            }
            serde_json::Value::Array(a) if *seed % 2 == 0 => a.push(random_value(seed, 1)),
            _ => *v = random_value(seed, 2),
        }
    }

    #[test]
    fn the_text_diff_equals_the_value_diff_for_random_values_and_spellings() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for case in 0..3000 {
            let from = random_value(&mut seed, 4);
            let mut to = from.clone();
            for _ in 0..(case % 3 + 1) {
                mutate(&mut to, &mut seed);
            }
            let ops = diff(&from, &to);
            // Compact text (as views are written) and pretty text (spaces and new lines).
            for (a, b) in [
                (from.to_string(), to.to_string()),
                (serde_json::to_string_pretty(&from).unwrap(), to.to_string()),
            ] {
                let text = super::diff_text(&a, &b).unwrap();
                assert_eq!(text, ops, "case {case}: {a} → {b}");
            }
            assert_eq!(apply(from.clone(), &ops), to, "case {case}");
        }
    }

    #[test]
    fn the_text_diff_refuses_malformed_text_where_the_texts_differ() {
        for (a, b) in [
            ("{", "{}"),
            (r#"{"a":1}"#, r#"{"a":}"#),
            (r#"{"a":[1,2}"#, r#"{"a":[1,3]}"#),
            (r#"[1,2]"#, r#"[1,2"#),
            (r#"{"a":"x}"#, r#"{"a":"y"}"#),
            ("tru", "true"),
        ] {
            assert!(super::diff_text(a, b).is_err(), "{a} → {b}");
        }
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
