//! The browser board (`board()`, `web/concord.js`): every region and box has a drawing that
//! agrees with the borders, what the renderer receives (the static board and the viewer's view)
//! never holds what that viewer may not know (4.1 hidden militia, 6.14 peeks, the deck order,
//! the dice), and every legal action that names a region, a piece or a marker can be drawn as
//! a target on the map.

mod common;
use common::*;
use muster_core::{Dice, Game, Options, Viewer};
use muster_revolution_road::Concord;
use muster_revolution_road::concord::data::Shape;
use muster_revolution_road::concord::state::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

const SCENARIOS: [&str; 3] = ["standard", "solitaire-british", "solitaire-patriot"];

/// Random games of every scenario, calling `check` on every `every`-th position.
fn positions(seeds: u64, every: usize, mut check: impl FnMut(&Concord, &State, &str, u64)) {
    let g = game();
    for scen in SCENARIOS {
        for seed in 0..seeds {
            let mut s = g.new_game(scen, &Options::new(), seed).unwrap();
            let mut pick = Dice::from_seed(seed ^ 0xb0a7d);
            let mut actions = Vec::new();
            let mut n = 0usize;
            while let Some(side) = g.to_act(&s) {
                if n % every == 0 {
                    check(&g, &s, scen, seed);
                }
                g.legal_actions(&s, &mut actions);
                let a = actions[pick.below(actions.len() as u32) as usize];
                g.apply(&mut s, side, a).unwrap();
                n += 1;
                assert!(n < 20_000, "{scen} seed {seed}: the game does not end");
            }
            check(&g, &s, scen, seed);
        }
    }
}

#[test]
fn rule_3_0_every_region_and_box_has_geometry_that_agrees_with_the_borders() {
    let g = game();
    let map = &g.data.map;
    for scen in SCENARIOS {
        let b = g.board(scen);
        let regions = b["regions"].as_array().expect("regions");
        assert_eq!(
            regions.len(),
            map.regions.len(),
            "{scen}: one entry per region"
        );
        for (i, r) in regions.iter().enumerate() {
            let id = r["id"].as_str().unwrap();
            assert_eq!(id, map.regions[i].id, "regions in map order");
            if map.regions[i].alert_box {
                let bx = r["box"].as_array().unwrap_or_else(|| panic!("{id}: a box"));
                assert!(bx[2].as_i64().unwrap() > 0 && bx[3].as_i64().unwrap() > 0);
            } else {
                let shape = r["shape"]
                    .as_array()
                    .unwrap_or_else(|| panic!("{id}: an outline"));
                assert!(shape.len() >= 3, "{id}: at least 3 corners");
                let at = &r["at"];
                assert!(at.is_array(), "{id}: an anchor");
            }
        }
        // Every border is a side the two outlines share, or a drawn link.
        let mut drawn = BTreeSet::new();
        for s in b["sides"].as_array().unwrap() {
            if s["adjacent"].as_bool().unwrap() {
                drawn.insert((s["a"].as_u64().unwrap(), s["b"].as_u64().unwrap()));
            }
        }
        for l in b["links"].as_array().unwrap() {
            drawn.insert((l["a"].as_u64().unwrap(), l["b"].as_u64().unwrap()));
        }
        let on_map = map.regions.iter().filter(|r| !r.alert_box).count();
        for a in 0..on_map as u8 {
            for c in a + 1..on_map as u8 {
                assert_eq!(
                    map.adjacent(a, c),
                    drawn.contains(&(a as u64, c as u64)),
                    "{scen}: {} and {}: the drawing and the borders disagree",
                    map.id(a),
                    map.id(c)
                );
            }
        }
        // Every road crosses a drawn side; dark water is crossed only by roads (3.0).
        for s in b["sides"].as_array().unwrap() {
            if s["water"] == "dark" && s["adjacent"] == true {
                assert_eq!(s["road"], true, "dark water borders carry a road");
            }
        }
        assert_eq!(
            b["riders"].as_array().unwrap().len(),
            3,
            "three Nightrider boxes (6.12)"
        );
    }
    // Anchors lie inside their outlines (the loader checks it; here on the checked data).
    for (i, shape) in map.geometry.shapes.iter().enumerate() {
        if let Shape::Area { at, outline } = shape {
            let (x, y) = (at[0] as f64, at[1] as f64);
            let mut inside = false;
            for k in 0..outline.len() {
                let (p, q) = (outline[k], outline[(k + 1) % outline.len()]);
                let (x1, y1, x2, y2) = (p[0] as f64, p[1] as f64, q[0] as f64, q[1] as f64);
                if (y1 > y) != (y2 > y) && x < x1 + (y - y1) * (x2 - x1) / (y2 - y1) {
                    inside = !inside;
                }
            }
            assert!(inside, "{}: the anchor is inside", map.regions[i].id);
        }
    }
    assert!(g.board("no-such-scenario").is_null());
}

