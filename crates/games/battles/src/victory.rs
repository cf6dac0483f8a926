//! §10 Victory Conditions: 1 VP per eliminated enemy unit, 1 VP per star of your colour that
//! you occupy, (Oriskany) 1 VP per American unit leaving at A5; instant victory at the VP
//! goal; otherwise most VP at the end, ties to the Americans (§11, §12).

use crate::action::Event;
use crate::data::{AMERICAN, Scenario};
use crate::state::{EndReason, Ended, Loc, PerSide, Phase, SideId, State};

/// Victory points of both sides now.
pub fn vp(sc: &Scenario, s: &State) -> PerSide {
    let mut vp = [0u8; 2];
    for (i, u) in s.units.iter().enumerate() {
        let side = sc.units[i].side as usize;
        match u.at {
            Loc::Eliminated => vp[1 - side] += 1,
            Loc::Exited => {
                if let Some((_, exit_side, per)) = sc.exit
                    && exit_side as usize == side
                {
                    vp[side] += per;
                }
            }
            _ => {}
        }
    }
    for (i, u) in s.units.iter().enumerate() {
        if let Loc::Map(h) = u.at
            && let Some(&(_, star)) = sc.stars.iter().find(|(x, _)| *x == h)
        {
            let owner = sc.units[i].side;
            if star.scores_for(owner) {
                vp[owner as usize] += 1;
            }
        }
    }
    PerSide {
        american: vp[0],
        british: vp[1],
    }
}

fn finish(s: &mut State, winner: u8, vp: PerSide, reason: EndReason, ev: &mut Vec<Event>) {
    s.ended = Some(Ended {
        winner: SideId(winner),
        vp,
        reason,
    });
    s.phase = Phase::Over;
    ev.push(Event::GameEnds {
        winner: SideId(winner),
        reason,
        american: vp.american,
        british: vp.british,
    });
}

/// Instant victory the moment a side reaches its goal (both at once: ties to the Americans).
pub fn check_instant(sc: &Scenario, s: &mut State, ev: &mut Vec<Event>) {
    if s.ended.is_some() {
        return;
    }
    let v = vp(sc, s);
    let goal = sc.vp_goal;
    if v.american >= goal {
        finish(s, AMERICAN, v, EndReason::VpGoal, ev);
    } else if v.british >= goal {
        finish(s, 1, v, EndReason::VpGoal, ev);
    }
}

/// After the last turn: most VP wins, ties go to the Americans.
pub fn end_of_game(sc: &Scenario, s: &mut State, ev: &mut Vec<Event>) {
    let v = vp(sc, s);
    let winner = if v.british > v.american { 1 } else { AMERICAN };
    finish(s, winner, v, EndReason::LastTurn, ev);
}

pub fn reason_text(sc: &Scenario, e: &Ended) -> String {
    let side = crate::data::SIDE_NAMES[e.winner.0 as usize];
    match e.reason {
        EndReason::VpGoal => format!(
            "{side} victory: reached {} VP (§10: instant victory at {}).",
            e.vp.get(e.winner.0),
            sc.vp_goal
        ),
        EndReason::LastTurn if e.vp.american == e.vp.british => format!(
            "{side} victory: {}-{} after the last turn; ties go to the Americans (§10).",
            e.vp.american, e.vp.british
        ),
        EndReason::LastTurn => format!(
            "{side} victory: {}-{} VP (American-British) after the last turn (§10).",
            e.vp.american, e.vp.british
        ),
    }
}
