//! Knowledge for search bots: an estimate of who is winning, so playouts can stop early.

use crate::SupplyLines;
use crate::action::Action;
use crate::data::Data;
use crate::state::{Order, Phase, SideId, State};
use crate::{supply, turn_end, victory};
use muster_core::{Knowledge, Side};

/// How much an area wants supplies, for the bots' supply moves: an army's Units need Food to
/// march and attack and War to fight (§7.1-§7.3), so cubes are worth more where more Units
/// stand; empty Cities, Forts, Nova Scotia and the Sea Box hold them at the base weight.
fn want(s: &State, side: SideId, a: u8) -> i32 {
    let x = s.area(a);
    if x.side == Some(side) {
        1 + 2 * x.units as i32
    } else {
        1
    }
}

/// Would moving `n` cubes of one kind from `f` (holding `cf` of that kind) to `t` (holding
/// `ct`) lower the bots' supply potential, the sum over areas of cubes squared over want? The
/// potential falls strictly with every such move, so bots moving only "downhill" cannot move
/// supplies in circles; the destination must also have room (§5.3), so no forced putting
/// right follows.
fn downhill(d: &Data, s: &State, side: SideId, f: u8, t: u8, food: bool, n: u8) -> bool {
    let (xf, xt) = (s.area(f), s.area(t));
    let (cf, ct) = if food {
        (xf.food as i32, xt.food as i32)
    } else {
        (xf.war as i32, xt.war as i32)
    };
    let n_ = n as i32;
    if n_ > cf || (food && t == d.sea) {
        return false;
    }
    if t != d.sea && xt.cubes() as i32 + n_ > supply::limit(d, s, t) as i32 {
        return false;
    }
    let (wf, wt) = (want(s, side, f), want(s, side, t));
    ((cf - n_) * (cf - n_) - cf * cf) * wt + ((ct + n_) * (ct + n_) - ct * ct) * wf < 0
}

fn downhill_to(d: &Data, s: &State, side: SideId, f: u8, t: u8) -> bool {
    downhill(d, s, side, f, t, true, 1) || downhill(d, s, side, f, t, false, 1)
}

/// Farthest distance [`land_distance`] tells apart.
const FAR: u32 = 6;

/// Lines to cross by land (the Sea Box is Crown transport, §7.2) from area `to` to the nearest
/// of the areas `from` (bits), counting at most [`FAR`].
fn land_distance(d: &Data, to: u8, from: u64) -> u32 {
    let sea = 1u64 << d.sea;
    let (mut seen, mut front) = (1u64 << to, 1u64 << to);
    for dist in 0..FAR {
        if front & from != 0 {
            return dist;
        }
        let mut next = 0;
        for a in supply::each(front) {
            next |= d.adjacent(a);
        }
        next &= !(seen | sea);
        if next == 0 {
            return FAR;
        }
        seen |= next;
        front = next;
    }
    FAR
}

impl Knowledge for SupplyLines {
    /// A logistic of the Patriot's way to victory (the Support Marker's progress toward the
    /// Treaty, §11.2) against the Crown's (its Victory Cities against the requirement, §13.2),
    /// with smaller terms for what decides the next turns: the armies and Leaders still on the
    /// map; the supplies each side's armies stand on (an Activation costs Food, a battle War,
    /// §7.1-§8.2); the Support Marker's moves the next Turn End makes as things stand (the Crown
    /// in Philadelphia, Patriots in Quebec, §11.0); and how far the Patriot's armies are from
    /// the Victory Cities the Crown holds (a City is taken back by an Attack from an adjacent
    /// area, §7.3).
    fn evaluate(&self, s: &State, side: Side) -> Option<f32> {
        let d = self.data();
        let span = (d.treaty - d.support_start).max(1) as f32;
        let support = (s.support as f32 - d.support_start as f32) / span;
        let cities = victory::crown_cities(d, s) as f32 / victory::required(d, s).max(1) as f32;
        let men = s.units_of(SideId::PATRIOT) as f32 - s.units_of(SideId::CROWN) as f32;
        let leaders = s.leaders_of(SideId::PATRIOT) as f32 - s.leaders_of(SideId::CROWN) as f32;
        let mut cubes = 0i32;
        for x in &s.areas {
            if x.held_by(SideId::PATRIOT) {
                cubes += x.cubes() as i32;
            } else if x.held_by(SideId::CROWN) {
                cubes -= x.cubes() as i32;
            }
        }
        let (advance, regress) = turn_end::support_changes(d, s);
        let pending = f32::from(u8::from(advance)) - f32::from(u8::from(regress));
        let patriots = s.held(SideId::PATRIOT);
        let distance: u32 = supply::each(d.victory)
            .filter(|&c| s.area(c).held_by(SideId::CROWN))
            .map(|c| land_distance(d, c, patriots))
            .sum();
        let patriot = 3.0 * (support + pending / span) - 2.5 * (cities - 0.6)
            + 0.05 * men
            + 0.3 * leaders
            + 0.03 * cubes as f32
            - 0.04 * distance as f32;
        let x = if side == SideId::PATRIOT.0 {
            patriot
        } else {
            -patriot
        };
        Some(1.0 / (1.0 + (-x).exp()))
    }

