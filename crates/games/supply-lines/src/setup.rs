//! §3.0-§3.2 Set-Up, and the checks of a position read from a file.

use crate::data::{Data, Kind};
use crate::sequence;
use crate::state::{Area, Phase, SideId, State};
use arrayvec::ArrayVec;
use muster_core::{Dice, Key};

/// A new game: markers on their first spaces, two War in Ticonderoga and one in every other
/// fort (as the map file says), the armies of §3.1 and §3.2, all Patriot markers in the cup.
pub fn new_game(d: &Data, scenario: &str, seed: u64) -> Result<State, String> {
    let mut areas = ArrayVec::new();
    for a in &d.areas {
        areas.push(Area {
            id: a.id,
            side: None,
            units: 0,
            leaders: 0,
            food: 0,
            war: a.start_war,
            dug_in: false,
            destroyed: false,
        });
    }
    for x in &d.setup {
        let ar = &mut areas[x.area as usize];
        ar.side = Some(SideId(x.side));
        ar.units = x.units;
        ar.leaders = x.leaders;
    }
    let mut s = State {
        scenario: Key::new(scenario)?,
        turn: 1,
        phase: Phase::Over,
        areas,
        support: d.support_start,
        declared: false,
        pass: 0,
        passed: false,
        winter_attack: [false; 2],
        crown_taken: 0,
        triumvirate: false,
        in_nova: 0,
        deadlines: 0,
        last_chance: 0,
        quebec_attacked: false,
        cup: if d.patriot_markers.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << d.patriot_markers.len()) - 1
        },
        drawn: 0,
        ended: None,
        dice: Dice::from_seed(seed),
    };
    let mut ev = Vec::new();
    sequence::begin_turn(d, &mut s, &mut ev);
    sequence::settle(d, &mut s, &mut ev);
    Ok(s)
}

/// Checks a state read from a position: the map's areas in order, armies and supplies where
/// they may be, the cube limits, the tracks and the phase's references.
pub fn validate(d: &Data, s: &State) -> Result<(), String> {
    if s.areas.len() != d.areas.len() {
        return Err(format!(
            "areas: the map has {} areas, the position {}",
            d.areas.len(),
            s.areas.len()
        ));
    }
    for (i, (x, def)) in s.areas.iter().zip(&d.areas).enumerate() {
        let at = |m: &str| format!("areas[{i}] ({}): {m}", def.id);
        if x.id != def.id {
            return Err(at(&format!(
                "expected area {:?} here, found {:?}",
                def.id, x.id
            )));
        }
        if x.units > 100 || x.leaders > 20 {
            return Err(at("at most 100 Units and 20 Leaders in one area"));
        }
        if x.units == 0 && x.leaders == 0 && x.side.is_some() {
            return Err(at("a side is named but no army is there"));
        }
        if (x.units > 0 || x.leaders > 0) && x.side.is_none() {
            return Err(at("an army needs a side"));
        }
        if x.units == 0
            && x.leaders > 0
            && !(i as u8 == d.nova_scotia && x.side == Some(SideId::CROWN))
        {
            return Err(at(
                "Leaders without Units may wait only in Nova Scotia (§12.1)",
            ));
        }
        if def.kind == Kind::Sea && (x.side == Some(SideId::PATRIOT) || x.food > 0) {
            return Err(at(
                "the Sea Box holds only Crown units and War (§2.1, §5.4)",
            ));
        }
        if def.kind == Kind::Point && x.units == 0 && x.cubes() > 0 {
            return Err(at("supplies at a Point need an army to carry them (§5.5)"));
        }
        if (x.destroyed && def.kind != Kind::City)
            || (x.dug_in && def.kind != Kind::City && def.kind != Kind::Fort)
        {
            return Err(at(
                "Destroyed marks only Cities; Dug-In only Cities and Forts",
            ));
        }
    }
    if s.food_on_map() > d.food_cubes as u32 || s.war_on_map() > d.war_cubes as u32 {
        return Err(format!(
            "supplies: {} Food and {} War on the map; there are only {} and {} (§2.3)",
            s.food_on_map(),
            s.war_on_map(),
            d.food_cubes,
            d.war_cubes
        ));
    }
    if s.turn == 0 || s.turn > d.turns() {
        return Err(format!(
            "turn: {} is not a turn of 1 to {}",
            s.turn,
            d.turns()
        ));
    }
    if s.support > d.treaty {
        return Err(format!("support: space {} is off the track", s.support));
    }
    if s.pass as usize >= d.pass_labels.len() {
        return Err(format!("pass: space {} is off the track", s.pass));
    }
    if s.crown_taken as usize > d.crown_markers.len() {
        return Err(format!(
            "crown_taken: only {} markers",
            d.crown_markers.len()
        ));
    }
    let markers = d.patriot_markers.len();
    if markers < 32 && (s.cup | s.drawn) >> markers != 0 || s.cup & s.drawn != 0 {
        return Err("cup/drawn: unknown or doubled reinforcement markers".into());
    }
    let n = d.areas.len() as u8;
    let ok = |a: u8| a < n;
    let bad_ref = match s.phase {
        Phase::Supply { pick, .. } | Phase::Impulse { pick, .. } | Phase::After { pick, .. } => {
            !pick.from.is_none_or(ok) || !pick.to.is_none_or(ok)
        }
        Phase::Activate { act, .. } => {
            !ok(act.origin)
                || !act.group.to.is_none_or(ok)
                || !act.pick.from.is_none_or(ok)
                || !act.pick.to.is_none_or(ok)
        }
        Phase::Refuse { battle }
        | Phase::AttackerCommit { battle }
        | Phase::DefenderCommit { battle }
        | Phase::Retreat { battle } => !ok(battle.origin) || !ok(battle.target),
        Phase::RefuseCarry { battle, to, .. } => {
            !ok(battle.origin) || !ok(battle.target) || !ok(to)
        }
        _ => false,
    };
    if bad_ref {
        return Err("phase: refers to an area the map does not have".into());
    }
    phase_fits(d, s).map_err(|m| format!("phase: {m}"))?;
    if (s.phase == Phase::Over) != s.ended.is_some() {
        return Err("phase: \"over\" exactly when the game has ended".into());
    }
    Ok(())
}