#[test]
fn broken_geometry_gets_clear_errors() {
    let builtin = muster_revolution_road::concord::data::DATA_FILES;
    let map = builtin.iter().find(|(f, _)| *f == "map.toml").unwrap().1;
    let load = |text: String| {
        let files: Vec<(String, &str, String)> = builtin
            .iter()
            .map(|(f, t)| {
                let t = if *f == "map.toml" {
                    text.clone()
                } else {
                    t.to_string()
                };
                (format!("test {f}"), *f, t)
            })
            .collect();
        Concord::from_files(&files).err().unwrap_or_default()
    };
    let line = |id: &str| {
        map.lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap()
            .to_string()
    };
    let cases: Vec<(String, &str)> = vec![
        // A region without a shape.
        (map.replace(&line("concord"), ""), "\"concord\": missing"),
        // A shape for a region that does not exist.
        (
            map.replace(
                &line("concord"),
                &format!(
                    "{}\nconcorde = {{ at = [1, 1], shape = [[0, 0], [2, 0], [0, 2]] }}",
                    line("concord")
                ),
            ),
            "\"concorde\": no region",
        ),
        // An anchor outside the outline.
        (
            map.replace(
                &line("concord"),
                &line("concord").replacen("at = [", "at = [9", 1),
            ),
            "outside its outline",
        ),
        // Lincoln moved away from Concord: their border has no common side.
        (
            map.replace(
                &line("lincoln"),
                &line("lincoln")
                    .replace("at = [", "at = [1")
                    .replace("shape = [[", "shape = [[1")
                    .replace("], [", "], [1"),
            ),
            "share no side",
        ),
        // No geometry at all.
        (
            map[..map.find("\n[geometry]").unwrap()].to_string(),
            "no [geometry] table",
        ),
        // A coordinate far out of range.
        (
            map.replace("frame = [1000, 660]", "frame = [2147483647, 660]"),
            "coordinates must lie between",
        ),
        // A water label without text.
        (
            map.replace("text = \"Back Bay\"", "text = \" \""),
            "has no text",
        ),
        // A link that is not a border.
        (
            map.replace(
                "links = [[\"cambridge\", \"prospect-hill\"]]",
                "links = [[\"cambridge\", \"prospect-hill\"], [\"boston\", \"concord\"]]",
            ),
            "not a border",
        ),
    ];
    for (text, needle) in cases {
        assert_ne!(text, map, "the edit for {needle:?} must change the file");
        let err = load(text);
        assert!(
            err.contains(needle) && err.contains("map.toml"),
            "expected an error naming map.toml and {needle:?}, got {err:?}"
        );
    }
}

/// What the renderer of `viewer` receives: the static board and the view.
fn payload(g: &Concord, s: &State, viewer: Viewer) -> Value {
    serde_json::json!({
        "board": g.board(s.mode.id()),
        "view": serde_json::to_value(g.view(s, viewer)).unwrap(),
    })
}

