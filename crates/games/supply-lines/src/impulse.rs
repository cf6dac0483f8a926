//! §7 Impulse Phase: activating an army to March (§7.1), Transport (§7.2), Attack (§7.3),
//! Skirmish (§7.4), Dig-In (§7.5), Bombard (§7.6) or Destroy (§7.7).
//!
//! An activation that moves men is formed one decision at a time: where the detachment goes,
//! how many Units, how many Leaders, how much Food and War it carries. A step with a single
//! possible answer is taken without asking (`settle`).

use crate::action::{Action, Event};
use crate::data::{Data, Kind};
use crate::sequence::Actions;
use crate::state::{Activation, Battle, Group, Order, Phase, Pick, SideId, State};
use crate::supply::{self, each, food_cost};
use crate::{battle, support};

/// War a side must expend for one Battle Die against `target` (§8.2): one at a Point; at a
/// City or Fort two for the Patriot (rounding down), one for the Crown (rounding up).
pub fn min_war(d: &Data, side: SideId, target: u8) -> u8 {
    if d.is(d.holds, target) && !side.is_crown() {
        2
    } else {
        1
    }
}

fn winter_blocked(d: &Data, s: &State, side: SideId) -> bool {
    d.is_winter(s.turn) && s.winter_attack[side.0 as usize]
}

/// Can `side` activate the army in `a` for `order` now (§7.0-§7.7)?
/// `enemy` holds the areas the other side's armies occupy.
pub(crate) fn can_activate_with(
    d: &Data,
    s: &State,
    side: SideId,
    enemy: u64,
    a: u8,
    order: Order,
) -> bool {
    let x = s.area(a);
    if !x.held_by(side) || x.dug_in {
        return false;
    }
    let crown = side.is_crown();
    let sea = a == d.sea;
    let lines = d.areas[a as usize].lines;
    match order {
        Order::March => {
            !sea && (lines & !enemy) != 0
                && x.food >= if x.leaders > 0 { 1 } else { food_cost(x.units) }
        }
        Order::Transport => {
            crown
                && if sea {
                    (d.ports & !enemy & !(1 << d.sea)) != 0
                } else {
                    d.is(d.ports, a)
                }
        }
        Order::Attack => {
            !sea && x.leaders > 0
                && x.food >= 1
                && !winter_blocked(d, s, side)
                && each(lines & enemy).any(|t| x.war >= min_war(d, side, t))
        }
        Order::Skirmish => {
            !crown
                && !sea
                && (x.leaders > 0 || x.units <= 2)
                && x.food >= 1
                && !winter_blocked(d, s, side)
                && (lines & enemy & d.points) != 0
        }
        Order::DigIn => d.is(d.holds, a) && x.food >= 1 && x.war >= 1,
        Order::Bombard => {
            crown && x.leaders > 0 && s.area(d.sea).war > 0 && (d.ports & s.held(side.other())) != 0
        }
        Order::Destroy => {
            crown
                && d.kind(a) == Kind::City
                && !d.is(d.victory, a)
                && a != d.nova_scotia
                && !x.destroyed
                && x.war >= 2
        }
    }
}

pub fn legal_activations(d: &Data, s: &State, side: SideId, out: &mut Actions) {
    let enemy = s.held(side.other());
    for a in each(s.held(side)) {
        for o in Order::ALL {
            if can_activate_with(d, s, side, enemy, a, o) {
                out.push(Action::Activate(a, o));
            }
        }
    }
}

