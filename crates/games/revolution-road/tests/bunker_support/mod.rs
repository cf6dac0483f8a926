//! Hand-built Bunker Hill positions for the rule tests.
#![allow(dead_code)]

use muster_core::{Game, Options};
use muster_revolution_road::Bunker;
use muster_revolution_road::bunker::action::Action;
use muster_revolution_road::bunker::state::*;

pub fn game() -> Bunker {
    Bunker::new().unwrap()
}

pub fn r(g: &Bunker, id: &str) -> u8 {
    g.region_of(id).unwrap_or_else(|| panic!("no region {id}"))
}

/// A standard game on turn 4 with every counter off the map (set aside), the Patriot to act
/// with 3 actions each, the fleet in Boston Harbor.
pub fn empty(g: &Bunker) -> State {
    empty_with(g, Options::new())
}

pub fn empty_with(g: &Bunker, o: Options) -> State {
    let mut s = g.new_game("standard", &o, 7).unwrap();
    for u in s.units.iter_mut() {
        if u.kind != Kind::Battery {
            u.at = UNUSED;
            u.flags &= HIDDEN;
        }
    }
    s.turn = 4;
    s.phase = Phase::Main;
    s.tasks.clear();
    s.actions = [3, 3];
    s.reserves = [0, 0];
    s.mover = PATRIOT;
    s.no_pass = false;
    s.reserve = false;
    s
}

/// Puts a set-aside counter of the kind on the map; militia get a known strength.
pub fn put(g: &Bunker, s: &mut State, side: u8, kind: Kind, at: &str) -> u8 {
    let region = if at == "muster" { MUSTER } else { r(g, at) };
    let i = s
        .units
        .iter()
        .position(|u| u.side == side && u.kind == kind && u.at == UNUSED)
        .expect("a spare counter");
    s.units[i].at = region;
    i as u8
}

pub fn militia(g: &Bunker, s: &mut State, at: &str, value: u8) -> u8 {
    let u = put(g, s, PATRIOT, Kind::Militia, at);
    assert!(s.pool.take(value));
    s.units[u as usize].value = value;
    s.units[u as usize].flags &= !HIDDEN;
    u
}

pub fn legal(g: &Bunker, s: &State) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    v
}

pub fn act(g: &Bunker, s: &mut State, a: Action) {
    let side = g.to_act(s).expect("someone to act");
    assert!(
        legal(g, s).contains(&a),
        "{a:?} not legal in {:?}: {:?}",
        s.phase,
        legal(g, s)
    );
    g.apply(s, side, a).unwrap();
}

/// Takes every pending hit on the first offered counter.
pub fn take_hits(g: &Bunker, s: &mut State) {
    while let Some(Task::Hits { .. }) = s.tasks.first() {
        let a = legal(g, s)[0];
        act(g, s, a);
    }
}
