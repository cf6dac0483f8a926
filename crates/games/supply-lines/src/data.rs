//! The game's data: the TOML files in `data/` (map, tracks and set-up, Patriot reinforcement
//! markers), read and checked. Every error names the file and the item at fault, so that a
//! player correcting the reconstructed map or a track learns exactly what to fix.

use muster_core::Key;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Side indices (the order of `GameInfo::sides`).
pub const PATRIOT: u8 = 0;
pub const CROWN: u8 = 1;
/// Side ids as written in data, positions and notation.
pub const SIDE_IDS: [&str; 2] = ["patriot", "crown"];
/// Side names for people.
pub const SIDE_NAMES: [&str; 2] = ["Patriot", "Crown"];

/// Most areas a map may hold (areas are bits of a `u64`).
pub const MAX_AREAS: usize = 64;
/// Most Patriot reinforcement markers (markers are bits of a `u32`).
pub const MAX_MARKERS: usize = 32;
/// Most Crown reinforcement markers besides the Triumvirate.
pub const MAX_CROWN_MARKERS: usize = 6;

/// What kind of area (§2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    City,
    Fort,
    Point,
    Sea,
}

/// One area of the map.
#[derive(Clone, Debug)]
pub struct AreaDef {
    pub id: Key,
    pub name: String,
    pub kind: Kind,
    pub victory: bool,
    pub port: bool,
    /// War supplies it starts with (forts, §3.0).
    pub start_war: u8,
    /// Areas sharing a Movement Line with it, as bits (the Sea Box excluded: see `ports`).
    pub lines: u64,
    /// Where the browser board draws it (`at = [x, y]`, reconstructed: rulings R15).
    pub x: u16,
    pub y: u16,
}

/// Largest coordinate of an area's position on the board.
pub const MAX_COORD: i64 = 2000;

/// Half the width and half the height an area of this kind takes on the browser board (its
/// name, boxes and counters): the loader refuses positions where two of these overlap, and
/// the board's JSON passes them on to the renderer.
pub fn footprint(kind: Kind) -> (i64, i64) {
    match kind {
        Kind::City | Kind::Fort => (52, 32),
        Kind::Point => (28, 30),
        Kind::Sea => (100, 60),
    }
}

/// Water drawn on the browser board under the areas (decoration only: the rules move along
/// Movement Lines and through the Sea Box, never across water).
#[derive(Clone, Debug)]
pub struct Water {
    pub name: String,
    /// `sea` (a filled outline), `lake` (a wide band) or `river` (a line).
    pub kind: String,
    pub points: Vec<(u16, u16)>,
    /// Where its name is written, if anywhere.
    pub label: Option<(u16, u16)>,
}

/// One space of the Support Track (§11.0).
#[derive(Clone, Copy, Debug)]
pub struct SupportSpace {
    pub draws: u8,
    pub declaration: bool,
    pub treaty: bool,
}

/// One Crown reinforcement marker (§5.7, §12.0).
#[derive(Clone, Debug)]
pub struct CrownMarker {
    pub id: String,
    pub units: u8,
    pub leaders: u8,
    pub vc: u8,
    pub asterisk: bool,
}

/// One army of the set-up (§3.1, §3.2).
#[derive(Clone, Copy, Debug)]
pub struct SetupArmy {
    pub side: u8,
    pub area: u8,
    pub units: u8,
    pub leaders: u8,
}

