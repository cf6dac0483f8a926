//! §5 Supplies: generation (§5.1, §2.3), Nova Scotia (§5.2), supply lines by land and sea
//! (§5.3, §5.4), storage and carrying limits with forced discards (§5.3, §5.5), and the
//! supply-moving windows of the Supply and Impulse Phases.

use crate::action::{Action, Event};
use crate::data::{Data, Kind};
use crate::sequence::Actions;
use crate::state::{Phase, Pick, SideId, State};

/// Food to activate an army of `units` Units: one per four, rounded up (§7.1, §7.3).
pub fn food_cost(units: u8) -> u8 {
    units.div_ceil(4)
}

/// Cubes left in the stock (§2.3): neither on the map nor carried by an attacking army in a
/// battle under way (those are off the map until the battle ends, and still in play).
pub fn stock(d: &Data, s: &State) -> (u8, u8) {
    let (food, war) = carried_in_battle(s);
    (
        (d.food_cubes as u32).saturating_sub(s.food_on_map() + food as u32) as u8,
        (d.war_cubes as u32).saturating_sub(s.war_on_map() + war as u32) as u8,
    )
}

/// Food and War an attacking army carries in a battle under way (§5.5, §8.0).
pub fn carried_in_battle(s: &State) -> (u8, u8) {
    match s.phase {
        Phase::Refuse { battle }
        | Phase::RefuseCarry { battle, .. }
        | Phase::AttackerCommit { battle }
        | Phase::DefenderCommit { battle }
        | Phase::Retreat { battle } => (battle.food, battle.war),
        _ => (0, 0),
    }
}

/// The most cubes an area may hold once a player has finished moving supplies (§5.3): 8 in a
/// City or Fort, one more than its Units for an army at a Point, none at an empty Point; the
/// Sea Box has no limit.
pub fn limit(d: &Data, s: &State, a: u8) -> u8 {
    match d.kind(a) {
        Kind::Sea => u8::MAX,
        Kind::City | Kind::Fort => d.capacity,
        Kind::Point => {
            let x = s.area(a);
            if x.units > 0 {
                x.units.saturating_add(1)
            } else {
                0
            }
        }
    }
}

/// Cubes an area of `side` holds beyond its limit (§5.3, §5.5).
pub fn excess(d: &Data, s: &State, side: SideId, a: u8) -> u8 {
    let x = s.area(a);
    if x.side == Some(side) && x.units > 0 {
        x.cubes().saturating_sub(limit(d, s, a))
    } else {
        0
    }
}

/// Bits of `side`'s areas holding more than their limit, and of empty Cities and Forts
/// holding more than 8 (rulings S23: a March that moved supplies into its origin between
/// detachments and then left it empty; no supply line reaches such an area, so its excess
/// can only be discarded, §5.5, by the player whose window it is).
pub fn over(d: &Data, s: &State, side: SideId) -> u64 {
    let mut m = 0;
    for (i, x) in s.areas.iter().enumerate() {
        let mine = x.side == Some(side) && x.units > 0 && x.cubes() > limit(d, s, i as u8);
        let left = x.units == 0
            && matches!(d.kind(i as u8), Kind::City | Kind::Fort)
            && x.cubes() > d.capacity;
        if mine || left {
            m |= 1 << i;
        }
    }
    m
}

fn bits(mut m: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(i)
        }
    })
}

pub fn each(m: u64) -> impl Iterator<Item = u8> {
    bits(m)
}

/// Where supplies in `from` may go along `side`'s supply lines (§5.3, §5.4), as bits. The
/// Sea Box bit means War may go there for bombardment (§5.4, §7.6).
///
/// By land, friendly armies in adjacent areas form a line, and lines chain through any number
/// of armies. By sea (Crown only), Crown-held ports exchange supplies, except that Quebec
/// trades by sea only with Nova Scotia; Nova Scotia sends by sea to any Crown-held port
/// (Quebec included, occupied or not itself: rulings S3) and receives nothing.
pub fn reach(d: &Data, s: &State, side: SideId, from: u8) -> u64 {
    reach_in(d, s.held(side), side.is_crown(), from)
}

