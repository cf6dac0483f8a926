//! §13 Victory Conditions: Leaders gone (§2.2, §13.1, §13.2), the Crown's Hudson line and
//! Victory Cities (§13.2), expectations deadlines (§12.0, §13.1), the draw (§13.3) and
//! concession (§13.4).

use crate::action::Event;
use crate::data::Data;
use crate::state::{EndReason, Ended, Phase, SideId, State};
use crate::supply::each;

/// Ends the game.
pub fn end(s: &mut State, winner: Option<SideId>, reason: EndReason, ev: &mut Vec<Event>) {
    if s.ended.is_some() {
        return;
    }
    s.ended = Some(Ended { winner, reason });
    s.phase = Phase::Over;
    ev.push(Event::GameEnds { winner, reason });
}

/// Victory Cities held by the Crown (an army there: rulings S12).
pub fn crown_cities(d: &Data, s: &State) -> u8 {
    each(d.victory)
        .filter(|&a| s.area(a).held_by(SideId::CROWN))
        .count() as u8
}

/// Victory Cities the Crown must hold now (§12.0, §12.1).
pub fn required(d: &Data, s: &State) -> u8 {
    d.vc_required(s.crown_taken, s.triumvirate)
}

/// §2.2: a side with no Leader on the map loses at once (checked after every decision).
pub fn check_leaders(s: &mut State, ev: &mut Vec<Event>) {
    if s.ended.is_some() {
        return;
    }
    for side in [SideId::CROWN, SideId::PATRIOT] {
        // Leaders in a battle in progress are still on the map (with the attacking army).
        let fighting = match s.phase {
            Phase::Refuse { battle }
            | Phase::RefuseCarry { battle, .. }
            | Phase::AttackerCommit { battle }
            | Phase::DefenderCommit { battle }
            | Phase::Retreat { battle }
                if battle.attacker == side =>
            {
                battle.leaders as u32
            }
            _ => 0,
        };
        if s.leaders_of(side) + fighting == 0 {
            end(s, Some(side.other()), EndReason::NoLeaders, ev);
            return;
        }
    }
}

/// §13.2 at Turn End: New York and Albany (with Philadelphia after the Declaration).
pub fn check_hudson(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    let crown = |a: u8| s.area(a).held_by(SideId::CROWN);
    let mut need = crown(d.new_york) && crown(d.albany);
    if s.declared {
        need = need && crown(d.philadelphia);
    }
    if need {
        end(s, Some(SideId::CROWN), EndReason::HudsonLine, ev);
    }
}

/// §12.0 and §13.1 at Turn End: asterisk deadlines and the fourth marker's last chance.
pub fn check_deadlines(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    let held = crown_cities(d, s);
    let need = required(d, s);
    if s.last_chance == s.turn {
        // Rulings S13: holding the required Victory Cities at this Turn End is the Crown's
        // victory the fourth marker demands; anything less loses.
        let w = if held >= need {
            SideId::CROWN
        } else {
            SideId::PATRIOT
        };
        let r = if held >= need {
            EndReason::VictoryCities
        } else {
            EndReason::FourthMarker
        };
        end(s, Some(w), r, ev);
        return;
    }
    if s.deadlines >> s.turn & 1 == 1 && held < need {
        end(s, Some(SideId::PATRIOT), EndReason::Expectations, ev);
    }
}

/// §13.2, §13.3: after the last turn, the Crown wins with the required Victory Cities;
/// otherwise both players lose.
pub fn final_check(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    if crown_cities(d, s) >= required(d, s) {
        end(s, Some(SideId::CROWN), EndReason::VictoryCities, ev);
    } else {
        end(s, None, EndReason::Draw, ev);
    }
}
