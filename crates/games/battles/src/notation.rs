//! Action notation (stable text for the engine protocol and records), labels for people, and
//! log entries with their rule sections.

use crate::action::{Action, Bombardment, Event};
use crate::board::Board;
use crate::data::{SIDE_NAMES, Scenario};
use crate::movement::{budget, reach};
use crate::state::{EndReason, Phase, State};
use muster_core::game::{Audience, IllegalAction, IllegalKind, LogEntry};
use muster_core::hex::Hex;
use muster_core::words::face;

fn id(s: &State, u: u8) -> &str {
    s.units.get(u as usize).map_or("?", |x| x.id.as_str())
}

/// The notation of an action, e.g. `select morgan`, `move D5`, `attack 9th`, `commit`.
pub fn notation(s: &State, a: Action) -> String {
    match a {
        Action::Place(h) => format!("place {h}"),
        Action::Rally(u) => format!("rally {}", id(s, u)),
        Action::NoRally => "no-rally".into(),
        Action::Select(u) => format!("select {}", id(s, u)),
        Action::ForceMarch => "force-march".into(),
        Action::MoveTo(h) => format!("move {h}"),
        Action::Exit => "exit".into(),
        Action::Hold => "hold".into(),
        Action::EndMovement => "end-movement".into(),
        Action::Fire(u) => format!("fire {}", id(s, u)),
        Action::NoFire => "no-fire".into(),
        Action::Attack(u) => format!("attack {}", id(s, u)),
        Action::Add(u) => format!("add {}", id(s, u)),
        Action::Charge(u) => format!("charge {}", id(s, u)),
        Action::Commit => "commit".into(),
        Action::Support => "support".into(),
        Action::NoSupport => "no-support".into(),
        Action::TakeLoss(u) => format!("loss {}", id(s, u)),
        Action::RetreatTo(h) => format!("retreat {h}"),
        Action::Advance(u) => format!("advance {}", id(s, u)),
        Action::NoAdvance => "no-advance".into(),
        Action::EndAttacks => "end-attacks".into(),
    }
}

/// Reads an action's notation. Unit ids and hex labels are checked here; whether the action
/// is legal now is for `apply` to say.
pub fn parse(s: &State, text: &str) -> Result<Action, IllegalAction> {
    let bad = |m: String| IllegalAction::new(IllegalKind::Unparsable, m);
    let mut words = text.split_whitespace();
    let verb = words.next().ok_or_else(|| bad("empty action".into()))?;
    let arg = words.next();
    if words.next().is_some() {
        return Err(bad(format!("{text:?}: too many words")));
    }
    let unit = || -> Result<u8, IllegalAction> {
        let name =
            arg.ok_or_else(|| bad(format!("{verb} needs a unit id, e.g. \"{verb} morgan\"")))?;
        s.units
            .iter()
            .position(|u| u.id.as_str() == name)
            .map(|i| i as u8)
            .ok_or_else(|| bad(format!("no unit {name:?} in this scenario")))
    };
    let hex = || -> Result<Hex, IllegalAction> {
        let h = arg.ok_or_else(|| bad(format!("{verb} needs a hex, e.g. \"{verb} E2\"")))?;
        h.parse::<Hex>().map_err(bad)
    };
    let bare = |a: Action| -> Result<Action, IllegalAction> {
        match arg {
            None => Ok(a),
            Some(x) => Err(bad(format!("{verb} takes no argument, not {x:?}"))),
        }
    };
    match verb {
        "place" => Ok(Action::Place(hex()?)),
        "rally" => Ok(Action::Rally(unit()?)),
        "no-rally" => bare(Action::NoRally),
        "select" => Ok(Action::Select(unit()?)),
        "force-march" => bare(Action::ForceMarch),
        "move" => Ok(Action::MoveTo(hex()?)),
        "exit" => bare(Action::Exit),
        "hold" => bare(Action::Hold),
        "end-movement" => bare(Action::EndMovement),
        "fire" => Ok(Action::Fire(unit()?)),
        "no-fire" => bare(Action::NoFire),
        "attack" => Ok(Action::Attack(unit()?)),
        "add" => Ok(Action::Add(unit()?)),
        "charge" => Ok(Action::Charge(unit()?)),
        "commit" => bare(Action::Commit),
        "support" => bare(Action::Support),
        "no-support" => bare(Action::NoSupport),
        "loss" => Ok(Action::TakeLoss(unit()?)),
        "retreat" => Ok(Action::RetreatTo(hex()?)),
        "advance" => Ok(Action::Advance(unit()?)),
        "no-advance" => bare(Action::NoAdvance),
        "end-attacks" => bare(Action::EndAttacks),
        _ => Err(bad(format!("unknown action {verb:?}"))),
    }
}