/// [`reach`] with `side`'s held areas already computed.
pub fn reach_in(d: &Data, held: u64, crown: bool, from: u8) -> u64 {
    let nova = d.nova_scotia;
    let sea_bit = 1u64 << d.sea;
    let held = held & !sea_bit;
    let us_ports = held & d.ports & !(1 << d.quebec) & !(1 << nova);
    if from == d.sea || (from != nova || !crown) && held >> from & 1 == 0 {
        return 0;
    }
    let mut seen = 1u64 << from;
    let mut todo = 1u64 << from;
    while todo != 0 {
        let a = todo.trailing_zeros() as u8;
        todo &= todo - 1;
        let mut next = d.areas[a as usize].lines & held;
        if crown {
            if a == nova {
                next |= held & d.ports;
            } else if us_ports >> a & 1 == 1 {
                next |= us_ports;
            }
        }
        next &= !(1 << nova) & !seen;
        seen |= next;
        todo |= next;
    }
    let mut out = seen & !(1 << from) & !(1 << nova);
    if crown && (seen & d.ports) != 0 {
        out |= sea_bit;
    }
    out
}

/// Room left in `b` for cubes moved there (the Sea Box takes any number of War, §5.4).
fn room(d: &Data, s: &State, b: u8) -> u8 {
    if b == d.sea {
        u8::MAX
    } else {
        limit(d, s, b).saturating_sub(s.area(b).cubes())
    }
}

/// Where `a`'s excess may go along `side`'s supply line: areas with room, and the Sea Box
/// if `a` holds War (§5.4, §5.5).
fn relief(d: &Data, s: &State, side: SideId, a: u8) -> u64 {
    let r = reach(d, s, side, a);
    let mut out = 0;
    for b in bits(r) {
        let ok = if b == d.sea {
            s.area(a).war > 0
        } else {
            room(d, s, b) > 0
        };
        if ok {
            out |= 1 << b;
        }
    }
    out
}

/// The areas of `a`'s supply line, `a` included (not the Sea Box, nor Nova Scotia, which
/// only sends).
fn line_of(d: &Data, s: &State, side: SideId, a: u8) -> u64 {
    (reach(d, s, side, a) | 1 << a) & !(1 << d.sea) & !(1 << d.nova_scotia)
}

/// Over-full areas of `side` whose excess has nowhere to go just now: every other area of
/// their line is full, and they hold no War for the Sea Box (§5.3, §5.5).
fn stuck(d: &Data, s: &State, side: SideId) -> u64 {
    let mut m = 0;
    for a in bits(over(d, s, side)) {
        if relief(d, s, side, a) == 0 {
            m |= 1 << a;
        }
    }
    m
}

/// Cubes of `line` that no sequence of supply moves can keep within the limits: what the
/// line holds beyond the sum of its limits, after every War it can reach the Sea Box with
/// has gone there (the Sea Box is the only place without a limit, and it takes only War;
/// §5.4, §5.5). Moves inside a line only rearrange its cubes, and every area of a line sends
/// straight to every other, so this count is exact: no search is needed.
fn unplaceable(d: &Data, s: &State, side: SideId, line: u64) -> u32 {
    // Only a held port sends War to the Sea Box (an empty City left over-full holds none).
    let sea = side.is_crown() && line & d.ports & s.held(side) != 0;
    let (mut cubes, mut cap) = (0u32, 0u32);
    for b in bits(line) {
        let x = s.area(b);
        cubes += if sea { x.food } else { x.cubes() } as u32;
        cap += limit(d, s, b) as u32;
    }
    cubes.saturating_sub(cap)
}

/// The excess of the stuck areas of `f`'s line: as much War as `f` may send to the Sea Box
/// to make room for it (§5.5).
fn stuck_excess(d: &Data, s: &State, side: SideId, f: u8) -> u8 {
    let line = line_of(d, s, side, f);
    bits(stuck(d, s, side) & line)
        .map(|a| excess(d, s, side, a) as u32)
        .sum::<u32>()
        .min(u8::MAX as u32) as u8
}

