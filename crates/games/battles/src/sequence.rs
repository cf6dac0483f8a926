//! §4 Sequence of Play: each turn the first player moves then attacks, then the second player
//! does the same. This module knows whose decision it is and routes each decision to the
//! chapter that governs it.

use crate::action::{Action, Event};
use crate::data::{SIDE_NAMES, Scenario};
use crate::state::{Phase, SideId, State};
use crate::{artillery, combat, leadership, movement, setup, victory};
use arrayvec::ArrayVec;
use muster_core::Prompt;
use muster_core::game::IllegalAction;

/// Upper bound on the number of legal actions in any position.
pub const MAX_ACTIONS: usize = 320;
pub type Actions = ArrayVec<Action, MAX_ACTIONS>;

/// Who decides now.
pub fn to_act(s: &State) -> Option<SideId> {
    if s.ended.is_some() {
        return None;
    }
    Some(match &s.phase {
        Phase::Over => return None,
        Phase::Setup { side } => *side,
        Phase::ArtilleryFire | Phase::Support { .. } => s.active.other(),
        Phase::Retreat { battle, queue } => match queue.first() {
            Some(&u) if u == battle.target => s.active.other(),
            _ => s.active,
        },
        Phase::Rally
        | Phase::Reinforce
        | Phase::Movement { .. }
        | Phase::ArtilleryRetreat { .. }
        | Phase::Attacks
        | Phase::Declare { .. }
        | Phase::Losses { .. }
        | Phase::Advance { .. } => s.active,
    })
}

/// Every legal action now.
pub fn legal_actions(sc: &Scenario, s: &State, out: &mut Vec<Action>) {
    let mut buf = Actions::new();
    legal(sc, s, &mut buf);
    out.extend_from_slice(&buf);
}

pub fn legal(sc: &Scenario, s: &State, out: &mut Actions) {
    if to_act(s).is_none() {
        return;
    }
    match &s.phase {
        Phase::Setup { .. } | Phase::Reinforce => setup::legal_place(sc, s, out),
        Phase::Rally => leadership::legal_rally(sc, s, out),
        Phase::Movement { .. } => movement::legal(sc, s, out),
        Phase::ArtilleryFire => artillery::legal_fire(sc, s, out),
        Phase::ArtilleryRetreat { unit } => combat::legal_retreat(sc, s, *unit, out),
        Phase::Attacks | Phase::Declare { .. } | Phase::Losses { .. } | Phase::Advance { .. } => {
            combat::legal(sc, s, out)
        }
        Phase::Support { .. } => {
            out.push(Action::Support);
            out.push(Action::NoSupport);
        }
        Phase::Retreat { queue, .. } => {
            if let Some(&u) = queue.first() {
                combat::legal_retreat(sc, s, u, out)
            }
        }
        Phase::Over => {}
    }
}

/// Applies a decision of the side to act. On error nothing has changed.
pub fn apply(
    sc: &Scenario,
    s: &mut State,
    a: Action,
    ev: &mut Vec<Event>,
) -> Result<(), IllegalAction> {
    // A move is checked against the one reach computation that also prices it; every other
    // decision against the legal list itself, so that the two can never disagree.
    let allowed = match (&s.phase, a) {
        (
            Phase::Movement {
                selected: Some(u),
                force_march,
            },
            Action::MoveTo(to),
        ) => {
            let (u, force_march) = (*u, *force_march);
            movement::apply_move(sc, s, u, force_march, to, ev)?;
            victory::check_instant(sc, s, ev);
            return Ok(());
        }
        (
            Phase::Movement {
                selected: Some(u),
                force_march,
            },
            _,
        ) => movement::selected_allows(sc, s, *u, *force_march, a),
        _ => {
            let mut buf = Actions::new();
            legal(sc, s, &mut buf);
            buf.contains(&a)
        }
    };
    if !allowed {
        return Err(IllegalAction::not_legal(format!(
            "{} is not legal now: {}",
            crate::notation::notation(s, a),
            prompt(sc, s).text
        )));
    }
    match s.phase.clone() {
        Phase::Setup { .. } | Phase::Reinforce => setup::apply_place(sc, s, a, ev),
        Phase::Rally => leadership::apply_rally(sc, s, a, ev),
        Phase::Movement { .. } => movement::apply(sc, s, a, ev),
        Phase::ArtilleryFire => artillery::apply_fire(sc, s, a, ev),
        Phase::ArtilleryRetreat { unit } => {
            if let Action::RetreatTo(h) = a {
                combat::retreat_unit(sc, s, unit, h, ev);
            }
            begin_attacks(sc, s, ev);
        }
        _ => combat::apply(sc, s, a, ev),
    }
    victory::check_instant(sc, s, ev);
    Ok(())
}

/// Starts the turn of `s.active`: markers from the last turn come off.
pub fn start_player_turn(sc: &Scenario, s: &mut State, ev: &mut Vec<Event>) {
    for u in s.units.iter_mut() {
        u.moved = false;
        u.attacked = false;
        u.defended = false;
        u.rallied = false;
    }
    s.leader_used = false;
    s.artillery_used = false;
    ev.push(Event::TurnBegins {
        turn: s.turn,
        side: s.active,
    });
    if leadership::can_rally(sc, s) {
        s.phase = Phase::Rally;
    } else {
        begin_reinforcements(sc, s, ev);
    }
}

