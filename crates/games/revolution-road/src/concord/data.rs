//! The data files in `data/`: the map, the cards, the VP aid and the scenario set-ups, read and
//! checked. Every error names the file and the item at fault.

use crate::common::Cards;
use crate::concord::state::{BRITISH, Kind, MAX_REGIONS, MAX_UNITS, PATRIOT};
use muster_core::Key;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The built-in data files: (file name, text).
pub const DATA_FILES: [(&str, &str); 4] = [
    ("map.toml", include_str!("../../data/map.toml")),
    ("cards.toml", include_str!("../../data/cards.toml")),
    ("vp.toml", include_str!("../../data/vp.toml")),
    ("scenarios.toml", include_str!("../../data/scenarios.toml")),
];

/// Map edges with a Nightrider box (6.12).
pub const EDGES: [&str; 3] = ["top", "left", "bottom"];

/// One region or alert box.
#[derive(Clone, Debug)]
pub struct Region {
    pub id: String,
    pub name: String,
    pub town: bool,
    /// 0 none, 1 gather side up, 2 muster side up at set-up.
    pub gather: u8,
    /// Hidden Arms marker: None, Some(0) unnumbered, Some(1..=5) numbered.
    pub arms: Option<u8>,
    pub landing: bool,
    /// The map edge it touches (an index into [`EDGES`]).
    pub edge: Option<u8>,
    /// An off-map alert box (4.6).
    pub alert_box: bool,
}

/// The checked map.
#[derive(Clone, Debug)]
pub struct Map {
    pub regions: Vec<Region>,
    /// Regions one may enter from each region (alert boxes: their entry regions).
    pub adj: Vec<u64>,
    /// Borders crossed by a road.
    pub road: Vec<u64>,
    /// Light-blue stream borders without a road (4.4).
    pub stream: Vec<u64>,
    pub dist_concord: Vec<u8>,
    pub dist_boston: Vec<u8>,
    pub dist_lexington: Vec<u8>,
    /// Distances between every pair of regions over the map (255: unreachable).
    pub apsp: Vec<Vec<u8>>,
    pub boston: u8,
    pub concord: u8,
    pub lexington: u8,
    pub charlestown: u8,
    /// Regions with a landing icon.
    pub landings: u64,
    /// The drawing of the map for the browser board (reconstructed, R13).
    pub geometry: Geometry,
}

/// How a region or box is drawn, in map units (x east, y south).
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// An on-map region: its outline (corners in order) and the anchor of its name and counters.
    Area {
        at: [i32; 2],
        outline: Vec<[i32; 2]>,
    },
    /// An off-map box: x, y, width, height.
    Box([i32; 4]),
}

/// A side two regions share: the segments of their common outline.
#[derive(Clone, Debug)]
pub struct SharedSide {
    pub a: u8,
    pub b: u8,
    pub segments: Vec<[[i32; 2]; 2]>,
}

/// The checked drawing of the map.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub reconstructed: bool,
    /// Width and height of the map frame.
    pub frame: [i32; 2],
    /// One shape per region and alert box, in map order.
    pub shapes: Vec<Shape>,
    /// Borders drawn as a line between the anchors rather than as a shared side.
    pub links: Vec<(u8, u8)>,
    /// The Nightrider boxes of the top, left and bottom edges (6.12).
    pub riders: [[i32; 4]; 3],
    /// The turn-track box for pieces not yet arrived (12.0).
    pub pending: [i32; 4],
    /// The box for pieces out of play.
    pub removed: [i32; 4],
    /// Every pair of on-map regions whose outlines share a side.
    pub sides: Vec<SharedSide>,
    /// Every border as listed: (region, region, water 0 none / 1 light / 2 dark, road).
    pub borders: Vec<(u8, u8, u8, bool)>,
    /// Names of waters drawn on the map: text, position, angle in degrees.
    pub labels: Vec<(String, [i32; 2], i32)>,
}

impl Map {
    pub fn index(&self, id: &str) -> Option<u8> {
        self.regions
            .iter()
            .position(|r| r.id == id)
            .map(|i| i as u8)
    }
    pub fn adjacent(&self, a: u8, b: u8) -> bool {
        self.adj
            .get(a as usize)
            .is_some_and(|m| m & (1u64 << b) != 0)
    }
    pub fn is_road(&self, a: u8, b: u8) -> bool {
        self.road
            .get(a as usize)
            .is_some_and(|m| m & (1u64 << b) != 0)
    }
    pub fn is_stream(&self, a: u8, b: u8) -> bool {
        self.stream
            .get(a as usize)
            .is_some_and(|m| m & (1u64 << b) != 0)
    }
    pub fn id(&self, r: u8) -> &str {
        self.regions.get(r as usize).map_or("?", |x| x.id.as_str())
    }
    pub fn name(&self, r: u8) -> &str {
        self.regions
            .get(r as usize)
            .map_or("?", |x| x.name.as_str())
    }
    /// Distance between two regions along the map (255 if unreachable).
    pub fn distance(&self, from: u8, to: u8) -> u8 {
        self.apsp
            .get(from as usize)
            .and_then(|v| v.get(to as usize))
            .copied()
            .unwrap_or(255)
    }
}

