//! Malformed Bunker Hill positions are refused or played without a panic (issue 15): real
//! positions from random games in every scenario are mutated one field at a time (numbers to
//! edge values, flags flipped, strings changed, lists emptied, shortened and lengthened,
//! members removed and unknown ones added); each mutant must be refused by `load` with
//! `bad_position`, or, if accepted, survive `legal`, `act`, `undo`, `view`, `text`, `prompt`
//! and `position` (and save and load back identically), and play on into positions `load`
//! accepts (a mutant from which play reaches a refused position is drift, and there is none).
//! `BUNKER_MUTATION_POSITIONS` sets the positions mutated per scenario (default 2: about
//! 80,000 mutants, run it with `--release`).

use muster_core::{Dice, ErrorKind, Game, Options, Session, Side, Viewer};
use muster_revolution_road::Bunker;
use serde_json::{Value, json};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

fn positions_per_scenario() -> usize {
    std::env::var("BUNKER_MUTATION_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2)
}

/// Positions sampled along random games of a scenario.
fn sample(g: &Arc<Bunker>, scenario: &str, opts: &Options, k: usize) -> Vec<Value> {
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < k {
        let mut m = Session::new(g.clone(), scenario, opts, 900 + seed).unwrap();
        let mut pick = Dice::from_seed(seed);
        let mut acts = Vec::new();
        let mut n = 0u32;
        let every = 37 + seed as u32 % 11;
        while let Some(side) = g.to_act(m.state()) {
            if n % every == 0 && out.len() < k {
                out.push(m.position());
            }
            g.legal_actions(m.state(), &mut acts);
            let a = acts[pick.below(acts.len() as u32) as usize];
            m.act_parsed(side, a).unwrap();
            n += 1;
        }
        if out.len() < k {
            out.push(m.position());
        }
        seed += 1;
    }
    out
}

/// Every path to a value in the state, with the value.
fn leaves(v: &Value, path: &mut Vec<Value>, out: &mut Vec<(Vec<Value>, Value)>) {
    out.push((path.clone(), v.clone()));
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                path.push(json!(k));
                leaves(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(json!(i));
                leaves(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    let mut v = v;
    for p in path {
        v = match p {
            Value::String(k) => &mut v[k.as_str()],
            Value::Number(i) => &mut v[i.as_u64().unwrap() as usize],
            _ => unreachable!(),
        };
    }
    v
}

/// The mutants of one value.
fn mutants(v: &Value) -> Vec<Value> {
    let mut m = vec![Value::Null];
    match v {
        Value::Number(x) => {
            let x = x.as_i64().unwrap_or(0);
            for y in [
                0, 1, 2, 3, 5, 6, 10, 11, 24, 25, 59, 60, 61, 62, 63, 64, 65, 66, 79, 80, 99, 127,
                128, 254, 255, 256, -1, 65536,
            ] {
                if y != x {
                    m.push(json!(y));
                }
            }
            m.push(json!(x + 1));
            m.push(json!(x - 1));
            m.push(json!("1"));
        }
        Value::Bool(b) => {
            m.push(json!(!b));
            m.push(json!(0));
        }
        Value::String(s) => {
            m.push(json!(""));
            m.push(json!(format!("{s}x")));
            for t in [
                "main",
                "over",
                "assault",
                "volley",
                "hits",
                "standard",
                "solitaire-patriot",
                "militia",
                "leader",
                "battery",
                "select",
                "any",
            ] {
                if t != s {
                    m.push(json!(t));
                }
            }
        }
        Value::Array(a) => {
            m.push(json!([]));
            if !a.is_empty() {
                let mut b = a.clone();
                b.pop();
                m.push(Value::Array(b));
                let mut b = a.clone();
                b.push(a[0].clone());
                m.push(Value::Array(b));
                let mut b = a.clone();
                b.reverse();
                m.push(Value::Array(b));
            }
            m.push(json!([0]));
            m.push(json!([99]));
        }
        Value::Object(o) => {
            m.push(json!({}));
            let mut p = o.clone();
            p.insert("zz_unknown".into(), json!(1));
            m.push(Value::Object(p));
            for k in o.keys() {
                let mut p = o.clone();
                p.remove(k);
                m.push(Value::Object(p));
            }
        }
        Value::Null => m = vec![json!(0), json!({})],
    }
    m
}

#[derive(Default, Debug)]
struct Counts {
    mutants: u64,
    refused: u64,
    accepted: u64,
    actions: u64,
    /// Accepted mutants from which play reached a position `load` refuses.
    drift: u64,
    drift_examples: Vec<String>,
}

/// Loads one mutant and, if it is accepted, plays on from it.
fn exercise(g: &Arc<Bunker>, pos: &Value, c: &mut Counts, seed: u64, what: &dyn Fn() -> String) {
    c.mutants += 1;
    let m = match Session::load(g.clone(), pos) {
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::BadPosition);
            c.refused += 1;
            return;
        }
        Ok(m) => m,
    };
    c.accepted += 1;
    let mut m = m;
    let mut pick = Dice::from_seed(seed);
    let mut acts = Vec::new();
    for _ in 0..6 {
        let p = m.position();
        assert!(!p["state"].is_null(), "an accepted position saves");
        match Session::load(g.clone(), &p) {
            Ok(back) => assert_eq!(back.state(), m.state()),
            Err(e) => {
                // Played on from an accepted hand-made position, the rules reached a
                // position the invariants refuse (not a crash; counted and reported).
                c.drift += 1;
                if c.drift_examples.len() < 40 {
                    c.drift_examples.push(format!("{}: {}", what(), e.message));
                }
                return;
            }
        }
        for v in [
            Viewer::Spectator,
            Viewer::Side(0 as Side),
            Viewer::Side(1 as Side),
        ] {
            let _ = serde_json::to_string(&g.view(m.state(), v)).unwrap();
            let _ = g.render_text(m.state(), v);
        }
        let _ = g.prompt(m.state());
        let _ = g.outcome(m.state());
        let Some(side) = g.to_act(m.state()) else {
            assert!(
                g.outcome(m.state()).is_some(),
                "no side to act means an outcome"
            );
            break;
        };
        g.legal_actions(m.state(), &mut acts);
        assert!(
            !acts.is_empty(),
            "a live accepted position has a legal action"
        );
        for a in &acts {
            let _ = g.label(m.state(), *a);
            let t = g.notation(m.state(), *a);
            assert_eq!(g.parse_action(m.state(), &t).unwrap(), *a);
        }
        let a = acts[pick.below(acts.len() as u32) as usize];
        m.act_parsed(side, a).unwrap();
        c.actions += 1;
        if pick.below(3) == 0 && m.can_undo(side) {
            m.undo(Some(side)).unwrap();
            m.act_parsed(side, a).unwrap();
        }
    }
}

#[test]
fn mutated_positions_are_refused_or_played_without_panic() {
    let g = Arc::new(Bunker::new().unwrap());
    let mut all = Options::new();
    for k in ["strong-works", "more-ammo", "any-zone", "solo-rally"] {
        all.insert(k.into(), "on".into());
    }
    let mut c = Counts::default();
    let mut panics = Vec::new();
    for (scenario, opts) in [
        ("standard", Options::new()),
        ("standard", all),
        ("solitaire-british", Options::new()),
        ("solitaire-patriot", Options::new()),
    ] {
        for (k, pos) in sample(&g, scenario, &opts, positions_per_scenario())
            .into_iter()
            .enumerate()
        {
            let mut ls = Vec::new();
            leaves(&pos["state"], &mut vec![], &mut ls);
            for (path, v) in ls {
                // The dice key is opaque; one mutant of it is enough.
                let dice = path.first() == Some(&json!("dice"));
                let ms = mutants(&v);
                for (i, mv) in ms.iter().enumerate() {
                    if dice && i > 2 {
                        break;
                    }
                    let mut p = pos.clone();
                    let state = &mut p["state"];
                    if path.is_empty() {
                        *state = mv.clone();
                    } else {
                        *at(state, &path) = mv.clone();
                    }
                    let what = || {
                        format!(
                            "{scenario} #{k}: state{} = {mv}",
                            path.iter().map(|p| format!("[{p}]")).collect::<String>()
                        )
                    };
                    let r = catch_unwind(AssertUnwindSafe(|| {
                        exercise(&g, &p, &mut c, k as u64 + i as u64, &what)
                    }));
                    if r.is_err() {
                        panics.push(what());
                    }
                }
            }
        }
    }
    println!("{c:?}, {} panics", panics.len());
    for d in &c.drift_examples {
        println!("drift: {d}");
    }
    assert!(
        panics.is_empty(),
        "{} mutants panicked, e.g.:\n{}",
        panics.len(),
        panics[..panics.len().min(30)].join("\n")
    );
    // Every accepted mutant plays on into positions `load` accepts (issue 15: the checks of
    // the step against the board, `bunker/validate.rs`, refuse the ones that drifted).
    assert_eq!(
        c.drift,
        0,
        "accepted mutants drifted into refused positions:\n{}",
        c.drift_examples.join("\n")
    );
}

/// The reviewer's cases of issue 15, each refused with `bad_position` naming the path.
#[test]
fn the_reviewers_invalid_positions_are_refused() {
    let g = Arc::new(Bunker::new().unwrap());
    let base = sample(&g, "standard", &Options::new(), 3).remove(1);
    let st = base["state"].clone();
    let units = st["units"].as_array().unwrap().clone();
    let region = |id: &str| g.region_of(id).unwrap();
    let mut cases: Vec<(&str, Value, &str)> = Vec::new();
    let mut s = st.clone();
    s["units"] = json!([]);
    cases.push(("no units", s, "state.units"));
    // Seven Patriot units (minutemen and militia) in the Redoubt.
    let mut s = st.clone();
    let mut k = 0;
    for (i, u) in units.iter().enumerate() {
        if u["side"] == 0 && matches!(u["kind"].as_str(), Some("minuteman")) && k < 7 {
            s["units"][i]["at"] = json!(region("redoubt"));
            k += 1;
        }
    }
    assert_eq!(k, 7);
    cases.push(("seven Patriot units in a region", s, "state.units"));
    // A British Regular in a Patriot region, nothing in progress.
    let mut s = st.clone();
    let p = units
        .iter()
        .position(|u| u["side"] == 0 && u["kind"] == "minuteman")
        .unwrap();
    let b = units
        .iter()
        .position(|u| u["side"] == 1 && u["kind"] == "regular")
        .unwrap();
    s["units"][p]["at"] = json!(region("redoubt"));
    s["units"][b]["at"] = json!(region("redoubt"));
    s["tasks"] = json!([]);
    s["phase"] = json!({"phase": "main"});
    cases.push(("enemies sharing a region", s, "state.units"));
    let mut s = st.clone();
    s["deck"]["draw"] = json!([99]);
    cases.push(("card 99", s, "state.deck"));
    let mut s = st.clone();
    s["deck"]["draw"] = json!([]);
    s["deck"]["discard"] = json!([]);
    cases.push(("an empty deck", s, "state.deck"));
    let mut s = st.clone();
    s["phase"] = json!({"phase": "over"});
    s["ended"] = Value::Null;
    cases.push(("over without ended", s, "state.phase"));
    let mut s = st.clone();
    s["phase"] = json!({"phase": "main", "extra": 1});
    cases.push(("an unknown member in phase", s, "state.phase"));
    let mut s = st.clone();
    s["phase"] = json!({"phase": "volley", "from": 1, "to": 2, "free": false, "x": 0});
    cases.push(("an unknown member in a volley phase", s, "state.phase"));
    let mut s = st.clone();
    s["tasks"] = json!([{"task": "next-turn", "unit": 3}]);
    cases.push(("an unknown member in a task", s, "state.tasks"));
    let mut s = st.clone();
    s["fight"]["zz"] = json!(0);
    cases.push(("an unknown member in fight", s, "state.fight"));
    let mut s = st.clone();
    s["units"][0]["zz"] = json!(0);
    cases.push(("an unknown member in a unit", s, "state.units"));
    let mut s = st.clone();
    s["sel"] = json!([200]);
    cases.push(("a selected counter out of range", s, "state.sel"));
    let mut s = st.clone();
    s["sel"] = json!([77]);
    cases.push(("a selected counter past the roster", s, "state.sel"));
    for (what, s, path) in cases {
        let mut p = base.clone();
        p["state"] = s;
        let e = match Session::load(g.clone(), &p) {
            Ok(_) => panic!("{what}: accepted"),
            Err(e) => e,
        };
        assert_eq!(e.kind, ErrorKind::BadPosition, "{what}");
        assert!(
            e.message.starts_with(path),
            "{what}: the message names {path}: {}",
            e.message
        );
        println!("{what}: {}", e.message);
    }
}