/// The phase's numbers must fit the armies it refers to, so that no decision can take away
/// more than an area holds.
fn phase_fits(d: &Data, s: &State) -> Result<(), String> {
    match s.phase {
        Phase::Activate { side, act } => {
            let o = s.area(act.origin);
            if !o.held_by(side) {
                return Err("the activated army is not in its area".into());
            }
            let g = act.group;
            if act.left.is_some_and(|l| l > o.units)
                || g.units.is_some_and(|n| n == 0 || n > o.units)
                || g.leaders.is_some_and(|l| l > o.leaders)
                || g.food.is_some_and(|f| f > o.food)
                || g.to.is_some_and(|t| t == act.origin)
            {
                return Err("the detachment asks for more than its area holds".into());
            }
            if !act.pick.is_empty() && !crate::impulse::between_detachments(&act) {
                return Err(
                    "a supply move inside an activation only between March detachments".into(),
                );
            }
            if act.pick.to.is_some() && act.pick.from.is_none() {
                return Err("a supply move has a destination but no source".into());
            }
        }
        Phase::Refuse { battle: b }
        | Phase::RefuseCarry { battle: b, .. }
        | Phase::AttackerCommit { battle: b }
        | Phase::DefenderCommit { battle: b }
        | Phase::Retreat { battle: b } => {
            if b.units == 0 || !s.area(b.target).held_by(b.attacker.other()) || b.target == b.origin
            {
                return Err("the battle needs attacking Units and a defending army".into());
            }
            if let Phase::RefuseCarry { food: Some(f), .. } = s.phase
                && f > s.area(b.target).food
            {
                return Err("the refusing army takes more Food than it has".into());
            }
        }
        Phase::NovaScotia { output } if output > d.capacity => {
            return Err("Nova Scotia produces at most its capacity".into());
        }
        _ => {}
    }
    Ok(())
}