/// §7.0: the army in `a` is activated. Dig-In and Destroy resolve at once; the others go on to
/// form their detachment.
pub fn activate(d: &Data, s: &mut State, side: SideId, a: u8, order: Order, ev: &mut Vec<Event>) {
    let x = *s.area(a);
    let mut paid = (0, 0);
    let mut act = Activation {
        order,
        origin: a,
        left: None,
        moved: false,
        group: Group::default(),
        pick: Pick::default(),
    };
    match order {
        Order::DigIn => {
            // §7.5: one Food and one War, whatever the army's size.
            let ar = s.area_mut(a);
            ar.food -= 1;
            ar.war -= 1;
            ar.dug_in = true;
            ev.push(Event::Activated {
                side,
                area: a,
                order,
                food: 1,
                war: 1,
            });
            ev.push(Event::DugIn { area: a });
            s.phase = Phase::After {
                side,
                pick: Default::default(),
            };
            return;
        }
        Order::Destroy => {
            // §7.7: two War; the City generates no more, and support advances.
            let ar = s.area_mut(a);
            ar.war -= 2;
            ar.destroyed = true;
            ev.push(Event::Activated {
                side,
                area: a,
                order,
                food: 0,
                war: 2,
            });
            ev.push(Event::Destroyed { area: a });
            support::advance(d, s, "the Crown destroyed a City", "7.7", ev);
            s.phase = Phase::After {
                side,
                pick: Default::default(),
            };
            return;
        }
        Order::March => {
            // §7.1: without a Leader the whole army is activated and pays now.
            if x.leaders == 0 {
                let cost = food_cost(x.units);
                s.area_mut(a).food -= cost;
                paid.0 = cost;
                act.left = Some(x.units);
            }
        }
        Order::Attack => {
            s.winter_attack[side.0 as usize] = true;
        }
        Order::Skirmish => {
            // §7.4: one Food; it counts as the winter's attack (§10.0).
            s.winter_attack[side.0 as usize] = true;
            s.area_mut(a).food -= 1;
            paid.0 = 1;
        }
        Order::Transport | Order::Bombard => {}
    }
    if order == Order::March && act.left.is_none() || order == Order::Attack {
        // A Leader's March is logged once it has chosen the Units it activates, an Attack
        // once its Units march in and pay their Food (`launch_attack`): one entry each, with
        // what was really paid.
        s.phase = Phase::Activate { side, act };
        return;
    }
    ev.push(Event::Activated {
        side,
        area: a,
        order,
        food: paid.0,
        war: paid.1,
    });
    s.phase = Phase::Activate { side, act };
}

