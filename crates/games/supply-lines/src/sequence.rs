//! §4.0 Sequence of Play: Supply Phase (§5), Initiative Phase (§6.0), Impulse Phase (§7.0) and
//! Turn End Phase (§9.0), twelve times. This module knows whose decision it is and routes each
//! decision to the chapter that governs it.

use crate::action::{Action, Event};
use crate::data::Data;
use crate::state::{Phase, Pick, SideId, State};
use crate::{battle, crown, impulse, supply, turn_end, victory};
use arrayvec::ArrayVec;
use muster_core::Prompt;
use muster_core::game::IllegalAction;

/// Upper bound on the number of legal actions in any position.
pub const MAX_ACTIONS: usize = 1024;
pub type Actions = ArrayVec<Action, MAX_ACTIONS>;

/// Who decides now.
pub fn to_act(s: &State) -> Option<SideId> {
    if s.ended.is_some() {
        return None;
    }
    Some(match s.phase {
        Phase::Over => return None,
        Phase::NovaScotia { .. } | Phase::Request => SideId::CROWN,
        Phase::PlaceLeader => SideId::PATRIOT,
        Phase::Supply { side, .. }
        | Phase::Impulse { side, .. }
        | Phase::Activate { side, .. }
        | Phase::After { side, .. } => side,
        Phase::AttackerCommit { battle } => battle.attacker,
        Phase::Refuse { battle }
        | Phase::RefuseCarry { battle, .. }
        | Phase::DefenderCommit { battle }
        | Phase::Retreat { battle } => battle.attacker.other(),
    })
}

/// Every legal action now.
pub fn legal(d: &Data, s: &State, out: &mut Actions) {
    let Some(side) = to_act(s) else {
        return;
    };
    match s.phase {
        Phase::NovaScotia { output } => supply::nova_choices(d, s, output, out),
        Phase::Supply { pick, .. } | Phase::After { pick, .. } => {
            if supply::legal_moves(d, s, side, pick, out) && pick.from.is_none() {
                out.push(Action::Done);
            }
        }
        Phase::Impulse { pick, moved, .. } => {
            let ok = supply::legal_moves(d, s, side, pick, out);
            if ok && pick.from.is_none() {
                let before = out.len();
                impulse::legal_activations(d, s, side, out);
                // §7.0: only a non-passing impulse moves supplies freely; a player who has
                // moved some and can activate nothing must still be able to end his impulse,
                // and moves that only put a limit right do not count (rulings S8).
                if !moved || out.len() == before {
                    out.push(Action::Pass);
                }
                out.push(Action::Concede);
            }
        }
        Phase::Request => crown::legal_request(d, s, out),
        Phase::Activate { act, .. } => impulse::legal_step(d, s, side, &act, out),
        Phase::Refuse { .. }
        | Phase::RefuseCarry { .. }
        | Phase::AttackerCommit { .. }
        | Phase::DefenderCommit { .. }
        | Phase::Retreat { .. } => battle::legal(d, s, out),
        Phase::PlaceLeader => turn_end::legal_place_leader(d, s, out),
        Phase::Over => {}
    }
}

