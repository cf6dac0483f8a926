//! The Bunker Hill data files (`data/bunker-hill/`, described in its FORMAT.md): the map with
//! its geometry (2.0-3.5), the ten cards (12.1) and the Victory Point aid (10.0). Every file
//! is checked on load and every error names the file and the item. Line of Sight (7.2) is
//! computed here once from the region geometry.

use crate::common::Card;
use serde::Deserialize;

/// Most regions on the map (landing zones included); sets of regions are `u64` masks.
pub const MAX_REGIONS: usize = 60;

pub const DATA_FILES: [(&str, &str); 3] = [
    ("map.toml", include_str!("../../data/bunker-hill/map.toml")),
    (
        "cards.toml",
        include_str!("../../data/bunker-hill/cards.toml"),
    ),
    ("vp.toml", include_str!("../../data/bunker-hill/vp.toml")),
];

/// What a region is (3.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RegionKind {
    /// Elevation 0 ground (green), staging areas included.
    Low,
    /// A slope next to a hilltop (elevation 1).
    Slope,
    /// A ridge line not next to a hilltop (elevation 1).
    Ridge,
    /// A hilltop region (elevation 2).
    Hilltop,
    /// One of the ten Charlestown regions (3.3).
    Town,
    /// A Landing Zone (3.5): water, British only.
    Zone,
}

/// How a region's printed modifiers apply (3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ModKind {
    #[default]
    None,
    /// Black modifiers: the hilltop and slope exceptions apply.
    Normal,
    /// Yellow rail fence / stone wall modifiers: only from the regions across the wall.
    Wall,
    /// Orange Redoubt modifiers: always used.
    Redoubt,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hill {
    Moultons,
    Breeds,
    Bunker,
}

pub const HILL_IDS: [&str; 3] = ["moultons", "breeds", "bunker"];

#[derive(Clone, Debug)]
pub struct Region {
    pub id: String,
    pub name: String,
    pub kind: RegionKind,
    pub elevation: u8,
    pub hill: Option<Hill>,
    pub volley: i8,
    pub assault: i8,
    pub modifier: ModKind,
    /// The regions across a rail fence or stone wall (3.1), as a mask.
    pub wall_from: u64,
    /// The Landing Zone this region is a Staging Area of (3.5), 0 if none.
    pub staging_zone: u8,
    /// For a Landing Zone: its number, Transport and Staging numbers (3.5).
    pub zone: u8,
    pub transport: u8,
    pub staging: u8,
    pub polygon: Vec<(f32, f32)>,
    /// The polygon's bounding box (low corner, high corner).
    pub bbox: ((f32, f32), (f32, f32)),
    pub centre: (f32, f32),
    pub adj: u64,
    pub reconstructed: bool,
}

/// One of the three Fleet Boxes (2.0, 4.5, 6.6) with its Bombard target area (6.4).
#[derive(Clone, Debug)]
pub struct FleetBox {
    pub id: String,
    pub name: String,
    pub adj: u8,
    pub targets: u64,
}

/// What a pair of regions sees of each other (7.2), computed from the geometry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sight {
    /// Blocked by terrain whatever the units.
    pub blocked: bool,
    /// Regions that block the line when they hold military units.
    pub units: u64,
}

#[derive(Clone, Debug)]
pub struct Map {
    pub regions: Vec<Region>,
    pub fleet: Vec<FleetBox>,
    pub copps: u64,
    pub town: u64,
    pub land: u64,
    pub zones: u64,
    pub staging: u64,
    pub hills: [u64; 3],
    pub hilltops: u64,
    /// Land-graph distances between regions (255: unreachable).
    pub dist: Vec<[u8; MAX_REGIONS]>,
    /// Distance to the Muster Box (the Neck is 1).
    pub muster_dist: [u8; MAX_REGIONS],
    /// Distance to the Charlestown Neck.
    pub neck_dist: [u8; MAX_REGIONS],
    /// Distance to the nearest Staging Area.
    pub staging_dist: [u8; MAX_REGIONS],
    pub neck: u8,
    /// The regions next to the Muster Box (the Neck).
    pub muster_adj: u64,
    pub sight: Vec<Sight>,
    pub reconstructed: bool,
    /// The drawing for the board (R12): read by no rule.
    pub drawing: super::drawing::Drawing,
}