/// Everything the rules read from data, checked.
#[derive(Clone, Debug)]
pub struct Data {
    pub areas: Vec<AreaDef>,
    pub water: Vec<Water>,
    pub sea: u8,
    pub nova_scotia: u8,
    pub quebec: u8,
    pub new_york: u8,
    pub albany: u8,
    pub philadelphia: u8,
    /// Bit masks over areas.
    pub ports: u64,
    pub victory: u64,
    pub points: u64,
    /// Cities and forts: areas that store supplies and give the Defensive Bonus.
    pub holds: u64,
    pub cities: u64,
    pub food_cubes: u8,
    pub war_cubes: u8,
    pub capacity: u8,
    pub years: Vec<u16>,
    pub winter: Vec<bool>,
    /// The pass-track space each initiative roll 1-6 puts the marker on (index 0 unused).
    pub pass_for_roll: [u8; 7],
    pub pass_labels: Vec<String>,
    pub support: Vec<SupportSpace>,
    /// Index of the starting space.
    pub support_start: u8,
    /// Index of the first Declaration of Independence space.
    pub declaration: u8,
    /// Index of the Treaty of Alliance space (the last one).
    pub treaty: u8,
    pub base_vc: u8,
    pub crown_markers: Vec<CrownMarker>,
    pub triumvirate_leaders: u8,
    pub triumvirate_vc: u8,
    pub patriot_markers: Vec<u8>,
    pub setup: Vec<SetupArmy>,
    /// Every item marked reconstructed, for `muster games` and the docs.
    pub reconstructed: Vec<String>,
}

impl Data {
    pub fn area(&self, id: &str) -> Option<u8> {
        self.areas
            .iter()
            .position(|a| a.id.as_str() == id)
            .map(|i| i as u8)
    }
    pub fn kind(&self, a: u8) -> Kind {
        self.areas[a as usize].kind
    }
    pub fn is(&self, mask: u64, a: u8) -> bool {
        mask >> a & 1 == 1
    }
    /// Areas adjacent to `a`, the Sea Box included for ports and every port for the Sea Box.
    pub fn adjacent(&self, a: u8) -> u64 {
        if a == self.sea {
            self.ports
        } else if self.is(self.ports, a) {
            self.areas[a as usize].lines | 1 << self.sea
        } else {
            self.areas[a as usize].lines
        }
    }
    pub fn turns(&self) -> u8 {
        self.years.len() as u8
    }
    pub fn is_winter(&self, turn: u8) -> bool {
        self.winter.get(turn as usize - 1).copied().unwrap_or(false)
    }
    /// The last Campaign Turn of the year of `turn` (§12.0 deadlines).
    pub fn last_campaign_turn_of_year(&self, turn: u8) -> u8 {
        let year = self.years.get(turn as usize - 1).copied().unwrap_or(0);
        (1..=self.turns())
            .filter(|&t| self.years[t as usize - 1] == year && !self.is_winter(t))
            .max()
            .unwrap_or(turn)
    }
    /// The first Winter Turn (§10.1: the third Patriot Leader).
    pub fn first_winter(&self) -> u8 {
        (1..=self.turns()).find(|&t| self.is_winter(t)).unwrap_or(0)
    }
    /// Victory Cities the Crown needs after taking `taken` numbered markers (and the
    /// Triumvirate if `triumvirate`) (§12.0, §12.1).
    pub fn vc_required(&self, taken: u8, triumvirate: bool) -> u8 {
        let base = if taken == 0 {
            self.base_vc
        } else {
            self.crown_markers[taken as usize - 1].vc
        };
        base + if triumvirate { self.triumvirate_vc } else { 0 }
    }
}

