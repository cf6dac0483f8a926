//! §5.7 Crown Reinforcements, §12.0 Crown Expectations and §12.1 the Triumvirate of
//! Reputation.

use crate::action::{Action, Event};
use crate::data::Data;
use crate::sequence::Actions;
use crate::state::{SideId, State};
use crate::support;

/// Bit of the Triumvirate marker in `State::in_nova`.
pub const TRIUMVIRATE_BIT: u8 = 0x80;

/// Bit of `State::in_nova` set when a numbered marker is taken while the Triumvirate is
/// already waiting in Nova Scotia: the Triumvirate then arrives first (rulings S18).
pub const TRIUMVIRATE_FIRST: u8 = 0x40;

/// Is there a marker the Crown could take (§5.7)?
pub fn can_request(d: &Data, s: &State) -> bool {
    (s.crown_taken as usize) < d.crown_markers.len() || !s.triumvirate
}

pub fn legal_request(d: &Data, s: &State, out: &mut Actions) {
    if (s.crown_taken as usize) < d.crown_markers.len() {
        out.push(Action::Request);
    }
    if !s.triumvirate {
        out.push(Action::Triumvirate);
    }
    out.push(Action::NoRequest);
}

/// §5.7, §12.0: the marker goes to Nova Scotia, the requirement may rise, an asterisk sets a
/// deadline, and the Support Marker advances (§11.0).
pub fn apply_request(d: &Data, s: &mut State, a: Action, ev: &mut Vec<Event>) {
    match a {
        Action::Request => {
            let m = s.crown_taken as usize;
            s.crown_taken += 1;
            if s.in_nova & TRIUMVIRATE_BIT != 0 {
                // Rulings S18: the two arrive together in the order they were taken.
                s.in_nova |= TRIUMVIRATE_FIRST;
            }
            s.in_nova |= 1 << m;
            ev.push(Event::Requested { marker: m as u8 });
            let deadline = d.last_campaign_turn_of_year(s.turn).max(s.turn);
            if d.crown_markers[m].asterisk {
                s.deadlines |= 1 << deadline;
            }
            if m + 1 == d.crown_markers.len() {
                // §13.1: the final marker: the Crown must win by the year's last campaign turn.
                s.last_chance = deadline;
            }
        }
        Action::Triumvirate => {
            s.triumvirate = true;
            s.in_nova |= TRIUMVIRATE_BIT;
            ev.push(Event::RequestedTriumvirate);
        }
        _ => return,
    }
    support::advance(d, s, "the Crown requested reinforcements", "11.0", ev);
}

/// §5.7, §12.1: at the start of a Campaign Turn's Supply Phase the markers in Nova Scotia
/// become Units and Leaders there; the Triumvirate replaces every Crown Leader with three in
/// Nova Scotia. A numbered marker and the Triumvirate waiting together (one taken before a
/// Winter Turn, the other during it) arrive in the order they were taken (rulings S18).
pub fn arrivals(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    let pending = s.in_nova;
    s.in_nova = 0;
    let triumvirate = pending & TRIUMVIRATE_BIT != 0;
    let first = triumvirate && pending & TRIUMVIRATE_FIRST != 0;
    if first {
        triumvirs(d, s, ev);
    }
    let ns = d.nova_scotia;
    for (i, m) in d.crown_markers.iter().enumerate() {
        if pending >> i & 1 == 1 {
            let ar = s.area_mut(ns);
            ar.side = Some(SideId::CROWN);
            ar.units = ar.units.saturating_add(m.units);
            ar.leaders = ar.leaders.saturating_add(m.leaders);
            ev.push(Event::Arrived {
                marker: i as u8,
                units: m.units,
                leaders: m.leaders,
            });
        }
    }
    if triumvirate && !first {
        triumvirs(d, s, ev);
    }
}

/// §12.1: every Crown Leader on the map is removed, then three are placed in Nova Scotia.
fn triumvirs(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    let mut removed = 0;
    for ar in s.areas.iter_mut() {
        if ar.side == Some(SideId::CROWN) {
            removed += ar.leaders;
            ar.leaders = 0;
        }
    }
    let ar = s.area_mut(d.nova_scotia);
    ar.side = Some(SideId::CROWN);
    ar.leaders = d.triumvirate_leaders;
    ev.push(Event::TriumvirsArrive {
        removed,
        placed: d.triumvirate_leaders,
    });
}