/// Areas of `side`, within their own limits, whose War could go to the Sea Box to make room
/// for a stuck area of their line (§5.4, §5.5): Food stuck in a full line fits once War
/// elsewhere on it has gone to the Sea Box.
fn makers(d: &Data, s: &State, side: SideId) -> u64 {
    let stuck = stuck(d, s, side);
    if stuck == 0 || !side.is_crown() {
        return 0;
    }
    let o = over(d, s, side);
    let mut m = 0;
    for b in bits(s.held(side) & !o & !(1 << d.sea) & !(1 << d.nova_scotia)) {
        if s.area(b).war > 0
            && reach(d, s, side, b) >> d.sea & 1 == 1
            && line_of(d, s, side, b) & stuck != 0
        {
            m |= 1 << b;
        }
    }
    m
}

/// May `side` discard from `a` now? Only from an over-full area whose excess no supply move
/// can place now, on a line where no sequence of supply moves can put every limit right
/// (§5.5: a discard only when the owner truly cannot comply by moving supplies).
pub fn must_discard(d: &Data, s: &State, side: SideId, a: u8) -> bool {
    over(d, s, side) >> a & 1 == 1
        && relief(d, s, side, a) == 0
        && unplaceable(d, s, side, line_of(d, s, side, a)) > 0
}

/// The supply moves open to `side` with `pick` so far; and whether it may finish moving.
///
/// §5.3 lets a player exceed the limits while he moves, and §5.5 makes him put them right
/// himself. While some area of his is over its limit (rulings S5), his next move either takes
/// cubes out of an over-full area, no more than its excess, to an area of its supply line with
/// room for them (or War to the Sea Box), or makes room for an over-full area whose line is
/// full by sending War from elsewhere on that line to the Sea Box (no more War than the
/// excess waiting for the room). Only where no sequence of moves can bring the line within
/// its limits does he discard, one cube at a time, War first, from an over-full area with
/// nowhere to send its excess. Each relieving move or discard lowers the total excess and each
/// room-making move sends War to the Sea Box, which never gives it back, so the putting right
/// always ends; and since every area of a supply line sends straight to every other, it
/// reaches every arrangement the free moves could.
pub fn legal_moves(d: &Data, s: &State, side: SideId, pick: Pick, out: &mut Actions) -> bool {
    let o = over(d, s, side);
    match (pick.from, pick.to) {
        (None, _) if o != 0 => {
            let makers = makers(d, s, side);
            for a in bits(o | makers) {
                if o >> a & 1 == 0 || relief(d, s, side, a) != 0 {
                    out.push(Action::From(a));
                } else if must_discard(d, s, side, a) {
                    out.push(Action::Discard(a));
                }
            }
            false
        }
        (None, _) => {
            let held = s.held(side);
            let mut sources = held & !(1 << d.sea);
            if side.is_crown() {
                sources |= 1 << d.nova_scotia;
            }
            for a in bits(sources) {
                let x = s.area(a);
                if x.cubes() == 0 {
                    continue;
                }
                let r = reach_in(d, held, side.is_crown(), a);
                if r & !(1 << d.sea) != 0 || (r >> d.sea & 1 == 1 && x.war > 0) {
                    out.push(Action::From(a));
                }
            }
            true
        }
        (Some(f), None) => {
            let r = if o >> f & 1 == 1 {
                relief(d, s, side, f)
            } else if o != 0 {
                // Making room: this area's War goes to the Sea Box.
                1 << d.sea
            } else {
                reach(d, s, side, f)
            };
            for b in bits(r) {
                if b != d.sea || s.area(f).war > 0 {
                    out.push(Action::To(b));
                }
            }
            out.push(Action::Cancel);
            false
        }
        (Some(f), Some(t)) => {
            let x = s.area(f);
            // While putting limits right: no more than the excess, no more than the room.
            let cap = if o >> f & 1 == 1 {
                excess(d, s, side, f).min(room(d, s, t))
            } else if o != 0 {
                // Making room: no more War than the excess waiting for it.
                stuck_excess(d, s, side, f)
            } else {
                u8::MAX
            };
            if t != d.sea {
                for n in 1..=x.food.min(cap) {
                    out.push(Action::Food(n));
                }
            }
            for n in 1..=x.war.min(cap) {
                out.push(Action::War(n));
            }
            out.push(Action::Cancel);
            false
        }
    }
}

