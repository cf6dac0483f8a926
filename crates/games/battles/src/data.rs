//! Scenario data: the TOML files in `data/`, read and checked (see `data/FORMAT.md`).
//!
//! Every error names the file and the item at fault, so that a player correcting a map or a
//! counter from the printed game learns exactly what to fix.

use crate::map::{Map, Terrain};
use muster_core::Key;
use muster_core::hex::{Grid, Hex, LowColumns, MAX_SIDE, SLOTS};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Side indices (the order of `GameInfo::sides`).
pub const AMERICAN: u8 = 0;
pub const BRITISH: u8 = 1;
/// Side ids as written in data and notation.
pub const SIDE_IDS: [&str; 2] = ["american", "british"];
/// Side names for people.
pub const SIDE_NAMES: [&str; 2] = ["American", "British"];

/// Most units a scenario may hold.
pub const MAX_UNITS: usize = 32;

fn side_index(s: &str) -> Result<u8, String> {
    SIDE_IDS
        .iter()
        .position(|x| *x == s)
        .map(|i| i as u8)
        .ok_or_else(|| format!("side {s:?} must be \"american\" or \"british\""))
}

/// Where a unit starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// On a printed hex.
    Hex(Hex),
    /// Enters on `turn` in an entry area.
    Entry { turn: u8, area: u8 },
    /// Set up freely inside an area.
    InArea(u8),
    /// Set up freely outside an area, never next to an enemy unit.
    OutsideArea(u8),
}

/// One counter.
#[derive(Clone, Debug)]
pub struct UnitDef {
    pub id: Key,
    pub name: String,
    pub side: u8,
    pub cf: u8,
    pub mp: u8,
    pub reduced_cf: u8,
    pub reduced_mp: u8,
    pub start: Start,
}

/// Who scores a VP star.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StarSide {
    Side(u8),
    Both,
}

impl StarSide {
    /// Whether a unit of `side` on this star scores its VP (a star of the other colour scores
    /// nothing, §10).
    pub fn scores_for(self, side: u8) -> bool {
        self == StarSide::Both || self == StarSide::Side(side)
    }
}

/// An area: a named group of hexes.
#[derive(Clone, Debug)]
pub struct Area {
    pub name: String,
    pub hexes: Vec<Hex>,
    pub mask: [bool; SLOTS],
}

/// A scenario, checked.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub date: String,
    pub turns: u8,
    pub first: u8,
    pub vp_goal: u8,
    pub artillery_rules: bool,
    pub leadership: [u8; 2],
    pub artillery: [u8; 2],
    pub map: Map,
    pub areas: Vec<Area>,
    pub stars: Vec<(Hex, StarSide)>,
    /// Exit hex, the side that scores for exiting there, VP per unit.
    pub exit: Option<(Hex, u8, u8)>,
    pub no_attack_turns: Vec<u8>,
    pub storm_turns: Vec<u8>,
    pub storm_mp: u8,
    pub units: Vec<UnitDef>,
    /// Every item marked reconstructed in the file, for `muster games` and the docs.
    pub reconstructed: Vec<String>,
}

impl Scenario {
    pub fn area(&self, name: &str) -> Option<u8> {
        self.areas
            .iter()
            .position(|a| a.name == name)
            .map(|i| i as u8)
    }
    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.units.iter().position(|u| u.id.as_str() == id)
    }
}