/// A unit for people: "Morgan's Riflemen (4-4)" or "(2-4, reduced)".
pub fn unit_text(sc: &Scenario, s: &State, u: u8) -> String {
    let d = &sc.units[u as usize];
    let unit = &s.units[u as usize];
    let at = unit.hex().map(|h| format!(" at {h}")).unwrap_or_default();
    if unit.reduced {
        format!(
            "{} ({}-{}, reduced){at}",
            d.name, d.reduced_cf, d.reduced_mp
        )
    } else {
        format!("{} ({}-{}){at}", d.name, d.cf, d.mp)
    }
}

fn half_mp(halves: u8) -> String {
    match (halves / 2, halves % 2) {
        (n, 0) => format!("{n} MP"),
        (0, _) => "½ MP".to_string(),
        (n, _) => format!("{n}½ MP"),
    }
}

/// A label for a legal action.
pub fn label(sc: &Scenario, s: &State, a: Action) -> String {
    let u = |x: u8| unit_text(sc, s, x);
    let name = |x: u8| sc.units[x as usize].name.clone();
    match a {
        Action::Place(h) => format!("Place at {h} ({})", sc.map.terrain(h).name()),
        Action::Rally(x) => format!("Rally {} (roll 4-6; spends a Leadership point)", u(x)),
        Action::NoRally => "Do not rally".into(),
        Action::Select(x) => format!("Move {}", u(x)),
        Action::ForceMarch => "Force march: +2 MP (spends a Leadership point)".into(),
        Action::MoveTo(h) => match s.phase {
            Phase::Movement {
                selected: Some(x),
                force_march,
            } => {
                let board = Board::new(s);
                let cost = reach(sc, s, &board, x, budget(sc, s, x, force_march))[h.slot()];
                format!(
                    "{} to {h} ({}, {})",
                    name(x),
                    sc.map.terrain(h).name(),
                    half_mp(cost)
                )
            }
            _ => format!("Move to {h}"),
        },
        Action::Exit => "Leave the map at the exit hex (1 VP)".into(),
        Action::Hold => "Stay in place".into(),
        Action::EndMovement => "End movement".into(),
        Action::Fire(x) => format!("Fire artillery at {}", u(x)),
        Action::NoFire => "Hold artillery fire".into(),
        Action::Attack(x) => format!("Attack {}", u(x)),
        Action::Add(x) => format!("Attack with {}", u(x)),
        Action::Charge(x) => format!("Charge with {}: +2 CF (spends a Leadership point)", name(x)),
        Action::Commit => match &s.phase {
            Phase::Declare {
                target,
                attackers,
                charge,
            } => {
                let b = crate::state::Battle {
                    target: *target,
                    attackers: attackers.clone(),
                    charge: *charge,
                    support: false,
                    hex: s.units[*target as usize].hex().unwrap_or_default(),
                    attacker_won: false,
                };
                let r = crate::combat::totals(sc, s, &b);
                format!(
                    "Resolve: {} CF against {} CF",
                    r.attack_total, r.defense_total
                )
            }
            _ => "Resolve the attack".into(),
        },
        Action::Support => "Artillery support: +2 CF to the defender".into(),
        Action::NoSupport => "No artillery support".into(),
        Action::TakeLoss(x) => format!("{} takes the loss", u(x)),
        Action::RetreatTo(h) => format!("Retreat to {h} ({})", sc.map.terrain(h).name()),
        Action::Advance(x) => format!("Advance {}", u(x)),
        Action::NoAdvance => "Do not advance".into(),
        Action::EndAttacks => "End attacks".into(),
    }
}

/// Whether an event is chance: exactly the events [`describe`] marks so (a rally roll 9.3, an
/// artillery roll 8.2, a combat roll 6.4), named without writing their text.
pub fn is_chance(e: &Event) -> bool {
    matches!(
        e,
        Event::RallyRoll { .. } | Event::ArtilleryFire { .. } | Event::Combat(_)
    )
}