#[test]
fn rule_4_1_and_6_14_the_board_never_shows_what_the_viewer_may_not_know() {
    let mut checked = 0;
    let mut hidden_seen = 0;
    let mut peeks_seen = 0;
    positions(10, 5, |g, s, scen, seed| {
        // The static board depends on the scenario only.
        assert_eq!(g.board(scen), g.board(s.mode.id()));
        for viewer in [
            Viewer::Side(PATRIOT),
            Viewer::Side(BRITISH),
            Viewer::Spectator,
        ] {
            let p = payload(g, s, viewer);
            let text = p.to_string();
            assert!(
                !text.contains("\"deck\"")
                    && !text.contains("\"dice\"")
                    && !text.contains("\"key\""),
                "{scen} {seed}: no deck order or dice"
            );
            // Hidden-value militia show no strength: a hidden marker carries value 0, and the
            // value of every militia piece on the board is one the rules have revealed.
            for (i, u) in p["view"]["units"].as_array().unwrap().iter().enumerate() {
                if u["kind"] == "hidden" {
                    hidden_seen += 1;
                    assert_eq!(
                        u["value"], 0,
                        "{scen} {seed}: a hidden marker shows no value"
                    );
                    assert_eq!(s.units[i].kind, Kind::Hidden);
                }
            }
            // Only the viewer's own peek, never the other side's (6.14).
            let seen: Vec<u8> = serde_json::from_value(p["view"]["seen"].clone()).unwrap();
            match viewer {
                Viewer::Side(x) => {
                    assert_eq!(seen, s.deck.seen_by(x).to_vec());
                    if !s.deck.seen_by(1 - x).is_empty() {
                        peeks_seen += 1;
                    }
                }
                Viewer::Spectator => assert!(seen.is_empty()),
            }
        }
        // Two positions that differ only in what a side cannot know draw the same board.
        for viewer in [PATRIOT, BRITISH] {
            let mut other = s.clone();
            let mut rng = rand_chacha_rng(seed * 7919 + checked as u64);
            g.determinize(&mut other, viewer, &mut rng);
            assert_eq!(
                payload(g, s, Viewer::Side(viewer)),
                payload(g, &other, Viewer::Side(viewer)),
                "{scen} {seed}: the board of side {viewer} depends only on what it knows"
            );
        }
        checked += 1;
    });
    assert!(checked > 300, "enough positions: {checked}");
    assert!(
        hidden_seen > 100,
        "hidden militia were on the board: {hidden_seen}"
    );
    assert!(peeks_seen > 0, "some positions had a peek: {peeks_seen}");
}