/// Applies a supply-move decision (already checked legal); returns the new pick.
pub fn apply_move(s: &mut State, side: SideId, pick: Pick, a: Action, ev: &mut Vec<Event>) -> Pick {
    match a {
        Action::From(f) => Pick {
            from: Some(f),
            to: None,
        },
        Action::To(t) => Pick {
            from: pick.from,
            to: Some(t),
        },
        Action::Food(n) | Action::War(n) => {
            if let (Some(f), Some(t)) = (pick.from, pick.to) {
                let food = matches!(a, Action::Food(_));
                if food {
                    s.area_mut(f).food -= n;
                    s.area_mut(t).food += n;
                } else {
                    s.area_mut(f).war -= n;
                    s.area_mut(t).war += n;
                }
                let (food, war) = if food { (n, 0) } else { (0, n) };
                ev.push(Event::SuppliesMoved {
                    from: f,
                    to: t,
                    food,
                    war,
                });
            }
            Pick::default()
        }
        Action::Discard(x) => {
            let ar = s.area_mut(x);
            let (food, war) = if ar.war > 0 {
                ar.war -= 1;
                (0, 1)
            } else {
                ar.food -= 1;
                (1, 0)
            };
            let _ = side;
            ev.push(Event::Discarded { area: x, food, war });
            Pick::default()
        }
        _ => Pick::default(),
    }
}

/// Is `a` one of the supply-move decisions?
pub fn is_move(a: Action) -> bool {
    matches!(
        a,
        Action::From(_)
            | Action::To(_)
            | Action::Food(_)
            | Action::War(_)
            | Action::Cancel
            | Action::Discard(_)
    )
}

/// §5.1 with §2.3: every eligible City generates 2 Food then 1 War, up to 8 cubes, the
/// Patriot's Cities first while the stock lasts.
pub fn generate(d: &Data, s: &mut State, ev: &mut Vec<Event>) {
    for side in [SideId::PATRIOT, SideId::CROWN] {
        for a in bits(d.cities & !(1 << d.nova_scotia)) {
            let x = *s.area(a);
            if !x.held_by(side) || x.destroyed {
                continue;
            }
            let lines = d.areas[a as usize].lines & d.points;
            if !bits(lines).any(|p| !s.area(p).enemy_of(side)) {
                continue;
            }
            let (fs, ws) = stock(d, s);
            let room = d.capacity.saturating_sub(x.cubes());
            let food = 2.min(fs).min(room);
            let war = 1.min(ws).min(room - food);
            if food + war > 0 {
                let ar = s.area_mut(a);
                ar.food += food;
                ar.war += war;
                ev.push(Event::Generated { area: a, food, war });
            }
        }
    }
}

/// §5.2: Nova Scotia's output this Campaign Turn, after its capacity and the stock.
pub fn nova_output(d: &Data, s: &State) -> u8 {
    let (fs, ws) = stock(d, s);
    let room = d.capacity.saturating_sub(s.area(d.nova_scotia).cubes());
    s.crown_taken.min(room).min(fs.saturating_add(ws))
}

/// §5.2: the Food counts the Crown may choose for Nova Scotia's `output` cubes.
pub fn nova_choices(d: &Data, s: &State, output: u8, out: &mut Actions) {
    let (fs, ws) = stock(d, s);
    for f in 0..=output {
        if f <= fs && output - f <= ws {
            out.push(Action::Food(f));
        }
    }
}

pub fn apply_nova(d: &Data, s: &mut State, output: u8, food: u8, ev: &mut Vec<Event>) {
    let war = output - food;
    let ar = s.area_mut(d.nova_scotia);
    ar.food += food;
    ar.war += war;
    ev.push(Event::NovaScotia { food, war });
}
