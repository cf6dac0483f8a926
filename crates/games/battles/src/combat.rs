//! §6 Combat: declaring attacks (§6.1), the defender's modifiers (§6.2), resolution with the CF
//! differential limit (§6.3), who wins (§6.4), losses (§6.5), retreats and advances (§6.6).

use crate::action::{Action, CombatReport, Event};
use crate::artillery;
use crate::board::{Board, cf, on_map, side_of};
use crate::data::Scenario;
use crate::leadership;
use crate::map::RIVER;
use crate::sequence::{self, Actions};
use crate::state::{Attackers, Battle, Loc, Phase, State};
use arrayvec::ArrayVec;
use muster_core::hex::Hex;

/// The CF differential limit (§6.3): neither total may exceed the other by more than 10.
pub const DIFFERENTIAL_LIMIT: u8 = 10;

/// Units of the active side that may still attack `target` (adjacent, not yet attacked).
fn eligible_attackers<'a>(
    sc: &'a Scenario,
    s: &'a State,
    target: Hex,
) -> impl Iterator<Item = u8> + 'a {
    on_map(sc, s, s.active.0)
        .filter(move |&(i, h)| !s.units[i as usize].attacked && sc.map.adjacent(h, target))
        .map(|(i, _)| i)
}

/// Enemy units that may be attacked: on the map, not yet attacked this turn, next to a unit
/// that has not attacked (rulings B6: one attack per attacker and per defender each turn).
fn targets<'a>(sc: &'a Scenario, s: &'a State) -> impl Iterator<Item = u8> + 'a {
    on_map(sc, s, s.active.other().0)
        .filter(move |&(i, h)| {
            !s.units[i as usize].defended && eligible_attackers(sc, s, h).next().is_some()
        })
        .map(|(i, _)| i)
}

pub fn any_target(sc: &Scenario, s: &State) -> bool {
    targets(sc, s).next().is_some()
}

fn alive(s: &State, u: u8) -> bool {
    s.units[u as usize].hex().is_some()
}

pub fn legal(sc: &Scenario, s: &State, out: &mut Actions) {
    match &s.phase {
        Phase::Attacks => {
            out.extend(targets(sc, s).map(Action::Attack));
            out.push(Action::EndAttacks);
        }
        Phase::Declare {
            target,
            attackers,
            charge,
        } => {
            let Some(th) = s.units[*target as usize].hex() else {
                return;
            };
            out.extend(
                eligible_attackers(sc, s, th)
                    .filter(|u| !attackers.contains(u))
                    .map(Action::Add),
            );
            if charge.is_none() && leadership::point_available(s) {
                out.extend(attackers.iter().map(|&u| Action::Charge(u)));
            }
            if !attackers.is_empty() {
                out.push(Action::Commit);
            }
        }
        Phase::Losses { battle, .. } => {
            out.extend(
                battle
                    .attackers
                    .iter()
                    .copied()
                    .filter(|&u| alive(s, u))
                    .map(Action::TakeLoss),
            );
        }
        Phase::Advance { battle } => {
            out.extend(
                battle
                    .attackers
                    .iter()
                    .copied()
                    .filter(|&u| {
                        s.units[u as usize]
                            .hex()
                            .is_some_and(|h| sc.map.adjacent(h, battle.hex))
                    })
                    .map(Action::Advance),
            );
            out.push(Action::NoAdvance);
        }
        _ => {}
    }
}

