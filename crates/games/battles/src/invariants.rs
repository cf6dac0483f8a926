//! The one set of checks every Battles state must pass: `validate` runs it on every position
//! read (`load`, a record's `start`), and the random-play tests run it after every decision.
//! Each failure names the member at fault and the rule it breaks. Everything is checked with
//! indices tested before use, so no loaded number can push an index out of bounds.

use crate::board::Board;
use crate::data::{AMERICAN, SIDE_IDS, Scenario, Start};
use crate::state::{Attackers, Battle, EndReason, Loc, Phase, State};
use crate::{artillery, leadership, sequence, setup, victory};

/// Checks `s` against the rules of its scenario `sc`.
pub fn check(sc: &Scenario, s: &State) -> Result<(), String> {
    units(sc, s)?;
    counters(sc, s)?;
    phase(sc, s)?;
    ending(sc, s)?;
    // A game that goes on always gives the side to act something to do (§4).
    if sequence::to_act(s).is_some() {
        let mut legal = sequence::Actions::new();
        sequence::legal(sc, s, &mut legal);
        if legal.is_empty() {
            return Err(format!(
                "phase: the side to act would have no legal action in step {:?}",
                step_name(&s.phase)
            ));
        }
    }
    Ok(())
}

fn step_name(p: &Phase) -> &'static str {
    match p {
        Phase::Setup { .. } => "setup",
        Phase::Rally => "rally",
        Phase::Reinforce => "reinforce",
        Phase::Movement { .. } => "movement",
        Phase::ArtilleryFire => "artillery-fire",
        Phase::ArtilleryRetreat { .. } => "artillery-retreat",
        Phase::Attacks => "attacks",
        Phase::Declare { .. } => "declare",
        Phase::Support { .. } => "support",
        Phase::Losses { .. } => "losses",
        Phase::Retreat { .. } => "retreat",
        Phase::Advance { .. } => "advance",
        Phase::Over => "over",
    }
}

