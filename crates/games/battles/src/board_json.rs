//! The static board of a scenario as JSON, for the browser client: the grid, every hex's
//! terrain, roads, rivers and bridges by hexside, stars, areas, the exit, and the counters'
//! printed values.

use crate::data::{SIDE_IDS, Scenario, StarSide, Start};
use crate::map::{BRIDGE, RIVER, ROAD};
use muster_core::hex::LowColumns;
use serde_json::{Value, json};

pub fn describe(sc: &Scenario) -> Value {
    let map = &sc.map;
    let hexes: Vec<Value> = map
        .hexes()
        .map(|h| json!({"hex": h.to_string(), "terrain": map.terrain(h).name()}))
        .collect();
    let (mut roads, mut rivers, mut bridges) = (Vec::new(), Vec::new(), Vec::new());
    for h in map.hexes() {
        for d in 0..3 {
            let Some(n) = map.grid.neighbor(h, d) else {
                continue;
            };
            let f = map.side(h, d);
            let pair = json!([h.to_string(), n.to_string()]);
            if f & ROAD != 0 {
                roads.push(pair.clone());
            }
            if f & BRIDGE != 0 {
                bridges.push(pair);
            } else if f & RIVER != 0 {
                rivers.push(pair);
            }
        }
    }
    json!({
        "kind": "hex",
        "scenario": sc.id,
        "name": sc.name,
        "date": sc.date,
        "turns": sc.turns,
        "vp_goal": sc.vp_goal,
        "columns": map.grid.cols,
        "rows": map.grid.rows,
        "low_columns": match map.grid.low { LowColumns::Even => "even", LowColumns::Odd => "odd" },
        "hexes": hexes,
        "roads": roads,
        "rivers": rivers,
        "bridges": bridges,
        "stars": sc.stars.iter().map(|(h, side)| json!({
            "hex": h.to_string(),
            "side": match side { StarSide::Side(s) => SIDE_IDS[*s as usize], StarSide::Both => "both" },
        })).collect::<Vec<_>>(),
        "exit": sc.exit.map(|(h, side, vp)| json!({"hex": h.to_string(), "side": SIDE_IDS[side as usize], "vp": vp})),
        "areas": sc.areas.iter().map(|a| json!({
            "name": a.name,
            "hexes": a.hexes.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "units": sc.units.iter().map(|u| json!({
            "id": u.id.as_str(),
            "name": u.name,
            "side": SIDE_IDS[u.side as usize],
            "cf": u.cf,
            "mp": u.mp,
            "reduced_cf": u.reduced_cf,
            "reduced_mp": u.reduced_mp,
            "entry": match u.start {
                Start::Entry { turn, area } => json!({"turn": turn, "area": sc.areas[area as usize].name}),
                _ => Value::Null,
            },
        })).collect::<Vec<_>>(),
        "tracks": {
            "leadership": {"american": sc.leadership[0], "british": sc.leadership[1]},
            "artillery": {"american": sc.artillery[0], "british": sc.artillery[1]},
        },
        "reconstructed": sc.reconstructed,
    })
}
