//! §5 Unit Movement: costs (§5.1), restrictions (§5.2), and the force march of §9.1.
//!
//! Costs are counted in half MP so that road hexes (½ MP each) add up exactly; a move is
//! allowed while the total, rounded up, is within the unit's MP (rulings B3).

use crate::action::{Action, Event};
use crate::board::{Board, adjacent_to, mp, side_of};
use crate::data::Scenario;
use crate::leadership;
use crate::map::{BRIDGE, NO_HEX, RIVER, ROAD, Terrain};
use crate::sequence::{self, Actions};
use crate::state::{Loc, Phase, State};
use arrayvec::ArrayVec;
use muster_core::game::IllegalAction;
use muster_core::hex::{Hex, SLOTS};

/// Not reachable.
pub const UNREACHABLE: u8 = u8::MAX;
/// Largest budget in half MP that a move can have.
const MAX_BUDGET: usize = 64;
/// Largest cost of one step in half MP: 1 + woods/hill + river + next to an enemy = 4 MP.
const MAX_STEP: usize = 8;

/// Does the storm (§12) take MP away this turn?
pub fn storm(sc: &Scenario, s: &State) -> bool {
    sc.storm_mp > 0
        && (sc.storm_turns.contains(&s.turn)
            || (s.options.storm_all_day && !sc.storm_turns.is_empty()))
}

/// The unit's movement allowance this turn, in half MP.
pub fn budget(sc: &Scenario, s: &State, u: u8, force_march: bool) -> u8 {
    let mut points = mp(sc, s, u) as i32;
    if force_march {
        points += 2; // §9.1
    }
    if storm(sc, s) {
        points -= sc.storm_mp as i32; // §12
    }
    (points.max(0) * 2).min(MAX_BUDGET as i32) as u8
}

/// Cost in half MP of every hex the unit can reach with `budget`, from where it stands.
/// Movement rules applied (§5.1, §5.2, §7):
/// - 1 MP a hex; +1 for woods or hills; +1 for crossing a river without a bridge;
///   +1 for entering a hex next to an enemy unit; swamps cannot be entered.
/// - Along a road (hex to hex joined by the road), ½ MP a hex, and terrain costs nothing.
/// - Never into or through an enemy unit; through friends is allowed.
/// - Entering a hex next to an enemy ends the move; a unit that starts next to an enemy may
///   not move straight into another hex next to an enemy.
pub fn reach(sc: &Scenario, s: &State, board: &Board, u: u8, budget: u8) -> [u8; SLOTS] {
    let mut cost = [UNREACHABLE; SLOTS];
    let Some(start) = s.units[u as usize].hex() else {
        return cost;
    };
    let side = side_of(sc, u);
    // One pass over the units: which hexes hold an enemy, and which are next to one.
    let mut enemy_at = [false; SLOTS];
    let mut near_enemy = [false; SLOTS];
    for (i, x) in s.units.iter().enumerate() {
        if let Loc::Map(h) = x.at
            && sc.units[i].side != side
        {
            enemy_at[h.slot()] = true;
            for &n in sc.map.neighbors_of(h.slot()) {
                if n != NO_HEX {
                    near_enemy[n as usize] = true;
                }
            }
        }
    }
    let _ = board;
    let start_slot = start.slot();
    let start_adjacent = near_enemy[start_slot];
    let map = &sc.map;
    let budget = budget as usize;
    let mut buckets: [ArrayVec<u8, SLOTS>; MAX_BUDGET + 1] =
        std::array::from_fn(|_| ArrayVec::new());
    cost[start_slot] = 0;
    buckets[0].push(start_slot as u8);
    for c in 0..=budget {
        while let Some(x) = buckets[c].pop() {
            let x = x as usize;
            if cost[x] as usize != c {
                continue; // a cheaper way was found after this entry was queued
            }
            if x != start_slot && near_enemy[x] {
                continue; // §5.2: must stop on moving next to an enemy
            }
            for (dir, &y) in map.neighbors_of(x).iter().enumerate() {
                if y == NO_HEX {
                    continue;
                }
                let y = y as usize;
                let terrain = map.terrain_at(y);
                if terrain == Terrain::Swamp {
                    continue; // swamp (§7); off-map hexes are never neighbours
                }
                if enemy_at[y] {
                    continue; // never through an enemy (§5)
                }
                if x == start_slot && start_adjacent && near_enemy[y] {
                    continue; // §5.2: from next to an enemy, not straight to next to one
                }
                let flags = map.side_at(x, dir);
                let mut step = if flags & ROAD != 0 {
                    1
                } else {
                    let mut st = 2;
                    if terrain.costs_extra() {
                        st += 2;
                    }
                    if flags & RIVER != 0 && flags & BRIDGE == 0 {
                        st += 2;
                    }
                    st
                };
                if near_enemy[y] {
                    step += 2;
                }
                debug_assert!(step <= MAX_STEP);
                let nc = c + step;
                if nc <= budget && nc < cost[y] as usize {
                    cost[y] = nc as u8;
                    buckets[nc].push(y as u8);
                }
            }
        }
    }
    cost
}

