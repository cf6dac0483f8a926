//! §3 Game Setup, §5.3 Reinforcements, §11 and §12: where units start and how they enter.

use crate::action::{Action, Event};
use crate::board::{Board, next_to, side_of};
use crate::data::{AMERICAN, BRITISH, SIDE_IDS, Scenario, Start};
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

/// Checks a state read from a position.
pub fn validate(sc: &Scenario, s: &mut State) -> Result<(), String> {
    if s.units.len() != sc.units.len() {
        return Err(format!(
            "units: {} has {} units in roster order; the position lists {}",
            sc.id,
            sc.units.len(),
            s.units.len()
        ));
    }
    let mut seen = [false; muster_core::hex::SLOTS];
    for (i, (u, d)) in s.units.iter().zip(&sc.units).enumerate() {
        if u.id != d.id {
            return Err(format!(
                "units[{i}]: expected {:?} (units are listed in roster order), found {:?}",
                d.id.as_str(),
                u.id.as_str()
            ));
        }
        if let Loc::Map(h) = u.at {
            if !sc.map.passable(h) {
                return Err(format!(
                    "units[{i}] ({}): {h} is not a hex a unit may stand in",
                    d.id
                ));
            }
            if std::mem::replace(&mut seen[h.slot()], true) {
                return Err(format!(
                    "units[{i}] ({}): another unit already stands at {h}",
                    d.id
                ));
            }
        }
        if u.at == Loc::Exited && sc.exit.is_none_or(|(_, side, _)| side != d.side) {
            return Err(format!(
                "units[{i}] ({}): this unit cannot exit the map",
                d.id
            ));
        }
    }
    if s.turn == 0 || s.turn > sc.turns {
        return Err(format!("turn: must be 1 to {}, not {}", sc.turns, s.turn));
    }
    for (side, name) in SIDE_IDS.iter().enumerate() {
        let side = side as u8;
        if s.leadership.get(side) > sc.leadership[side as usize] {
            return Err(format!(
                "leadership.{name}: {} is more than the {} the side starts with",
                s.leadership.get(side),
                sc.leadership[side as usize]
            ));
        }
        if s.artillery.get(side) > sc.artillery[side as usize] {
            return Err(format!(
                "artillery.{name}: {} is more than the {} the side starts with",
                s.artillery.get(side),
                sc.artillery[side as usize]
            ));
        }
    }
    validate_phase(sc, s)
}

fn validate_phase(sc: &Scenario, s: &State) -> Result<(), String> {
    let n = s.units.len() as u8;
    let active = s.active.0;
    let on_map_of = |u: u8, side: u8, what: &str| -> Result<(), String> {
        if u >= n {
            return Err(format!("phase.{what}: there is no unit number {u}"));
        }
        if s.units[u as usize].hex().is_none() || side_of(sc, u) != side {
            return Err(format!(
                "phase.{what}: unit {u} ({}) must be on the map and on the {} side",
                sc.units[u as usize].id, SIDE_IDS[side as usize]
            ));
        }
        Ok(())
    };
    let check_battle = |b: &crate::state::Battle| -> Result<(), String> {
        if b.target >= n || side_of(sc, b.target) == active {
            return Err("phase.battle.target must be an enemy of the active side".into());
        }
        for &a in &b.attackers {
            if a >= n || side_of(sc, a) != active {
                return Err("phase.battle.attackers must be units of the active side".into());
            }
        }
        Ok(())
    };
    match &s.phase {
        Phase::Over => {
            if s.ended.is_none() {
                return Err("phase: \"over\" needs \"ended\"".into());
            }
        }
        Phase::Setup { .. } | Phase::Reinforce => {
            if next_to_place(sc, s).is_none() {
                return Err("phase: nothing is waiting to be placed".into());
            }
        }
        Phase::Rally => {
            if !crate::leadership::can_rally(sc, s) {
                return Err("phase: no rally is possible now".into());
            }
        }
        Phase::Movement { selected, .. } => {
            if let Some(u) = selected {
                on_map_of(*u, active, "selected")?;
            }
        }
        Phase::ArtilleryRetreat { unit } => on_map_of(*unit, active, "unit")?,
        Phase::Declare {
            target, attackers, ..
        } => {
            on_map_of(*target, 1 - active, "target")?;
            for &a in attackers {
                on_map_of(a, active, "attackers")?;
            }
        }
        Phase::Support { battle } | Phase::Losses { battle, .. } | Phase::Advance { battle } => {
            check_battle(battle)?
        }
        Phase::Retreat { battle, queue } => {
            check_battle(battle)?;
            for &u in queue {
                if u >= n || s.units[u as usize].hex().is_none() {
                    return Err("phase.queue: retreating units must be on the map".into());
                }
            }
        }
        Phase::ArtilleryFire | Phase::Attacks => {}
    }
    if s.ended.is_some() && s.phase != Phase::Over {
        return Err("ended: a finished game must be in phase \"over\"".into());
    }
    Ok(())
}