/// §3, §11, §12: the scenario's counters in roster order, one per hex, on hexes a unit may
/// enter; `pending` only for reinforcements (§5.3), `unplaced` only during the free set-up
/// (§12), `exited` only for the side that may leave by the exit (§12).
fn units(sc: &Scenario, s: &State) -> Result<(), String> {
    if s.units.len() != sc.units.len() {
        return Err(format!(
            "units: {} has {} units in roster order; the position lists {}",
            sc.id,
            sc.units.len(),
            s.units.len()
        ));
    }
    let mut seen = [false; muster_core::hex::SLOTS];
    let in_setup = matches!(s.phase, Phase::Setup { .. });
    for (i, (u, d)) in s.units.iter().zip(&sc.units).enumerate() {
        if u.id != d.id {
            return Err(format!(
                "units[{i}]: expected {:?} (units are listed in roster order), found {:?}",
                d.id.as_str(),
                u.id.as_str()
            ));
        }
        match u.at {
            Loc::Map(h) => {
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
            Loc::Exited => {
                if sc.exit.is_none_or(|(_, side, _)| side != d.side) {
                    return Err(format!(
                        "units[{i}] ({}): this unit cannot exit the map (§12)",
                        d.id
                    ));
                }
            }
            Loc::Pending => {
                if !matches!(d.start, Start::Entry { .. }) {
                    return Err(format!(
                        "units[{i}] ({}): \"pending\" is only for a reinforcement (§5.3); this unit starts on the map",
                        d.id
                    ));
                }
            }
            Loc::Unplaced => {
                if !matches!(d.start, Start::InArea(_) | Start::OutsideArea(_)) || !in_setup {
                    return Err(format!(
                        "units[{i}] ({}): \"unplaced\" is only for a unit of the free set-up, during the set-up (§12)",
                        d.id
                    ));
                }
            }
            Loc::Eliminated | Loc::Absent => {}
        }
    }
    Ok(())
}

/// §4 turns, §8 Artillery and §9 Leadership points.
fn counters(sc: &Scenario, s: &State) -> Result<(), String> {
    if s.turn == 0 || s.turn > sc.turns {
        return Err(format!("turn: must be 1 to {}, not {}", sc.turns, s.turn));
    }
    for (side, name) in SIDE_IDS.iter().enumerate() {
        let side = side as u8;
        if s.leadership.get(side) > sc.leadership[side as usize] {
            return Err(format!(
                "leadership.{name}: {} is more than the {} the side starts with (§9)",
                s.leadership.get(side),
                sc.leadership[side as usize]
            ));
        }
        if s.artillery.get(side) > sc.artillery[side as usize] {
            return Err(format!(
                "artillery.{name}: {} is more than the {} the side starts with (§8)",
                s.artillery.get(side),
                sc.artillery[side as usize]
            ));
        }
    }
    if s.artillery_used && !sc.artillery_rules {
        return Err(format!("artillery_used: {} has no artillery (§8)", sc.id));
    }
    Ok(())
}

/// A unit index named in `phase`, checked before any use.
fn unit_of(sc: &Scenario, at: &str, u: u8) -> Result<usize, String> {
    if (u as usize) < sc.units.len() {
        Ok(u as usize)
    } else {
        Err(format!(
            "{at}: there is no unit number {u} ({} has units 0 to {})",
            sc.id,
            sc.units.len().saturating_sub(1)
        ))
    }
}

/// `at` names a unit of `side` standing on the map.
fn on_map_of(sc: &Scenario, s: &State, at: &str, u: u8, side: u8) -> Result<usize, String> {
    let i = unit_of(sc, at, u)?;
    if s.units[i].hex().is_none() || sc.units[i].side != side {
        return Err(format!(
            "{at}: unit {u} ({}) must be on the map and on the {} side",
            sc.units[i].id, SIDE_IDS[side as usize]
        ));
    }
    Ok(i)
}

fn no_attacks_now(sc: &Scenario, s: &State, at: &str) -> Result<(), String> {
    if sc.no_attack_turns.contains(&s.turn) {
        return Err(format!(
            "{at}: there are no attacks on turn {} of {} (§12, the storm)",
            s.turn, sc.id
        ));
    }
    Ok(())
}

/// The attackers of one attack (§6.1): distinct units of the active side, each standing next
/// to `hex` (or already gone from the map, eliminated by the losses of this attack).
fn attackers(
    sc: &Scenario,
    s: &State,
    at: &str,
    list: &Attackers,
    hex: Option<muster_core::hex::Hex>,
    alive_required: bool,
    moved_on: &[u8],
) -> Result<(), String> {
    for (k, &a) in list.iter().enumerate() {
        let here = format!("{at}[{k}]");
        let i = unit_of(sc, &here, a)?;
        if sc.units[i].side != s.active.0 {
            return Err(format!(
                "{here}: unit {a} ({}) is not of the active side, so it cannot attack (§6.1)",
                sc.units[i].id
            ));
        }
        if list[..k].contains(&a) {
            return Err(format!(
                "{here}: unit {a} ({}) is named twice in one attack (§6.1)",
                sc.units[i].id
            ));
        }
        match (s.units[i].hex(), hex) {
            (Some(h), Some(t)) if !sc.map.adjacent(h, t) && !moved_on.contains(&a) => {
                return Err(format!(
                    "{here}: unit {a} ({}) at {h} is not next to the defender's hex {t}; only adjacent units attack (§6.1)",
                    sc.units[i].id
                ));
            }
            (None, _) if alive_required => {
                return Err(format!(
                    "{here}: unit {a} ({}) must be on the map to attack (§6.1)",
                    sc.units[i].id
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// A committed attack (§6.1-§6.6).
///
/// `retreated`: attackers that have already retreated from the hex they attacked from.
fn battle(
    sc: &Scenario,
    s: &State,
    b: &Battle,
    resolved: bool,
    retreated: &[u8],
) -> Result<(), String> {
    no_attacks_now(sc, s, "phase")?;
    let t = unit_of(sc, "phase.battle.target", b.target)?;
    if sc.units[t].side == s.active.0 {
        return Err(format!(
            "phase.battle.target: unit {} ({}) is not an enemy of the active side (§6.1)",
            b.target, sc.units[t].id
        ));
    }
    if !sc.map.passable(b.hex) {
        return Err(format!(
            "phase.battle.hex: {} is not a hex a unit may stand in",
            b.hex
        ));
    }
    if !resolved && s.units[t].at != Loc::Map(b.hex) {
        return Err(format!(
            "phase.battle.hex: the defender {} does not stand at {} (§6.1)",
            sc.units[t].id, b.hex
        ));
    }
    if b.attackers.is_empty() {
        return Err("phase.battle.attackers: an attack needs at least one attacker (§6.1)".into());
    }
    attackers(
        sc,
        s,
        "phase.battle.attackers",
        &b.attackers,
        Some(b.hex),
        false,
        retreated,
    )?;
    if !s.units[t].defended {
        return Err(format!(
            "units[{t}] ({}): the defender of a committed attack is marked defended (§6.1)",
            sc.units[t].id
        ));
    }
    for &a in &b.attackers {
        if !s.units[a as usize].attacked {
            return Err(format!(
                "units[{a}] ({}): an attacker of a committed attack is marked attacked (§6.1)",
                sc.units[a as usize].id
            ));
        }
    }
    if let Some(c) = b.charge {
        charge(s, "phase.battle.charge", c, &b.attackers)?;
    }
    if b.support && !s.artillery_used {
        return Err(
            "phase.battle.support: artillery support spends the defender's Artillery point of this turn, but artillery_used is false (§8.1)"
                .into(),
        );
    }
    if b.support && !sc.artillery_rules {
        return Err(format!(
            "phase.battle.support: {} has no artillery (§8)",
            sc.id
        ));
    }
    Ok(())
}

fn charge(s: &State, at: &str, c: u8, list: &Attackers) -> Result<(), String> {
    if !list.contains(&c) {
        return Err(format!(
            "{at}: unit {c} is not one of the attackers; a charge is made by an attacking unit (§9.2)"
        ));
    }
    if !s.leader_used {
        return Err(format!(
            "{at}: a charge spends the active side's Leadership point of this turn, but leader_used is false (§9.2)"
        ));
    }
    Ok(())
}

fn phase(sc: &Scenario, s: &State) -> Result<(), String> {
    let active = s.active.0;
    match &s.phase {
        Phase::Over => {
            if s.ended.is_none() {
                return Err("phase: \"over\" needs \"ended\" (§10)".into());
            }
        }
        Phase::Setup { .. } | Phase::Reinforce => {
            if setup::next_to_place(sc, s).is_none() {
                return Err("phase: nothing is waiting to be placed (§5.3, §12)".into());
            }
        }
        Phase::Rally => {
            if !leadership::can_rally(sc, s) {
                return Err(
                    "phase: no rally is possible now: it needs a Leadership point and a reduced unit not next to an enemy (§9.3)"
                        .into(),
                );
            }
        }
        Phase::Movement {
            selected,
            force_march,
        } => match selected {
            Some(u) => {
                let i = on_map_of(sc, s, "phase.selected", *u, active)?;
                let unit = &s.units[i];
                if unit.moved || unit.rallied {
                    return Err(format!(
                        "phase.selected: unit {u} ({}) has already moved or rallied this turn (§5, §9.3)",
                        sc.units[i].id
                    ));
                }
                if *force_march && !s.leader_used {
                    return Err(
                        "phase.force_march: a force march spends the Leadership point of this turn, but leader_used is false (§9.1)"
                            .into(),
                    );
                }
            }
            None => {
                if *force_march {
                    return Err(
                        "phase.force_march: only a selected unit force marches (§9.1)".into(),
                    );
                }
            }
        },
        Phase::ArtilleryFire => {
            if !artillery::can_fire(sc, s) {
                return Err(
                    "phase: artillery fire needs an unused Artillery point of the other side and a target within 3 hexes (§8.2)"
                        .into(),
                );
            }
        }
        Phase::ArtilleryRetreat { unit } => {
            on_map_of(sc, s, "phase.unit", *unit, active)?;
            if !s.artillery_used {
                return Err(
                    "phase.unit: a retreat from artillery fire follows a fired Artillery point, but artillery_used is false (§8.2)"
                        .into(),
                );
            }
        }
        Phase::Attacks => no_attacks_now(sc, s, "phase")?,
        Phase::Declare {
            target,
            attackers: list,
            charge: c,
        } => {
            no_attacks_now(sc, s, "phase")?;
            let t = on_map_of(sc, s, "phase.target", *target, 1 - active)?;
            if s.units[t].defended {
                return Err(format!(
                    "phase.target: unit {target} ({}) has already been attacked this turn (§6.1)",
                    sc.units[t].id
                ));
            }
            attackers(sc, s, "phase.attackers", list, s.units[t].hex(), true, &[])?;
            for &a in list {
                if s.units[a as usize].attacked {
                    return Err(format!(
                        "phase.attackers: unit {a} ({}) has already attacked this turn (§6.1)",
                        sc.units[a as usize].id
                    ));
                }
            }
            if let Some(c) = c {
                charge(s, "phase.charge", *c, list)?;
            }
        }
        Phase::Support { battle: b } => {
            battle(sc, s, b, false, &[])?;
            if b.support || b.attacker_won {
                return Err(
                    "phase.battle: support is decided before the dice, so neither support nor attacker_won is set yet (§8.1)"
                        .into(),
                );
            }
            if !artillery::can_support(sc, s) {
                return Err(format!(
                    "phase: support needs an unused Artillery point of the {} side, which has none (§8.1)",
                    SIDE_IDS[1 - active as usize]
                ));
            }
        }
        Phase::Losses {
            battle: b,
            remaining,
        } => {
            battle(sc, s, b, true, &[])?;
            if b.attacker_won {
                return Err(
                    "phase.battle.attacker_won: losses are chosen by a losing attacker (§6.5)"
                        .into(),
                );
            }
            if *remaining == 0 || *remaining > 2 {
                return Err(format!(
                    "phase.remaining: a lost attack costs 1 or 2 losses, not {remaining} (§6.5)"
                ));
            }
        }
        Phase::Retreat { battle: b, queue } => {
            // A losing attacker's units retreat one at a time: those no longer queued have gone.
            let gone: Attackers = if b.attacker_won {
                Attackers::new()
            } else {
                b.attackers
                    .iter()
                    .copied()
                    .filter(|u| !queue.contains(u))
                    .collect()
            };
            battle(sc, s, b, true, &gone)?;
            if queue.is_empty() {
                return Err("phase.queue: a retreat step needs a unit to retreat (§6.6)".into());
            }
            for (k, &u) in queue.iter().enumerate() {
                let at = format!("phase.queue[{k}]");
                let i = unit_of(sc, &at, u)?;
                let loser = if b.attacker_won {
                    u == b.target
                } else {
                    b.attackers.contains(&u)
                };
                if !loser {
                    return Err(format!(
                        "{at}: unit {u} ({}) is not on the losing side of this attack; the loser retreats (§6.6)",
                        sc.units[i].id
                    ));
                }
                if s.units[i].hex().is_none() || queue[..k].contains(&u) {
                    return Err(format!(
                        "{at}: unit {u} ({}) must be on the map and queued once (§6.6)",
                        sc.units[i].id
                    ));
                }
            }
        }
        Phase::Advance { battle: b } => {
            battle(sc, s, b, true, &[])?;
            if !b.attacker_won {
                return Err(
                    "phase.battle.attacker_won: only a winning attacker advances (§6.6)".into(),
                );
            }
            if !Board::new(s).empty(b.hex) {
                return Err(format!(
                    "phase.battle.hex: {} is not empty; an attacker advances only into the hex the defender left (§6.6)",
                    b.hex
                ));
            }
        }
    }
    Ok(())
}

/// §10: the game ends at a VP goal (at once) or after the last turn; most VP wins and ties go
/// to the Americans; a game that goes on has no side at its goal.
fn ending(sc: &Scenario, s: &State) -> Result<(), String> {
    let vp = victory::vp(sc, s);
    let Some(e) = &s.ended else {
        if s.phase == Phase::Over {
            return Err("phase: \"over\" needs \"ended\" (§10)".into());
        }
        if vp.american >= sc.vp_goal || vp.british >= sc.vp_goal {
            return Err(format!(
                "ended: a side has {} VP, the goal of {}, so the game is over (§10 instant victory)",
                vp.american.max(vp.british),
                sc.vp_goal
            ));
        }
        return Ok(());
    };
    if s.phase != Phase::Over {
        return Err("ended: a finished game must be in phase \"over\"".into());
    }
    if e.vp != vp {
        return Err(format!(
            "ended.vp: the units give American {} British {}, not American {} British {} (§10)",
            vp.american, vp.british, e.vp.american, e.vp.british
        ));
    }
    let winner = match e.reason {
        EndReason::VpGoal => {
            if vp.american >= sc.vp_goal {
                AMERICAN
            } else if vp.british >= sc.vp_goal {
                1
            } else {
                return Err(format!(
                    "ended.reason: \"vp-goal\" needs a side at {} VP (§10)",
                    sc.vp_goal
                ));
            }
        }
        EndReason::LastTurn => {
            if s.turn != sc.turns {
                return Err(format!(
                    "ended.reason: \"last-turn\" needs turn {}, not {} (§10)",
                    sc.turns, s.turn
                ));
            }
            if vp.british > vp.american {
                1
            } else {
                AMERICAN
            }
        }
    };
    if e.winner.0 != winner {
        return Err(format!(
            "ended.winner: with American {} British {} VP the winner is {} (§10: most VP, ties to the Americans)",
            vp.american, vp.british, SIDE_IDS[winner as usize]
        ));
    }
    Ok(())
}