/// Distances over the (symmetric) on-map adjacency to `target`.
fn bfs(adj: &[u64], target: u8, n: usize) -> Vec<u8> {
    let mut d = vec![255u8; n];
    let mut frontier = vec![target];
    if let Some(x) = d.get_mut(target as usize) {
        *x = 0;
    }
    while let Some(r) = frontier.first().copied() {
        frontier.remove(0);
        for b in 0..n {
            if adj[b] & (1u64 << r) != 0 && d[b] == 255 {
                d[b] = d[r as usize] + 1;
                frontier.push(b as u8);
            }
        }
    }
    d
}

/// One VP aid value.
#[derive(Clone, Copy, Debug)]
pub struct VpAid {
    pub destroyed_unit: i16,
    pub broken_unit: i16,
    pub killed_leader: i16,
    pub wounded_leader: i16,
    pub captured_son: i16,
    pub captured_rider: i16,
    pub concord: i16,
    pub percy_lexington: i16,
    pub percy_missed: i16,
    pub first_shot: i16,
    pub unnumbered_arms: i16,
    pub capture_redraw: i16,
}

/// A counter in a scenario's roster.
#[derive(Clone, Debug)]
pub struct UnitDef {
    pub id: Key,
    pub name: String,
    pub side: u8,
    /// Kind at set-up (a hidden marker becomes militia when revealed).
    pub kind: Kind,
    /// Percy's force (black dot, 12.0).
    pub percy: bool,
}

/// Where a counter starts.
#[derive(Clone, Copy, Debug)]
pub struct Start {
    pub at: Option<u8>,
    pub pending: bool,
    pub broken: bool,
    pub under: bool,
    /// Drawn from the pool at set-up (15.2).
    pub drawn: bool,
}

/// A checked scenario set-up.
#[derive(Clone, Debug)]
pub struct Setup {
    pub id: String,
    pub name: String,
    pub first_turn: u8,
    pub last_turn: u8,
    pub markers: bool,
    pub opening_call: bool,
    pub percy_turn: u8,
    pub reconstructed: Vec<String>,
    pub roster: Vec<UnitDef>,
    pub start: Vec<Start>,
    /// The British counters of the roster, as a set (for fast side tests).
    pub british: u64,
    /// Percy's counters (12.0), as a set.
    pub percy: u64,
}

impl Setup {
    pub fn unit(&self, id: &str) -> Option<u8> {
        self.roster
            .iter()
            .position(|u| u.id.is(id))
            .map(|i| i as u8)
    }
}