// ---- the files as written ------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    area: Vec<RawArea>,
    #[serde(default)]
    water: Vec<RawWater>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWater {
    name: String,
    kind: String,
    points: Vec<Vec<i64>>,
    #[serde(default)]
    label: Option<Vec<i64>>,
    #[serde(default)]
    reconstructed: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArea {
    id: String,
    name: String,
    kind: String,
    #[serde(default)]
    victory: bool,
    #[serde(default)]
    port: bool,
    #[serde(default)]
    nova_scotia: bool,
    #[serde(default)]
    war: u8,
    #[serde(default)]
    lines: Vec<String>,
    /// Position on the browser board.
    #[serde(default)]
    at: Option<Vec<i64>>,
    #[serde(default)]
    reconstructed: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTracks {
    game: RawGame,
    turns: RawTurns,
    pass: RawPass,
    support: RawSupport,
    crown_track: RawCrownTrack,
    setup: Vec<RawSetup>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGame {
    food_cubes: u8,
    war_cubes: u8,
    capacity: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTurns {
    #[serde(default)]
    reconstructed: bool,
    years: Vec<u16>,
    winter: Vec<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPass {
    #[serde(default)]
    reconstructed: bool,
    spaces: Vec<RawPassSpace>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPassSpace {
    label: String,
    rolls: Vec<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSupport {
    #[serde(default)]
    reconstructed: bool,
    start: u8,
    spaces: Vec<RawSupportSpace>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSupportSpace {
    draws: u8,
    #[serde(default)]
    declaration: bool,
    #[serde(default)]
    treaty: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCrownTrack {
    base_vc: u8,
    #[serde(default)]
    reconstructed: bool,
    markers: Vec<RawCrownMarker>,
    triumvirate: RawTriumvirate,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCrownMarker {
    id: String,
    units: u8,
    #[serde(default)]
    leaders: u8,
    vc: u8,
    #[serde(default)]
    asterisk: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTriumvirate {
    leaders: u8,
    vc: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetup {
    side: String,
    area: String,
    units: u8,
    #[serde(default)]
    leaders: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMarkers {
    #[serde(default)]
    reconstructed: bool,
    markers: Vec<String>,
}

fn parse<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, String> {
    toml::from_str(text).map_err(|e| format!("{file}: {e}"))
}

/// Reads and checks the three files: (file name, text) for the map, the tracks and the
/// Patriot reinforcement markers.
pub fn load(
    map: (&str, &str),
    tracks: (&str, &str),
    markers: (&str, &str),
) -> Result<Data, String> {
    let (mf, mt) = map;
    let raw: RawMap = parse(mf, mt)?;
    if raw.area.is_empty() || raw.area.len() > MAX_AREAS {
        return Err(format!(
            "{mf}: the map needs 1 to {MAX_AREAS} areas, not {}",
            raw.area.len()
        ));
    }
    let mut reconstructed = Vec::new();
    let mut rebuilt_areas = 0;
    let mut index = BTreeMap::new();
    for (i, a) in raw.area.iter().enumerate() {
        Key::new(&a.id).map_err(|e| format!("{mf}: area {}: {e}", i + 1))?;
        if index.insert(a.id.clone(), i as u8).is_some() {
            return Err(format!("{mf}: area {:?} is listed twice", a.id));
        }
    }
    let mut areas = Vec::new();
    let (mut sea, mut nova) = (None, None);
    for (i, a) in raw.area.iter().enumerate() {
        let at = |m: String| format!("{mf}: area {:?}: {m}", a.id);
        let kind = match a.kind.as_str() {
            "city" => Kind::City,
            "fort" => Kind::Fort,
            "point" => Kind::Point,
            "sea" => Kind::Sea,
            k => {
                return Err(at(format!(
                    "kind {k:?} must be \"city\", \"fort\", \"point\" or \"sea\""
                )));
            }
        };
        if kind == Kind::Sea {
            if sea.replace(i as u8).is_some() {
                return Err(at("there may be only one Sea Box".into()));
            }
            if a.victory || a.port || !a.lines.is_empty() {
                return Err(at(
                    "the Sea Box is no victory city or port and has no lines: it is adjacent \
                     to every port by itself (§2.1)"
                        .into(),
                ));
            }
        }
        if a.nova_scotia {
            if kind != Kind::City || !a.port {
                return Err(at("Nova Scotia must be a port city (§5.2)".into()));
            }
            if nova.replace(i as u8).is_some() {
                return Err(at("only one area may be Nova Scotia".into()));
            }
        }
        if a.victory && kind != Kind::City {
            return Err(at("only cities may be victory cities".into()));
        }
        if a.port && !matches!(kind, Kind::City | Kind::Point) {
            return Err(at("only cities and points may be ports".into()));
        }
        if a.war > 0 && kind != Kind::Fort {
            return Err(at("only forts start with war supplies (§3.0)".into()));
        }
        let mut lines = 0u64;
        for l in &a.lines {
            let j = *index
                .get(l)
                .ok_or_else(|| at(format!("line to {l:?}: no such area")))?;
            if j as usize == i {
                return Err(at("a line may not join an area to itself".into()));
            }
            if raw.area[j as usize].kind == "sea" {
                return Err(at(
                    "no lines to the Sea Box: every port is adjacent to it (§2.1)".into(),
                ));
            }
            if !raw.area[j as usize].lines.iter().any(|x| x == &a.id) {
                return Err(at(format!(
                    "line to {l:?} is not listed in {l:?}'s lines too"
                )));
            }
            lines |= 1 << j;
        }
        if a.reconstructed {
            rebuilt_areas += 1;
        }
        let (x, y) = match a.at.as_deref() {
            Some(&[x, y]) if (0..=MAX_COORD).contains(&x) && (0..=MAX_COORD).contains(&y) => {
                (x as u16, y as u16)
            }
            Some(v) => {
                return Err(at(format!(
                    "at = {v:?} must be two numbers [x, y], each from 0 to {MAX_COORD}"
                )));
            }
            None => {
                return Err(at(
                    "no position: add at = [x, y] (where the browser board draws it)".into(),
                ));
            }
        };
        areas.push(AreaDef {
            id: Key::new(&a.id).map_err(at)?,
            name: a.name.clone(),
            kind,
            victory: a.victory,
            port: a.port,
            start_war: a.war,
            lines,
            x,
            y,
        });
    }
    // Two areas drawn on top of each other could not be told apart, nor clicked.
    for (i, a) in areas.iter().enumerate() {
        for b in &areas[..i] {
            let (aw, ah) = footprint(a.kind);
            let (bw, bh) = footprint(b.kind);
            let dx = (a.x as i64 - b.x as i64).abs();
            let dy = (a.y as i64 - b.y as i64).abs();
            if dx < aw + bw && dy < ah + bh {
                return Err(format!(
                    "{mf}: areas {:?} at [{}, {}] and {:?} at [{}, {}] overlap on the board: \
                     their centres must be at least {} apart across or {} apart down",
                    b.id.as_str(),
                    b.x,
                    b.y,
                    a.id.as_str(),
                    a.x,
                    a.y,
                    aw + bw,
                    ah + bh
                ));
            }
        }
    }
    let mut water = Vec::new();
    let mut rebuilt_water = 0;
    for (i, w) in raw.water.iter().enumerate() {
        let at = |m: String| format!("{mf}: water {} ({:?}): {m}", i + 1, w.name);
        let least = match w.kind.as_str() {
            "sea" => 3,
            "lake" | "river" => 2,
            k => {
                return Err(at(format!(
                    "kind {k:?} must be \"sea\", \"lake\" or \"river\""
                )));
            }
        };
        if w.points.len() < least {
            return Err(at(format!("a {} needs at least {least} points", w.kind)));
        }
        let mut points = Vec::new();
        let mut label = None;
        for (n, p) in w.points.iter().chain(&w.label).enumerate() {
            match p.as_slice() {
                &[x, y] if (0..=MAX_COORD).contains(&x) && (0..=MAX_COORD).contains(&y) => {
                    if n < w.points.len() {
                        points.push((x as u16, y as u16))
                    } else {
                        label = Some((x as u16, y as u16))
                    }
                }
                v => {
                    return Err(at(format!(
                        "point {v:?} must be two numbers [x, y], each from 0 to {MAX_COORD}"
                    )));
                }
            }
        }
        if w.reconstructed {
            rebuilt_water += 1;
        }
        water.push(Water {
            name: w.name.clone(),
            kind: w.kind.clone(),
            points,
            label,
        });
    }
    if rebuilt_areas > 0 {
        reconstructed.push(format!(
            "map: {rebuilt_areas} areas, their movement lines and board positions"
        ));
    }
    if rebuilt_water > 0 {
        reconstructed.push(format!(
            "map: {rebuilt_water} seas, lakes and rivers drawn on the board"
        ));
    }
    let sea = sea.ok_or_else(|| format!("{mf}: the map needs a Sea Box (kind = \"sea\")"))?;
    let nova =
        nova.ok_or_else(|| format!("{mf}: the map needs Nova Scotia (nova_scotia = true)"))?;
    let need = |id: &str| -> Result<u8, String> {
        index
            .get(id)
            .copied()
            .ok_or_else(|| format!("{mf}: the rules name {id:?}, which the map lacks"))
    };
    let quebec = need("quebec")?;
    let new_york = need("new-york")?;
    let albany = need("albany")?;
    let philadelphia = need("philadelphia")?;
    for (id, i) in [
        ("quebec", quebec),
        ("new-york", new_york),
        ("albany", albany),
        ("philadelphia", philadelphia),
    ] {
        if !areas[i as usize].victory {
            return Err(format!(
                "{mf}: area {id:?} must be a victory city (§11.1, §13.2)"
            ));
        }
    }
    if !areas[quebec as usize].port {
        return Err(format!("{mf}: area \"quebec\" must be a port (§5.4)"));
    }
    let mask = |f: &dyn Fn(&AreaDef) -> bool| -> u64 {
        areas
            .iter()
            .enumerate()
            .filter(|(_, a)| f(a))
            .fold(0, |m, (i, _)| m | 1 << i)
    };
    let ports = mask(&|a| a.port);
    let victory = mask(&|a| a.victory);
    let points = mask(&|a| a.kind == Kind::Point);
    let holds = mask(&|a| matches!(a.kind, Kind::City | Kind::Fort));
    let cities = mask(&|a| a.kind == Kind::City);

    // ---- tracks and set-up
    let (tf, tt) = tracks;
    let raw: RawTracks = parse(tf, tt)?;
    let g = &raw.game;
    if g.food_cubes == 0 || g.war_cubes == 0 || g.capacity == 0 {
        return Err(format!(
            "{tf}: [game]: cube counts and capacity must be positive"
        ));
    }
    let t = &raw.turns;
    if t.years.is_empty() || t.years.len() > 40 {
        return Err(format!("{tf}: [turns]: years must list 1 to 40 turns"));
    }
    if t.years.windows(2).any(|w| w[1] < w[0]) {
        return Err(format!("{tf}: [turns]: years must not go backwards"));
    }
    let mut winter = vec![false; t.years.len()];
    for &w in &t.winter {
        let slot = winter
            .get_mut((w as usize).wrapping_sub(1))
            .ok_or_else(|| format!("{tf}: [turns]: winter turn {w} is not a turn"))?;
        *slot = true;
    }
    if t.reconstructed {
        reconstructed.push("tracks: game turn record track".into());
    }
    let p = &raw.pass;
    if p.spaces.len() < 2 || p.spaces.len() > 16 {
        return Err(format!("{tf}: [pass]: the track needs 2 to 16 spaces"));
    }
    let mut pass_for_roll = [0u8; 7];
    for (i, sp) in p.spaces.iter().enumerate() {
        for &r in &sp.rolls {
            if !(1..=6).contains(&r) || i == 0 {
                return Err(format!(
                    "{tf}: [pass]: space {:?}: rolls must be 1-6 and not on the zero space",
                    sp.label
                ));
            }
            if pass_for_roll[r as usize] != 0 {
                return Err(format!("{tf}: [pass]: roll {r} is on two spaces"));
            }
            pass_for_roll[r as usize] = i as u8;
        }
    }
    if let Some(r) = (1..=6).find(|&r| pass_for_roll[r] == 0) {
        return Err(format!(
            "{tf}: [pass]: no space for an initiative roll of {r}"
        ));
    }
    if p.reconstructed {
        reconstructed.push("tracks: pass track".into());
    }
    let s = &raw.support;
    if s.spaces.len() < 3 || s.spaces.len() > 40 {
        return Err(format!("{tf}: [support]: the track needs 3 to 40 spaces"));
    }
    let support: Vec<SupportSpace> = s
        .spaces
        .iter()
        .map(|x| SupportSpace {
            draws: x.draws,
            declaration: x.declaration,
            treaty: x.treaty,
        })
        .collect();
    let treaty = support.len() as u8 - 1;
    if !support[treaty as usize].treaty || support.iter().filter(|x| x.treaty).count() != 1 {
        return Err(format!(
            "{tf}: [support]: the last space, and only it, must be the Treaty of Alliance"
        ));
    }
    let declaration = support
        .iter()
        .position(|x| x.declaration)
        .ok_or_else(|| format!("{tf}: [support]: no Declaration of Independence space"))?
        as u8;
    if s.start == 0 || s.start > treaty || s.start > declaration {
        return Err(format!(
            "{tf}: [support]: start {} must be a space before the Declaration",
            s.start
        ));
    }
    if s.reconstructed {
        reconstructed.push("tracks: support track".into());
    }
    let c = &raw.crown_track;
    if c.markers.is_empty() || c.markers.len() > MAX_CROWN_MARKERS {
        return Err(format!(
            "{tf}: [crown_track]: 1 to {MAX_CROWN_MARKERS} markers, not {}",
            c.markers.len()
        ));
    }
    let mut last_vc = c.base_vc;
    for m in &c.markers {
        if m.vc < last_vc {
            return Err(format!(
                "{tf}: [crown_track]: marker {:?}: the requirement may only rise (§12.0)",
                m.id
            ));
        }
        last_vc = m.vc;
        if m.units == 0 && m.leaders == 0 {
            return Err(format!(
                "{tf}: [crown_track]: marker {:?} brings nothing",
                m.id
            ));
        }
    }
    let vcs = victory.count_ones() as u8;
    if last_vc + c.triumvirate.vc > vcs {
        return Err(format!(
            "{tf}: [crown_track]: the requirement can reach {} but the map has {vcs} victory \
             cities",
            last_vc + c.triumvirate.vc
        ));
    }
    if c.reconstructed {
        reconstructed.push("tracks: crown reinforcement track".into());
    }
    let mut setup = Vec::new();
    for (i, r) in raw.setup.iter().enumerate() {
        let at = |m: String| format!("{tf}: setup {} ({}): {m}", i + 1, r.area);
        let side = SIDE_IDS
            .iter()
            .position(|x| *x == r.side)
            .ok_or_else(|| at(format!("side {:?} must be patriot or crown", r.side)))?
            as u8;
        let area = *index
            .get(&r.area)
            .ok_or_else(|| at("no such area".into()))?;
        if r.units == 0 || area == sea {
            return Err(at("an army needs units and a land area".into()));
        }
        if setup.iter().any(|x: &SetupArmy| x.area == area) {
            return Err(at("two armies in one area".into()));
        }
        setup.push(SetupArmy {
            side,
            area,
            units: r.units,
            leaders: r.leaders,
        });
    }

    // ---- Patriot reinforcement markers
    let (kf, kt) = markers;
    let raw: RawMarkers = parse(kf, kt)?;
    if raw.markers.is_empty() || raw.markers.len() > MAX_MARKERS {
        return Err(format!(
            "{kf}: 1 to {MAX_MARKERS} markers, not {}",
            raw.markers.len()
        ));
    }
    let mut patriot_markers = Vec::new();
    for (i, m) in raw.markers.iter().enumerate() {
        let a = *index
            .get(m)
            .ok_or_else(|| format!("{kf}: marker {}: no area {m:?}", i + 1))?;
        if areas[a as usize].kind != Kind::City || a == nova {
            return Err(format!(
                "{kf}: marker {} names {m:?}, which is no city",
                i + 1
            ));
        }
        patriot_markers.push(a);
    }
    if raw.reconstructed {
        reconstructed.push("reinforcements: patriot markers".into());
    }

    Ok(Data {
        areas,
        water,
        sea,
        nova_scotia: nova,
        quebec,
        new_york,
        albany,
        philadelphia,
        ports,
        victory,
        points,
        holds,
        cities,
        food_cubes: g.food_cubes,
        war_cubes: g.war_cubes,
        capacity: g.capacity,
        years: t.years.clone(),
        winter,
        pass_for_roll,
        pass_labels: p.spaces.iter().map(|x| x.label.clone()).collect(),
        support,
        support_start: s.start - 1,
        declaration,
        treaty,
        base_vc: c.base_vc,
        crown_markers: c
            .markers
            .iter()
            .map(|m| CrownMarker {
                id: m.id.clone(),
                units: m.units,
                leaders: m.leaders,
                vc: m.vc,
                asterisk: m.asterisk,
            })
            .collect(),
        triumvirate_leaders: c.triumvirate.leaders,
        triumvirate_vc: c.triumvirate.vc,
        patriot_markers,
        setup,
        reconstructed,
    })
}
