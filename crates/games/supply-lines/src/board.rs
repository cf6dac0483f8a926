//! The static board as JSON for the browser client (`web/board.js`): every area with its kind,
//! markings and position, the Movement Lines, the tracks printed on the map, the Patriot
//! reinforcement markers, the water drawn for orientation and the action verbs that name an area. Nothing here depends on a
//! game in progress: the renderer takes armies, cubes and markers from the view, which holds
//! only what every player may see.

use crate::data::{Data, Kind, SIDE_IDS, footprint};
use crate::state::Order;
use serde_json::{Value, json};

/// Verbs whose argument is an area id (`notation.rs`): the renderer offers these as targets on
/// the map; every other action stays a button.
pub fn area_verbs() -> Vec<&'static str> {
    let mut v = vec!["from", "to", "discard"];
    v.extend(Order::ALL.iter().map(|o| o.word()));
    v
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::City => "city",
        Kind::Fort => "fort",
        Kind::Point => "point",
        Kind::Sea => "sea",
    }
}

pub fn describe(d: &Data, scenario: &str, name: &str) -> Value {
    let areas: Vec<Value> = d
        .areas
        .iter()
        .enumerate()
        .map(|(i, a)| {
            json!({
                "id": a.id.as_str(),
                "name": a.name,
                "kind": kind_name(a.kind),
                "victory": a.victory,
                "port": a.port,
                "nova_scotia": i == d.nova_scotia as usize,
                "start_war": a.start_war,
                "x": a.x,
                "y": a.y,
            })
        })
        .collect();
    let mut lines = Vec::new();
    for (i, a) in d.areas.iter().enumerate() {
        for (j, b) in d.areas.iter().enumerate().skip(i + 1) {
            if a.lines >> j & 1 == 1 {
                lines.push(json!([a.id.as_str(), b.id.as_str()]));
            }
        }
    }
    let fp = |k: Kind| {
        let (w, h) = footprint(k);
        json!({"w": 2 * w, "h": 2 * h})
    };
    json!({
        "kind": "areas",
        "scenario": scenario,
        "name": name,
        "sides": SIDE_IDS,
        "areas": areas,
        "lines": lines,
        "water": d.water.iter().map(|w| json!({
            "name": w.name,
            "kind": w.kind,
            "points": w.points.iter().map(|p| [p.0, p.1]).collect::<Vec<_>>(),
            "label": w.label.map(|p| [p.0, p.1]),
        })).collect::<Vec<_>>(),
        "footprint": {
            "city": fp(Kind::City),
            "fort": fp(Kind::Fort),
            "point": fp(Kind::Point),
            "sea": fp(Kind::Sea),
        },
        "capacity": d.capacity,
        "food_cubes": d.food_cubes,
        "war_cubes": d.war_cubes,
        "turns": d.years.iter().enumerate().map(|(i, y)| json!({
            "turn": i + 1,
            "year": y,
            "winter": d.winter[i],
        })).collect::<Vec<_>>(),
        "pass": d.pass_labels,
        "support": d.support.iter().map(|s| json!({
            "draws": s.draws,
            "declaration": s.declaration,
            "treaty": s.treaty,
        })).collect::<Vec<_>>(),
        "support_start": d.support_start,
        "declaration": d.declaration,
        "crown_track": {
            "base_vc": d.base_vc,
            "markers": d.crown_markers.iter().map(|m| json!({
                "id": m.id,
                "units": m.units,
                "leaders": m.leaders,
                "vc": m.vc,
                "asterisk": m.asterisk,
            })).collect::<Vec<_>>(),
            "triumvirate": {"leaders": d.triumvirate_leaders, "vc": d.triumvirate_vc},
        },
        "patriot_markers": d.patriot_markers.iter()
            .map(|&c| d.areas[c as usize].id.as_str())
            .collect::<Vec<_>>(),
        "victory_cities": d.victory.count_ones(),
        "area_verbs": area_verbs(),
        "reconstructed": d.reconstructed,
    })
}
