//! The static board of a scenario as JSON, for the browser client (`web/concord.js`): the
//! region outlines and anchors, the sides regions share with their water and roads, the
//! off-map boxes, the printed markers (muster and alert icons, "ha" numbers, landing icons),
//! the counters of the scenario's roster, the cards and which action verbs point at a region
//! or a piece. It depends on the scenario only, never on a game in progress, so nothing hidden
//! can reach it; the renderer draws the pieces from the viewer's `view` (mod.rs).

use super::Concord;
use super::data::{EDGES, Shape};
use super::state::{HINDER_NAMES, Kind, SIDE_IDS};
use serde_json::{Value, json};

/// Verbs whose argument names a region, with the argument's position (1 = first word after
/// the verb). `assault`, `assemble` and `hinder` point at their second argument (the region
/// the action goes into or marks).
pub const REGION_VERBS: [(&str, usize); 14] = [
    ("attack", 1),
    ("charge", 1),
    ("move", 1),
    ("ambush", 1),
    ("snipe", 1),
    ("rally", 1),
    ("search", 1),
    ("to", 1),
    ("ride", 1),
    ("ride-evade", 1),
    ("remove-alert", 1),
    ("assault", 2),
    ("assemble", 2),
    ("hinder", 2),
];

/// Verbs whose argument names a piece (by roster id).
pub const UNIT_VERBS: [&str; 7] = [
    "move-son", "escape", "pick", "drop", "hit", "rider", "reroll",
];

/// Verbs drawn on a marker rather than a region or piece: `alert` on the Gather marker where
/// the riding Nightrider is, `exit` on the Nightrider box of its map edge, `unhinder` on the
/// Hinder marker.
pub const MARKER_VERBS: [&str; 3] = ["alert", "exit", "unhinder"];

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Regular => "regular",
        Kind::Cannon => "cannon",
        Kind::Leader => "leader",
        Kind::Militia => "militia",
        Kind::Hidden => "hidden",
        Kind::Minuteman => "minuteman",
        Kind::Son => "son",
        Kind::Rider => "rider",
    }
}

/// The board of a scenario (`standard`, `solitaire-british`, `solitaire-patriot`); `Null` for
/// any other id.
pub fn describe(g: &Concord, scenario: &str) -> Value {
    let setup_id = match scenario {
        "standard" => "standard",
        "solitaire-british" | "solitaire-patriot" => "solitaire",
        _ => return Value::Null,
    };
    let Some(setup) = g.data.setups.iter().find(|s| s.id == setup_id) else {
        return Value::Null;
    };
    let map = &g.data.map;
    let geo = &map.geometry;
    let regions: Vec<Value> = map
        .regions
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut v = json!({
                "id": r.id,
                "name": r.name,
                "town": r.town,
                "landing": r.landing,
                "alert_box": r.alert_box,
                "edge": r.edge.map(|e| EDGES[e as usize]),
                // Printed icons: the muster icon (a Gather marker starts here), the "ha"
                // label with its number (0: unnumbered).
                "muster_icon": r.gather != 0,
                "arms": r.arms,
            });
            match geo.shapes.get(i) {
                Some(Shape::Area { at, outline }) => {
                    v["at"] = json!(at);
                    v["shape"] = json!(outline);
                }
                Some(Shape::Box(b)) => v["box"] = json!(b),
                None => {}
            }
            v
        })
        .collect();
    let border_of = |a: u8, b: u8| {
        geo.borders
            .iter()
            .find(|x| (x.0 == a && x.1 == b) || (x.0 == b && x.1 == a))
    };
    // Every shared side: a plain border, a light-blue stream, or dark-blue water (crossed only
    // by a road; a shared side without a border is water that parts the two regions, 3.0).
    let sides: Vec<Value> = geo
        .sides
        .iter()
        .map(|s| {
            let (water, road) = match border_of(s.a, s.b) {
                Some(&(_, _, w, road)) => (["none", "light", "dark"][w.min(2) as usize], road),
                None => ("dark", false),
            };
            json!({
                "a": s.a,
                "b": s.b,
                "adjacent": border_of(s.a, s.b).is_some(),
                "water": water,
                "road": road,
                "segments": s.segments,
            })
        })
        .collect();
    // Roads: anchor, the middle of the longest shared segment, anchor.
    let anchor = |r: u8| match geo.shapes.get(r as usize) {
        Some(Shape::Area { at, .. }) => Some(*at),
        _ => None,
    };
    let mut roads = Vec::new();
    for &(a, b, water, road) in &geo.borders {
        if !road {
            continue;
        }
        let (Some(pa), Some(pb)) = (anchor(a), anchor(b)) else {
            continue;
        };
        let mid = geo
            .sides
            .iter()
            .find(|s| (s.a == a && s.b == b) || (s.a == b && s.b == a))
            .and_then(|s| {
                s.segments.iter().max_by_key(|[p, q]| {
                    let (dx, dy) = ((q[0] - p[0]) as i64, (q[1] - p[1]) as i64);
                    dx * dx + dy * dy
                })
            })
            .map(|[p, q]| [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2]);
        let mut path = vec![pa];
        path.extend(mid);
        path.push(pb);
        let crossing = ["none", "stream", "bridge"][water.min(2) as usize];
        roads.push(json!({"a": a, "b": b, "path": path, "crossing": crossing}));
    }
    let box_json = |b: [i32; 4]| json!(b);
    json!({
        "kind": "areas",
        "scenario": scenario,
        "name": setup.name,
        "first_turn": setup.first_turn,
        "last_turn": setup.last_turn,
        "percy_turn": setup.percy_turn,
        "frame": geo.frame,
        "reconstructed": geo.reconstructed,
        "regions": regions,
        "sides": sides,
        "roads": roads,
        "labels": geo.labels.iter().map(|(t, at, angle)| json!({"text": t, "at": at, "angle": angle})).collect::<Vec<_>>(),
        "links": geo.links.iter().map(|(a, b)| json!({"a": a, "b": b})).collect::<Vec<_>>(),
        "riders": EDGES.iter().zip(geo.riders).map(|(e, b)| json!({"edge": e, "box": box_json(b)})).collect::<Vec<_>>(),
        "pending": box_json(geo.pending),
        "removed": box_json(geo.removed),
        "units": setup.roster.iter().map(|u| json!({
            "id": u.id.as_str(),
            "name": u.name,
            "side": SIDE_IDS[u.side as usize & 1],
            "kind": kind_name(u.kind),
            "percy": u.percy,
        })).collect::<Vec<_>>(),
        "cards": g.data.cards.cards.iter().map(|c| json!({"id": c.id, "british": c.british, "patriot": c.patriot, "hash": c.hash})).collect::<Vec<_>>(),
        "hinder": HINDER_NAMES,
        "targets": {
            "region": REGION_VERBS.iter().map(|(v, k)| (v.to_string(), json!(k))).collect::<serde_json::Map<_, _>>(),
            "unit": UNIT_VERBS,
            "marker": MARKER_VERBS,
        },
    })
}