/// Can the selected unit leave the map at the exit hex this move (§12)? Leaving costs 1 MP
/// beyond the exit hex, and a unit stopped next to an enemy on the way cannot go on.
pub fn can_exit(sc: &Scenario, s: &State, board: &Board, u: u8, force_march: bool) -> bool {
    let Some((exit, side, _)) = sc.exit else {
        return false;
    };
    let Some(at) = s.units[u as usize].hex() else {
        return false;
    };
    if side_of(sc, u) != side {
        return false;
    }
    let b = budget(sc, s, u, force_march);
    if at == exit {
        return b >= 2;
    }
    let cost = reach(sc, s, board, u, b);
    let near_enemy = adjacent_to(sc, s, 1 - side);
    cost[exit.slot()] != UNREACHABLE
        && !near_enemy[exit.slot()]
        && cost[exit.slot()] as u16 + 2 <= b as u16
}

fn movable(sc: &Scenario, s: &State, u: u8) -> bool {
    let unit = &s.units[u as usize];
    side_of(sc, u) == s.active.0 && unit.hex().is_some() && !unit.moved && !unit.rallied
}

/// Is `a` (not a move) legal for the selected unit? The same tests as [`legal`], without
/// computing the unit's reach.
pub fn selected_allows(sc: &Scenario, s: &State, u: u8, force_march: bool, a: Action) -> bool {
    match a {
        Action::Hold => true,
        Action::ForceMarch => !force_march && leadership::point_available(s),
        Action::Exit => can_exit(sc, s, &Board::new(s), u, force_march),
        _ => false,
    }
}

pub fn legal(sc: &Scenario, s: &State, out: &mut Actions) {
    let Phase::Movement {
        selected,
        force_march,
    } = s.phase
    else {
        return;
    };
    match selected {
        None => {
            out.extend(
                (0..s.units.len() as u8)
                    .filter(|&u| movable(sc, s, u))
                    .map(Action::Select),
            );
            out.push(Action::EndMovement);
        }
        Some(u) => {
            if !force_march && leadership::point_available(s) {
                out.push(Action::ForceMarch);
            }
            let board = Board::new(s);
            let cost = reach(sc, s, &board, u, budget(sc, s, u, force_march));
            for (slot, &c) in cost.iter().enumerate() {
                if c != UNREACHABLE && c > 0 && board.at_slot(slot).is_none() {
                    out.push(Action::MoveTo(Hex::from_slot(slot)));
                }
            }
            if can_exit(sc, s, &board, u, force_march) {
                out.push(Action::Exit);
            }
            out.push(Action::Hold);
        }
    }
}

/// Moves the selected unit to `to` if it can reach that empty hex (§5); refuses otherwise.
pub fn apply_move(
    sc: &Scenario,
    s: &mut State,
    u: u8,
    force_march: bool,
    to: Hex,
    ev: &mut Vec<Event>,
) -> Result<(), IllegalAction> {
    let board = Board::new(s);
    let cost = reach(sc, s, &board, u, budget(sc, s, u, force_march));
    let slot = to.slot();
    let from = s.units[u as usize].hex();
    if !sc.map.grid.contains(to)
        || cost[slot] == UNREACHABLE
        || Some(to) == from
        || board.at_slot(slot).is_some()
    {
        return Err(IllegalAction::not_legal(format!(
            "move {to} is not legal now: {} cannot reach {to} or it is occupied",
            sc.units[u as usize].name
        )));
    }
    let unit = &mut s.units[u as usize];
    unit.at = Loc::Map(to);
    unit.moved = true;
    ev.push(Event::Moved {
        unit: u,
        from: from.unwrap_or(to),
        to,
        halves: cost[slot],
    });
    s.phase = Phase::Movement {
        selected: None,
        force_march: false,
    };
    Ok(())
}

pub fn apply(sc: &Scenario, s: &mut State, a: Action, ev: &mut Vec<Event>) {
    let Phase::Movement { selected, .. } = s.phase else {
        return;
    };
    let done = |s: &mut State| {
        s.phase = Phase::Movement {
            selected: None,
            force_march: false,
        }
    };
    match (a, selected) {
        (Action::Select(u), None) => {
            s.phase = Phase::Movement {
                selected: Some(u),
                force_march: false,
            }
        }
        (Action::EndMovement, None) => sequence::end_movement(sc, s, ev),
        (Action::ForceMarch, Some(u)) => {
            leadership::spend(s);
            s.phase = Phase::Movement {
                selected: Some(u),
                force_march: true,
            };
            ev.push(Event::ForceMarch { unit: u });
        }
        (Action::Exit, Some(u)) => {
            let unit = &mut s.units[u as usize];
            let from = unit.hex().unwrap_or_default();
            unit.at = Loc::Exited;
            unit.moved = true;
            ev.push(Event::Exited { unit: u, from });
            done(s);
        }
        (Action::Hold, Some(u)) => {
            s.units[u as usize].moved = true;
            ev.push(Event::Held { unit: u });
            done(s);
        }
        _ => {}
    }
}
