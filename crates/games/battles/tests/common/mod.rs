//! Hand-built positions for rule tests: a small test map whose every hex is known, units put
//! where a test needs them, and dice chosen to roll what a test needs.
#![allow(dead_code)]

use muster_battles::state::{Loc, Phase, SideId, State};
use muster_battles::{Battles, Event};
use muster_core::game::{Game, IllegalAction};
use muster_core::hex::Hex;
use muster_core::{Dice, Options};

/// An 8x8 test map (columns B, D, F, H sit half a hex lower):
/// - woods at C3, hill at E3, farm at F4, swamp at G5; woods along row 8 from A8 to D8;
/// - a road along row 6 (A6 to H6) and a road through the woods B8-C8-D8;
/// - a river along the D/E hexsides of rows 1-3, with a bridge at D2|E2.
pub const TEST_SCENARIO: &str = r#"
[scenario]
id = "test"
name = "Test ground"
turns = 4
first = "american"
vp_goal = 5
artillery = true

[sides.american]
leadership = 3
artillery = 3
[sides.british]
leadership = 3
artillery = 3

[map]
columns = 8
rows = 8
low_columns = "even"
terrain = """
    A B C D E F G H
 1  . . . . . . . .
 2  . . . . . . . .
 3  . . w . h . . .
 4  . . . . . f . .
 5  . . . . . . s .
 6  . . . . . . . .
 7  . . . . . . . .
 8  w w w w . . . .
"""
roads = ["A6 B6 C6 D6 E6 F6 G6 H6", "B8 C8 D8"]
rivers = ["D1|E1", "D1|E2", "D2|E2", "D2|E3", "D3|E3", "D3|E4"]
bridges = ["D2|E2"]

[areas]
"north" = ["A1", "B1"]

[[stars]]
hex = "H1"
side = "american"

[[stars]]
hex = "A7"
side = "british"

[[units]]
id = "a1"
name = "American One"
side = "american"
cf = 4
mp = 4
reduced_cf = 2
reduced_mp = 4
setup = "A2"

[[units]]
id = "a2"
name = "American Two"
side = "american"
cf = 3
mp = 3
reduced_cf = 2
reduced_mp = 3
setup = "A3"

[[units]]
id = "a3"
name = "American Three"
side = "american"
cf = 5
mp = 3
reduced_cf = 3
reduced_mp = 3
setup = "A4"

[[units]]
id = "a4"
name = "American Four"
side = "american"
cf = 6
mp = 3
reduced_cf = 3
reduced_mp = 3
setup = "A5"

[[units]]
id = "a5"
name = "American Reinforcement"
side = "american"
cf = 2
mp = 3
reduced_cf = 1
reduced_mp = 3
entry = { turn = 2, area = "north" }

[[units]]
id = "b1"
name = "British One"
side = "british"
cf = 4
mp = 3
reduced_cf = 2
reduced_mp = 3
setup = "H2"

[[units]]
id = "b2"
name = "British Two"
side = "british"
cf = 3
mp = 3
reduced_cf = 2
reduced_mp = 3
setup = "H3"

[[units]]
id = "b3"
name = "British Three"
side = "british"
cf = 2
mp = 3
reduced_cf = 1
reduced_mp = 3
setup = "H4"

[[units]]
id = "b4"
name = "British Four"
side = "british"
cf = 8
mp = 3
reduced_cf = 4
reduced_mp = 3
setup = "H5"
"#;

/// A second, 8x4 test map for what the first one lacks:
/// - woods at F2; a river along the whole E/F column line (E1|F1 to E4|F4), with no bridge;
/// - a road along row 4 (A4 to H4), crossing that river at E4|F4;
/// - a blue star at D1, a red star at H1 and a star that scores for both sides at C3;
/// - a VP goal of 2 and no artillery.
pub const EXTRA_SCENARIO: &str = r#"
[scenario]
id = "extras"
name = "Second test ground"
turns = 4
first = "american"
vp_goal = 2
artillery = false

[sides.american]
leadership = 1
artillery = 0
[sides.british]
leadership = 1
artillery = 0

[map]
columns = 8
rows = 4
low_columns = "even"
terrain = """
    A B C D E F G H
 1  . . . . . . . .
 2  . . . . . w . .
 3  . . . . . . . .
 4  . . . . . . . .
"""
roads = ["A4 B4 C4 D4 E4 F4 G4 H4"]
rivers = ["E1|F1", "E2|F1", "E2|F2", "E3|F2", "E3|F3", "E4|F3", "E4|F4"]

[[stars]]
hex = "D1"
side = "american"

[[stars]]
hex = "H1"
side = "british"

