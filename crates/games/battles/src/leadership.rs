//! §9 Leadership: the active player may spend one Leadership point a turn, on one unit, to
//! force march (§9.1, in `movement`), charge (§9.2, in `combat`) or rally (§9.3, here).

use crate::action::{Action, Event};
use crate::board::{adjacent_to, on_map};
use crate::data::Scenario;
use crate::sequence::{self, Actions};
use crate::state::State;

/// May the active player spend a Leadership point now?
pub fn point_available(s: &State) -> bool {
    !s.leader_used && s.leadership.get(s.active.0) > 0
}

/// Spends the active player's Leadership point for this turn.
pub fn spend(s: &mut State) {
    s.leader_used = true;
    let p = s.leadership.get_mut(s.active.0);
    *p = p.saturating_sub(1);
}

/// Units that may be rallied: reduced, on the map, not next to an enemy (§9.3).
fn candidates<'a>(sc: &'a Scenario, s: &'a State) -> impl Iterator<Item = u8> + 'a {
    let near_enemy = adjacent_to(sc, s, s.active.other().0);
    on_map(sc, s, s.active.0)
        .filter(move |&(i, h)| s.units[i as usize].reduced && !near_enemy[h.slot()])
        .map(|(i, _)| i)
}

/// Is a rally possible at the start of this turn?
pub fn can_rally(sc: &Scenario, s: &State) -> bool {
    point_available(s) && candidates(sc, s).next().is_some()
}

pub fn legal_rally(sc: &Scenario, s: &State, out: &mut Actions) {
    out.extend(candidates(sc, s).map(Action::Rally));
    out.push(Action::NoRally);
}

/// §9.3: roll a die; 4-6 flips the unit to full strength, and a flipped unit may not move
/// this turn. The point is spent whatever the roll.
pub fn apply_rally(sc: &Scenario, s: &mut State, a: Action, ev: &mut Vec<Event>) {
    if let Action::Rally(u) = a {
        spend(s);
        let roll = s.dice.d6();
        let success = roll >= 4;
        if success {
            let unit = &mut s.units[u as usize];
            unit.reduced = false;
            unit.rallied = true;
        }
        ev.push(Event::RallyRoll {
            unit: u,
            roll,
            success,
        });
    }
    sequence::begin_reinforcements(sc, s, ev);
}
