//! The drawing of the Bunker Hill map for the browser board: the `[drawing]` table of
//! `data/bunker-hill/map.toml` (docs/rulings/bunker-hill.md R12). Drawing data only: the rules
//! (adjacency, Line of Sight 7.2) never read it. The loader checks that every region has a
//! simple outline with its anchor inside, that no two outlines overlap, that regions adjacent in
//! the rules share a side (or are listed in `across_water`) and that regions sharing a side are
//! adjacent, so the board never draws a border the rules do not have.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Largest coordinate (in absolute value) a drawing may use.
const COORD_LIMIT: f32 = 10_000.0;

/// The kinds of works a drawing may show (history.md: the redoubt, the breastwork, the rail
/// fence, the stone wall on the beach).
pub const WORK_KINDS: [&str; 4] = ["redoubt", "breastwork", "rail fence", "stone wall"];

#[derive(Clone, Debug, Serialize)]
pub struct Drawing {
    pub reconstructed: bool,
    /// The drawn area: [x, y, width, height].
    pub frame: [f32; 4],
    /// One outline and anchor per region, in map order.
    pub regions: Vec<DrawnRegion>,
    /// Adjacent pairs drawn apart, with water between them (region indices).
    pub across_water: Vec<(u8, u8)>,
    pub roads: Vec<Line>,
    pub works: Vec<Work>,
    /// Ground off the peninsula (Boston, the mainland), drawn for orientation only.
    pub land: Vec<Area>,
    pub labels: Vec<Label>,
}