pub fn apply(sc: &Scenario, s: &mut State, a: Action, ev: &mut Vec<Event>) {
    match (s.phase.clone(), a) {
        (Phase::Attacks, Action::Attack(t)) => {
            s.phase = Phase::Declare {
                target: t,
                attackers: Attackers::new(),
                charge: None,
            }
        }
        (Phase::Attacks, Action::EndAttacks) => sequence::end_player_turn(sc, s, ev),
        (
            Phase::Declare {
                target,
                mut attackers,
                charge,
            },
            _,
        ) => match a {
            Action::Add(u) => {
                attackers.push(u);
                s.phase = Phase::Declare {
                    target,
                    attackers,
                    charge,
                };
            }
            Action::Charge(u) => {
                // §9.2: declared with the attack, before any artillery support (§8.1).
                leadership::spend(s);
                ev.push(Event::Charge { unit: u });
                s.phase = Phase::Declare {
                    target,
                    attackers,
                    charge: Some(u),
                };
            }
            Action::Commit => {
                for &u in &attackers {
                    s.units[u as usize].attacked = true;
                }
                s.units[target as usize].defended = true;
                ev.push(Event::Declared {
                    target,
                    attackers: attackers.clone(),
                });
                let battle = Battle {
                    target,
                    hex: s.units[target as usize].hex().unwrap_or_default(),
                    attackers,
                    charge,
                    support: false,
                    attacker_won: false,
                };
                if artillery::can_support(sc, s) {
                    s.phase = Phase::Support { battle };
                } else {
                    resolve(sc, s, battle, ev);
                }
            }
            _ => {}
        },
        (Phase::Support { mut battle }, _) => {
            if a == Action::Support {
                artillery::spend(s);
                battle.support = true;
                ev.push(Event::Support {
                    target: battle.target,
                });
            }
            resolve(sc, s, battle, ev);
        }
        (Phase::Losses { battle, remaining }, Action::TakeLoss(u)) => {
            take_loss(s, u, ev);
            attacker_losses(sc, s, battle, remaining - 1, ev);
        }
        (Phase::Retreat { battle, mut queue }, Action::RetreatTo(h)) => {
            let u = queue.remove(0);
            retreat_unit(sc, s, u, h, ev);
            retreats(sc, s, battle, queue, ev);
        }
        (Phase::Advance { battle }, Action::Advance(u)) => {
            s.units[u as usize].at = Loc::Map(battle.hex);
            ev.push(Event::Advanced {
                unit: u,
                to: battle.hex,
            });
            after_attack(sc, s, ev);
        }
        (Phase::Advance { .. }, Action::NoAdvance) => after_attack(sc, s, ev),
        _ => {}
    }
}

/// The totals of an attack before the dice (§6.1-§6.3).
pub fn totals(sc: &Scenario, s: &State, b: &Battle) -> CombatReport {
    let attack_cf: u8 = b.attackers.iter().map(|&u| cf(sc, s, u)).sum();
    let defense_cf = cf(sc, s, b.target);
    // §6.2: +2 for woods, hills and farms; +2 if any attacker crosses a river (bridged or
    // not: a bridge is a river hexside, rulings B5); +2 for artillery support (§8.1).
    let terrain = sc.map.terrain(b.hex).defends();
    let river = b.attackers.iter().any(|&u| {
        s.units[u as usize]
            .hex()
            .is_some_and(|h| sc.map.between(h, b.hex) & RIVER != 0)
    });
    let charge = b.charge.is_some();
    let mut a = attack_cf + if charge { 2 } else { 0 };
    let mut d = defense_cf + 2 * (terrain as u8 + river as u8 + b.support as u8);
    // §6.3: the gap between the totals is capped at 10 (rulings B4).
    a = a.min(d + DIFFERENTIAL_LIMIT);
    d = d.min(a + DIFFERENTIAL_LIMIT);
    CombatReport {
        target: b.target,
        attackers: b.attackers.clone(),
        attack_cf,
        charge,
        defense_cf,
        terrain,
        river,
        support: b.support,
        attack_total: a,
        defense_total: d,
        attack_roll: 0,
        defense_roll: 0,
        attacker_won: false,
        losses: 0,
    }
}

/// §6.4-§6.5: losses for a winning margin.
pub fn losses_for(margin: u8) -> u8 {
    match margin {
        0..=3 => 0,
        4..=6 => 1,
        _ => 2,
    }
}

