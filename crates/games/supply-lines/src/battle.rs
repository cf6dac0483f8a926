//! §8 Battle: refusing (§8.1), commitment (§8.2, §8.3), the rolls (§8.4, §8.5), victory
//! (§8.6), defeat with morale, retreat and surrender (§8.7), the Skirmish (§8.8), and the
//! Bombardment of §7.6, which uses the same eliminations.

use crate::action::{Action, Event};
use crate::data::Data;
use crate::impulse::{Force, drop_orphan_supplies, min_war, move_force};
use crate::sequence::Actions;
use crate::state::{Battle, Phase, SideId, State};
use crate::supply::each;
use crate::support;

/// Areas an army in `at` may fall back to: adjacent, friendly or empty, never the Sea Box
/// (which has no lines); `not` excludes the area the attack came from, which §8.1 does for a
/// refusal only. A retreat (§8.7) may go to any adjacent friendly or unoccupied area,
/// including the one the attacker left empty (rulings S6).
pub fn fallback(d: &Data, s: &State, side: SideId, at: u8, not: Option<u8>) -> u64 {
    let mut m = d.areas[at as usize].lines & !s.held(side.other());
    if let Some(n) = not {
        m &= !(1 << n);
    }
    m
}

/// §8.0: the battle begins; the defender may refuse if he can (§8.1).
pub fn begin(d: &Data, s: &mut State, b: Battle) {
    let def = *s.area(b.target);
    if !def.dug_in && fallback(d, s, b.attacker.other(), b.target, Some(b.origin)) != 0 {
        s.phase = Phase::Refuse { battle: b };
    } else {
        s.phase = Phase::AttackerCommit { battle: b };
    }
}

pub fn legal(d: &Data, s: &State, out: &mut Actions) {
    match s.phase {
        Phase::Refuse { battle: b } => {
            out.push(Action::Accept);
            for r in each(fallback(d, s, b.attacker.other(), b.target, Some(b.origin))) {
                out.push(Action::To(r));
            }
        }
        Phase::RefuseCarry {
            battle: b, food, ..
        } => {
            let x = s.area(b.target);
            let half = x.units / 2;
            match food {
                None => (0..=x.food.min(half)).for_each(|f| out.push(Action::Food(f))),
                Some(f) => (0..=x.war.min(half - f)).for_each(|w| out.push(Action::War(w))),
            }
        }
        Phase::AttackerCommit { battle: b } => {
            for w in min_war(d, b.attacker, b.target)..=b.war {
                out.push(Action::War(w));
            }
        }
        Phase::DefenderCommit { battle: b } => {
            for w in 0..=s.area(b.target).war {
                out.push(Action::War(w));
            }
        }
        Phase::Retreat { battle: b } => {
            // §8.7 (rulings S6): any adjacent friendly or unoccupied area, the one the
            // attacker left empty included; only a refusal (§8.1) excludes it.
            for r in each(fallback(d, s, b.attacker.other(), b.target, None)) {
                out.push(Action::To(r));
            }
        }
        _ => {}
    }
}

pub fn apply(d: &Data, s: &mut State, a: Action, ev: &mut Vec<Event>) {
    match (s.phase, a) {
        (Phase::Refuse { battle: b }, Action::Accept) => {
            s.phase = Phase::AttackerCommit { battle: b };
        }
        (Phase::Refuse { battle: b }, Action::To(r)) => {
            let x = s.area(b.target);
            if x.leaders > 0 && x.units / 2 > 0 && x.cubes() > 0 {
                s.phase = Phase::RefuseCarry {
                    battle: b,
                    to: r,
                    food: None,
                };
            } else {
                refuse(d, s, b, r, 0, 0, ev);
            }
        }
        (
            Phase::RefuseCarry {
                battle: b,
                to,
                food: None,
            },
            Action::Food(f),
        ) => {
            s.phase = Phase::RefuseCarry {
                battle: b,
                to,
                food: Some(f),
            };
        }
        (
            Phase::RefuseCarry {
                battle: b,
                to,
                food: Some(f),
            },
            Action::War(w),
        ) => {
            refuse(d, s, b, to, f, w, ev);
        }
        (Phase::AttackerCommit { mut battle }, Action::War(w)) => {
            // §8.2: one die per War at a Point; at a City or Fort one per two, the Crown
            // rounding up and the Patriot down.
            let dice = if d.is(d.holds, battle.target) {
                if battle.attacker.is_crown() {
                    w.div_ceil(2)
                } else {
                    w / 2
                }
            } else {
                w
            };
            battle.war -= w;
            battle.dice = dice;
            ev.push(Event::Committed {
                side: battle.attacker,
                war: w,
                dice,
            });
            s.phase = Phase::DefenderCommit { battle };
        }
        (Phase::DefenderCommit { battle }, Action::War(w)) => {
            s.area_mut(battle.target).war -= w;
            ev.push(Event::Committed {
                side: battle.attacker.other(),
                war: w,
                dice: w,
            });
            resolve(d, s, battle, w, ev);
        }
        (Phase::Retreat { battle: b }, Action::To(r)) => {
            let def = b.attacker.other();
            let x = *s.area(b.target);
            let force = Force {
                units: x.units,
                leaders: x.leaders,
                food: 0,
                war: 0,
            };
            move_force(s, def, b.target, r, force);
            ev.push(Event::Retreated {
                from: b.target,
                to: r,
            });
            occupy(s, b);
            s.phase = Phase::After {
                side: b.attacker,
                pick: Default::default(),
            };
        }
        _ => {}
    }
}