/// Applies a decision of the side to act, checked against the legal list so that the two can
/// never disagree. On error nothing has changed.
pub fn apply(d: &Data, s: &mut State, a: Action, ev: &mut Vec<Event>) -> Result<(), IllegalAction> {
    let mut buf = Actions::new();
    legal(d, s, &mut buf);
    if !buf.contains(&a) {
        return Err(IllegalAction::not_legal(format!(
            "{} is not legal now: {}",
            crate::notation::notation(s, a),
            prompt(d, s).text
        )));
    }
    let Some(side) = to_act(s) else {
        return Ok(());
    };
    match s.phase {
        Phase::NovaScotia { output } => {
            if let Action::Food(f) = a {
                supply::apply_nova(d, s, output, f, ev);
            }
            s.phase = Phase::Supply {
                side: SideId::CROWN,
                pick: Pick::default(),
            };
        }
        Phase::Supply { pick, .. } => {
            if a == Action::Done {
                if side.is_crown() {
                    s.phase = Phase::Supply {
                        side: SideId::PATRIOT,
                        pick: Pick::default(),
                    };
                } else {
                    s.phase = Phase::Request;
                }
            } else {
                let pick = supply::apply_move(s, side, pick, a, ev);
                s.phase = Phase::Supply { side, pick };
            }
        }
        Phase::Request => {
            crown::apply_request(d, s, a, ev);
            if s.ended.is_none() {
                initiative(d, s, ev);
            }
        }
        Phase::Impulse { pick, moved, .. } => match a {
            Action::Pass => pass(d, s, side, ev),
            Action::Concede => {
                for reader in [side, side.other()] {
                    ev.push(Event::Conceded { side, reader });
                }
                victory::end(
                    s,
                    Some(side.other()),
                    crate::state::EndReason::Concession,
                    ev,
                );
            }
            Action::Activate(x, o) => {
                s.passed = false;
                impulse::activate(d, s, side, x, o, ev);
            }
            _ => {
                // §5.5 (rulings S8): while an area is over its limit, every move offered puts
                // a limit right (an over-full area's excess moved out, or War sent to the Sea
                // Box to make room for it), which the owner must do before his impulse ends;
                // it is not one of the free moves of a non-passing impulse, so it does not
                // stop a pass. Any other move does.
                let fix = supply::over(d, s, side) != 0;
                let pick = supply::apply_move(s, side, pick, a, ev);
                let moved = moved || (matches!(a, Action::Food(_) | Action::War(_)) && !fix);
                s.phase = Phase::Impulse { side, pick, moved };
            }
        },
        Phase::After { pick, .. } => {
            if a == Action::Done {
                next_impulse(s, side);
            } else {
                let pick = supply::apply_move(s, side, pick, a, ev);
                s.phase = Phase::After { side, pick };
            }
        }
        Phase::Activate { act, .. } => impulse::apply_step(d, s, side, act, a, ev),
        Phase::Refuse { .. }
        | Phase::RefuseCarry { .. }
        | Phase::AttackerCommit { .. }
        | Phase::DefenderCommit { .. }
        | Phase::Retreat { .. } => battle::apply(d, s, a, ev),
        Phase::PlaceLeader => turn_end::apply_place_leader(d, s, a, ev),
        Phase::Over => {}
    }
    settle(d, s, ev);
    Ok(())
}

/// Takes every step that offers a single possible answer, and checks the instant victory
/// conditions (§2.2, §11.2).
pub fn settle(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    loop {
        if s.ended.is_some() {
            // An instant victory in the middle of a step ends everything at once.
            s.phase = Phase::Over;
            return;
        }
        victory::check_leaders(s, ev);
        if s.ended.is_some() {
            return;
        }
        let forced = match s.phase {
            Phase::Supply { pick, .. } | Phase::After { pick, .. } if pick.from.is_none() => {
                let mut buf = Actions::new();
                legal(d, s, &mut buf);
                (buf.len() == 1).then(|| buf[0])
            }
            Phase::NovaScotia { .. }
            | Phase::Activate { .. }
            | Phase::RefuseCarry { .. }
            | Phase::AttackerCommit { .. }
            | Phase::DefenderCommit { .. } => {
                let mut buf = Actions::new();
                legal(d, s, &mut buf);
                (buf.len() == 1).then(|| buf[0])
            }
            Phase::Request if !crown::can_request(d, s) => Some(Action::NoRequest),
            _ => None,
        };
        match forced {
            Some(a) => {
                if apply_inner(d, s, a, ev).is_err() {
                    return;
                }
            }
            None => return,
        }
    }
}

fn apply_inner(
    d: &Data,
    s: &mut State,
    a: Action,
    ev: &mut Vec<Event>,
) -> Result<(), IllegalAction> {
    // `apply` settles again at its end; the recursion is bounded by the forced steps.
    apply(d, s, a, ev)
}

/// §7.0: the other side's impulse begins.
fn next_impulse(s: &mut State, side: SideId) {
    s.phase = Phase::Impulse {
        side: side.other(),
        pick: Pick::default(),
        moved: false,
    };
}

/// §7.0: a pass slides the Pass Marker back; two passes in a row, or the zero space, end the
/// Impulse Phase.
fn pass(d: &Data, s: &mut State, side: SideId, ev: &mut Vec<Event>) {
    s.pass = s.pass.saturating_sub(1);
    if s.passed {
        s.pass = 0;
    }
    s.passed = true;
    ev.push(Event::Passed { side, pass: s.pass });
    if s.pass == 0 {
        ev.push(Event::ImpulsesEnd);
        s.passed = false;
        turn_end::begin(d, s, ev);
    } else {
        next_impulse(s, side);
    }
}