/// Rolls the dice and carries out the result.
fn resolve(sc: &Scenario, s: &mut State, mut battle: Battle, ev: &mut Vec<Event>) {
    let mut r = totals(sc, s, &battle);
    r.attack_roll = s.dice.d6();
    r.defense_roll = s.dice.d6();
    let a = r.attack_total + r.attack_roll;
    let d = r.defense_total + r.defense_roll;
    // §6.4: the defender wins ties.
    r.attacker_won = a > d;
    r.losses = losses_for(a.abs_diff(d));
    battle.attacker_won = r.attacker_won;
    let losses = r.losses;
    ev.push(Event::Combat(Box::new(r)));
    if battle.attacker_won {
        for _ in 0..losses {
            if alive(s, battle.target) {
                take_loss(s, battle.target, ev);
            }
        }
        let queue: Attackers = std::iter::once(battle.target)
            .filter(|&u| alive(s, u))
            .collect();
        retreats(sc, s, battle, queue, ev);
    } else {
        attacker_losses(sc, s, battle, losses, ev);
    }
}

/// §6.5: the losing attacker takes `remaining` losses, choosing the unit for each while more
/// than one attacking unit survives; then the survivors retreat.
fn attacker_losses(
    sc: &Scenario,
    s: &mut State,
    battle: Battle,
    mut remaining: u8,
    ev: &mut Vec<Event>,
) {
    loop {
        let survivors: ArrayVec<u8, 6> = battle
            .attackers
            .iter()
            .copied()
            .filter(|&u| alive(s, u))
            .collect();
        if remaining == 0 || survivors.is_empty() {
            break;
        }
        if survivors.len() > 1 {
            s.phase = Phase::Losses { battle, remaining };
            return;
        }
        take_loss(s, survivors[0], ev);
        remaining -= 1;
    }
    let queue: Attackers = battle
        .attackers
        .iter()
        .copied()
        .filter(|&u| alive(s, u))
        .collect();
    retreats(sc, s, battle, queue, ev);
}

/// §6.5: a full-strength unit flips; a reduced one is removed.
pub fn take_loss(s: &mut State, u: u8, ev: &mut Vec<Event>) {
    let unit = &mut s.units[u as usize];
    let eliminated = unit.reduced;
    if eliminated {
        unit.at = Loc::Eliminated;
    } else {
        unit.reduced = true;
    }
    ev.push(Event::Loss {
        unit: u,
        eliminated,
    });
}

/// Retreats the queued units in order; stops where the owner must choose.
fn retreats(
    sc: &Scenario,
    s: &mut State,
    battle: Battle,
    mut queue: Attackers,
    ev: &mut Vec<Event>,
) {
    while let Some(&u) = queue.first() {
        s.phase = Phase::Retreat {
            battle: battle.clone(),
            queue: queue.clone(),
        };
        let options = retreat_hexes(sc, s, u);
        match options.len() {
            0 => {
                // §6.6: no hex to retreat to costs one more loss.
                ev.push(Event::CannotRetreat { unit: u });
                take_loss(s, u, ev);
            }
            1 => retreat_unit(sc, s, u, options[0], ev),
            _ => return,
        }
        queue.remove(0);
    }
    // §6.6: the winning attacker may move into the hex the defender left.
    let board = Board::new(s);
    if battle.attacker_won
        && board.empty(battle.hex)
        && battle.attackers.iter().any(|&u| alive(s, u))
    {
        s.phase = Phase::Advance { battle };
    } else {
        after_attack(sc, s, ev);
    }
}

/// Back to choosing attacks, or on to the end of the turn when none is left.
fn after_attack(sc: &Scenario, s: &mut State, ev: &mut Vec<Event>) {
    if any_target(sc, s) {
        s.phase = Phase::Attacks;
    } else {
        sequence::end_player_turn(sc, s, ev);
    }
}

