//! Hand-built positions for rule tests: the real map with every army and cube removed, then
//! put where a test needs them, and dice chosen to roll what a test needs.
#![allow(dead_code)]

use muster_core::game::{Game, IllegalAction};
use muster_core::{Dice, Options};
use muster_supply_lines::state::{Phase, Pick, SideId, State};
use muster_supply_lines::{Action, Event, SCENARIO, SupplyLines};

pub const P: SideId = SideId::PATRIOT;
pub const C: SideId = SideId::CROWN;

pub fn game() -> SupplyLines {
    SupplyLines::new().expect("the built-in data loads")
}

/// The index of an area by id.
pub fn at(g: &SupplyLines, id: &str) -> u8 {
    g.data().area(id).unwrap_or_else(|| panic!("no area {id}"))
}

/// A new game, then an empty map: no armies, no cubes; `side`'s impulse, turn 2.
pub fn blank(g: &SupplyLines, side: SideId) -> State {
    let mut s = g.new_game(SCENARIO, &Options::new(), 1).unwrap();
    for a in s.areas.iter_mut() {
        a.side = None;
        a.units = 0;
        a.leaders = 0;
        a.food = 0;
        a.war = 0;
        a.dug_in = false;
        a.destroyed = false;
    }
    s.turn = 2;
    s.pass = 3;
    s.passed = false;
    s.phase = Phase::Impulse {
        side,
        pick: Pick::default(),
        moved: false,
    };
    s
}

/// Puts an army (and cubes) in an area.
#[allow(clippy::too_many_arguments)]
pub fn put(
    g: &SupplyLines,
    s: &mut State,
    id: &str,
    side: SideId,
    units: u8,
    leaders: u8,
    food: u8,
    war: u8,
) {
    let a = s.area_mut(at(g, id));
    a.side = if units + leaders > 0 {
        Some(side)
    } else {
        None
    };
    a.units = units;
    a.leaders = leaders;
    a.food = food;
    a.war = war;
}

/// Keeps a leader somewhere harmless for each side, so no one loses for want of Leaders.
pub fn keep_leaders(g: &SupplyLines, s: &mut State) {
    put(g, s, "york", P, 1, 1, 0, 0);
    put(g, s, "nova-scotia", C, 1, 1, 0, 0);
}

/// Applies a list of notations; panics with the prompt on a refusal.
pub fn play(g: &SupplyLines, s: &mut State, moves: &[&str]) -> Vec<Event> {
    let mut all = Vec::new();
    for m in moves {
        let side = g.to_act(s).expect("game on");
        let a = g.parse_action(s, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        match g.apply(s, side, a) {
            Ok(ev) => all.extend(ev),
            Err(e) => {
                let mut legal = Vec::new();
                g.legal_actions(s, &mut legal);
                let names: Vec<String> = legal.iter().map(|a| g.notation(s, *a)).collect();
                panic!("{m} refused: {e}\nlegal: {names:?}\nphase: {:?}", s.phase)
            }
        }
    }
    all
}

/// Tries one action, for tests of refusals.
pub fn try_play(g: &SupplyLines, s: &mut State, m: &str) -> Result<Vec<Event>, IllegalAction> {
    let side = g.to_act(s).expect("game on");
    let a = g.parse_action(s, m)?;
    g.apply(s, side, a)
}

pub fn legal(g: &SupplyLines, s: &State) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    v.iter().map(|a| g.notation(s, *a)).collect()
}

pub fn is_legal(g: &SupplyLines, s: &State, m: &str) -> bool {
    legal(g, s).iter().any(|x| x == m)
}

/// Dice whose next d6 rolls are `rolls`, found by searching seeds.
pub fn dice_rolling(rolls: &[u8]) -> Dice {
    for seed in 0..5_000_000u64 {
        let mut d = Dice::from_seed(seed);
        if rolls.iter().all(|&r| d.d6() == r) {
            return Dice::from_seed(seed);
        }
    }
    panic!("no seed rolls {rolls:?}");
}

pub fn action(g: &SupplyLines, s: &State, m: &str) -> Action {
    g.parse_action(s, m).unwrap()
}
