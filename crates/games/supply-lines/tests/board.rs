//! The browser board (`board()` and `web/board.js`): every area has a position, positions are
//! checked like the rest of the map, the static board carries no game state, the views the
//! renderer draws from hide nothing a side may not know, and every legal action that names an
//! area can be offered as a target on the map.
//!
//! As a by-product the random-play test writes the board and a sample view of each kind of
//! decision to `<target>/tmp/supply-lines-board/`, for looking at the renderer by hand.

mod common;
use common::*;
use muster_core::{Dice, Game, Options, Viewer};
use muster_supply_lines::{DATA_FILES, SCENARIO, SupplyLines};
use serde_json::{Value, json};
use std::collections::BTreeMap;

fn board(g: &SupplyLines) -> Value {
    g.board(SCENARIO)
}

fn with_map(from: &str, to: &str) -> Result<SupplyLines, String> {
    let texts: Vec<(String, String)> = DATA_FILES
        .iter()
        .map(|(f, t)| {
            let t = if *f == "map.toml" {
                assert!(t.contains(from), "{from:?} not in map.toml");
                t.replacen(from, to, 1)
            } else {
                t.to_string()
            };
            (f.to_string(), t)
        })
        .collect();
    SupplyLines::from_texts(&texts)
}

#[test]
fn rule_2_1_every_area_of_the_map_has_a_position_on_the_board() {
    let g = game();
    let b = board(&g);
    let areas = b["areas"].as_array().expect("areas");
    assert_eq!(areas.len(), g.data().areas.len());
    let fp = &b["footprint"];
    for (a, def) in areas.iter().zip(&g.data().areas) {
        assert_eq!(a["id"], def.id.as_str());
        let (x, y) = (a["x"].as_i64().unwrap(), a["y"].as_i64().unwrap());
        assert!((0..=2000).contains(&x) && (0..=2000).contains(&y), "{a}");
        let kind = a["kind"].as_str().unwrap();
        assert!(
            fp[kind]["w"].as_i64().unwrap() > 0,
            "no footprint for {kind}"
        );
    }
    // Exactly one Sea Box and one Nova Scotia, both drawn.
    assert_eq!(areas.iter().filter(|a| a["kind"] == "sea").count(), 1);
    assert_eq!(areas.iter().filter(|a| a["nova_scotia"] == true).count(), 1);
    // Every Movement Line joins two areas on the board, and each appears once.
    let ids: Vec<&str> = areas.iter().map(|a| a["id"].as_str().unwrap()).collect();
    let lines = b["lines"].as_array().unwrap();
    let total: u32 = g.data().areas.iter().map(|a| a.lines.count_ones()).sum();
    assert_eq!(lines.len() as u32 * 2, total);
    for l in lines {
        assert!(ids.contains(&l[0].as_str().unwrap()) && ids.contains(&l[1].as_str().unwrap()));
    }
    // The tracks printed on the map come along.
    assert_eq!(b["turns"].as_array().unwrap().len(), 12);
    assert_eq!(b["capacity"], 8);
    assert_eq!(b["support"].as_array().unwrap().len(), 13);
    assert_eq!(b["crown_track"]["markers"].as_array().unwrap().len(), 4);
    assert_eq!(g.board("no-such-scenario"), Value::Null);
}

#[test]
fn a_missing_bad_or_overlapping_position_is_refused_with_the_area_named() {
    let e = with_map("at = [440, 196]\n", "").err().unwrap();
    assert!(
        e.contains("map.toml") && e.contains("st-johns") && e.contains("at = [x, y]"),
        "{e}"
    );
    let e = with_map("at = [440, 196]", "at = [440, 196, 3]")
        .err()
        .unwrap();
    assert!(e.contains("st-johns") && e.contains("two numbers"), "{e}");
    let e = with_map("at = [440, 196]", "at = [440, 9999]")
        .err()
        .unwrap();
    assert!(e.contains("st-johns") && e.contains("2000"), "{e}");
    // Fort St. Johns moved onto Montreal.
    let e = with_map("at = [440, 196]", "at = [420, 140]")
        .err()
        .unwrap();
    assert!(
        e.contains("montreal") && e.contains("st-johns") && e.contains("overlap"),
        "{e}"
    );
    // Far enough apart is accepted.
    assert!(with_map("at = [440, 196]", "at = [300, 250]").is_ok());
}

#[test]
fn the_static_board_carries_no_game_state() {
    let g = game();
    let b = board(&g);
    let text = b.to_string();
    for word in ["dice", "word_pos", "\"cup\"", "\"drawn\"", "\"units\":0"] {
        assert!(!text.contains(word), "board() holds {word}");
    }
    // The board is the same whatever happens in a game: it takes no state at all, and the
    // data it is built from does not change in play.
    let mut s = g.new_game(SCENARIO, &Options::new(), 5).unwrap();
    let mut pick = Dice::from_seed(5);
    let mut legal = Vec::new();
    for _ in 0..300 {
        let Some(side) = g.to_act(&s) else { break };
        g.legal_actions(&s, &mut legal);
        legal.retain(|a| g.notation(&s, *a) != "concede");
        let a = legal[pick.below(legal.len() as u32) as usize];
        g.apply(&mut s, side, a).unwrap();
    }
    assert_eq!(board(&g), b);
}