[[stars]]
hex = "C3"
side = "both"

[[units]]
id = "a1"
name = "American One"
side = "american"
cf = 2
mp = 3
reduced_cf = 1
reduced_mp = 3
setup = "A2"

[[units]]
id = "a2"
name = "American Two"
side = "american"
cf = 2
mp = 3
reduced_cf = 1
reduced_mp = 3
setup = "A3"

[[units]]
id = "a3"
name = "American Three"
side = "american"
cf = 2
mp = 3
reduced_cf = 1
reduced_mp = 3
setup = "B3"

[[units]]
id = "b1"
name = "British One"
side = "british"
cf = 3
mp = 3
reduced_cf = 2
reduced_mp = 3
setup = "G2"

[[units]]
id = "b2"
name = "British Two"
side = "british"
cf = 2
mp = 3
reduced_cf = 1
reduced_mp = 3
setup = "G3"
"#;

/// The game with the two test scenarios and the two real ones.
pub fn game() -> Battles {
    let mut files: Vec<(String, String)> = muster_battles::DATA_FILES
        .iter()
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect();
    files.push(("test.toml".into(), TEST_SCENARIO.into()));
    files.push(("extras.toml".into(), EXTRA_SCENARIO.into()));
    Battles::from_texts(files.into_iter()).expect("test data loads")
}

pub fn h(s: &str) -> Hex {
    s.parse().expect("hex label")
}

pub fn idx(s: &State, id: &str) -> u8 {
    s.units
        .iter()
        .position(|u| u.id.as_str() == id)
        .unwrap_or_else(|| panic!("no unit {id}")) as u8
}

/// The test scenario with every unit off the board, turn 2, the Americans moving.
pub fn blank(g: &Battles) -> State {
    blank_on(g, "test")
}

/// The second test scenario (`EXTRA_SCENARIO`), emptied in the same way.
pub fn blank_extras(g: &Battles) -> State {
    blank_on(g, "extras")
}

/// A scenario with every unit off the board, turn 2, the Americans moving.
pub fn blank_on(g: &Battles, scenario: &str) -> State {
    let mut s = g.new_game(scenario, &Options::new(), 1).expect("new game");
    for u in s.units.iter_mut() {
        u.at = Loc::Absent;
    }
    s.turn = 2;
    s.active = SideId(0);
    s.phase = Phase::Movement {
        selected: None,
        force_march: false,
    };
    s
}

pub fn put(s: &mut State, id: &str, hex: &str) {
    let i = idx(s, id) as usize;
    s.units[i].at = Loc::Map(h(hex));
}

/// Sets where a unit is (eliminated, pending, absent...).
pub fn set_loc(s: &mut State, id: &str, loc: Loc) {
    let i = idx(s, id) as usize;
    s.units[i].at = loc;
}

pub fn reduce(s: &mut State, id: &str) {
    let i = idx(s, id) as usize;
    s.units[i].reduced = true;
}

pub fn at(s: &State, id: &str) -> Loc {
    s.units[idx(s, id) as usize].at
}

/// Notations of the legal actions.
pub fn legal(g: &Battles, s: &State) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    v.into_iter().map(|a| g.notation(s, a)).collect()
}

/// Applies an action given in notation for the side to act.
pub fn try_act(g: &Battles, s: &mut State, text: &str) -> Result<Vec<Event>, IllegalAction> {
    let side = g.to_act(s).expect("game in progress");
    let a = g.parse_action(s, text)?;
    g.apply(s, side, a)
}

pub fn act(g: &Battles, s: &mut State, text: &str) -> Vec<Event> {
    try_act(g, s, text).unwrap_or_else(|e| panic!("{text}: {e}\nlegal: {:?}", legal(g, s)))
}

/// Hexes the selected unit may move to.
pub fn destinations(g: &Battles, s: &State) -> Vec<String> {
    let mut d: Vec<String> = legal(g, s)
        .into_iter()
        .filter_map(|a| a.strip_prefix("move ").map(str::to_string))
        .collect();
    d.sort();
    d
}

/// Dice whose next rolls are exactly `rolls`.
pub fn dice_rolling(rolls: &[u8]) -> Dice {
    for seed in 0..1_000_000u64 {
        let mut d = Dice::from_seed(seed);
        if rolls.iter().all(|&r| d.d6() == r) {
            return Dice::from_seed(seed);
        }
    }
    panic!("no seed rolls {rolls:?}");
}

/// The combat report of the events, if any.
pub fn combat(events: &[Event]) -> Option<&muster_battles::action::CombatReport> {
    events.iter().find_map(|e| match e {
        Event::Combat(r) => Some(r.as_ref()),
        _ => None,
    })
}
