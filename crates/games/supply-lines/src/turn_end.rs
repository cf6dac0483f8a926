//! §9.0 Turn End Phase and §10 Winter Turns: the Crown's victory check, Dug-In removal,
//! disbanding (§10.1), Patriot reinforcements from the cup, the third Patriot Leader, and the
//! turn marker.

use crate::action::{Action, Event};
use crate::data::Data;
use crate::sequence::Actions;
use crate::state::{Phase, SideId, State};
use crate::supply::each;
use crate::{support, victory};

/// §11.0: the Turn End's support changes as the map stands now: (the Patriot holds Quebec, so
/// the marker advances; the Crown holds Philadelphia, so it moves back).
pub fn support_changes(d: &Data, s: &State) -> (bool, bool) {
    (
        s.area(d.quebec).held_by(SideId::PATRIOT),
        s.area(d.philadelphia).held_by(SideId::CROWN),
    )
}

/// Runs the Turn End Phase up to the third Leader's placement (§9.0 order).
pub fn begin(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    // §9.0, §13.2: the Crown checks for victory first.
    victory::check_hudson(d, s, ev);
    if s.ended.is_some() {
        return;
    }
    // §11.0: support changes of the Turn End Phase (rulings S10 puts them here).
    let (quebec, philadelphia) = support_changes(d, s);
    if quebec {
        support::advance(d, s, "the Patriot holds Quebec at Turn End", "11.0", ev);
    }
    if philadelphia {
        support::regress(d, s, "the Crown holds Philadelphia at Turn End", "11.0", ev);
    }
    if s.ended.is_some() {
        return;
    }
    victory::check_deadlines(d, s, ev);
    if s.ended.is_some() {
        return;
    }
    // §9.0: Dug-In markers come off.
    if s.areas.iter().any(|a| a.dug_in) {
        for a in s.areas.iter_mut() {
            a.dug_in = false;
        }
        ev.push(Event::DugInRemoved);
    }
    let winter = d.is_winter(s.turn);
    if winter {
        disband(d, s, ev);
    }
    // §9.0: no reinforcements in the last four turns.
    if s.turn + 4 <= d.turns() {
        let draws = d.support[s.support as usize].draws + if winter { 2 } else { 0 };
        muster(d, s, draws, ev);
    }
    if winter && s.turn == d.first_winter() && s.held(SideId::PATRIOT) != 0 {
        s.phase = Phase::PlaceLeader;
        return;
    }
    finish(d, s, ev);
}

/// §10.1: the Continental Army disbands, then drawn markers return to the cup (or to the box
/// when their City is Crown-held).
fn disband(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    for i in 0..s.areas.len() {
        let a = i as u8;
        let x = *s.area(a);
        if !x.held_by(SideId::PATRIOT) {
            continue;
        }
        if x.leaders > 0 {
            let lose = x.units / 2;
            if lose > 0 {
                s.area_mut(a).units -= lose;
                ev.push(Event::Disbanded {
                    area: a,
                    units: lose,
                    food: 0,
                });
            }
        } else if d.is(d.victory, a) {
            let lose = x.units.saturating_sub(2);
            if lose > 0 {
                s.area_mut(a).units -= lose;
                ev.push(Event::Disbanded {
                    area: a,
                    units: lose,
                    food: 0,
                });
            }
        } else {
            // Gone home: carried supplies are lost; a City or Fort keeps only its War.
            let point = d.is(d.points, a);
            let ar = s.area_mut(a);
            let food = ar.food;
            ar.units = 0;
            ar.side = None;
            ar.food = 0;
            if point {
                ar.war = 0;
            }
            ev.push(Event::Disbanded {
                area: a,
                units: x.units,
                food,
            });
        }
    }
    let mut to_cup = 0;
    let mut to_box = 0;
    for m in 0..d.patriot_markers.len() {
        if s.drawn >> m & 1 == 1 {
            s.drawn &= !(1 << m);
            if s.area(d.patriot_markers[m]).held_by(SideId::CROWN) {
                to_box += 1;
            } else {
                s.cup |= 1 << m;
                to_cup += 1;
            }
        }
    }
    ev.push(Event::MarkersReturned { to_cup, to_box });
}

/// §9.0: draw `draws` markers from the cup; each names a City that gets two Units unless the
/// Crown holds it.
pub fn muster(d: &Data, s: &mut State, draws: u8, ev: &mut Vec<Event>) {
    for _ in 0..draws {
        let n = s.cup.count_ones();
        if n == 0 {
            ev.push(Event::CupEmpty);
            return;
        }
        let k = s.dice.below(n);
        let mut c = s.cup;
        for _ in 0..k {
            c &= c - 1;
        }
        let m = c.trailing_zeros() as u8;
        s.cup &= !(1 << m);
        s.drawn |= 1 << m;
        let city = d.patriot_markers[m as usize];
        let placed = !s.area(city).held_by(SideId::CROWN);
        if placed {
            let ar = s.area_mut(city);
            ar.side = Some(SideId::PATRIOT);
            ar.units = ar.units.saturating_add(2);
        }
        ev.push(Event::Drew {
            marker: m,
            city,
            placed,
        });
    }
}

/// §10.1: the third Patriot Leader joins any Patriot army.
pub fn legal_place_leader(d: &Data, s: &State, out: &mut Actions) {
    for a in each(s.held(SideId::PATRIOT) & !(1 << d.sea)) {
        out.push(Action::To(a));
    }
}

pub fn apply_place_leader(d: &Data, s: &mut State, a: Action, ev: &mut Vec<Event>) {
    if let Action::To(x) = a {
        s.area_mut(x).leaders += 1;
        ev.push(Event::LeaderPlaced { area: x });
    }
    finish(d, s, ev);
}

/// §9.0, §4.0: the turn marker advances, or the game ends after the last turn (§13.3).
fn finish(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    if s.turn >= d.turns() {
        victory::final_check(d, s, ev);
        return;
    }
    s.turn += 1;
    crate::sequence::begin_turn(d, s, ev);
}