/// §6.0: each side rolls a die; the higher goes first, ties to the Crown before the
/// Declaration and to the Patriot after it; the Pass Marker goes on the higher roll's space,
/// or on the top space after a tie.
fn initiative(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    let p = s.dice.d6();
    let c = s.dice.d6();
    let winner = if p > c {
        SideId::PATRIOT
    } else if c > p {
        SideId::CROWN
    } else if s.declared {
        SideId::PATRIOT
    } else {
        SideId::CROWN
    };
    let top = if p == c { 6 } else { p.max(c) };
    s.pass = d.pass_for_roll[top as usize];
    s.passed = false;
    ev.push(Event::Initiative {
        patriot: p,
        crown: c,
        winner,
        pass: s.pass,
    });
    s.phase = Phase::Impulse {
        side: winner,
        pick: Pick::default(),
        moved: false,
    };
}

/// §4.0, §5: a turn begins with its Supply Phase.
pub fn begin_turn(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    let winter = d.is_winter(s.turn);
    ev.push(Event::TurnBegins {
        turn: s.turn,
        winter,
    });
    s.winter_attack = [false; 2];
    s.passed = false;
    let mut nova = 0;
    if !winter {
        // §5.7, §12.1: markers waiting in Nova Scotia arrive; §5.1, §5.2: generation.
        crown::arrivals(d, s, ev);
        supply::generate(d, s, ev);
        nova = supply::nova_output(d, s);
    }
    s.phase = if nova > 0 {
        Phase::NovaScotia { output: nova }
    } else {
        Phase::Supply {
            side: SideId::CROWN,
            pick: Pick::default(),
        }
    };
}

/// What the side to act is asked now.
pub fn prompt(d: &Data, s: &State) -> Prompt {
    let p = |text: &str, section: &str| Prompt {
        text: text.to_string(),
        section: section.to_string(),
    };
    let _ = d;
    match s.phase {
        Phase::NovaScotia { output } => p(
            &format!("Nova Scotia produces {output}: choose how many are Food (the rest War)."),
            "5.2",
        ),
        Phase::Supply { pick, .. } | Phase::After { pick, .. } | Phase::Impulse { pick, .. } => {
            match (pick.from, pick.to) {
                (Some(_), Some(_)) => p("Choose how many Food or War cubes to move.", "5.3"),
                (Some(_), None) => p("Choose where the supplies go.", "5.3"),
                _ => match s.phase {
                    Phase::Impulse { .. } => p("Move supplies, activate an army, or pass.", "7.0"),
                    Phase::After { .. } => p("Move supplies after the activation, or done.", "7.0"),
                    _ => p("Move supplies along your supply lines, or done.", "5.3"),
                },
            }
        }
        Phase::Request => p(
            "Request reinforcements (the next marker or the Triumvirate), or not.",
            "5.7",
        ),
        Phase::Activate { act, .. } if act.pick.from.is_some() => p(
            if act.pick.to.is_some() {
                "Choose how many Food or War cubes to move."
            } else {
                "Choose where the supplies go."
            },
            "5.3",
        ),
        Phase::Activate { act, .. } => {
            let g = act.group;
            let text = if impulse::between_detachments(&act) {
                "Choose where the next detachment goes, move supplies, or end the march."
            } else if act.order.word() == "march" && act.left.is_none() {
                "Choose how many Units the Leader activates."
            } else if g.to.is_none() {
                "Choose where the detachment goes (or end the march)."
            } else if g.units.is_none() {
                "Choose how many Units go."
            } else if g.leaders.is_none() {
                "Choose how many Leaders go."
            } else if g.food.is_none() && act.order.word() != "skirmish" {
                "Choose how much Food the detachment carries."
            } else {
                "Choose how much War the detachment carries."
            };
            p(text, act.order.section())
        }
        Phase::Refuse { .. } => p("Accept battle, or refuse it by moving away.", "8.1"),
        Phase::RefuseCarry { food, .. } => p(
            if food.is_none() {
                "Choose the Food your Leader takes away."
            } else {
                "Choose the War your Leader takes away."
            },
            "8.1",
        ),
        Phase::AttackerCommit { .. } => p("Choose how many War supplies to expend.", "8.2"),
        Phase::DefenderCommit { .. } => p("Choose how many War supplies to expend.", "8.3"),
        Phase::Retreat { .. } => p("Choose where to retreat.", "8.7"),
        Phase::PlaceLeader => p("Place the third Leader with one of your armies.", "10.1"),
        Phase::Over => p("The game is over.", "13.0"),
    }
}