#[test]
fn every_legal_action_that_names_a_place_or_piece_has_a_target_on_the_map() {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    positions(10, 1, |g, s, scen, seed| {
        let Some(side) = g.to_act(s) else {
            return;
        };
        let p = payload(g, s, Viewer::Side(side));
        let board = &p["board"];
        let view = &p["view"];
        let regions = board["regions"].as_array().unwrap();
        let region = |id: &str| regions.iter().position(|r| r["id"] == id);
        let drawable =
            |i: usize| regions[i].get("shape").is_some() || regions[i].get("box").is_some();
        let units = view["units"].as_array().unwrap();
        let unit = |id: &str| units.iter().find(|u| u["id"] == id);
        let region_verbs = board["targets"]["region"].as_object().unwrap();
        let unit_verbs: Vec<&str> = board["targets"]["unit"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let mut legal = Vec::new();
        g.legal_actions(s, &mut legal);
        for a in legal {
            let text = g.notation(s, a);
            let words: Vec<&str> = text.split(' ').collect();
            let verb = words[0];
            let what = format!("{scen} {seed}: {text:?}");
            if let Some(k) = region_verbs.get(verb) {
                let k = k.as_u64().unwrap() as usize;
                let r = region(words[k]).unwrap_or_else(|| panic!("{what}: no such region"));
                assert!(drawable(r), "{what}: the region is drawn");
            } else if unit_verbs.contains(&verb) {
                let u = unit(words[1]).unwrap_or_else(|| panic!("{what}: no such piece"));
                let at = &u["at"];
                let ok = match at.get("at").and_then(Value::as_u64) {
                    Some(r) => drawable(r as usize),
                    None => at.get("edge").is_some() || at == "pending",
                };
                assert!(ok, "{what}: the piece stands where the map draws it ({at})");
            } else if verb == "alert" {
                // On the Gather marker where the riding Nightrider is.
                let rider = view["phase"]["riders"]["rider"]
                    .as_u64()
                    .expect("a rider rides");
                let r = units[rider as usize]["at"]["at"]
                    .as_u64()
                    .expect("in a region");
                let id = regions[r as usize]["id"].as_str().unwrap();
                assert!(
                    view["gather"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|x| x[0] == id),
                    "{what}: a Gather marker is drawn where the rider is"
                );
            } else if verb == "exit" {
                let rider = view["phase"]["riders"]["rider"]
                    .as_u64()
                    .expect("a rider rides");
                let r = units[rider as usize]["at"]["at"]
                    .as_u64()
                    .expect("in a region");
                assert!(
                    regions[r as usize]["edge"].is_string(),
                    "{what}: the rider is on an edge"
                );
            } else if verb == "unhinder" {
                let k = board["hinder"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .position(|h| h == words[1])
                    .unwrap();
                assert!(
                    view["hinder"][k].get("map").is_some(),
                    "{what}: the marker is on the map"
                );
            } else {
                // Anything else names no region and no piece: a button.
                for w in &words[1..] {
                    assert!(
                        region(w).is_none() && unit(w).is_none(),
                        "{what}: names a place or piece but has no target on the map"
                    );
                }
            }
            *counts.entry(verb.to_string()).or_default() += 1;
        }
    });
    // The check ran over the verbs that matter most on the map.
    for verb in [
        "move", "to", "pick", "rider", "ride", "hit", "attack", "search", "hinder",
    ] {
        assert!(
            counts.get(verb).copied().unwrap_or(0) > 0,
            "no {verb:?} seen: {counts:?}"
        );
    }
}

/// The units a step is about (a moving group, units picked for an escort, advance or ambush,
/// the units that take hits first) reach the board as a list of indices, every one of them,
/// Percy's column (indices above 52) included: as a 64-bit set a browser would read them
/// rounded.
#[test]
fn the_board_receives_the_focus_units_of_a_step_as_an_exact_list() {
    let mut with_focus = 0;
    let mut high = 0;
    positions(30, 1, |g, s, _, _| {
        let set = match s.phase {
            Phase::Move { group, .. }
            | Phase::ForcedBreak { group, .. }
            | Phase::Assemble { group, .. } => group,
            Phase::Escort { picked, .. }
            | Phase::Advance { picked, .. }
            | Phase::Ambush { picked, .. } => picked,
            Phase::Hits { first, .. } => first,
            _ => 0,
        };
        let want: Vec<u64> = (0..64).filter(|i| set >> i & 1 == 1).collect();
        let v = serde_json::to_value(g.view(s, Viewer::Side(PATRIOT))).unwrap();
        let got: Vec<u64> = v["phase_units"]
            .as_array()
            .expect("phase_units is a list")
            .iter()
            .map(|x| x.as_u64().expect("an index"))
            .collect();
        assert_eq!(got, want, "phase {:?}", s.phase);
        with_focus += !want.is_empty() as usize;
        high += want.iter().any(|&i| i >= 53) as usize;
    });
    assert!(
        with_focus > 100,
        "only {with_focus} positions had focus units"
    );
    assert!(high > 0, "no position put Percy's units in focus");
}