/// The options of the current step of an activation.
pub fn legal_step(d: &Data, s: &State, side: SideId, act: &Activation, out: &mut Actions) {
    let o = act.origin;
    let x = s.area(o);
    let g = act.group;
    let enemy = s.held(side.other());
    let lines = d.areas[o as usize].lines;
    match act.order {
        Order::March => {
            let Some(left) = act.left else {
                // §7.1: a Leader's army activates only the Units it chooses, paying for them.
                for k in 1..=x.units {
                    if food_cost(k) <= x.food {
                        out.push(Action::Units(k));
                    }
                }
                return;
            };
            let Some(to) = g.to else {
                if act.pick.from.is_some() {
                    // §5.3 (rulings S16): a supply move under way between detachments.
                    supply::legal_moves(d, s, side, act.pick, out);
                    return;
                }
                if left > 0 {
                    for b in each(lines & !enemy) {
                        out.push(Action::To(b));
                    }
                }
                if act.moved || left == 0 {
                    out.push(Action::EndMarch);
                }
                if between_detachments(act) {
                    mid_march_moves(d, s, side, out);
                }
                return;
            };
            let _ = to;
            let Some(n) = g.units else {
                for n in 1..=left {
                    out.push(Action::Units(n));
                }
                return;
            };
            if g.leaders.is_none() {
                leader_choices(x.leaders, n == x.units, 0, out);
                return;
            }
            carry_choices(d, s, o, n, g.food, 0, 0, out);
        }
        Order::Attack => {
            let Some(t) = g.to else {
                for t in each(lines & enemy) {
                    if x.war >= min_war(d, side, t) {
                        out.push(Action::To(t));
                    }
                }
                return;
            };
            let Some(n) = g.units else {
                for n in 1..=x.units {
                    if food_cost(n) <= x.food {
                        out.push(Action::Units(n));
                    }
                }
                return;
            };
            if g.leaders.is_none() {
                leader_choices(x.leaders, n == x.units, 1, out);
                return;
            }
            carry_choices(d, s, o, n, g.food, food_cost(n), min_war(d, side, t), out);
        }
        Order::Skirmish => {
            if g.to.is_none() {
                for t in each(lines & enemy & d.points) {
                    out.push(Action::To(t));
                }
                return;
            }
            let Some(n) = g.units else {
                // §7.4: a leaderless army skirmishes whole (one or two Units); a Leader sends
                // one or two of his.
                if x.leaders == 0 {
                    out.push(Action::Units(x.units));
                } else {
                    for n in 1..=x.units.min(2) {
                        out.push(Action::Units(n));
                    }
                }
                return;
            };
            for w in 0..=x.war.min(n + 1) {
                out.push(Action::War(w));
            }
        }
        Order::Transport => {
            if g.to.is_none() {
                if o == d.sea {
                    for p in each(d.ports & !enemy & !(1 << d.sea)) {
                        out.push(Action::To(p));
                    }
                } else {
                    out.push(Action::To(d.sea));
                }
                return;
            }
            let Some(n) = g.units else {
                for n in 1..=x.units {
                    out.push(Action::Units(n));
                }
                return;
            };
            // §12.1 (rulings S14): Leaders may wait in Nova Scotia without Units, so the last
            // Units to sail from there need not take every Leader with them.
            leader_choices(x.leaders, n == x.units && o != d.nova_scotia, 0, out);
        }
        Order::Bombard => {
            for t in each(d.ports & enemy) {
                out.push(Action::To(t));
            }
        }
        Order::DigIn | Order::Destroy => {}
    }
}

/// §5.3 lets supplies move during an impulse as well as before and after it (rulings S16).
/// Within an activation the one moment where that changes anything is a March between two
/// detachments: the first may have opened a supply line, and what the origin holds is what
/// the next one can pick up (§5.5). Elsewhere a move "during" would be the same as one made
/// before the activation or after it.
pub fn between_detachments(act: &Activation) -> bool {
    act.order == Order::March
        && act.moved
        && act.left.is_some_and(|l| l > 0)
        && act.group.to.is_none()
}

/// The first step of a supply move between detachments: any source the player could move
/// from now. Discards wait for the end of the impulse, when the limits are checked (§5.3,
/// §5.5): until then a later move may still put them right.
fn mid_march_moves(d: &Data, s: &State, side: SideId, out: &mut Actions) {
    let mut moves = Actions::new();
    supply::legal_moves(d, s, side, Pick::default(), &mut moves);
    out.extend(moves.into_iter().filter(|a| matches!(a, Action::From(_))));
}

/// Leaders going with a detachment: all of them when no Unit stays behind (a Leader is no
/// army by himself), at least `min` otherwise.
fn leader_choices(leaders: u8, all_units: bool, min: u8, out: &mut Actions) {
    if all_units {
        out.push(Action::Leaders(leaders));
    } else {
        for l in min..=leaders {
            out.push(Action::Leaders(l));
        }
    }
}

/// §5.5: supplies a detachment of `n` Units carries: at most one more than its Units, from
/// what the area holds after `cost` Food is paid, keeping room for `war_min` War. Leaving a
/// Point with every Unit, the army takes everything it carries.
#[allow(clippy::too_many_arguments)]
fn carry_choices(
    d: &Data,
    s: &State,
    o: u8,
    n: u8,
    food: Option<u8>,
    cost: u8,
    war_min: u8,
    out: &mut Actions,
) {
    let x = s.area(o);
    let cap = n + 1;
    let avail_food = x.food - cost.min(x.food);
    let whole_point = d.is(d.points, o) && n == x.units;
    match food {
        None => {
            if whole_point {
                out.push(Action::Food(avail_food));
            } else {
                for f in 0..=avail_food.min(cap.saturating_sub(war_min)) {
                    out.push(Action::Food(f));
                }
            }
        }
        Some(f) => {
            if whole_point {
                out.push(Action::War(x.war));
            } else {
                for w in war_min..=x.war.min(cap.saturating_sub(f)) {
                    out.push(Action::War(w));
                }
            }
        }
    }
}