#[derive(Clone, Debug, Serialize)]
pub struct DrawnRegion {
    /// Where its counters go: a point inside the outline.
    pub at: [f32; 2],
    pub shape: Vec<[f32; 2]>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Line {
    pub name: String,
    pub line: Vec<[f32; 2]>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Work {
    pub kind: String,
    pub line: Vec<[f32; 2]>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    pub name: String,
    pub shape: Vec<[f32; 2]>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Label {
    pub text: String,
    pub at: [f32; 2],
    #[serde(default)]
    pub angle: f32,
    /// "water" (italic, blue) or "place".
    #[serde(default = "water")]
    pub style: String,
}

fn water() -> String {
    "water".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DrawingFile {
    #[serde(default)]
    reconstructed: bool,
    frame: [f32; 4],
    #[serde(default)]
    across_water: Vec<[String; 2]>,
    regions: BTreeMap<String, RegionFile>,
    #[serde(default)]
    roads: Vec<Line>,
    #[serde(default)]
    works: Vec<Work>,
    #[serde(default)]
    land: Vec<Area>,
    #[serde(default)]
    labels: Vec<Label>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegionFile {
    at: [f32; 2],
    shape: Vec<[f32; 2]>,
}

/// What `load` needs to know of a region of the rules map.
pub(crate) struct RuleRegion<'a> {
    pub id: &'a str,
    pub adj: u64,
}

type P = [f32; 2];

/// Twice the signed area.
fn area2(p: &[P]) -> f32 {
    (0..p.len())
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % p.len()]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}

fn orient(p: P, q: P, r: P) -> f32 {
    (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
}

/// Do segments ab and cd cross at a point inside both (touching or shared ends do not count)?
fn crosses(a: P, b: P, c: P, d: P) -> bool {
    const E: f32 = 1e-4;
    let (d1, d2) = (orient(a, b, c), orient(a, b, d));
    let (d3, d4) = (orient(c, d, a), orient(c, d, b));
    ((d1 > E && d2 < -E) || (d1 < -E && d2 > E)) && ((d3 > E && d4 < -E) || (d3 < -E && d4 > E))
}

/// Is the point inside the polygon (even-odd rule)?
pub fn inside(pt: P, poly: &[P]) -> bool {
    let (x, y) = (pt[0], pt[1]);
    let mut c = false;
    for i in 0..poly.len() {
        let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
        if (p[1] > y) != (q[1] > y) && x < p[0] + (y - p[1]) * (q[0] - p[0]) / (q[1] - p[1]) {
            c = !c;
        }
    }
    c
}

fn seg_dist(p: P, a: P, b: P) -> f32 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let l = dx * dx + dy * dy;
    let t = if l == 0.0 {
        0.0
    } else {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l).clamp(0.0, 1.0)
    };
    ((p[0] - a[0] - t * dx).powi(2) + (p[1] - a[1] - t * dy).powi(2)).sqrt()
}

/// Distance from a point to a polygon's outline.
fn edge_dist(p: P, poly: &[P]) -> f32 {
    (0..poly.len())
        .map(|i| seg_dist(p, poly[i], poly[(i + 1) % poly.len()]))
        .fold(f32::MAX, f32::min)
}

fn bbox(p: &[P]) -> (P, P) {
    let mut lo = [f32::MAX; 2];
    let mut hi = [f32::MIN; 2];
    for q in p {
        lo = [lo[0].min(q[0]), lo[1].min(q[1])];
        hi = [hi[0].max(q[0]), hi[1].max(q[1])];
    }
    (lo, hi)
}

/// Do two outlines share a side (two consecutive corners of one are consecutive in the other)?
pub fn share_side(a: &[P], b: &[P]) -> bool {
    let sides = |o: &[P]| -> Vec<(P, P)> {
        (0..o.len())
            .map(|k| {
                let (p, q) = (o[k], o[(k + 1) % o.len()]);
                if (p[0], p[1]) <= (q[0], q[1]) {
                    (p, q)
                } else {
                    (q, p)
                }
            })
            .collect()
    };
    let sb = sides(b);
    sides(a).iter().any(|s| sb.contains(s))
}

/// Do two simple outlines overlap (share inner area)? Sides that cross, or a corner or the
/// middle of a side of one strictly inside the other, say they do; shared sides and corners
/// do not.
pub fn overlap(a: &[P], b: &[P]) -> bool {
    let (la, ha) = bbox(a);
    let (lb, hb) = bbox(b);
    if la[0] >= hb[0] || lb[0] >= ha[0] || la[1] >= hb[1] || lb[1] >= ha[1] {
        return false;
    }
    for i in 0..a.len() {
        let (p, q) = (a[i], a[(i + 1) % a.len()]);
        for k in 0..b.len() {
            if crosses(p, q, b[k], b[(k + 1) % b.len()]) {
                return true;
            }
        }
    }
    let probe = |x: &[P], y: &[P]| {
        (0..x.len()).any(|i| {
            let (p, q) = (x[i], x[(i + 1) % x.len()]);
            let m = [(p[0] + q[0]) / 2.0, (p[1] + q[1]) / 2.0];
            [p, m]
                .iter()
                .any(|&t| edge_dist(t, y) > 0.05 && inside(t, y))
        })
    };
    probe(a, b) || probe(b, a)
}

fn check_outline(what: &str, shape: &[P], at: P) -> Result<(), String> {
    if shape.len() < 3 {
        return Err(format!("{what}: an outline needs at least 3 corners"));
    }
    for k in 0..shape.len() {
        if shape[k] == shape[(k + 1) % shape.len()] {
            return Err(format!("{what}: corner {:?} is repeated", shape[k]));
        }
    }
    if area2(shape).abs() < 1e-3 {
        return Err(format!("{what}: the outline encloses no area"));
    }
    let m = shape.len();
    for x in 0..m {
        for y in x + 1..m {
            let (a, b) = (shape[x], shape[(x + 1) % m]);
            let (c, d) = (shape[y], shape[(y + 1) % m]);
            if crosses(a, b, c, d) {
                return Err(format!(
                    "{what}: the outline crosses itself ({a:?}-{b:?} and {c:?}-{d:?})"
                ));
            }
        }
    }
    if !inside(at, shape) {
        return Err(format!(
            "{what}: its anchor at = {at:?} lies outside its outline"
        ));
    }
    Ok(())
}

/// Reads and checks the `[drawing]` table against the rules' regions.
pub(crate) fn load(
    file: &str,
    d: Option<DrawingFile>,
    regions: &[RuleRegion],
) -> Result<Drawing, String> {
    let d = d.ok_or_else(|| {
        format!("{file}: no [drawing] table: every region needs an outline for the board (see FORMAT.md)")
    })?;
    let what = |id: &str| format!("{file}: [drawing.regions] {id:?}");
    let mut coords: Vec<(String, Vec<f32>)> = vec![("frame".into(), d.frame.to_vec())];
    for (id, r) in &d.regions {
        let mut v = r.at.to_vec();
        v.extend(r.shape.iter().flatten());
        coords.push((format!("regions.{id}"), v));
    }
    let lines = d
        .roads
        .iter()
        .map(|l| (format!("road {:?}", l.name), &l.line))
        .chain(
            d.works
                .iter()
                .map(|w| (format!("works {:?}", w.kind), &w.line)),
        )
        .chain(
            d.land
                .iter()
                .map(|a| (format!("land {:?}", a.name), &a.shape)),
        );
    for (w, pts) in lines {
        if pts.len() < 2 {
            return Err(format!(
                "{file}: [drawing] {w}: a line needs at least 2 points"
            ));
        }
        coords.push((w, pts.iter().flatten().copied().collect()));
    }
    for l in &d.labels {
        coords.push((format!("label {:?}", l.text), l.at.to_vec()));
    }
    if let Some((w, _)) = coords
        .iter()
        .find(|(_, v)| !v.iter().all(|c| c.is_finite() && c.abs() <= COORD_LIMIT))
    {
        return Err(format!(
            "{file}: [drawing] {w}: coordinates must be numbers between -{COORD_LIMIT} and {COORD_LIMIT}"
        ));
    }
    if d.frame[2] <= 0.0 || d.frame[3] <= 0.0 {
        return Err(format!(
            "{file}: [drawing] frame is [x, y, width, height] with a positive width and height"
        ));
    }
    for id in d.regions.keys() {
        if !regions.iter().any(|r| r.id == id) {
            return Err(format!("{}: no region has this id", what(id)));
        }
    }
    for w in &d.works {
        if !WORK_KINDS.contains(&w.kind.as_str()) {
            return Err(format!(
                "{file}: [drawing] works {:?}: kind must be one of {WORK_KINDS:?}",
                w.kind
            ));
        }
    }
    for l in &d.labels {
        if l.text.trim().is_empty() {
            return Err(format!(
                "{file}: [drawing] labels: a label at {:?} has no text",
                l.at
            ));
        }
        if l.style != "water" && l.style != "place" {
            return Err(format!(
                "{file}: [drawing] label {:?}: style must be \"water\" or \"place\"",
                l.text
            ));
        }
    }
    let mut drawn = Vec::with_capacity(regions.len());
    for r in regions {
        let s = d.regions.get(r.id).ok_or_else(|| {
            format!(
                "{}: missing: every region needs a shape and an anchor",
                what(r.id)
            )
        })?;
        check_outline(&what(r.id), &s.shape, s.at)?;
        drawn.push(DrawnRegion {
            at: s.at,
            shape: s.shape.clone(),
        });
    }
    let index = |id: &str| {
        regions
            .iter()
            .position(|r| r.id == id)
            .ok_or_else(|| format!("{file}: [drawing] across_water: no region {id:?}"))
    };
    let mut across = Vec::new();
    for [x, y] in &d.across_water {
        let (a, b) = (index(x)?, index(y)?);
        if regions[a].adj >> b & 1 == 0 {
            return Err(format!(
                "{file}: [drawing] across_water: {x:?} and {y:?} are not adjacent in the rules"
            ));
        }
        across.push((a.min(b) as u8, a.max(b) as u8));
    }
    for a in 0..regions.len() {
        for b in a + 1..regions.len() {
            if overlap(&drawn[a].shape, &drawn[b].shape) {
                return Err(format!(
                    "{file}: [drawing.regions] {:?} and {:?}: their outlines overlap",
                    regions[a].id, regions[b].id
                ));
            }
        }
    }
    for a in 0..regions.len() {
        for b in a + 1..regions.len() {
            let (sa, sb) = (&drawn[a].shape, &drawn[b].shape);
            let (ia, ib) = (regions[a].id, regions[b].id);
            let adjacent = regions[a].adj >> b & 1 == 1;
            let side = share_side(sa, sb);
            if adjacent && !side && !across.contains(&(a as u8, b as u8)) {
                return Err(format!(
                    "{file}: [drawing.regions] {ia:?} and {ib:?} are adjacent in the rules but their outlines share no side (two consecutive corners with the same coordinates); give them a common side or list the pair in across_water"
                ));
            }
            if side && !adjacent {
                return Err(format!(
                    "{file}: [drawing.regions] {ia:?} and {ib:?} share a side on the drawing but are not adjacent in the rules"
                ));
            }
        }
    }
    Ok(Drawing {
        reconstructed: d.reconstructed,
        frame: d.frame,
        regions: drawn,
        across_water: across,
        roads: d.roads,
        works: d.works,
        land: d.land,
        labels: d.labels,
    })
}