/// The log entry of an event.
pub fn describe(sc: &Scenario, _s: &State, e: &Event) -> LogEntry {
    let name = |x: u8| sc.units[x as usize].name.as_str();
    let entry = |section: &str, text: String, chance: bool| LogEntry {
        section: section.into(),
        text,
        chance,
        audience: Audience::All,
    };
    match e {
        Event::TurnBegins { turn, side } => entry(
            "4",
            format!(
                "Turn {turn}: the {} player is active.",
                SIDE_NAMES[side.0 as usize]
            ),
            false,
        ),
        Event::Placed {
            unit,
            hex,
            entering,
        } => {
            if *entering {
                entry("5.3", format!("{} enters at {hex}.", name(*unit)), false)
            } else {
                entry("12", format!("{} sets up at {hex}.", name(*unit)), false)
            }
        }
        Event::RallyRoll {
            unit,
            roll,
            success,
        } => entry(
            "9.3",
            format!(
                "Rally of {}: rolled {}, {}.",
                name(*unit),
                face(*roll),
                if *success {
                    "back to full strength; it may not move this turn"
                } else {
                    "no effect"
                }
            ),
            true,
        ),
        Event::ForceMarch { unit } => entry(
            "9.1",
            format!("{} force marches (+2 MP).", name(*unit)),
            false,
        ),
        Event::Moved {
            unit,
            from,
            to,
            halves,
        } => entry(
            "5.1",
            format!(
                "{} moves {from} → {to} ({}).",
                name(*unit),
                half_mp(*halves)
            ),
            false,
        ),
        Event::Held { unit } => entry("5", format!("{} stays in place.", name(*unit)), false),
        Event::Exited { unit, from } => entry(
            "12",
            format!("{} leaves the map at {from} (1 VP).", name(*unit)),
            false,
        ),
        Event::MovementEnds { side } => entry(
            "4",
            format!("The {} player ends movement.", SIDE_NAMES[side.0 as usize]),
            false,
        ),
        Event::StormNoAttacks { turn } => {
            entry("12", format!("Storm: no attacks on turn {turn}."), false)
        }
        Event::ArtilleryFire {
            unit,
            roll,
            terrain,
            result,
        } => entry(
            "8.2",
            format!(
                "Artillery fires at {}: rolled {}{} → {}.",
                name(*unit),
                face(*roll),
                if *terrain { " −1 for terrain" } else { "" },
                match result {
                    Bombardment::NoEffect => "no effect",
                    Bombardment::Retreat => "retreat 1 hex",
                    Bombardment::ReduceAndRetreat => "reduce and retreat 1 hex",
                }
            ),
            true,
        ),
        Event::NoArtillery { side } => entry(
            "8",
            format!(
                "The {} player holds artillery fire.",
                SIDE_NAMES[side.0 as usize]
            ),
            false,
        ),
        Event::Declared { target, attackers } => entry(
            "6.1",
            format!(
                "{} attacked by {}.",
                name(*target),
                attackers
                    .iter()
                    .map(|&a| name(a))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            false,
        ),
        Event::Charge { unit } => entry("9.2", format!("{} charges (+2 CF).", name(*unit)), false),
        Event::Support { target } => entry(
            "8.1",
            format!("Artillery supports {} (+2 CF).", name(*target)),
            false,
        ),
        Event::Combat(r) => {
            let mut def = format!("{}", r.defense_cf);
            if r.terrain {
                def.push_str(" +2 terrain");
            }
            if r.river {
                def.push_str(" +2 river");
            }
            if r.support {
                def.push_str(" +2 artillery");
            }
            let att = if r.charge {
                format!("{} +2 charge", r.attack_cf)
            } else {
                format!("{}", r.attack_cf)
            };
            let a = r.attack_total + r.attack_roll;
            let d = r.defense_total + r.defense_roll;
            entry(
                "6.3",
                format!(
                    "Combat against {}: attack {att} = {} (after the 10 CF limit), defence {def} = {}; the attacker rolls {}, the defender {}: {a} against {d}, {} wins{}.",
                    name(r.target),
                    r.attack_total,
                    r.defense_total,
                    face(r.attack_roll),
                    face(r.defense_roll),
                    if r.attacker_won {
                        "the attacker"
                    } else {
                        "the defender"
                    },
                    match r.losses {
                        0 => ", no losses".to_string(),
                        n => format!(", {n} loss{} to the loser", if n > 1 { "es" } else { "" }),
                    }
                ),
                true,
            )
        }
        Event::Loss { unit, eliminated } => entry(
            "6.5",
            if *eliminated {
                format!("{} is eliminated.", name(*unit))
            } else {
                format!("{} is reduced.", name(*unit))
            },
            false,
        ),
        Event::Retreated { unit, from, to } => entry(
            "6.6",
            format!("{} retreats {from} → {to}.", name(*unit)),
            false,
        ),
        Event::CannotRetreat { unit } => entry(
            "6.6",
            format!(
                "{} has no hex to retreat to and takes another loss.",
                name(*unit)
            ),
            false,
        ),
        Event::Advanced { unit, to } => {
            entry("6.6", format!("{} advances into {to}.", name(*unit)), false)
        }
        Event::GameEnds {
            winner,
            reason,
            american,
            british,
        } => entry(
            "10",
            format!(
                "{} victory{} — VP American {american}, British {british}.",
                SIDE_NAMES[winner.0 as usize],
                match reason {
                    EndReason::VpGoal => " by reaching the VP goal",
                    EndReason::LastTurn => " at the end of the last turn",
                }
            ),
            false,
        ),
    }
}