/// Applies one step of an activation (already checked legal).
pub fn apply_step(
    d: &Data,
    s: &mut State,
    side: SideId,
    mut act: Activation,
    a: Action,
    ev: &mut Vec<Event>,
) {
    if act.pick.from.is_some() || (between_detachments(&act) && matches!(a, Action::From(_))) {
        // §5.3 (rulings S16): a step of a supply move between detachments.
        act.pick = supply::apply_move(s, side, act.pick, a, ev);
        s.phase = Phase::Activate { side, act };
        return;
    }
    let g = &mut act.group;
    match a {
        Action::EndMarch => {
            s.phase = Phase::After {
                side,
                pick: Default::default(),
            };
            return;
        }
        Action::Units(k) if act.order == Order::March && act.left.is_none() => {
            let cost = food_cost(k);
            s.area_mut(act.origin).food -= cost;
            act.left = Some(k);
            ev.push(Event::Activated {
                side,
                area: act.origin,
                order: Order::March,
                food: cost,
                war: 0,
            });
        }
        Action::To(t) => {
            g.to = Some(t);
            if act.order == Order::Bombard {
                s.phase = Phase::Activate { side, act };
                battle::bombard(d, s, t, ev);
                s.phase = Phase::After {
                    side,
                    pick: Default::default(),
                };
                return;
            }
        }
        Action::Units(n) => g.units = Some(n),
        Action::Leaders(l) => {
            g.leaders = Some(l);
            if act.order == Order::Transport {
                transport(d, s, side, &act, ev);
                return;
            }
        }
        Action::Food(f) => g.food = Some(f),
        Action::War(w) => match act.order {
            Order::March => {
                march_group(d, s, side, &mut act, w, ev);
                return;
            }
            Order::Attack => {
                launch_attack(d, s, side, &act, w, ev);
                return;
            }
            Order::Skirmish => {
                let (t, n) = (g.to.unwrap_or(0), g.units.unwrap_or(0));
                battle::skirmish(d, s, act.origin, t, n, w, ev);
                if s.ended.is_none() {
                    s.phase = Phase::After {
                        side,
                        pick: Default::default(),
                    };
                }
                return;
            }
            _ => {}
        },
        _ => {}
    }
    s.phase = Phase::Activate { side, act };
}

/// A detachment on the move: Units, Leaders and the supplies it carries.
#[derive(Clone, Copy, Debug)]
pub struct Force {
    pub units: u8,
    pub leaders: u8,
    pub food: u8,
    pub war: u8,
}

/// Moves a detachment of `side` from `from` to `to`: men and carried supplies.
pub fn move_force(s: &mut State, side: SideId, from: u8, to: u8, f: Force) {
    let Force {
        units,
        leaders,
        food,
        war,
    } = f;
    let src = s.area_mut(from);
    src.units -= units;
    src.leaders -= leaders;
    src.food -= food;
    src.war -= war;
    if src.units == 0 && src.leaders == 0 {
        src.side = None;
        src.dug_in = false;
    }
    let dst = s.area_mut(to);
    dst.side = Some(side);
    dst.units += units;
    dst.leaders += leaders;
    dst.food += food;
    dst.war += war;
}