/// §8.1: the defender leaves with every Unit and Leader, taking what a Leader allows; the
/// attacker occupies the area and whatever was left there.
fn refuse(_d: &Data, s: &mut State, b: Battle, to: u8, food: u8, war: u8, ev: &mut Vec<Event>) {
    let def = b.attacker.other();
    let x = *s.area(b.target);
    let force = Force {
        units: x.units,
        leaders: x.leaders,
        food,
        war,
    };
    move_force(s, def, b.target, to, force);
    ev.push(Event::Refused {
        from: b.target,
        to,
        food,
        war,
    });
    occupy(s, b);
    s.phase = Phase::After {
        side: b.attacker,
        pick: Default::default(),
    };
}

/// The attacking army enters the target area with what it carries.
fn occupy(s: &mut State, b: Battle) {
    let x = s.area_mut(b.target);
    x.side = Some(b.attacker);
    x.units += b.units;
    x.leaders += b.leaders;
    x.food += b.food;
    x.war += b.war;
    x.dug_in = false;
}

fn roll(s: &mut State, n: u8) -> Vec<u8> {
    (0..n).map(|_| s.dice.d6()).collect()
}

/// §8.4-§8.7 once both sides have committed.
fn resolve(d: &Data, s: &mut State, mut b: Battle, def_dice: u8, ev: &mut Vec<Event>) {
    let def = b.attacker.other();
    let t = b.target;
    // §8.4: the defender rolls first; each 1-2 eliminates an attacking Unit, and every two
    // eliminated cost the attacker a die.
    let rolls = roll(s, def_dice);
    let hits = rolls.iter().filter(|&&r| r <= 2).count() as u8;
    let lost = hits.min(b.units);
    b.units -= lost;
    b.dice = b.dice.saturating_sub(lost / 2);
    ev.push(Event::Rolled {
        side: def,
        rolls,
        hits: lost,
        ignored: false,
    });
    if b.units == 0 {
        // §8.7: an army with no Units left surrenders; what it carried goes to the defender.
        surrender(d, s, b.attacker, b.origin, 0, b.leaders, ev);
        let x = s.area_mut(t);
        x.food += b.food;
        x.war += b.war;
        after(s, b.attacker);
        return;
    }
    // §8.5: the attacker rolls; Patriot hits on 1-2, Crown on 1-3; a Dug-In defender ignores
    // the first hit.
    let rolls = roll(s, b.dice);
    let top = if b.attacker.is_crown() { 3 } else { 2 };
    let mut hits = rolls.iter().filter(|&&r| r <= top).count() as u8;
    let ignored = s.area(t).dug_in && hits > 0;
    if ignored {
        hits -= 1;
    }
    let hits = hits.min(s.area(t).units);
    s.area_mut(t).units -= hits;
    ev.push(Event::Rolled {
        side: b.attacker,
        rolls,
        hits,
        ignored,
    });
    if s.area(t).units == 0 {
        let leaders = s.area(t).leaders;
        s.area_mut(t).leaders = 0;
        surrender(d, s, def, t, 0, leaders, ev);
        if s.ended.is_some() {
            return;
        }
        occupy(s, b);
        after(s, b.attacker);
        return;
    }
    // §8.6: Units plus Leaders; ties go to the defender.
    let x = *s.area(t);
    let att = b.units + b.leaders;
    let dfn = x.units + x.leaders;
    let won = att > dfn;
    ev.push(Event::BattleResult {
        attacker_won: won,
        attacker: att,
        defender: dfn,
    });
    if won && !b.attacker.is_crown() {
        support::advance(d, s, "the Patriot won a battle as attacker", "8.6", ev);
    } else if won && x.leaders > 0 {
        support::regress(
            d,
            s,
            "the Crown beat a Patriot army with a Leader",
            "8.6",
            ev,
        );
    }
    if s.ended.is_some() {
        return;
    }
    if !won {
        // §8.7: the attacker goes home and its carried supplies go to the defender.
        let x = s.area_mut(t);
        x.food += b.food;
        x.war += b.war;
        go_home(s, b, false, ev);
        after(s, b.attacker);
        return;
    }
    // §8.7: morale: one check for the Crown, two for the Patriot; automatic failure at a Point.
    let diff = att - dfn;
    let point = d.is(d.points, t);
    let checks = if def.is_crown() { 1 } else { 2 };
    let rolls = if point { Vec::new() } else { roll(s, checks) };
    let passed = !point && rolls.iter().all(|&r| r >= diff);
    ev.push(Event::Morale {
        rolls,
        passed,
        automatic: point,
    });
    if passed {
        ev.push(Event::Stood { area: t });
        go_home(s, b, true, ev);
        after(s, b.attacker);
        return;
    }
    if fallback(d, s, def, t, None) == 0 {
        let (u, l) = (x.units, x.leaders);
        let ar = s.area_mut(t);
        ar.units = 0;
        ar.leaders = 0;
        surrender(d, s, def, t, u, l, ev);
        if s.ended.is_some() {
            return;
        }
        occupy(s, b);
        after(s, b.attacker);
        return;
    }
    s.phase = Phase::Retreat { battle: b };
}

