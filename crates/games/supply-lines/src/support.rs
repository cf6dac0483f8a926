//! §11 The Patriot Support Track: advancing toward the Treaty of Alliance, regressing, the
//! Declaration of Independence (§11.1) and the Treaty (§11.2).

use crate::action::Event;
use crate::data::Data;
use crate::state::{EndReason, SideId, State};
use crate::supply::{each, stock};
use crate::victory;

/// Advances the Support Marker by one, nearer the Treaty (§11.0).
pub fn advance(
    d: &Data,
    s: &mut State,
    why: &'static str,
    section: &'static str,
    ev: &mut Vec<Event>,
) {
    if s.ended.is_some() || s.support >= d.treaty {
        return;
    }
    let from = s.support;
    s.support += 1;
    ev.push(Event::Support {
        from,
        to: s.support,
        why,
        section,
    });
    if s.support == d.treaty {
        // §11.2: the Treaty ends the game at once.
        victory::end(s, Some(SideId::PATRIOT), EndReason::Treaty, ev);
        return;
    }
    if !s.declared && d.support[s.support as usize].declaration {
        declare(d, s, ev);
    }
}

/// Moves the Support Marker one space away from the Treaty (§11.0), never below the first
/// Declaration space once Independence is declared (§11.1), nor off the track.
pub fn regress(
    d: &Data,
    s: &mut State,
    why: &'static str,
    section: &'static str,
    ev: &mut Vec<Event>,
) {
    if s.ended.is_some() {
        return;
    }
    let floor = if s.declared { d.declaration } else { 0 };
    if s.support <= floor {
        return;
    }
    let from = s.support;
    s.support -= 1;
    ev.push(Event::Support {
        from,
        to: s.support,
        why,
        section,
    });
}

/// §11.1: each Patriot-held City generates two War supplies at once (within its capacity,
/// the stock, and not in a Destroyed City: rulings S9).
fn declare(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    s.declared = true;
    ev.push(Event::Declaration);
    for a in each(d.cities) {
        let x = *s.area(a);
        if !x.held_by(SideId::PATRIOT) || x.destroyed {
            continue;
        }
        let (_, ws) = stock(d, s);
        let war = 2.min(ws).min(d.capacity.saturating_sub(x.cubes()));
        if war > 0 {
            s.area_mut(a).war += war;
            ev.push(Event::DeclarationSupplies { area: a, war });
        }
    }
}