/// What a retreating unit must move away from (rulings B7).
enum Away {
    /// After combat (§6.6): the hexes of the units it fought, a defender's attackers or an
    /// attacker's defender. The retreat hex must be farther from every one of them.
    Fought(ArrayVec<Hex, { crate::data::MAX_UNITS }>),
    /// After artillery fire (§8.2): the hexes of the firing side's units within 3 hexes.
    Fire(ArrayVec<Hex, { crate::data::MAX_UNITS }>),
}

fn away_from(sc: &Scenario, s: &State, u: u8) -> Away {
    match &s.phase {
        Phase::Retreat { battle, .. } if u == battle.target => Away::Fought(
            battle
                .attackers
                .iter()
                .filter_map(|&a| s.units[a as usize].hex())
                .collect(),
        ),
        Phase::Retreat { battle, .. } => {
            Away::Fought(s.units[battle.target as usize].hex().into_iter().collect())
        }
        _ => {
            let Some(h) = s.units[u as usize].hex() else {
                return Away::Fire(ArrayVec::new());
            };
            Away::Fire(
                on_map(sc, s, 1 - side_of(sc, u))
                    .filter(|&(_, x)| sc.map.distance(h, x) <= artillery::RANGE)
                    .map(|(_, x)| x)
                    .collect(),
            )
        }
    }
}

/// Is a step from `from` to `to` a move away, as B7 reads "away" for each kind of retreat?
fn moves_away(sc: &Scenario, from: Hex, to: Hex, away: &Away) -> bool {
    let d = |a: Hex, x: Hex| sc.map.distance(a, x);
    match away {
        // §6.6: farther from every unit it fought.
        Away::Fought(units) => units.iter().all(|&x| d(to, x) > d(from, x)),
        // §8.2: out of contact with every firing-side unit next to it (the printed example:
        // "away from the defender"), no nearer to any firing-side unit within 3 hexes, and
        // farther from at least one of them. Guns firing from both sides at range therefore
        // leave a step to the side, which is a retreat from one and no nearer the other.
        Away::Fire(units) => {
            units.iter().all(|&x| {
                let (before, after) = (d(from, x), d(to, x));
                after >= before && (before > 1 || after > before)
            }) && (units.is_empty() || units.iter().any(|&x| d(to, x) > d(from, x)))
        }
    }
}

/// §6.6: one hex, into an empty hex, away from what it retreats from (`moves_away`), and
/// toward friendly units: among those hexes, the ones nearest a friendly unit (rulings B7).
pub fn retreat_hexes(sc: &Scenario, s: &State, u: u8) -> ArrayVec<Hex, 6> {
    let mut out = ArrayVec::new();
    let Some(h) = s.units[u as usize].hex() else {
        return out;
    };
    let away = away_from(sc, s, u);
    let board = Board::new(s);
    let side = side_of(sc, u);
    let mut best = u8::MAX;
    for d in 0..6 {
        let Some(n) = sc.map.grid.neighbor(h, d) else {
            continue;
        };
        if !sc.map.passable(n) || !board.empty(n) {
            continue;
        }
        if !moves_away(sc, h, n, &away) {
            continue;
        }
        let near = on_map(sc, s, side)
            .filter(|&(i, _)| i != u)
            .map(|(_, f)| sc.map.distance(n, f))
            .min()
            .unwrap_or(0);
        if near < best {
            best = near;
            out.clear();
        }
        if near == best {
            out.push(n);
        }
    }
    out
}

pub fn legal_retreat(sc: &Scenario, s: &State, u: u8, out: &mut Actions) {
    out.extend(retreat_hexes(sc, s, u).into_iter().map(Action::RetreatTo));
}

pub fn retreat_unit(_sc: &Scenario, s: &mut State, u: u8, to: Hex, ev: &mut Vec<Event>) {
    let unit = &mut s.units[u as usize];
    if let Some(from) = unit.hex() {
        unit.at = Loc::Map(to);
        ev.push(Event::Retreated { unit: u, from, to });
    }
}