/// §5.3: arriving units are placed before anything moves.
pub fn begin_reinforcements(sc: &Scenario, s: &mut State, _ev: &mut Vec<Event>) {
    s.phase = Phase::Reinforce;
    if setup::next_to_place(sc, s).is_none() {
        s.phase = Phase::Movement {
            selected: None,
            force_march: false,
        };
    }
}

/// After movement: the opponent's artillery window (§8.2), then attacks.
pub fn end_movement(sc: &Scenario, s: &mut State, ev: &mut Vec<Event>) {
    ev.push(Event::MovementEnds { side: s.active });
    if artillery::can_fire(sc, s) {
        s.phase = Phase::ArtilleryFire;
    } else {
        begin_attacks(sc, s, ev);
    }
}

/// §6.1: attacks follow movement (none on Oriskany's storm turns, §12).
pub fn begin_attacks(sc: &Scenario, s: &mut State, ev: &mut Vec<Event>) {
    if sc.no_attack_turns.contains(&s.turn) {
        ev.push(Event::StormNoAttacks { turn: s.turn });
        end_player_turn(sc, s, ev);
    } else if combat::any_target(sc, s) {
        s.phase = Phase::Attacks;
    } else {
        end_player_turn(sc, s, ev);
    }
}

/// §4: the second player follows the first; then the turn marker advances.
pub fn end_player_turn(sc: &Scenario, s: &mut State, ev: &mut Vec<Event>) {
    if s.active.0 == sc.first {
        s.active = s.active.other();
    } else if s.turn >= sc.turns {
        victory::end_of_game(sc, s, ev);
        return;
    } else {
        s.turn += 1;
        s.active = SideId(sc.first);
    }
    start_player_turn(sc, s, ev);
}

/// What the side to act is asked.
pub fn prompt(sc: &Scenario, s: &State) -> Prompt {
    let p = |text: String, section: &str| Prompt {
        text,
        section: section.into(),
    };
    let name = |i: u8| sc.units[i as usize].name.as_str();
    let active = SIDE_NAMES[s.active.0 as usize];
    let other = SIDE_NAMES[s.active.other().0 as usize];
    match &s.phase {
        _ if s.ended.is_some() => p("The game is over.".into(), "10"),
        Phase::Over => p("The game is over.".into(), "10"),
        Phase::Setup { side } => match setup::next_to_place(sc, s) {
            Some(u) => p(
                format!(
                    "{} set-up: choose a hex for {}.",
                    SIDE_NAMES[side.0 as usize],
                    name(u)
                ),
                "12",
            ),
            None => p("Set-up is complete.".into(), "12"),
        },
        Phase::Rally => p(
            format!(
                "{active}: spend a Leadership point to rally a reduced unit (4-6 succeeds), or skip."
            ),
            "9.3",
        ),
        Phase::Reinforce => match setup::next_to_place(sc, s) {
            Some(u) => p(
                format!("{active}: choose the entry hex of {}.", name(u)),
                "5.3",
            ),
            None => p(format!("{active}: reinforcements are in."), "5.3"),
        },
        Phase::Movement { selected: None, .. } => p(
            format!("{active}: choose a unit to move, or end movement."),
            "5",
        ),
        Phase::Movement {
            selected: Some(u), ..
        } => p(
            format!(
                "{active}: choose where {} moves, or hold it in place.",
                name(*u)
            ),
            "5.1",
        ),
        Phase::ArtilleryFire => p(
            format!(
                "{other}: fire an Artillery point at an enemy unit within 3 hexes of your infantry, or hold fire."
            ),
            "8.2",
        ),
        Phase::ArtilleryRetreat { unit } => p(
            format!("{active}: choose the hex {} retreats to.", name(*unit)),
            "8.2",
        ),
        Phase::Attacks => p(
            format!("{active}: choose a unit to attack, or end attacks."),
            "6.1",
        ),
        Phase::Declare {
            target, attackers, ..
        } if attackers.is_empty() => p(
            format!("{active}: choose a unit to attack {}.", name(*target)),
            "6.1",
        ),
        Phase::Declare { target, .. } => p(
            format!(
                "{active}: add attackers against {}, charge, or resolve the attack.",
                name(*target)
            ),
            "6.1",
        ),
        Phase::Support { battle } => p(
            format!(
                "{other}: spend an Artillery point for +2 CF to {}?",
                name(battle.target)
            ),
            "8.1",
        ),
        Phase::Losses { remaining, .. } => p(
            format!("{active}: choose the attacking unit that takes a loss ({remaining} to take)."),
            "6.5",
        ),
        Phase::Retreat { queue, .. } => match queue.first() {
            Some(&u) => p(
                format!(
                    "{}: choose the hex {} retreats to.",
                    SIDE_NAMES[sc.units[u as usize].side as usize],
                    name(u)
                ),
                "6.6",
            ),
            None => p("Retreats are done.".into(), "6.6"),
        },
        Phase::Advance { battle } => p(
            format!(
                "{active}: advance an attacking unit into {}, or stay.",
                battle.hex
            ),
            "6.6",
        ),
    }
}