/// §7.1: a detachment marches; supplies it carries into a City or Fort are stored there.
fn march_group(
    d: &Data,
    s: &mut State,
    side: SideId,
    act: &mut Activation,
    war: u8,
    ev: &mut Vec<Event>,
) {
    let g = act.group;
    let (to, n, l, f) = (
        g.to.unwrap_or(act.origin),
        g.units.unwrap_or(0),
        g.leaders.unwrap_or(0),
        g.food.unwrap_or(0),
    );
    move_force(
        s,
        side,
        act.origin,
        to,
        Force {
            units: n,
            leaders: l,
            food: f,
            war,
        },
    );
    ev.push(Event::Moved {
        side,
        from: act.origin,
        to,
        units: n,
        leaders: l,
        food: f,
        war,
    });
    drop_orphan_supplies(d, s, act.origin, ev);
    act.left = Some(
        act.left
            .unwrap_or(0)
            .saturating_sub(n)
            .min(s.area(act.origin).units),
    );
    act.moved = true;
    act.group = Group::default();
    s.phase = Phase::Activate { side, act: *act };
}

/// Supplies cannot lie at a Point no army occupies: anything left there is lost (rulings S4).
pub fn drop_orphan_supplies(d: &Data, s: &mut State, a: u8, ev: &mut Vec<Event>) {
    let x = s.area_mut(a);
    if x.units == 0 && d.is(d.points, a) && x.cubes() > 0 {
        let (food, war) = (x.food, x.war);
        x.food = 0;
        x.war = 0;
        ev.push(Event::Discarded { area: a, food, war });
    }
    let x = s.area_mut(a);
    if x.units == 0 && x.leaders == 0 {
        x.side = None;
    }
}

/// §7.2: Units (and Leaders) go into or out of the Sea Box, carrying no supplies.
fn transport(d: &Data, s: &mut State, side: SideId, act: &Activation, ev: &mut Vec<Event>) {
    let g = act.group;
    let (to, n, l) = (
        g.to.unwrap_or(d.sea),
        g.units.unwrap_or(0),
        g.leaders.unwrap_or(0),
    );
    move_force(
        s,
        side,
        act.origin,
        to,
        Force {
            units: n,
            leaders: l,
            food: 0,
            war: 0,
        },
    );
    ev.push(Event::Moved {
        side,
        from: act.origin,
        to,
        units: n,
        leaders: l,
        food: 0,
        war: 0,
    });
    drop_orphan_supplies(d, s, act.origin, ev);
    s.phase = Phase::After {
        side,
        pick: Default::default(),
    };
}

/// §7.3: the attacking Units pay their Food and march into the enemy's area with what they
/// carry; battle follows (§8.0).
fn launch_attack(
    d: &Data,
    s: &mut State,
    side: SideId,
    act: &Activation,
    war: u8,
    ev: &mut Vec<Event>,
) {
    let g = act.group;
    let (t, n, l, f) = (
        g.to.unwrap_or(0),
        g.units.unwrap_or(0),
        g.leaders.unwrap_or(0),
        g.food.unwrap_or(0),
    );
    let o = act.origin;
    let cost = food_cost(n);
    {
        let src = s.area_mut(o);
        src.food -= cost;
        src.food -= f;
        src.war -= war;
        src.units -= n;
        src.leaders -= l;
    }
    ev.push(Event::Activated {
        side,
        area: o,
        order: Order::Attack,
        food: cost,
        war: 0,
    });
    drop_orphan_supplies(d, s, o, ev);
    let b = Battle {
        attacker: side,
        origin: o,
        target: t,
        units: n,
        leaders: l,
        food: f,
        war,
        dice: 0,
    };
    // The battle is under way before the support moves, so that what the attackers carry
    // counts as in play if the Declaration's War is handed out now (§2.3, §11.1).
    battle::begin(d, s, b);
    if !side.is_crown() && t == d.quebec && !s.quebec_attacked {
        s.quebec_attacked = true;
        support::advance(
            d,
            s,
            "the Patriot attacks Quebec for the first time",
            "11.0",
            ev,
        );
    }
}