#[derive(Clone, Debug)]
pub struct VpAid {
    pub unit_destroyed: i16,
    pub leader_killed: i16,
    pub unit_broken: i16,
    pub leader_wounded: i16,
    pub fires_free: u8,
    pub fire_each: i16,
    pub hill: [i16; 3],
}

#[derive(Clone, Debug)]
pub struct Data {
    pub map: Map,
    pub cards: Vec<Card>,
    pub vp: VpAid,
    pub sources: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegionFile {
    id: String,
    name: String,
    kind: RegionKind,
    elevation: u8,
    #[serde(default)]
    hill: Option<String>,
    #[serde(default)]
    volley: i8,
    #[serde(default)]
    assault: i8,
    #[serde(default)]
    modifier: ModKind,
    #[serde(default)]
    wall_from: Vec<String>,
    #[serde(default)]
    staging_zone: u8,
    #[serde(default)]
    zone: u8,
    #[serde(default)]
    transport: u8,
    #[serde(default)]
    staging: u8,
    polygon: Vec<[f32; 2]>,
    centre: [f32; 2],
    adjacent: Vec<String>,
    #[serde(default)]
    reconstructed: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MusterFile {
    #[allow(dead_code)]
    name: String,
    adjacent: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FleetFile {
    id: String,
    name: String,
    adjacent: Vec<String>,
    targets: Vec<String>,
    #[serde(default)]
    #[allow(dead_code)]
    reconstructed: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CoppsFile {
    targets: Vec<String>,
    #[serde(default)]
    #[allow(dead_code)]
    reconstructed: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    #[serde(default)]
    reconstructed: bool,
    region: Vec<RegionFile>,
    muster: MusterFile,
    fleet_box: Vec<FleetFile>,
    copps_hill: CoppsFile,
    #[serde(default)]
    drawing: Option<super::drawing::DrawingFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardsFile {
    #[serde(default)]
    #[allow(dead_code)]
    reconstructed: bool,
    cards: Vec<Card>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HillFile {
    id: String,
    points: i16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VpFile {
    #[serde(default)]
    #[allow(dead_code)]
    reconstructed: bool,
    unit_destroyed: i16,
    leader_killed: i16,
    unit_broken: i16,
    leader_wounded: i16,
    fires_free: u8,
    fire_each: i16,
    hill: Vec<HillFile>,
}

/// Loads the three files from (name shown in errors, file name, text) triples.
pub fn load(files: &[(String, &str, String)]) -> Result<Data, String> {
    let get = |f: &str| {
        files
            .iter()
            .find(|x| x.1 == f)
            .map(|x| (x.0.as_str(), x.2.as_str()))
            .ok_or_else(|| format!("data file {f} is missing"))
    };
    let (mname, mtext) = get("map.toml")?;
    let map = load_map(mname, mtext)?;
    let (cname, ctext) = get("cards.toml")?;
    let cards = load_cards(cname, ctext)?;
    let (vname, vtext) = get("vp.toml")?;
    let vp = load_vp(vname, vtext)?;
    Ok(Data {
        map,
        cards,
        vp,
        sources: files.iter().map(|f| f.0.clone()).collect(),
    })
}

fn load_cards(file: &str, text: &str) -> Result<Vec<Card>, String> {
    let f: CardsFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let ids = [1u8, 6, 8, 10, 11, 12, 13, 14, 16, 17];
    if f.cards.len() != ids.len() {
        return Err(format!(
            "{file}: Bunker Hill uses ten cards (12.1), not {}",
            f.cards.len()
        ));
    }
    for (c, want) in f.cards.iter().zip(ids) {
        if c.id != want {
            return Err(format!(
                "{file}: card {} is listed where card {want} should be (12.1 uses 1, 6, 8, 10-14, 16, 17 in that order)",
                c.id
            ));
        }
        if !(1..=5).contains(&c.british) || !(1..=5).contains(&c.patriot) {
            return Err(format!("{file}: card {}: actions must be 1 to 5", c.id));
        }
        if c.hash > 3 {
            return Err(format!("{file}: card {}: hash marks must be 0 to 3", c.id));
        }
    }
    if f.cards.iter().all(|c| c.hash > 0) {
        return Err(format!(
            "{file}: the solitaire deck (cards without hash marks, 12.2) would be empty"
        ));
    }
    Ok(f.cards)
}

fn load_vp(file: &str, text: &str) -> Result<VpAid, String> {
    let f: VpFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let mut hill = [0i16; 3];
    let mut seen = [false; 3];
    for h in &f.hill {
        let Some(i) = HILL_IDS.iter().position(|x| *x == h.id) else {
            return Err(format!(
                "{file}: hill {:?}: must be one of {HILL_IDS:?}",
                h.id
            ));
        };
        if std::mem::replace(&mut seen[i], true) {
            return Err(format!("{file}: hill {:?} is listed twice", h.id));
        }
        if !(0..=20).contains(&h.points) {
            return Err(format!("{file}: hill {:?}: points must be 0 to 20", h.id));
        }
        hill[i] = h.points;
    }
    if let Some(i) = seen.iter().position(|x| !x) {
        return Err(format!("{file}: hill {:?} is missing", HILL_IDS[i]));
    }
    for (what, v) in [
        ("unit_destroyed", f.unit_destroyed),
        ("leader_killed", f.leader_killed),
        ("unit_broken", f.unit_broken),
        ("leader_wounded", f.leader_wounded),
        ("fire_each", f.fire_each),
    ] {
        if !(0..=20).contains(&v) {
            return Err(format!("{file}: {what} must be 0 to 20 half points"));
        }
    }
    if f.fires_free > 10 {
        return Err(format!("{file}: fires_free must be 0 to 10"));
    }
    Ok(VpAid {
        unit_destroyed: f.unit_destroyed,
        leader_killed: f.leader_killed,
        unit_broken: f.unit_broken,
        leader_wounded: f.leader_wounded,
        fires_free: f.fires_free,
        fire_each: f.fire_each,
        hill,
    })
}

fn load_map(file: &str, text: &str) -> Result<Map, String> {
    let mut f: MapFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let n = f.region.len();
    if n == 0 || n > MAX_REGIONS {
        return Err(format!(
            "{file}: the map must have 1 to {MAX_REGIONS} regions, not {n}"
        ));
    }
    let index = |name: &str, what: &str| -> Result<usize, String> {
        f.region
            .iter()
            .position(|r| r.id == name)
            .ok_or_else(|| format!("{file}: {what}: no region {name:?}"))
    };
    let mut regions = Vec::with_capacity(n);
    for (i, r) in f.region.iter().enumerate() {
        let item = format!("region {:?}", r.id);
        if muster_core::Key::new(&r.id).is_err() {
            return Err(format!(
                "{file}: {item}: ids are 1-15 lowercase letters, digits or '-'"
            ));
        }
        if f.region[..i].iter().any(|o| o.id == r.id) {
            return Err(format!("{file}: {item} is listed twice"));
        }
        let want = match r.kind {
            RegionKind::Hilltop => 2,
            RegionKind::Slope | RegionKind::Ridge => 1,
            _ => 0,
        };
        if r.elevation != want {
            return Err(format!(
                "{file}: {item}: a {:?} region has elevation {want} (7.2), not {}",
                r.kind, r.elevation
            ));
        }
        let hill = match (&r.hill, r.kind) {
            (None, RegionKind::Hilltop) => {
                return Err(format!("{file}: {item}: a hilltop must name its hill"));
            }
            (None, _) => None,
            (Some(h), RegionKind::Hilltop) => Some(match h.as_str() {
                "moultons" => Hill::Moultons,
                "breeds" => Hill::Breeds,
                "bunker" => Hill::Bunker,
                _ => {
                    return Err(format!("{file}: {item}: hill must be one of {HILL_IDS:?}"));
                }
            }),
            (Some(_), _) => {
                return Err(format!("{file}: {item}: only hilltops belong to a hill"));
            }
        };
        if !(-3..=0).contains(&r.volley) || !(0..=3).contains(&r.assault) {
            return Err(format!(
                "{file}: {item}: volley modifier must be -3..0 and assault modifier 0..3"
            ));
        }
        if r.modifier == ModKind::None && (r.volley != 0 || r.assault != 0) {
            return Err(format!(
                "{file}: {item}: modifiers need a modifier kind (normal, wall, redoubt)"
            ));
        }
        let mut wall_from = 0u64;
        for w in &r.wall_from {
            wall_from |= 1 << index(w, &format!("{item} wall_from"))?;
        }
        if (r.modifier == ModKind::Wall) != (wall_from != 0) {
            return Err(format!(
                "{file}: {item}: a wall region lists the regions across its wall, and only a wall region does"
            ));
        }
        if r.kind == RegionKind::Zone {
            if !(1..=6).contains(&r.zone) || r.transport == 0 || r.staging == 0 {
                return Err(format!(
                    "{file}: {item}: a landing zone needs zone 1-6, transport and staging numbers (3.5)"
                ));
            }
        } else if r.zone != 0 || r.transport != 0 || r.staging != 0 {
            return Err(format!(
                "{file}: {item}: only landing zones have zone, transport and staging numbers"
            ));
        }
        if r.staging_zone > 6 || (r.staging_zone > 0 && r.kind == RegionKind::Zone) {
            return Err(format!(
                "{file}: {item}: staging_zone must be a land region's zone 1-6"
            ));
        }
        if r.polygon.len() < 3 {
            return Err(format!(
                "{file}: {item}: the polygon needs at least 3 corners"
            ));
        }
        let polygon: Vec<(f32, f32)> = r.polygon.iter().map(|p| (p[0], p[1])).collect();
        let centre = (r.centre[0], r.centre[1]);
        if !inside(&polygon, centre) {
            return Err(format!(
                "{file}: {item}: the centre {centre:?} is not inside the polygon"
            ));
        }
        let mut adj = 0u64;
        for a in &r.adjacent {
            let j = index(a, &format!("{item} adjacent"))?;
            if j == i {
                return Err(format!("{file}: {item} lists itself as adjacent"));
            }
            adj |= 1 << j;
        }
        regions.push(Region {
            id: r.id.clone(),
            name: r.name.clone(),
            kind: r.kind,
            elevation: r.elevation,
            hill,
            volley: r.volley,
            assault: r.assault,
            modifier: r.modifier,
            wall_from,
            staging_zone: r.staging_zone,
            zone: r.zone,
            transport: r.transport,
            staging: r.staging,
            bbox: bbox(&polygon),
            polygon,
            centre,
            adj,
            reconstructed: r.reconstructed,
        });
    }
    for (i, r) in regions.iter().enumerate() {
        for (j, o) in regions.iter().enumerate() {
            if r.adj >> j & 1 == 1 && o.adj >> i & 1 == 0 {
                return Err(format!(
                    "{file}: region {:?} lists {:?} as adjacent but not the other way round",
                    r.id, o.id
                ));
            }
        }
    }
    let mask = |p: &dyn Fn(&Region) -> bool| {
        regions
            .iter()
            .enumerate()
            .filter(|(_, r)| p(r))
            .fold(0u64, |m, (i, _)| m | 1 << i)
    };
    let town = mask(&|r| r.kind == RegionKind::Town);
    let zones = mask(&|r| r.kind == RegionKind::Zone);
    let staging = mask(&|r| r.staging_zone > 0);
    let land = mask(&|r| r.kind != RegionKind::Zone);
    if town.count_ones() != 10 {
        return Err(format!(
            "{file}: Charlestown has ten town regions (3.3), not {}",
            town.count_ones()
        ));
    }
    let ridges = mask(&|r| r.kind == RegionKind::Ridge);
    if ridges.count_ones() != 3 {
        return Err(format!(
            "{file}: the map has three ridge line regions (3.0), not {}",
            ridges.count_ones()
        ));
    }
    let mut hills = [0u64; 3];
    for (i, r) in regions.iter().enumerate() {
        if let Some(h) = r.hill {
            hills[h as usize] |= 1 << i;
        }
    }
    for (h, want) in [(0usize, 1u32), (1, 2), (2, 3)] {
        if hills[h].count_ones() != want {
            return Err(format!(
                "{file}: hill {:?} has {want} hilltop regions (3.0), not {}",
                HILL_IDS[h],
                hills[h].count_ones()
            ));
        }
    }
    let hilltops = hills[0] | hills[1] | hills[2];
    for (i, r) in regions.iter().enumerate() {
        let item = format!("region {:?}", r.id);
        match r.kind {
            RegionKind::Slope if r.adj & hilltops == 0 => {
                return Err(format!(
                    "{file}: {item}: a slope lies next to a hilltop region (3.0)"
                ));
            }
            RegionKind::Ridge if r.adj & hilltops != 0 => {
                return Err(format!(
                    "{file}: {item}: a ridge line lies next to no hilltop region (3.0)"
                ));
            }
            RegionKind::Zone => {
                if r.adj & !staging != 0 {
                    return Err(format!(
                        "{file}: {item}: a landing zone borders only its staging areas (3.5)"
                    ));
                }
                let count = (r.adj & staging).count_ones();
                let want = if r.zone == 2 || r.zone == 3 { 2 } else { 1 };
                if count != want {
                    return Err(format!(
                        "{file}: {item}: zone {} has {want} staging area(s) (3.5), not {count}",
                        r.zone
                    ));
                }
                for (j, o) in regions.iter().enumerate() {
                    if r.adj >> j & 1 == 1 && o.staging_zone != r.zone {
                        return Err(format!(
                            "{file}: {item}: its staging area {:?} names zone {}",
                            o.id, o.staging_zone
                        ));
                    }
                }
            }
            _ => {}
        }
        if r.staging_zone > 0 && r.adj & zones == 0 {
            return Err(format!(
                "{file}: {item}: a staging area borders its landing zone"
            ));
        }
        let _ = i;
    }
    for z in 1..=6u8 {
        if regions.iter().filter(|r| r.zone == z).count() != 1 {
            return Err(format!("{file}: landing zone {z} must appear exactly once"));
        }
    }
    let mut muster_adj = 0u64;
    for a in &f.muster.adjacent {
        muster_adj |= 1 << index(a, "muster adjacent")?;
    }
    let neck = index("neck", "the Charlestown Neck (3.4)")? as u8;
    if muster_adj != 1 << neck {
        return Err(format!(
            "{file}: muster: the Muster Box is adjacent to the Neck only (3.2)"
        ));
    }
    if f.fleet_box.len() != 3 {
        return Err(format!("{file}: there are three fleet boxes (2.0)"));
    }
    let box_ids = ["mystic", "harbour", "charles"];
    let mut fleet = Vec::new();
    for (i, b) in f.fleet_box.iter().enumerate() {
        if b.id != box_ids[i] {
            return Err(format!(
                "{file}: fleet box {:?}: list the boxes as {box_ids:?}",
                b.id
            ));
        }
        let mut adj = 0u8;
        for a in &b.adjacent {
            let Some(j) = box_ids.iter().position(|x| x == a) else {
                return Err(format!("{file}: fleet box {:?}: no box {a:?}", b.id));
            };
            adj |= 1 << j;
        }
        let mut targets = 0u64;
        for t in &b.targets {
            targets |= 1 << index(t, &format!("fleet box {:?} targets", b.id))?;
        }
        if targets & zones != 0 {
            return Err(format!(
                "{file}: fleet box {:?}: targets are land regions",
                b.id
            ));
        }
        fleet.push(FleetBox {
            id: b.id.clone(),
            name: b.name.clone(),
            adj,
            targets,
        });
    }
    if fleet[1].adj != 0b101 || fleet[0].adj != 0b010 || fleet[2].adj != 0b010 {
        return Err(format!(
            "{file}: fleet boxes: Boston Harbor is adjacent to both rivers, the rivers only to the harbour (2.0)"
        ));
    }
    let mut copps = 0u64;
    for t in &f.copps_hill.targets {
        copps |= 1 << index(t, "copps_hill targets")?;
    }
    let rule_regions: Vec<super::drawing::RuleRegion> = regions
        .iter()
        .map(|r| super::drawing::RuleRegion {
            id: &r.id,
            adj: r.adj,
        })
        .collect();
    let drawing = super::drawing::load(file, f.drawing.take(), &rule_regions)?;
    let mut map = Map {
        regions,
        fleet,
        copps,
        town,
        land,
        zones,
        staging,
        hills,
        hilltops,
        dist: vec![],
        muster_dist: [255; MAX_REGIONS],
        neck_dist: [255; MAX_REGIONS],
        staging_dist: [255; MAX_REGIONS],
        neck,
        muster_adj,
        sight: vec![],
        reconstructed: f.reconstructed,
        drawing,
    };
    map.dist = (0..n).map(|i| map.bfs(1 << i)).collect();
    map.neck_dist = map.bfs(1 << neck);
    map.staging_dist = map.bfs(staging);
    let mut md = map.neck_dist;
    for d in md.iter_mut() {
        *d = d.saturating_add(1);
    }
    map.muster_dist = md;
    // Sight is symmetric (7.2: "the converse is also true").
    map.sight = vec![Sight::default(); n * n];
    for a in 0..n {
        for b in a + 1..n {
            let s = map.compute_sight(a, b);
            map.sight[a * n + b] = s;
            map.sight[b * n + a] = s;
        }
    }
    Ok(map)
}

/// Point in polygon (even-odd rule).
pub fn inside(poly: &[(f32, f32)], p: (f32, f32)) -> bool {
    let mut c = false;
    let n = poly.len();
    for i in 0..n {
        let (xi, yi) = poly[i];
        let (xj, yj) = poly[(i + n - 1) % n];
        if (yi > p.1) != (yj > p.1) && p.0 < (xj - xi) * (p.1 - yi) / (yj - yi) + xi {
            c = !c;
        }
    }
    c
}

impl Map {
    pub fn n(&self) -> usize {
        self.regions.len()
    }

    /// Breadth-first distances over land regions from a set of regions.
    fn bfs(&self, from: u64) -> [u8; MAX_REGIONS] {
        let mut d = [255u8; MAX_REGIONS];
        let mut frontier = from & self.land;
        let mut seen = frontier;
        let mut k = 0u8;
        while frontier != 0 {
            let mut next = 0u64;
            let mut f = frontier;
            while f != 0 {
                let i = f.trailing_zeros() as usize;
                f &= f - 1;
                d[i] = k;
                next |= self.regions[i].adj & self.land;
            }
            next &= !seen;
            seen |= next;
            frontier = next;
            k += 1;
        }
        d
    }

    #[inline]
    pub fn adjacent(&self, a: u8, b: u8) -> bool {
        self.regions[a as usize].adj >> b & 1 == 1
    }

    #[inline]
    pub fn sight(&self, a: u8, b: u8) -> Sight {
        self.sight[a as usize * self.regions.len() + b as usize]
    }

    /// The region holding a point, if any.
    pub fn region_at(&self, p: (f32, f32)) -> Option<usize> {
        self.regions.iter().position(|r| {
            let (lo, hi) = r.bbox;
            p.0 >= lo.0 && p.0 <= hi.0 && p.1 >= lo.1 && p.1 <= hi.1 && inside(&r.polygon, p)
        })
    }

    /// The regions a straight line between two centres crosses, in order, without the two
    /// ends (7.2).
    pub fn crossed(&self, a: usize, b: usize) -> Vec<usize> {
        let (p, q) = (self.regions[a].centre, self.regions[b].centre);
        let len = ((q.0 - p.0).powi(2) + (q.1 - p.1).powi(2)).sqrt();
        let steps = (len * 2.0).ceil().max(1.0) as usize;
        let mut out: Vec<usize> = Vec::new();
        for k in 0..=steps {
            let t = k as f32 / steps as f32;
            let pt = (p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t);
            match self.region_at(pt) {
                Some(r) if r != a && r != b && !out.contains(&r) => out.push(r),
                _ => {}
            }
        }
        out
    }

    /// 7.2, applied to the regions a line crosses (docs/rulings/bunker-hill.md B20-B24).
    fn compute_sight(&self, a: usize, b: usize) -> Sight {
        if a == b || self.regions[a].adj >> b & 1 == 1 {
            return Sight::default();
        }
        let blocked = Sight {
            blocked: true,
            units: 0,
        };
        let (ea, eb) = (self.regions[a].elevation, self.regions[b].elevation);
        let between = self.crossed(a, b);
        let mut units = 0u64;
        for &r in &between {
            let reg = &self.regions[r];
            // Units may fire into a town region but not through one.
            if reg.kind == RegionKind::Town {
                return blocked;
            }
            let e = reg.elevation;
            if ea == eb {
                if e > ea {
                    return blocked;
                }
                // Same elevation: military units in between block, except that from
                // hilltop to hilltop only units on an intervening hilltop do.
                if ea < 2 || e == 2 {
                    units |= 1 << r;
                }
            } else {
                let (hi, lo, hi_end, lo_end) = if ea > eb {
                    (ea, eb, a, b)
                } else {
                    (eb, ea, b, a)
                };
                if e == 2 {
                    return blocked;
                }
                if hi == 1 && e == 1 {
                    return blocked;
                }
                if hi == 2 && lo == 0 && e == 1 {
                    let near_hi = self.regions[hi_end].adj >> r & 1 == 1;
                    let near_lo = self.regions[lo_end].adj >> r & 1 == 1;
                    if !near_hi && near_lo {
                        return blocked;
                    }
                }
            }
        }
        Sight {
            blocked: false,
            units,
        }
    }

    /// Do two regions share a border segment (for the geometry check)?
    pub fn shared_border(&self, a: usize, b: usize) -> bool {
        let pa = &self.regions[a].polygon;
        let pb = &self.regions[b].polygon;
        let edges = |p: &Vec<(f32, f32)>| -> Vec<((f32, f32), (f32, f32))> {
            (0..p.len()).map(|i| (p[i], p[(i + 1) % p.len()])).collect()
        };
        for (p1, p2) in edges(pa) {
            for (q1, q2) in edges(pb) {
                if overlap(p1, p2, q1, q2) > 0.5 {
                    return true;
                }
            }
        }
        false
    }
}

fn bbox(poly: &[(f32, f32)]) -> ((f32, f32), (f32, f32)) {
    let mut lo = (f32::MAX, f32::MAX);
    let mut hi = (f32::MIN, f32::MIN);
    for p in poly {
        lo = (lo.0.min(p.0), lo.1.min(p.1));
        hi = (hi.0.max(p.0), hi.1.max(p.1));
    }
    (lo, hi)
}

/// Length of the common part of two segments if they are collinear, else 0.
fn overlap(p1: (f32, f32), p2: (f32, f32), q1: (f32, f32), q2: (f32, f32)) -> f32 {
    let d = (p2.0 - p1.0, p2.1 - p1.1);
    let len = (d.0 * d.0 + d.1 * d.1).sqrt();
    if len == 0.0 {
        return 0.0;
    }
    let cross = |q: (f32, f32)| ((q.0 - p1.0) * d.1 - (q.1 - p1.1) * d.0).abs() / len;
    if cross(q1) > 0.01 || cross(q2) > 0.01 {
        return 0.0;
    }
    let t = |q: (f32, f32)| ((q.0 - p1.0) * d.0 + (q.1 - p1.1) * d.1) / len;
    let (a, b) = (t(q1).min(t(q2)), t(q1).max(t(q2)));
    (b.min(len) - a.max(0.0)).max(0.0)
}