    fn playout_depth(&self) -> u32 {
        40
    }

    /// §13.4: the concession weighs 0, so playouts and the `random` baseline never take it
    /// (a uniform pick among a dozen actions would concede within a few impulses).
    fn playout_weight(&self, _s: &State, a: Action) -> u32 {
        u32::from(a != Action::Concede)
    }

    /// Free supply moves (§5.3) are unlimited, so a search bot would shuffle cubes back and
    /// forth for ever: bots only weigh moves that send supplies toward where Units stand (see
    /// [`downhill`]) and never cancel a half-made move. Putting limits right (§5.5) keeps
    /// every relieving move, every War sent to the Sea Box to make room and every discard:
    /// every step of it counts, and it always ends (rulings S5).
    ///
    /// §13.4: no bot concedes (rulings S15); the concession stays a player's choice.
    ///
    /// §7.5: digging in costs a Food and a War and pins the army for the rest of the turn, and
    /// it only pays against an Attack, which comes from an adjacent enemy army (§7.3). Bots
    /// weigh it only where an enemy army stands in an adjacent area (for a port, the Sea Box
    /// counts); an army threatened later in the turn can still dig in when the enemy arrives.
    /// Without this the search, which does not value supplies, dug in dozens of times a game
    /// far from any enemy (docs/performance.md, the ladder's step 7).
    fn prune(&self, s: &State, actions: &mut Vec<Action>) {
        actions.retain(|&a| a != Action::Concede);
        let d = self.data();
        if let Phase::Impulse { side, .. } = s.phase {
            let enemy = s.held(side.other());
            actions.retain(
                |&a| !matches!(a, Action::Activate(x, Order::DigIn) if d.adjacent(x) & enemy == 0),
            );
        }
        let (side, pick) = match s.phase {
            Phase::Supply { side, pick }
            | Phase::Impulse { side, pick, .. }
            | Phase::After { side, pick } => (side, pick),
            // A supply move under way keeps the march between detachments (rulings S16).
            Phase::Activate { side, act } if crate::impulse::between_detachments(&act) => {
                (side, act.pick)
            }
            _ => return,
        };
        // Putting limits right (§5.5): every relieving move and discard stays, but a half-made
        // move is never cancelled, since that only brings the same choice back.
        if supply::over(d, s, side) != 0 {
            actions.retain(|&a| a != Action::Cancel);
            return;
        }
        actions.retain(|&a| match (a, pick.from, pick.to) {
            (Action::Cancel, _, _) => false,
            (Action::From(f), None, _) => {
                let r = supply::reach(d, s, side, f);
                supply::each(r).any(|t| t != f && downhill_to(d, s, side, f, t))
            }
            (Action::To(t), Some(f), None) => downhill_to(d, s, side, f, t),
            (Action::Food(n), Some(f), Some(t)) => downhill(d, s, side, f, t, true, n),
            (Action::War(n), Some(f), Some(t)) => downhill(d, s, side, f, t, false, n),
            _ => true,
        });
    }
}