/// The attacker returns to the area it began the impulse in, with its carried supplies when
/// `kept` (§8.7).
fn go_home(s: &mut State, b: Battle, kept: bool, ev: &mut Vec<Event>) {
    let (food, war) = if kept { (b.food, b.war) } else { (0, 0) };
    let o = s.area_mut(b.origin);
    o.side = Some(b.attacker);
    o.units += b.units;
    o.leaders += b.leaders;
    o.food += food;
    o.war += war;
    ev.push(Event::AttackerReturns {
        to: b.origin,
        food,
        war,
        kept,
    });
}

fn after(s: &mut State, side: SideId) {
    if s.ended.is_none() {
        s.phase = Phase::After {
            side,
            pick: Default::default(),
        };
    }
}

/// §8.7: an army surrenders: its Units and Leaders are eliminated (already taken off the
/// map by the caller) and the Support Marker moves once for the army and once per Leader.
pub fn surrender(
    d: &Data,
    s: &mut State,
    side: SideId,
    area: u8,
    units: u8,
    leaders: u8,
    ev: &mut Vec<Event>,
) {
    ev.push(Event::Surrendered {
        side,
        area,
        units,
        leaders,
    });
    drop_orphan_supplies(d, s, area, ev);
    for i in 0..=leaders {
        if s.ended.is_some() {
            return;
        }
        let (why, section) = if i == 0 {
            ("an army surrendered", "8.7")
        } else {
            ("a Leader was eliminated", "8.7")
        };
        if side.is_crown() {
            support::advance(d, s, why, section, ev);
        } else {
            support::regress(d, s, why, section, ev);
        }
    }
}

/// §8.8: the skirmishers roll one die per War expended, eliminating a Crown Unit on each 1-2,
/// then return home whatever happened. A Crown army with no Unit left surrenders.
pub fn skirmish(d: &Data, s: &mut State, from: u8, t: u8, units: u8, war: u8, ev: &mut Vec<Event>) {
    let _ = units;
    s.area_mut(from).war -= war;
    ev.push(Event::Committed {
        side: SideId::PATRIOT,
        war,
        dice: war,
    });
    let rolls = roll(s, war);
    let hits = (rolls.iter().filter(|&&r| r <= 2).count() as u8).min(s.area(t).units);
    s.area_mut(t).units -= hits;
    ev.push(Event::Rolled {
        side: SideId::PATRIOT,
        rolls,
        hits,
        ignored: false,
    });
    if s.area(t).units == 0 {
        let l = s.area(t).leaders;
        s.area_mut(t).leaders = 0;
        surrender(d, s, SideId::CROWN, t, 0, l, ev);
    }
    ev.push(Event::SkirmishReturns { to: from });
}

/// §7.6: one die per War in the Sea Box, all of it spent; each 1 eliminates a Patriot Unit in
/// the target. An army left with no Unit surrenders (rulings S7).
pub fn bombard(d: &Data, s: &mut State, t: u8, ev: &mut Vec<Event>) {
    let n = s.area(d.sea).war;
    s.area_mut(d.sea).war = 0;
    let rolls = roll(s, n);
    let hits = (rolls.iter().filter(|&&r| r == 1).count() as u8).min(s.area(t).units);
    s.area_mut(t).units -= hits;
    ev.push(Event::Bombarded {
        target: t,
        rolls,
        eliminated: hits,
    });
    if s.area(t).units == 0 {
        let l = s.area(t).leaders;
        s.area_mut(t).leaders = 0;
        surrender(d, s, SideId::PATRIOT, t, 0, l, ev);
    }
}
