//! §8 Artillery (Freeman's Farm only): the non-active player may spend one Artillery point a
//! turn, on one unit: +2 CF to a defender before the dice (§8.1, applied in `combat`), or fire
//! at an enemy unit within 3 hexes of friendly infantry after movement (§8.2, here).

use crate::action::{Action, Bombardment, Event};
use crate::board::on_map;
use crate::combat::{retreat_hexes, retreat_unit, take_loss};
use crate::data::Scenario;
use crate::sequence::{self, Actions};
use crate::state::{Phase, State};

/// Targets must be within this many hexes of a friendly (infantry) unit (§8.2).
pub const RANGE: u8 = 3;

fn point_available(sc: &Scenario, s: &State) -> bool {
    sc.artillery_rules && !s.artillery_used && s.artillery.get(s.active.other().0) > 0
}

/// Spends the non-active player's Artillery point for this turn.
pub fn spend(s: &mut State) {
    s.artillery_used = true;
    let p = s.artillery.get_mut(s.active.other().0);
    *p = p.saturating_sub(1);
}

/// May the defender be given +2 CF now (§8.1)?
pub fn can_support(sc: &Scenario, s: &State) -> bool {
    point_available(sc, s)
}

/// Active units that the non-active player's artillery can reach: within 3 hexes of one of
/// its units (every unit in these battles is infantry).
fn targets<'a>(sc: &'a Scenario, s: &'a State) -> impl Iterator<Item = u8> + 'a {
    on_map(sc, s, s.active.0)
        .filter(move |&(_, h)| {
            on_map(sc, s, s.active.other().0).any(|(_, f)| sc.map.distance(h, f) <= RANGE)
        })
        .map(|(i, _)| i)
}

pub fn can_fire(sc: &Scenario, s: &State) -> bool {
    point_available(sc, s) && targets(sc, s).next().is_some()
}

pub fn legal_fire(sc: &Scenario, s: &State, out: &mut Actions) {
    out.extend(targets(sc, s).map(Action::Fire));
    out.push(Action::NoFire);
}

/// The target chart (§8.2, §13) after the −1 for a target in woods, hills or farms.
pub fn chart(modified_roll: i8) -> Bombardment {
    match modified_roll {
        i8::MIN..=3 => Bombardment::NoEffect,
        4 | 5 => Bombardment::Retreat,
        _ => Bombardment::ReduceAndRetreat,
    }
}

pub fn apply_fire(sc: &Scenario, s: &mut State, a: Action, ev: &mut Vec<Event>) {
    let Action::Fire(u) = a else {
        sequence::begin_attacks(sc, s, ev);
        return;
    };
    spend(s);
    let roll = s.dice.d6();
    let terrain = s.units[u as usize]
        .hex()
        .is_some_and(|h| sc.map.terrain(h).defends());
    let result = chart(roll as i8 - terrain as i8);
    ev.push(Event::ArtilleryFire {
        unit: u,
        roll,
        terrain,
        result,
    });
    if result == Bombardment::ReduceAndRetreat {
        take_loss(s, u, ev);
    }
    if result != Bombardment::NoEffect && s.units[u as usize].hex().is_some() {
        s.phase = Phase::ArtilleryRetreat { unit: u };
        let options = retreat_hexes(sc, s, u);
        match options.len() {
            0 => {
                ev.push(Event::CannotRetreat { unit: u });
                take_loss(s, u, ev);
            }
            1 => retreat_unit(sc, s, u, options[0], ev),
            _ => return, // the owner chooses
        }
    }
    sequence::begin_attacks(sc, s, ev);
}