/// Everything read from `data/`.
#[derive(Clone, Debug)]
pub struct Data {
    pub map: Map,
    pub cards: Cards,
    pub vp: VpAid,
    pub setups: Vec<Setup>,
    pub sources: Vec<String>,
    pub map_reconstructed: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    #[serde(default)]
    reconstructed: bool,
    regions: Vec<RegionFile>,
    borders: Vec<BorderFile>,
    alerts: Vec<AlertFile>,
    geometry: Option<GeometryFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GeometryFile {
    #[serde(default)]
    reconstructed: bool,
    frame: [i32; 2],
    #[serde(default)]
    links: Vec<[String; 2]>,
    riders: BTreeMap<String, [i32; 4]>,
    pending: [i32; 4],
    removed: [i32; 4],
    #[serde(default)]
    labels: Vec<LabelFile>,
    regions: BTreeMap<String, ShapeFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LabelFile {
    text: String,
    at: [i32; 2],
    #[serde(default)]
    angle: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShapeFile {
    at: Option<[i32; 2]>,
    shape: Option<Vec<[i32; 2]>>,
    #[serde(rename = "box")]
    rect: Option<[i32; 4]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegionFile {
    id: String,
    name: String,
    #[serde(default)]
    town: bool,
    gather: Option<String>,
    arms: Option<u8>,
    #[serde(default)]
    landing: bool,
    edge: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BorderFile {
    between: [String; 2],
    #[serde(default)]
    road: bool,
    water: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AlertFile {
    id: String,
    name: String,
    edge: String,
    enters: Vec<String>,
}

fn edge_index(file: &str, what: &str, e: &str) -> Result<u8, String> {
    EDGES
        .iter()
        .position(|x| *x == e)
        .map(|i| i as u8)
        .ok_or_else(|| format!("{file}: {what}: edge {e:?} must be top, left or bottom"))
}

/// Reads and checks the map.
pub fn load_map(file: &str, text: &str) -> Result<(Map, bool), String> {
    let f: MapFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let mut regions = Vec::new();
    for r in &f.regions {
        Key::new(&r.id).map_err(|e| format!("{file}: region {:?}: {e}", r.id))?;
        if regions.iter().any(|x: &Region| x.id == r.id) {
            return Err(format!("{file}: region {:?} is listed twice", r.id));
        }
        let gather = match r.gather.as_deref() {
            None => 0,
            Some("gather") => 1,
            Some("muster") => 2,
            Some(x) => {
                return Err(format!(
                    "{file}: region {:?}: gather {x:?} must be \"gather\" or \"muster\"",
                    r.id
                ));
            }
        };
        if let Some(a) = r.arms
            && a > 5
        {
            return Err(format!(
                "{file}: region {:?}: arms must be 0 (unnumbered) or 1 to 5",
                r.id
            ));
        }
        if (gather != 0 || r.arms.is_some()) && !r.town {
            return Err(format!(
                "{file}: region {:?}: gather and arms markers go in town regions (4.3, 4.7); add town = true",
                r.id
            ));
        }
        let edge = match &r.edge {
            Some(e) => Some(edge_index(file, &format!("region {:?}", r.id), e)?),
            None => None,
        };
        regions.push(Region {
            id: r.id.clone(),
            name: r.name.clone(),
            town: r.town,
            gather,
            arms: r.arms,
            landing: r.landing,
            edge,
            alert_box: false,
        });
    }
    let on_map = regions.len();
    for a in &f.alerts {
        Key::new(&a.id).map_err(|e| format!("{file}: alert {:?}: {e}", a.id))?;
        if regions.iter().any(|x| x.id == a.id) {
            return Err(format!("{file}: alert box {:?} reuses a region id", a.id));
        }
        let edge = edge_index(file, &format!("alert {:?}", a.id), &a.edge)?;
        regions.push(Region {
            id: a.id.clone(),
            name: a.name.clone(),
            town: false,
            gather: 0,
            arms: None,
            landing: false,
            edge: Some(edge),
            alert_box: true,
        });
    }
    if regions.len() > MAX_REGIONS {
        return Err(format!(
            "{file}: at most {MAX_REGIONS} regions and alert boxes, not {}",
            regions.len()
        ));
    }
    let n = regions.len();
    let idx = |id: &str, what: &str| -> Result<u8, String> {
        regions
            .iter()
            .position(|r| r.id == id)
            .map(|i| i as u8)
            .ok_or_else(|| format!("{file}: {what}: no region {id:?}"))
    };
    let mut adj = vec![0u64; n];
    let mut road = vec![0u64; n];
    let mut stream = vec![0u64; n];
    let mut listed = Vec::new();
    for b in &f.borders {
        let what = format!("border {:?}-{:?}", b.between[0], b.between[1]);
        let x = idx(&b.between[0], &what)?;
        let y = idx(&b.between[1], &what)?;
        if x == y || x as usize >= on_map || y as usize >= on_map {
            return Err(format!(
                "{file}: {what}: a border joins two different map regions"
            ));
        }
        if adj[x as usize] & (1u64 << y) != 0 {
            return Err(format!("{file}: {what} is listed twice"));
        }
        listed.push((
            x,
            y,
            match b.water.as_deref() {
                Some("light") => 1,
                Some("dark") => 2,
                _ => 0,
            },
            b.road,
        ));
        match b.water.as_deref() {
            None | Some("none") => {}
            Some("light") => {
                if !b.road {
                    stream[x as usize] |= 1u64 << y;
                    stream[y as usize] |= 1u64 << x;
                }
            }
            Some("dark") => {
                if !b.road {
                    return Err(format!(
                        "{file}: {what}: regions across dark-blue water are adjacent only where a road crosses (3.0); add road = true or leave the border out"
                    ));
                }
            }
            Some(w) => {
                return Err(format!(
                    "{file}: {what}: water {w:?} must be none, light or dark"
                ));
            }
        }
        adj[x as usize] |= 1u64 << y;
        adj[y as usize] |= 1u64 << x;
        if b.road {
            road[x as usize] |= 1u64 << y;
            road[y as usize] |= 1u64 << x;
        }
    }
    for a in &f.alerts {
        let i = idx(&a.id, "alert")?;
        if a.enters.is_empty() {
            return Err(format!("{file}: alert {:?}: enters lists no region", a.id));
        }
        for e in &a.enters {
            let r = idx(e, &format!("alert {:?}", a.id))?;
            if r as usize >= on_map || regions[r as usize].edge != regions[i as usize].edge {
                return Err(format!(
                    "{file}: alert {:?}: {e:?} must be a map region on the {} edge",
                    a.id,
                    EDGES[regions[i as usize].edge.unwrap_or(0) as usize]
                ));
            }
            adj[i as usize] |= 1u64 << r;
        }
    }
    let find = |id: &str| idx(id, "the map must have this region");
    let boston = find("boston")?;
    let concord = find("concord")?;
    let lexington = find("lexington")?;
    let charlestown = find("charlestown")?;
    // Distances over on-map regions only (alert boxes are entered from, never into).
    let mut on_adj = adj.clone();
    for a in on_adj.iter_mut().skip(on_map) {
        *a = 0;
    }
    let dist_concord = bfs(&on_adj, concord, n);
    for (r, d) in dist_concord.iter().enumerate().take(on_map) {
        if *d == 255 {
            return Err(format!(
                "{file}: region {:?} cannot be reached from Concord; check its borders",
                regions[r].id
            ));
        }
    }
    let landings = regions
        .iter()
        .enumerate()
        .filter(|(_, r)| r.landing)
        .fold(0u64, |m, (i, _)| m | 1u64 << i);
    if landings.count_ones() != 2 {
        return Err(format!(
            "{file}: exactly two regions carry a landing icon (3.0), not {}",
            landings.count_ones()
        ));
    }
    let mut geometry = load_geometry(file, f.geometry.as_ref(), &regions, on_map, &adj)?;
    geometry.borders = listed;
    let by_target: Vec<Vec<u8>> = (0..n as u8).map(|t| bfs(&on_adj, t, n)).collect();
    let apsp: Vec<Vec<u8>> = (0..n)
        .map(|a| (0..n).map(|b| by_target[b][a]).collect())
        .collect();
    let map = Map {
        apsp,
        dist_boston: bfs(&on_adj, boston, n),
        dist_lexington: bfs(&on_adj, lexington, n),
        dist_concord,
        regions,
        adj,
        road,
        stream,
        boston,
        concord,
        lexington,
        charlestown,
        landings,
        geometry,
    };
    Ok((map, f.reconstructed))
}

/// Largest coordinate (in absolute value) a drawing may use.
const COORD_LIMIT: i32 = 100_000;

/// Twice the signed area of a polygon.
fn area2(p: &[[i32; 2]]) -> i64 {
    (0..p.len())
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % p.len()]);
            a[0] as i64 * b[1] as i64 - b[0] as i64 * a[1] as i64
        })
        .sum()
}

/// Do segments ab and cd cross at a point inside both (touching ends do not count)?
fn crosses(a: [i32; 2], b: [i32; 2], c: [i32; 2], d: [i32; 2]) -> bool {
    let o = |p: [i32; 2], q: [i32; 2], r: [i32; 2]| {
        ((q[0] - p[0]) as i64 * (r[1] - p[1]) as i64 - (q[1] - p[1]) as i64 * (r[0] - p[0]) as i64)
            .signum()
    };
    let (d1, d2, d3, d4) = (o(a, b, c), o(a, b, d), o(c, d, a), o(c, d, b));
    d1 * d2 < 0 && d3 * d4 < 0
}

/// Is the point strictly inside the polygon (even-odd rule)?
fn inside(pt: [i32; 2], poly: &[[i32; 2]]) -> bool {
    let (x, y) = (pt[0] as f64, pt[1] as f64);
    let mut c = false;
    for i in 0..poly.len() {
        let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
        let (x1, y1, x2, y2) = (p[0] as f64, p[1] as f64, q[0] as f64, q[1] as f64);
        if (y1 > y) != (y2 > y) && x < x1 + (y - y1) * (x2 - x1) / (y2 - y1) {
            c = !c;
        }
    }
    c
}

/// Reads and checks the drawing of the map: every region has an outline with its anchor
/// inside, every alert box a box, and every border a side the two outlines share (or a link).
fn load_geometry(
    file: &str,
    g: Option<&GeometryFile>,
    regions: &[Region],
    on_map: usize,
    adj: &[u64],
) -> Result<Geometry, String> {
    let g = g.ok_or_else(|| {
        format!("{file}: no [geometry] table: every region needs an outline for the board (see the notes above [geometry])")
    })?;
    let what = |id: &str| format!("{file}: [geometry.regions] {id:?}");
    // Every coordinate stays within a sane range, so no arithmetic on them can overflow.
    let in_range = |v: &[i32]| v.iter().all(|c| (-COORD_LIMIT..=COORD_LIMIT).contains(c));
    let mut all: Vec<(String, Vec<i32>)> = vec![
        ("frame".into(), g.frame.to_vec()),
        ("pending".into(), g.pending.to_vec()),
        ("removed".into(), g.removed.to_vec()),
    ];
    all.extend(
        g.riders
            .iter()
            .map(|(k, b)| (format!("riders.{k}"), b.to_vec())),
    );
    all.extend(
        g.labels
            .iter()
            .map(|l| (format!("label {:?}", l.text), l.at.to_vec())),
    );
    for (id, s) in &g.regions {
        let mut v: Vec<i32> = s.at.map(|a| a.to_vec()).unwrap_or_default();
        v.extend(s.shape.iter().flatten().flatten());
        v.extend(s.rect.iter().flatten());
        all.push((format!("regions.{id}"), v));
    }
    if let Some((w, _)) = all.iter().find(|(_, v)| !in_range(v)) {
        return Err(format!(
            "{file}: [geometry] {w}: coordinates must lie between -{COORD_LIMIT} and {COORD_LIMIT}"
        ));
    }
    if g.frame[0] <= 0 || g.frame[1] <= 0 {
        return Err(format!(
            "{file}: [geometry] frame must be a positive width and height"
        ));
    }
    let positive_box = |b: &[i32; 4], w: &str| -> Result<(), String> {
        if b[2] <= 0 || b[3] <= 0 {
            Err(format!(
                "{file}: [geometry] {w}: a box is [x, y, width, height] with a positive width and height"
            ))
        } else {
            Ok(())
        }
    };
    for id in g.regions.keys() {
        if !regions.iter().any(|r| &r.id == id) {
            return Err(format!("{}: no region or alert box has this id", what(id)));
        }
    }
    let mut shapes = Vec::new();
    for (i, r) in regions.iter().enumerate() {
        let s = g.regions.get(&r.id).ok_or_else(|| {
            format!(
                "{}: missing: every region and alert box needs a shape",
                what(&r.id)
            )
        })?;
        if i < on_map {
            let (Some(at), Some(outline), None) = (s.at, s.shape.as_ref(), s.rect) else {
                return Err(format!(
                    "{}: a map region needs `at` and `shape` (and no `box`)",
                    what(&r.id)
                ));
            };
            if outline.len() < 3 {
                return Err(format!(
                    "{}: an outline needs at least 3 corners",
                    what(&r.id)
                ));
            }
            for k in 0..outline.len() {
                if outline[k] == outline[(k + 1) % outline.len()] {
                    return Err(format!(
                        "{}: corner {:?} is repeated",
                        what(&r.id),
                        outline[k]
                    ));
                }
            }
            if area2(outline) == 0 {
                return Err(format!("{}: the outline encloses no area", what(&r.id)));
            }
            let m = outline.len();
            for x in 0..m {
                for y in x + 1..m {
                    let (a, b) = (outline[x], outline[(x + 1) % m]);
                    let (c, d) = (outline[y], outline[(y + 1) % m]);
                    if crosses(a, b, c, d) {
                        return Err(format!(
                            "{}: the outline crosses itself ({a:?}-{b:?} and {c:?}-{d:?})",
                            what(&r.id)
                        ));
                    }
                }
            }
            if !inside(at, outline) {
                return Err(format!(
                    "{}: its anchor at = {at:?} lies outside its outline",
                    what(&r.id)
                ));
            }
            shapes.push(Shape::Area {
                at,
                outline: outline.clone(),
            });
        } else {
            let (None, None, Some(b)) = (s.at, s.shape.as_ref(), s.rect) else {
                return Err(format!(
                    "{}: an alert box needs `box = [x, y, width, height]` only",
                    what(&r.id)
                ));
            };
            positive_box(&b, &r.id)?;
            shapes.push(Shape::Box(b));
        }
    }
    let mut riders = [[0; 4]; 3];
    for (e, name) in EDGES.iter().enumerate() {
        let b = g.riders.get(*name).ok_or_else(|| {
            format!("{file}: [geometry] riders: no box for the {name} edge (6.12)")
        })?;
        positive_box(b, &format!("riders.{name}"))?;
        riders[e] = *b;
    }
    if let Some(k) = g.riders.keys().find(|k| !EDGES.contains(&k.as_str())) {
        return Err(format!(
            "{file}: [geometry] riders: {k:?} is not an edge (top, left or bottom)"
        ));
    }
    positive_box(&g.pending, "pending")?;
    positive_box(&g.removed, "removed")?;
    // The sides each pair of regions shares.
    let seg = |o: &Vec<[i32; 2]>, k: usize| {
        let (p, q) = (o[k], o[(k + 1) % o.len()]);
        if p <= q { [p, q] } else { [q, p] }
    };
    let mut sides = Vec::new();
    for a in 0..on_map {
        for b in a + 1..on_map {
            let (Shape::Area { outline: oa, .. }, Shape::Area { outline: ob, .. }) =
                (&shapes[a], &shapes[b])
            else {
                continue;
            };
            let segs_b: Vec<_> = (0..ob.len()).map(|k| seg(ob, k)).collect();
            let common: Vec<_> = (0..oa.len())
                .map(|k| seg(oa, k))
                .filter(|s| segs_b.contains(s))
                .collect();
            if !common.is_empty() {
                sides.push(SharedSide {
                    a: a as u8,
                    b: b as u8,
                    segments: common,
                });
            }
        }
    }
    let mut labels = Vec::new();
    for l in &g.labels {
        if l.text.trim().is_empty() {
            return Err(format!(
                "{file}: [geometry] labels: a label at {:?} has no text",
                l.at
            ));
        }
        labels.push((l.text.clone(), l.at, l.angle));
    }
    let mut links = Vec::new();
    for [x, y] in &g.links {
        let ix = regions.iter().position(|r| &r.id == x);
        let iy = regions.iter().position(|r| &r.id == y);
        let (Some(ix), Some(iy)) = (ix, iy) else {
            return Err(format!(
                "{file}: [geometry] links: {x:?}-{y:?}: no such region"
            ));
        };
        if adj[ix] & (1u64 << iy) == 0 || ix >= on_map || iy >= on_map {
            return Err(format!(
                "{file}: [geometry] links: {x:?}-{y:?} is not a border in [[borders]]"
            ));
        }
        links.push((ix.min(iy) as u8, ix.max(iy) as u8));
    }
    for a in 0..on_map {
        for b in a + 1..on_map {
            if adj[a] & (1u64 << b) == 0 {
                continue;
            }
            let shared = sides.iter().any(|s| s.a as usize == a && s.b as usize == b);
            if !shared && !links.contains(&(a as u8, b as u8)) {
                return Err(format!(
                    "{file}: [geometry] border {:?}-{:?}: their outlines share no side (two consecutive corners with the same coordinates); give them a common side or list the pair in links",
                    regions[a].id, regions[b].id
                ));
            }
        }
    }
    Ok(Geometry {
        reconstructed: g.reconstructed,
        frame: g.frame,
        shapes,
        links,
        riders,
        pending: g.pending,
        removed: g.removed,
        sides,
        borders: Vec::new(),
        labels,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VpItem {
    value: i16,
    #[serde(default)]
    #[allow(dead_code)]
    reconstructed: bool,
    #[serde(default)]
    #[allow(dead_code)]
    printed: Option<String>,
}

/// Reads the VP aid.
pub fn load_vp(file: &str, text: &str) -> Result<VpAid, String> {
    let f: BTreeMap<String, VpItem> = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let get = |k: &str| -> Result<i16, String> {
        let v = f
            .get(k)
            .map(|i| i.value)
            .ok_or_else(|| format!("{file}: the VP aid needs [{k}]"))?;
        if !(0..=20).contains(&v) {
            return Err(format!("{file}: [{k}] value must be 0 to 20"));
        }
        Ok(v)
    };
    const KNOWN: [&str; 12] = [
        "destroyed_unit",
        "broken_unit",
        "killed_leader",
        "wounded_leader",
        "captured_son_of_liberty",
        "captured_nightrider",
        "concord",
        "percy_lexington",
        "percy_missed",
        "first_shot",
        "unnumbered_arms",
        "capture_redraw",
    ];
    if let Some(k) = f.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(format!("{file}: unknown VP item [{k}]; known: {KNOWN:?}"));
    }
    Ok(VpAid {
        destroyed_unit: get("destroyed_unit")?,
        broken_unit: get("broken_unit")?,
        killed_leader: get("killed_leader")?,
        wounded_leader: get("wounded_leader")?,
        captured_son: get("captured_son_of_liberty")?,
        captured_rider: get("captured_nightrider")?,
        concord: get("concord")?,
        percy_lexington: get("percy_lexington")?,
        percy_missed: get("percy_missed")?,
        first_shot: get("first_shot")?,
        unnumbered_arms: get("unnumbered_arms")?,
        capture_redraw: get("capture_redraw")?,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenariosFile {
    scenario: Vec<ScenarioFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    id: String,
    name: String,
    first_turn: u8,
    last_turn: u8,
    markers: bool,
    opening_call: bool,
    percy_turn: u8,
    #[serde(default)]
    reconstructed: Vec<String>,
    place: Vec<PlaceFile>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct PlaceFile {
    at: String,
    leaders: Vec<String>,
    minutemen: u8,
    broken_minutemen: u8,
    hidden: u8,
    drawn: u8,
    regulars: u8,
    broken_regulars: u8,
    british: Vec<String>,
    percy: bool,
    riders: Vec<String>,
    sons: Vec<String>,
    under: bool,
}

const PATRIOT_LEADERS: [(&str, &str); 10] = [
    ("parker", "Capt. John Parker"),
    ("barrett", "Col. James Barrett"),
    ("buttrick", "Maj. John Buttrick"),
    ("baldwin", "Loammi Baldwin"),
    ("putnam", "Israel Putnam"),
    ("heath", "William Heath"),
    ("warren", "Joseph Warren"),
    ("pickering", "Timothy Pickering"),
    ("frye", "James Frye"),
    ("davis", "Capt. Isaac Davis"),
];
const BRITISH_LEADERS: [(&str, &str); 3] = [
    ("smith", "Lt. Col. Francis Smith"),
    ("pitcairn", "Maj. John Pitcairn"),
    ("percy", "Brig. Gen. Hugh, Earl Percy"),
];
const RIDERS: [(&str, &str); 3] = [
    ("revere", "Paul Revere"),
    ("dawes", "William Dawes"),
    ("prescott", "Dr. Samuel Prescott"),
];
const SONS: [(&str, &str); 2] = [("adams", "Samuel Adams"), ("hancock", "John Hancock")];

fn lookup<'a>(
    file: &str,
    list: &'a [(&'a str, &'a str)],
    id: &str,
    what: &str,
) -> Result<&'a str, String> {
    list.iter()
        .find(|(i, _)| *i == id)
        .map(|(_, n)| *n)
        .ok_or_else(|| {
            let known: Vec<&str> = list.iter().map(|x| x.0).collect();
            format!("{file}: no {what} {id:?}; known: {known:?}")
        })
}

/// Reads and checks the scenario set-ups against the map.
pub fn load_setups(file: &str, text: &str, map: &Map) -> Result<Vec<Setup>, String> {
    let f: ScenariosFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let mut out = Vec::new();
    for sc in f.scenario {
        let what = format!("scenario {:?}", sc.id);
        if sc.first_turn < 1 || sc.last_turn < sc.first_turn || sc.last_turn > 12 {
            return Err(format!(
                "{file}: {what}: turns must run within 1 to 12 (5.3)"
            ));
        }
        let mut roster: Vec<UnitDef> = Vec::new();
        let mut start: Vec<Start> = Vec::new();
        let mut regulars = 0u8;
        let mut hidden = 0u8;
        let mut drawn = 0u8;
        let mut minutemen = 0u8;
        let add = |roster: &mut Vec<UnitDef>,
                   start: &mut Vec<Start>,
                   id: String,
                   name: String,
                   side: u8,
                   kind: Kind,
                   percy: bool,
                   st: Start|
         -> Result<(), String> {
            let key = Key::new(&id).map_err(|e| format!("{file}: {what}: {e}"))?;
            if roster.iter().any(|u| u.id == key) {
                return Err(format!("{file}: {what}: {id:?} is placed twice"));
            }
            roster.push(UnitDef {
                id: key,
                name,
                side,
                kind,
                percy,
            });
            start.push(st);
            Ok(())
        };
        for p in &sc.place {
            let r = map
                .index(&p.at)
                .ok_or_else(|| format!("{file}: {what}: no region {:?}", p.at))?;
            let boxed = map.regions[r as usize].alert_box;
            if p.under && !boxed && map.regions[r as usize].gather == 0 {
                return Err(format!(
                    "{file}: {what}: {:?} has no Gather marker to put pieces under",
                    p.at
                ));
            }
            let st = |broken: bool, under: bool| Start {
                at: Some(r),
                pending: false,
                broken,
                under,
                drawn: false,
            };
            for l in &p.leaders {
                let name = lookup(file, &PATRIOT_LEADERS, l, "Patriot leader")?;
                add(
                    &mut roster,
                    &mut start,
                    l.clone(),
                    name.into(),
                    PATRIOT,
                    Kind::Leader,
                    false,
                    st(false, p.under),
                )?;
            }
            for (n, broken) in [(p.minutemen, false), (p.broken_minutemen, true)] {
                for _ in 0..n {
                    minutemen += 1;
                    add(
                        &mut roster,
                        &mut start,
                        format!("mm{minutemen}"),
                        format!("Minutemen {minutemen}"),
                        PATRIOT,
                        Kind::Minuteman,
                        false,
                        st(broken, p.under),
                    )?;
                }
            }
            for _ in 0..p.hidden {
                hidden += 1;
                add(
                    &mut roster,
                    &mut start,
                    format!("m{}", hidden + drawn),
                    format!("Militia {}", hidden + drawn),
                    PATRIOT,
                    Kind::Hidden,
                    false,
                    st(false, p.under),
                )?;
            }
            for _ in 0..p.drawn {
                drawn += 1;
                let mut s = st(false, p.under);
                s.drawn = true;
                add(
                    &mut roster,
                    &mut start,
                    format!("m{}", hidden + drawn),
                    format!("Militia {}", hidden + drawn),
                    PATRIOT,
                    Kind::Hidden,
                    false,
                    s,
                )?;
            }
            for (n, broken) in [(p.regulars, false), (p.broken_regulars, true)] {
                for _ in 0..n {
                    regulars += 1;
                    add(
                        &mut roster,
                        &mut start,
                        format!("r{regulars}"),
                        format!("Regulars {regulars}"),
                        BRITISH,
                        Kind::Regular,
                        false,
                        st(broken, false),
                    )?;
                }
            }
            for b in &p.british {
                let name = lookup(file, &BRITISH_LEADERS, b, "British leader")?;
                add(
                    &mut roster,
                    &mut start,
                    b.clone(),
                    name.into(),
                    BRITISH,
                    Kind::Leader,
                    false,
                    st(false, false),
                )?;
            }
            if p.percy {
                for i in 1..=8 {
                    add(
                        &mut roster,
                        &mut start,
                        format!("p{i}"),
                        format!("Percy's Regulars {i}"),
                        BRITISH,
                        Kind::Regular,
                        true,
                        st(false, false),
                    )?;
                }
                add(
                    &mut roster,
                    &mut start,
                    "cannon".into(),
                    "Field Cannon".into(),
                    BRITISH,
                    Kind::Cannon,
                    true,
                    st(false, false),
                )?;
                add(
                    &mut roster,
                    &mut start,
                    "percy".into(),
                    "Brig. Gen. Hugh, Earl Percy".into(),
                    BRITISH,
                    Kind::Leader,
                    true,
                    st(false, false),
                )?;
            }
            for x in &p.riders {
                let name = lookup(file, &RIDERS, x, "Nightrider")?;
                add(
                    &mut roster,
                    &mut start,
                    x.clone(),
                    name.into(),
                    PATRIOT,
                    Kind::Rider,
                    false,
                    st(false, p.under),
                )?;
            }
            for x in &p.sons {
                let name = lookup(file, &SONS, x, "Son of Liberty")?;
                add(
                    &mut roster,
                    &mut start,
                    x.clone(),
                    name.into(),
                    PATRIOT,
                    Kind::Son,
                    false,
                    st(false, p.under),
                )?;
            }
        }
        // Percy's force waits on the turn track unless placed (12.0).
        if !roster.iter().any(|u| u.percy) {
            let pending = Start {
                at: None,
                pending: true,
                broken: false,
                under: false,
                drawn: false,
            };
            for i in 1..=8 {
                add(
                    &mut roster,
                    &mut start,
                    format!("p{i}"),
                    format!("Percy's Regulars {i}"),
                    BRITISH,
                    Kind::Regular,
                    true,
                    pending,
                )?;
            }
            add(
                &mut roster,
                &mut start,
                "cannon".into(),
                "Field Cannon".into(),
                BRITISH,
                Kind::Cannon,
                true,
                pending,
            )?;
            add(
                &mut roster,
                &mut start,
                "percy".into(),
                "Brig. Gen. Hugh, Earl Percy".into(),
                BRITISH,
                Kind::Leader,
                true,
                pending,
            )?;
        }
        // Spare hidden-militia slots, so that every pool piece can reach the map (15.2).
        let pieces = crate::common::MILITIA_POOL.iter().sum::<u8>();
        if hidden + drawn > pieces {
            return Err(format!(
                "{file}: {what}: {} militia placed but the pool holds {pieces} (15.1)",
                hidden + drawn
            ));
        }
        for i in hidden + drawn + 1..=pieces {
            add(
                &mut roster,
                &mut start,
                format!("m{i}"),
                format!("Militia {i}"),
                PATRIOT,
                Kind::Hidden,
                false,
                Start {
                    at: None,
                    pending: false,
                    broken: false,
                    under: false,
                    drawn: false,
                },
            )?;
        }
        if roster.len() > MAX_UNITS {
            return Err(format!(
                "{file}: {what}: at most {MAX_UNITS} counters, not {}",
                roster.len()
            ));
        }
        if sc.percy_turn < sc.first_turn || sc.percy_turn > sc.last_turn {
            return Err(format!(
                "{file}: {what}: percy_turn must fall within the scenario's turns"
            ));
        }
        let british = roster
            .iter()
            .enumerate()
            .filter(|(_, u)| u.side == BRITISH)
            .fold(0u64, |m, (i, _)| m | 1u64 << i);
        let percy = roster
            .iter()
            .enumerate()
            .filter(|(_, u)| u.percy)
            .fold(0u64, |m, (i, _)| m | 1u64 << i);
        out.push(Setup {
            british,
            percy,
            id: sc.id,
            name: sc.name,
            first_turn: sc.first_turn,
            last_turn: sc.last_turn,
            markers: sc.markers,
            opening_call: sc.opening_call,
            percy_turn: sc.percy_turn,
            reconstructed: sc.reconstructed,
            roster,
            start,
        });
    }
    for needed in ["standard", "solitaire"] {
        if !out.iter().any(|s| s.id == needed) {
            return Err(format!("{file}: no scenario {needed:?}"));
        }
    }
    Ok(out)
}

/// Reads every data file, given as (name shown in errors, file name, text).
pub fn load(files: &[(String, &str, String)]) -> Result<Data, String> {
    let get = |name: &str| {
        files
            .iter()
            .find(|f| f.1 == name)
            .ok_or_else(|| format!("data file {name} is missing"))
    };
    let (src_map, _, map_text) = get("map.toml")?;
    let (map, map_reconstructed) = load_map(src_map, map_text)?;
    let (src_cards, _, cards_text) = get("cards.toml")?;
    let cards = Cards::load(src_cards, cards_text)?;
    let (src_vp, _, vp_text) = get("vp.toml")?;
    let vp = load_vp(src_vp, vp_text)?;
    let (src_sc, _, sc_text) = get("scenarios.toml")?;
    let setups = load_setups(src_sc, sc_text, &map)?;
    Ok(Data {
        map,
        cards,
        vp,
        setups,
        sources: files.iter().map(|f| f.0.clone()).collect(),
        map_reconstructed,
    })
}
