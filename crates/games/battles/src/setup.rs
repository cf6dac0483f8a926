//! §3 Game Setup, §5.3 Reinforcements, §11 and §12: where units start and how they enter.

use crate::action::{Action, Event};
use crate::board::{Board, next_to, side_of};
use crate::data::{AMERICAN, BRITISH, Scenario, Start};
use crate::map::NO_HEX;
use crate::sequence::{self, Actions};
use crate::state::{Loc, Opts, PerSide, Phase, SideId, State, Unit};
use arrayvec::ArrayVec;
use muster_core::hex::Hex;
use muster_core::{Dice, Key};

/// A new game: printed set-up hexes filled, reinforcements pending, free set-ups unplaced,
/// tracks at their starting values and the turn marker on 1 (§3).
pub fn new_game(sc: &Scenario, options: Opts, seed: u64) -> State {
    let units: ArrayVec<Unit, { crate::data::MAX_UNITS }> = sc
        .units
        .iter()
        .map(|d| Unit {
            id: d.id,
            at: match d.start {
                Start::Hex(h) => Loc::Map(h),
                Start::Entry { .. } => Loc::Pending,
                Start::InArea(_) | Start::OutsideArea(_) => Loc::Unplaced,
            },
            reduced: false,
            moved: false,
            attacked: false,
            defended: false,
            rallied: false,
        })
        .collect();
    let mut s = State {
        scenario: Key::new(&sc.id).unwrap_or_else(|_| Key::new("unknown").expect("valid key")),
        options,
        turn: 1,
        active: SideId(sc.first),
        phase: Phase::Over,
        leadership: PerSide {
            american: sc.leadership[0],
            british: sc.leadership[1],
        },
        artillery: PerSide {
            american: sc.artillery[0],
            british: sc.artillery[1],
        },
        leader_used: false,
        artillery_used: false,
        units,
        ended: None,
        dice: Dice::from_seed(seed),
    };
    let mut ev = Vec::new();
    begin_setup_or_play(sc, &mut s, &mut ev);
    s
}

/// §12: the Americans set up first, then the British; then turn 1 begins.
fn begin_setup_or_play(sc: &Scenario, s: &mut State, ev: &mut Vec<Event>) {
    for side in [AMERICAN, BRITISH] {
        s.phase = Phase::Setup { side: SideId(side) };
        if next_to_place(sc, s).is_some() {
            return;
        }
    }
    s.active = SideId(sc.first);
    sequence::start_player_turn(sc, s, ev);
}

/// The next unit to place: in set-up, the next unplaced unit of the side setting up; in the
/// reinforcement step, the next arrived unit of the active side that has somewhere to enter.
pub fn next_to_place(sc: &Scenario, s: &State) -> Option<u8> {
    match s.phase {
        Phase::Setup { side } => (0..s.units.len() as u8)
            .find(|&i| s.units[i as usize].at == Loc::Unplaced && side_of(sc, i) == side.0),
        Phase::Reinforce => {
            let board = Board::new(s);
            (0..s.units.len() as u8).find(|&i| {
                s.units[i as usize].at == Loc::Pending
                    && side_of(sc, i) == s.active.0
                    && matches!(sc.units[i as usize].start, Start::Entry { turn, .. } if turn <= s.turn)
                    && entry_hexes(sc, s, &board, i).next().is_some()
            })
        }
        _ => None,
    }
}

/// Where unit `i` may be placed now.
fn entry_hexes<'a>(
    sc: &'a Scenario,
    s: &'a State,
    board: &'a Board,
    i: u8,
) -> Box<dyn Iterator<Item = Hex> + 'a> {
    let free = move |h: &Hex| sc.map.passable(*h) && board.empty(*h);
    match sc.units[i as usize].start {
        // §5.3: the area's hexes; only when all are blocked, a free hex next to the area.
        Start::Entry { area, .. } => {
            let a = &sc.areas[area as usize];
            if a.hexes.iter().any(free) {
                Box::new(a.hexes.iter().copied().filter(free))
            } else {
                Box::new(sc.map.hexes().filter(move |h| {
                    !a.mask[h.slot()]
                        && free(h)
                        && sc
                            .map
                            .neighbors_of(h.slot())
                            .iter()
                            .any(|&n| n != NO_HEX && a.mask[n as usize])
                }))
            }
        }
        // §12: the Americans anywhere in Area 1.
        Start::InArea(area) => Box::new(sc.areas[area as usize].hexes.iter().copied().filter(free)),
        // §12: the British anywhere outside Area 1, not next to an American unit.
        Start::OutsideArea(area) => {
            let enemy = 1 - side_of(sc, i);
            Box::new(sc.map.hexes().filter(move |h| {
                !sc.areas[area as usize].mask[h.slot()] && free(h) && !next_to(sc, s, *h, enemy)
            }))
        }
        Start::Hex(h) => Box::new(std::iter::once(h).filter(free)),
    }
}

pub fn legal_place(sc: &Scenario, s: &State, out: &mut Actions) {
    if let Some(i) = next_to_place(sc, s) {
        let board = Board::new(s);
        out.extend(entry_hexes(sc, s, &board, i).map(Action::Place));
    }
}

pub fn apply_place(sc: &Scenario, s: &mut State, a: Action, ev: &mut Vec<Event>) {
    let (Action::Place(h), Some(i)) = (a, next_to_place(sc, s)) else {
        return;
    };
    s.units[i as usize].at = Loc::Map(h);
    let entering = matches!(s.phase, Phase::Reinforce);
    ev.push(Event::Placed {
        unit: i,
        hex: h,
        entering,
    });
    if next_to_place(sc, s).is_some() {
        return;
    }
    if entering {
        s.phase = Phase::Movement {
            selected: None,
            force_march: false,
        };
    } else {
        begin_setup_or_play(sc, s, ev);
    }
}

/// Checks a state read from a position: the game's one set of invariants.
pub fn validate(sc: &Scenario, s: &mut State) -> Result<(), String> {
    crate::invariants::check(sc, s)
}