// ---- the file as written -------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    scenario: RawScenario,
    sides: BTreeMap<String, RawSide>,
    map: RawMap,
    #[serde(default)]
    areas: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    stars: Vec<RawStar>,
    exit: Option<RawExit>,
    #[serde(default)]
    special: RawSpecial,
    units: Vec<RawUnit>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    id: String,
    name: String,
    #[serde(default)]
    date: String,
    turns: u8,
    first: String,
    vp_goal: u8,
    #[serde(default)]
    artillery: bool,
    #[serde(default)]
    reconstructed: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSide {
    leadership: u8,
    #[serde(default)]
    artillery: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    #[serde(default)]
    reconstructed: bool,
    columns: u8,
    rows: u8,
    low_columns: LowColumns,
    terrain: String,
    #[serde(default)]
    roads: Vec<String>,
    #[serde(default)]
    rivers: Vec<String>,
    #[serde(default)]
    bridges: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStar {
    hex: String,
    side: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExit {
    hex: String,
    side: String,
    #[serde(default = "one")]
    vp: u8,
}

fn one() -> u8 {
    1
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawSpecial {
    #[serde(default)]
    no_attack_turns: Vec<u8>,
    #[serde(default)]
    storm_turns: Vec<u8>,
    #[serde(default)]
    storm_mp: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUnit {
    id: String,
    name: String,
    side: String,
    cf: u8,
    mp: u8,
    reduced_cf: u8,
    reduced_mp: u8,
    setup: Option<String>,
    entry: Option<RawEntry>,
    place: Option<RawPlace>,
    #[serde(default)]
    reconstructed: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    turn: u8,
    area: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlace {
    area: Option<String>,
    outside: Option<String>,
}

// ---- reading --------------------------------------------------------------------------------

/// Reads and checks one scenario file. `file` names it in error messages.
pub fn load_scenario(file: &str, text: &str) -> Result<Scenario, String> {
    let raw: RawFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    check(raw).map_err(|e| format!("{file}: {e}"))
}

fn parse_hex(map: &Map, s: &str, what: &str) -> Result<Hex, String> {
    let h: Hex = s.parse().map_err(|e| format!("{what}: {e}"))?;
    if !map.exists(h) {
        return Err(format!("{what}: hex {h} is not on the map"));
    }
    Ok(h)
}

fn parse_passable(map: &Map, s: &str, what: &str) -> Result<Hex, String> {
    let h = parse_hex(map, s, what)?;
    if !map.passable(h) {
        return Err(format!("{what}: hex {h} is swamp, which no unit may enter"));
    }
    Ok(h)
}

fn parse_hexside(map: &Map, s: &str, what: &str) -> Result<(Hex, usize), String> {
    let (a, b) = s
        .split_once('|')
        .ok_or_else(|| format!("{what}: {s:?} must be written \"HEX|HEX\", e.g. \"E2|F2\""))?;
    let a = parse_hex(map, a, what)?;
    let b = parse_hex(map, b, what)?;
    let dir = map
        .grid
        .direction(a, b)
        .ok_or_else(|| format!("{what}: {a} and {b} are not adjacent"))?;
    Ok((a, dir))
}

fn parse_terrain(raw: &RawMap) -> Result<Map, String> {
    if raw.columns == 0 || raw.columns > MAX_SIDE || raw.rows == 0 || raw.rows > MAX_SIDE {
        return Err(format!(
            "map: columns and rows must be 1 to {MAX_SIDE}, not {}x{}",
            raw.columns, raw.rows
        ));
    }
    let grid = Grid {
        cols: raw.columns,
        rows: raw.rows,
        low: raw.low_columns,
    };
    let mut terrain = [Terrain::None; SLOTS];
    let mut seen_rows = vec![false; raw.rows as usize];
    for (n, line) in raw.terrain.lines().enumerate() {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else { continue };
        let Ok(row) = first.parse::<u8>() else {
            continue; // the column-letter header, or any other caption line
        };
        let at = format!("map.terrain line {} (row {row})", n + 1);
        if row == 0 || row > raw.rows {
            return Err(format!("{at}: row {row} is outside rows 1-{}", raw.rows));
        }
        if std::mem::replace(&mut seen_rows[row as usize - 1], true) {
            return Err(format!("{at}: row {row} is given twice"));
        }
        let codes: Vec<&str> = words.collect();
        if codes.len() != raw.columns as usize {
            return Err(format!(
                "{at}: {} terrain codes for {} columns",
                codes.len(),
                raw.columns
            ));
        }
        for (c, code) in codes.iter().enumerate() {
            let t = Terrain::from_code(code).ok_or_else(|| {
                format!(
                    "{at}, column {}: unknown terrain code {code:?} (use . w h f s or -)",
                    (b'A' + c as u8) as char
                )
            })?;
            terrain[Hex::new(c as u8, row - 1).slot()] = t;
        }
    }
    if let Some(missing) = seen_rows.iter().position(|s| !s) {
        return Err(format!("map.terrain: row {} is missing", missing + 1));
    }
    Ok(Map::new(grid, terrain))
}

fn check(raw: RawFile) -> Result<Scenario, String> {
    let s = &raw.scenario;
    Key::new(&s.id).map_err(|e| format!("scenario.id: {e}"))?;
    if s.turns == 0 || s.turns > 40 {
        return Err(format!("scenario.turns must be 1 to 40, not {}", s.turns));
    }
    if s.vp_goal == 0 {
        return Err("scenario.vp_goal must be at least 1".into());
    }
    let first = side_index(&s.first).map_err(|e| format!("scenario.first: {e}"))?;
    let mut leadership = [0u8; 2];
    let mut artillery = [0u8; 2];
    for (name, side) in &raw.sides {
        let i = side_index(name).map_err(|e| format!("sides: {e}"))? as usize;
        leadership[i] = side.leadership;
        artillery[i] = side.artillery;
    }
    for (i, name) in SIDE_IDS.iter().enumerate() {
        if !raw.sides.contains_key(*name) {
            return Err(format!("sides.{name} is missing"));
        }
        if !s.artillery && artillery[i] > 0 {
            return Err(format!(
                "sides.{name}.artillery is {} but scenario.artillery is false",
                artillery[i]
            ));
        }
    }

    let mut map = parse_terrain(&raw.map)?;
    for (i, path) in raw.map.roads.iter().enumerate() {
        let what = format!("map.roads[{i}]");
        let hexes: Vec<Hex> = path
            .split_whitespace()
            .map(|h| parse_passable(&map, h, &what))
            .collect::<Result<_, _>>()?;
        if hexes.len() < 2 {
            return Err(format!("{what}: a road needs at least two hexes"));
        }
        for w in hexes.windows(2) {
            let dir = map
                .grid
                .direction(w[0], w[1])
                .ok_or_else(|| format!("{what}: {} and {} are not adjacent", w[0], w[1]))?;
            map.set_side(w[0], dir, crate::map::ROAD);
        }
    }
    for (i, side) in raw.map.rivers.iter().enumerate() {
        let (h, dir) = parse_hexside(&map, side, &format!("map.rivers[{i}]"))?;
        map.set_side(h, dir, crate::map::RIVER);
    }
    for (i, side) in raw.map.bridges.iter().enumerate() {
        let what = format!("map.bridges[{i}]");
        let (h, dir) = parse_hexside(&map, side, &what)?;
        if map.side(h, dir) & crate::map::RIVER == 0 {
            return Err(format!("{what}: {side} has a bridge but no river"));
        }
        map.set_side(h, dir, crate::map::BRIDGE);
    }

    let mut areas = Vec::new();
    for (name, hexes) in &raw.areas {
        let what = format!("areas.{name:?}");
        let mut mask = [false; SLOTS];
        let mut list = Vec::new();
        for h in hexes {
            let h = parse_passable(&map, h, &what)?;
            if std::mem::replace(&mut mask[h.slot()], true) {
                return Err(format!("{what}: {h} is listed twice"));
            }
            list.push(h);
        }
        if list.is_empty() {
            return Err(format!("{what} has no hexes"));
        }
        areas.push(Area {
            name: name.clone(),
            hexes: list,
            mask,
        });
    }
    let area_of = |name: &str, what: &str| -> Result<u8, String> {
        areas
            .iter()
            .position(|a| a.name == name)
            .map(|i| i as u8)
            .ok_or_else(|| format!("{what}: there is no area {name:?} in [areas]"))
    };

    let mut stars = Vec::new();
    for (i, st) in raw.stars.iter().enumerate() {
        let what = format!("stars[{i}]");
        let h = parse_passable(&map, &st.hex, &what)?;
        let side = if st.side == "both" {
            StarSide::Both
        } else {
            StarSide::Side(side_index(&st.side).map_err(|e| format!("{what}: {e}"))?)
        };
        stars.push((h, side));
    }
    let exit = match &raw.exit {
        None => None,
        Some(e) => Some((
            parse_passable(&map, &e.hex, "exit")?,
            side_index(&e.side).map_err(|m| format!("exit: {m}"))?,
            e.vp,
        )),
    };
    for (what, turns) in [
        ("special.no_attack_turns", &raw.special.no_attack_turns),
        ("special.storm_turns", &raw.special.storm_turns),
    ] {
        if let Some(t) = turns.iter().find(|&&t| t == 0 || t > s.turns) {
            return Err(format!("{what}: turn {t} is outside turns 1-{}", s.turns));
        }
    }

    if raw.units.len() > MAX_UNITS {
        return Err(format!(
            "at most {MAX_UNITS} units, not {}",
            raw.units.len()
        ));
    }
    let mut units: Vec<UnitDef> = Vec::new();
    let mut setup_hexes = [false; SLOTS];
    let mut reconstructed: Vec<String> = s
        .reconstructed
        .iter()
        .map(|r| format!("scenario.{r}"))
        .collect();
    if raw.map.reconstructed {
        reconstructed.push("map".into());
    }
    for (i, u) in raw.units.iter().enumerate() {
        let what = format!("units[{i}] ({:?})", u.id);
        let id = Key::new(&u.id).map_err(|e| format!("{what}: {e}"))?;
        if units.iter().any(|x| x.id == id) {
            return Err(format!("{what}: the id is used twice"));
        }
        if ["no", "end", "all"].contains(&u.id.as_str()) {
            return Err(format!("{what}: {:?} is reserved in the notation", u.id));
        }
        let side = side_index(&u.side).map_err(|e| format!("{what}: {e}"))?;
        if u.cf == 0 || u.mp == 0 {
            return Err(format!("{what}: cf and mp must be at least 1"));
        }
        if u.reduced_cf == 0 || u.reduced_cf > u.cf || u.reduced_mp > u.mp {
            return Err(format!(
                "{what}: the reduced side ({}-{}) must be weaker than the full side ({}-{}) with a cf of at least 1",
                u.reduced_cf, u.reduced_mp, u.cf, u.mp
            ));
        }
        let start = match (&u.setup, &u.entry, &u.place) {
            (Some(h), None, None) => {
                let h = parse_passable(&map, h, &what)?;
                if std::mem::replace(&mut setup_hexes[h.slot()], true) {
                    return Err(format!("{what}: another unit already sets up at {h}"));
                }
                Start::Hex(h)
            }
            (None, Some(e), None) => {
                if e.turn == 0 || e.turn > s.turns {
                    return Err(format!(
                        "{what}: entry turn {} is outside turns 1-{}",
                        e.turn, s.turns
                    ));
                }
                Start::Entry {
                    turn: e.turn,
                    area: area_of(&e.area, &what)?,
                }
            }
            (None, None, Some(p)) => match (&p.area, &p.outside) {
                (Some(a), None) => Start::InArea(area_of(a, &what)?),
                (None, Some(a)) => Start::OutsideArea(area_of(a, &what)?),
                _ => {
                    return Err(format!(
                        "{what}: place needs exactly one of area or outside"
                    ));
                }
            },
            _ => {
                return Err(format!(
                    "{what}: give exactly one of setup = \"HEX\", entry = {{ turn, area }} or place = {{ area | outside }}"
                ));
            }
        };
        reconstructed.extend(
            u.reconstructed
                .iter()
                .map(|r| format!("units.{}.{r}", u.id)),
        );
        units.push(UnitDef {
            id,
            name: u.name.clone(),
            side,
            cf: u.cf,
            mp: u.mp,
            reduced_cf: u.reduced_cf,
            reduced_mp: u.reduced_mp,
            start,
        });
    }
    for side in [AMERICAN, BRITISH] {
        if !units.iter().any(|u| u.side == side) {
            return Err(format!("{} has no units", SIDE_IDS[side as usize]));
        }
    }
    Ok(Scenario {
        id: s.id.clone(),
        name: s.name.clone(),
        date: s.date.clone(),
        turns: s.turns,
        first,
        vp_goal: s.vp_goal,
        artillery_rules: s.artillery,
        leadership,
        artillery,
        map,
        areas,
        stars,
        exit,
        no_attack_turns: raw.special.no_attack_turns.clone(),
        storm_turns: raw.special.storm_turns.clone(),
        storm_mp: raw.special.storm_mp,
        units,
        reconstructed,
    })
}