/// What the browser receives for a side: the view, and the legal actions with their labels
/// when that side is to decide (as the server's `GET /api/games/<id>`).
fn client_game(g: &SupplyLines, s: &muster_supply_lines::State, side: u8) -> Value {
    let mut legal = Vec::new();
    let to_act = g.to_act(s);
    if to_act == Some(side) {
        g.legal_actions(s, &mut legal);
    }
    let ids = ["patriot", "crown"];
    json!({
        "game": "supply-lines",
        "my_side": ids[side as usize],
        "to_act": to_act.map(|x| ids[x as usize]),
        "status": if to_act.is_some() { "active" } else { "finished" },
        "prompt": g.prompt(s),
        "legal": legal.iter().map(|a| json!({"action": g.notation(s, *a), "label": g.label(s, *a)})).collect::<Vec<_>>(),
        "view": serde_json::to_value(g.view(s, Viewer::Side(side))).unwrap(),
    })
}

#[test]
fn random_positions_views_hide_nothing_and_every_area_action_is_a_map_target() {
    let g = game();
    let b = board(&g);
    let verbs: Vec<&str> = b["area_verbs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let ids: Vec<&str> = b["areas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    let markers: Vec<&str> = b["patriot_markers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let dump = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("supply-lines-board");
    let _ = std::fs::create_dir_all(&dump);
    let _ = std::fs::write(dump.join("board.json"), b.to_string());
    let mut samples: BTreeMap<String, Value> = BTreeMap::new();
    let mut positions = 0;
    let mut area_actions = 0;
    let mut legal = Vec::new();
    for seed in 0..24u64 {
        let mut s = g.new_game(SCENARIO, &Options::new(), seed).unwrap();
        let mut pick = Dice::from_seed(seed ^ 0x5eed);
        while let Some(side) = g.to_act(&s) {
            positions += 1;
            // Nothing is hidden between the sides: every viewer gets the same view, without
            // the dice, and the cup lists its markers in the data's order (its contents follow
            // from the markers drawn and returned, all public), so the order of the next draws
            // is not in it.
            let views: Vec<String> = [Viewer::Side(0), Viewer::Side(1), Viewer::Spectator]
                .iter()
                .map(|v| serde_json::to_string(&g.view(&s, *v)).unwrap())
                .collect();
            assert!(views[0] == views[1] && views[1] == views[2]);
            // (A battle's "dice" is the count of Battle Dice earned, which both see.)
            assert!(
                !views[0].contains("word_pos") && !views[0].contains("\"key\""),
                "{}",
                views[0]
            );
            let v: Value = serde_json::from_str(&views[0]).unwrap();
            let mut rest = markers.iter();
            for c in v["cup"].as_array().unwrap() {
                assert!(
                    rest.any(|m| *m == c.as_str().unwrap()),
                    "cup out of the markers' order: {}",
                    v["cup"]
                );
            }
            // The areas of the view are the board's areas, in the same order (the phase
            // names areas by that index).
            let vid: Vec<&str> = v["areas"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["id"].as_str().unwrap())
                .collect();
            assert_eq!(vid, ids);
            // Every legal action that names an area has a verb the renderer turns into a
            // target, on an area that is drawn; activations target the acting side's army.
            g.legal_actions(&s, &mut legal);
            for &a in &legal {
                let n = g.notation(&s, a);
                let mut w = n.split_whitespace();
                let verb = w.next().unwrap();
                let arg = w.next();
                let names_area = arg.is_some_and(|x| ids.contains(&x));
                assert_eq!(
                    names_area,
                    verbs.contains(&verb),
                    "{n}: area verbs {verbs:?}"
                );
                if names_area {
                    area_actions += 1;
                    let i = ids.iter().position(|x| Some(*x) == arg).unwrap();
                    if !["from", "to", "discard"].contains(&verb) {
                        let army = &v["areas"][i];
                        assert_eq!(
                            army["side"],
                            ["patriot", "crown"][side as usize],
                            "{n}: no army of the acting side to click"
                        );
                    }
                }
            }
            let step = v["phase"]["step"].as_str().unwrap_or("?").to_string();
            let key = format!("{step}-{}", ["patriot", "crown"][side as usize]);
            if !samples.contains_key(&key) && s.turn >= 2 {
                samples.insert(key, client_game(&g, &s, side));
            }
            legal.retain(|a| g.notation(&s, *a) != "concede");
            let a = legal[pick.below(legal.len() as u32) as usize];
            g.apply(&mut s, side, a).unwrap();
        }
        samples
            .entry("over".into())
            .or_insert_with(|| client_game(&g, &s, 0));
    }
    for (k, v) in &samples {
        let _ = std::fs::write(dump.join(format!("game-{k}.json")), v.to_string());
    }
    assert!(positions > 10_000, "{positions} positions");
    assert!(area_actions > 10_000, "{area_actions} area actions");
}
