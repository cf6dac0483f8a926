//! Action notation (stable text for the engine protocol and records), labels for people, and
//! log entries with their rule sections.

use crate::action::{Action, Event};
use crate::data::{Data, SIDE_NAMES};
use crate::state::{EndReason, Order, Phase, State};
use muster_core::game::{Audience, IllegalAction, IllegalKind, LogEntry};
use muster_core::words::{count, faces, number};

fn id(s: &State, a: u8) -> &str {
    s.areas.get(a as usize).map_or("?", |x| x.id.as_str())
}

/// The notation of an action, e.g. `from boston`, `to cambridge`, `food 3`, `march albany`.
pub fn notation(s: &State, a: Action) -> String {
    match a {
        Action::From(x) => format!("from {}", id(s, x)),
        Action::To(x) => format!("to {}", id(s, x)),
        Action::Food(n) => format!("food {n}"),
        Action::War(n) => format!("war {n}"),
        Action::Cancel => "cancel".into(),
        Action::Discard(x) => format!("discard {}", id(s, x)),
        Action::Done => "done".into(),
        Action::Activate(x, o) => format!("{} {}", o.word(), id(s, x)),
        Action::Units(n) => format!("units {n}"),
        Action::Leaders(n) => format!("leaders {n}"),
        Action::EndMarch => "end-march".into(),
        Action::Pass => "pass".into(),
        Action::Accept => "accept".into(),
        Action::Request => "request".into(),
        Action::Triumvirate => "triumvirate".into(),
        Action::NoRequest => "no-request".into(),
        Action::Concede => "concede".into(),
    }
}

/// Reads an action's notation. Area ids and numbers are checked here; whether the action is
/// legal now is for `apply` to say.
pub fn parse(s: &State, text: &str) -> Result<Action, IllegalAction> {
    let bad = |m: String| IllegalAction::new(IllegalKind::Unparsable, m);
    let mut words = text.split_whitespace();
    let verb = words.next().ok_or_else(|| bad("empty action".into()))?;
    let arg = words.next();
    if words.next().is_some() {
        return Err(bad(format!("{text:?}: too many words")));
    }
    let area = || -> Result<u8, IllegalAction> {
        let name =
            arg.ok_or_else(|| bad(format!("{verb} needs an area, e.g. \"{verb} boston\"")))?;
        s.areas
            .iter()
            .position(|x| x.id.as_str() == name)
            .map(|i| i as u8)
            .ok_or_else(|| bad(format!("no area {name:?} on this map")))
    };
    let num = || -> Result<u8, IllegalAction> {
        let n = arg.ok_or_else(|| bad(format!("{verb} needs a number, e.g. \"{verb} 2\"")))?;
        n.parse::<u8>()
            .map_err(|_| bad(format!("{verb}: {n:?} is not a number from 0 to 255")))
    };
    let bare = |a: Action| -> Result<Action, IllegalAction> {
        match arg {
            None => Ok(a),
            Some(x) => Err(bad(format!("{verb} takes no argument, not {x:?}"))),
        }
    };
    if let Some(o) = Order::ALL.iter().find(|o| o.word() == verb) {
        return Ok(Action::Activate(area()?, *o));
    }
    match verb {
        "from" => Ok(Action::From(area()?)),
        "to" => Ok(Action::To(area()?)),
        "food" => Ok(Action::Food(num()?)),
        "war" => Ok(Action::War(num()?)),
        "cancel" => bare(Action::Cancel),
        "discard" => Ok(Action::Discard(area()?)),
        "done" => bare(Action::Done),
        "units" => Ok(Action::Units(num()?)),
        "leaders" => Ok(Action::Leaders(num()?)),
        "end-march" => bare(Action::EndMarch),
        "pass" => bare(Action::Pass),
        "accept" => bare(Action::Accept),
        "request" => bare(Action::Request),
        "triumvirate" => bare(Action::Triumvirate),
        "no-request" => bare(Action::NoRequest),
        "concede" => bare(Action::Concede),
        _ => Err(bad(format!(
            "unknown action {verb:?}; actions are from, to, food, war, cancel, discard, done, \
             march, transport, attack, skirmish, dig-in, bombard, destroy, units, leaders, \
             end-march, pass, accept, request, triumvirate, no-request, concede"
        ))),
    }
}

fn name(d: &Data, a: u8) -> &str {
    d.areas.get(a as usize).map_or("?", |x| x.name.as_str())
}

/// A label for people.
pub fn label(d: &Data, s: &State, a: Action) -> String {
    let supply_pick = match s.phase {
        Phase::Supply { .. } | Phase::Impulse { .. } | Phase::After { .. } => true,
        Phase::Activate { act, .. } => act.pick.from.is_some(),
        _ => false,
    };
    match a {
        Action::From(x) => format!(
            "Move supplies from {} ({} Food, {} War)",
            name(d, x),
            s.area(x).food,
            s.area(x).war
        ),
        Action::To(x) => match s.phase {
            Phase::Refuse { .. } => format!("Refuse battle: fall back to {}", name(d, x)),
            Phase::Retreat { .. } => format!("Retreat to {}", name(d, x)),
            Phase::PlaceLeader => format!("Place the third Leader in {}", name(d, x)),
            _ if supply_pick => format!("… to {}", name(d, x)),
            _ => format!("Go to {}", name(d, x)),
        },
        Action::Food(n) => match s.phase {
            Phase::NovaScotia { output } => format!("{n} Food and {} War", output - n),
            _ if supply_pick => format!("Move {n} Food"),
            _ => format!("Carry {n} Food"),
        },
        Action::War(n) => match s.phase {
            Phase::AttackerCommit { .. } | Phase::DefenderCommit { .. } => {
                format!("Expend {n} War")
            }
            Phase::Activate { act, .. } if act.order == Order::Skirmish => {
                format!("Expend {n} War ({n} dice)")
            }
            _ if supply_pick => format!("Move {n} War"),
            _ => format!("Carry {n} War"),
        },
        Action::Cancel => "Cancel this supply move".into(),
        Action::Discard(x) => format!("Discard a cube in {} (War first)", name(d, x)),
        Action::Done => "Done moving supplies".into(),
        Action::Activate(x, o) => format!(
            "Activate {} ({}, {}): {}",
            name(d, x),
            number(s.area(x).units as usize, "Unit", "Units"),
            number(s.area(x).leaders as usize, "Leader", "Leaders"),
            o.word()
        ),
        Action::Units(n) => number(n as usize, "Unit", "Units"),
        Action::Leaders(n) => number(n as usize, "Leader", "Leaders"),
        Action::EndMarch => "End the march".into(),
        Action::Pass => "Pass".into(),
        Action::Accept => "Accept battle".into(),
        Action::Request => format!(
            "Request reinforcement marker {}",
            d.crown_markers
                .get(s.crown_taken as usize)
                .map_or("?", |m| m.id.as_str())
        ),
        Action::Triumvirate => "Take the Triumvirate of Reputation marker".into(),
        Action::NoRequest => "No reinforcements this turn".into(),
        Action::Concede => "Concede the game (13.4)".into(),
    }
}

/// "1 Unit and 2 Leaders", leaving out what is none ("2 Units"), or "no Units".
fn force(units: u8, leaders: u8) -> String {
    match (units, leaders) {
        (u, 0) => count(u as usize, "Unit", "Units"),
        (0, l) => count(l as usize, "Leader", "Leaders"),
        (u, l) => format!(
            "{} and {}",
            number(u as usize, "Unit", "Units"),
            number(l as usize, "Leader", "Leaders")
        ),
    }
}

/// " carrying 2 Food and 1 War", or nothing when nothing is carried.
fn carrying(food: u8, war: u8) -> String {
    match (food, war) {
        (0, 0) => String::new(),
        (f, 0) => format!(" carrying {f} Food"),
        (0, w) => format!(" carrying {w} War"),
        (f, w) => format!(" carrying {f} Food and {w} War"),
    }
}

/// A log entry for an event.
pub fn describe(d: &Data, _s: &State, e: &Event) -> LogEntry {
    let entry = |section: &str, text: String, chance: bool| LogEntry {
        section: section.into(),
        text,
        chance,
        audience: Audience::All,
    };
    let side = |x: crate::state::SideId| SIDE_NAMES[x.0 as usize & 1];
    match e {
        Event::TurnBegins { turn, winter } => entry(
            "4.0",
            format!(
                "Turn {turn} ({}){} begins.",
                d.years.get(*turn as usize - 1).copied().unwrap_or(0),
                if *winter { ", a Winter Turn," } else { "" }
            ),
            false,
        ),
        Event::Arrived {
            marker,
            units,
            leaders,
        } => entry(
            "5.7",
            format!(
                "Crown reinforcements (marker {}) arrive in Nova Scotia: {}.",
                d.crown_markers
                    .get(*marker as usize)
                    .map_or("?", |m| m.id.as_str()),
                force(*units, *leaders)
            ),
            false,
        ),
        Event::TriumvirsArrive { removed, placed } => entry(
            "12.1",
            format!(
                "The Triumvirate: {} leave; {placed} arrive in Nova Scotia.",
                number(*removed as usize, "Crown Leader", "Crown Leaders"),
            ),
            false,
        ),
        Event::Generated { area, food, war } => entry(
            "5.1",
            format!("{} generates {food} Food and {war} War.", name(d, *area)),
            false,
        ),
        Event::NovaScotia { food, war } => entry(
            "5.2",
            format!("Nova Scotia produces {food} Food and {war} War."),
            false,
        ),
        Event::SuppliesMoved {
            from,
            to,
            food,
            war,
        } => entry(
            "5.3",
            format!(
                "{} {} moved from {} to {}.",
                if *food > 0 { *food } else { *war },
                if *food > 0 { "Food" } else { "War" },
                name(d, *from),
                name(d, *to)
            ),
            false,
        ),
        Event::Discarded { area, food, war } => entry(
            "5.5",
            format!("{food} Food and {war} War lost in {}.", name(d, *area)),
            false,
        ),
        Event::Requested { marker } => entry(
            "5.7",
            format!(
                "The Crown requests reinforcements: marker {} goes to Nova Scotia.",
                d.crown_markers
                    .get(*marker as usize)
                    .map_or("?", |m| m.id.as_str())
            ),
            false,
        ),
        Event::RequestedTriumvirate => entry(
            "12.1",
            "The Crown takes the Triumvirate of Reputation marker.".into(),
            false,
        ),
        Event::Initiative {
            patriot,
            crown,
            winner,
            pass,
        } => entry(
            "6.0",
            format!(
                "Initiative: Patriot {patriot}, Crown {crown}; {} goes first; Pass Marker on {}.",
                side(*winner),
                d.pass_labels
                    .get(*pass as usize)
                    .map_or("?", |x| x.as_str())
            ),
            true,
        ),
        Event::Passed { side: x, pass } => entry(
            "7.0",
            format!(
                "{} passes; Pass Marker on {}.",
                side(*x),
                d.pass_labels
                    .get(*pass as usize)
                    .map_or("?", |x| x.as_str())
            ),
            false,
        ),
        Event::ImpulsesEnd => entry("7.0", "The Impulse Phase ends.".into(), false),
        Event::Activated {
            side: x,
            area,
            order,
            food,
            war,
        } => entry(
            order.section(),
            format!(
                "{} activates the army in {} to {}{}.",
                side(*x),
                name(d, *area),
                order.word(),
                match (*food, *war) {
                    (0, 0) => String::new(),
                    (f, 0) => format!(", paying {f} Food"),
                    (0, w) => format!(", paying {w} War"),
                    (f, w) => format!(", paying {f} Food and {w} War"),
                }
            ),
            false,
        ),
        Event::Moved {
            side: x,
            from,
            to,
            units,
            leaders,
            food,
            war,
        } => entry(
            // Only a Transport enters or leaves the Sea Box.
            if d.sea == *from || d.sea == *to {
                "7.2"
            } else {
                "7.1"
            },
            format!(
                "{} moves {} from {} to {}{}.",
                side(*x),
                force(*units, *leaders),
                name(d, *from),
                name(d, *to),
                carrying(*food, *war)
            ),
            false,
        ),
        Event::DugIn { area } => entry(
            "7.5",
            format!("The army in {} digs in.", name(d, *area)),
            false,
        ),
        Event::Destroyed { area } => {
            entry("7.7", format!("{} is destroyed.", name(d, *area)), false)
        }
        Event::Bombarded {
            target,
            rolls: r,
            eliminated,
        } => entry(
            "7.6",
            if r.is_empty() {
                format!(
                    "Bombardment of {}: no dice to roll, no Units eliminated.",
                    name(d, *target)
                )
            } else {
                format!(
                    "Bombardment of {}: the Crown rolls {}: {} → {} eliminated.",
                    name(d, *target),
                    number(r.len(), "die", "dice"),
                    faces(r),
                    count(*eliminated as usize, "Unit", "Units")
                )
            },
            !r.is_empty(),
        ),
        Event::Refused {
            from,
            to,
            food,
            war,
        } => entry(
            "8.1",
            format!(
                "The defender refuses battle, falling back from {} to {} with {food} Food and {war} War.",
                name(d, *from),
                name(d, *to)
            ),
            false,
        ),
        Event::Committed { side: x, war, dice } => entry(
            "8.2",
            match (*war, *dice) {
                (0, _) => format!("{} expends no War and has no Battle Dice.", side(*x)),
                (w, 0) => format!("{} expends {w} War, which earns no Battle Die.", side(*x)),
                (w, 1) => format!("{} expends {w} War for 1 Battle Die.", side(*x)),
                (w, n) => format!("{} expends {w} War for {n} Battle Dice.", side(*x)),
            },
            false,
        ),
        Event::Rolled {
            side: x,
            rolls: r,
            hits,
            ignored,
        } => entry(
            "8.4",
            if r.is_empty() {
                format!(
                    "{} has no Battle Dice to roll: no Units eliminated.",
                    side(*x)
                )
            } else {
                format!(
                    "{} rolls {}: {} → {} eliminated{}.",
                    side(*x),
                    number(r.len(), "Battle Die", "Battle Dice"),
                    faces(r),
                    count(*hits as usize, "Unit", "Units"),
                    if *ignored {
                        " (the first hit ignored: Dug-In)"
                    } else {
                        ""
                    }
                )
            },
            !r.is_empty(),
        ),
        Event::BattleResult {
            attacker_won,
            attacker,
            defender,
        } => entry(
            "8.6",
            format!(
                "Attacker {attacker} against defender {defender}: the {} wins.",
                if *attacker_won {
                    "attacker"
                } else {
                    "defender"
                }
            ),
            false,
        ),
        Event::Morale {
            rolls: r,
            passed,
            automatic,
        } => entry(
            "8.7",
            if *automatic {
                "Morale fails automatically at a Point.".into()
            } else {
                format!(
                    "Morale: the defender rolls {}: {} → {}.",
                    number(r.len(), "die", "dice"),
                    faces(r),
                    if *passed { "passed" } else { "failed" }
                )
            },
            !*automatic,
        ),
        Event::Stood { area } => entry(
            "8.7",
            format!("The defender stands in {}.", name(d, *area)),
            false,
        ),
        Event::Retreated { from, to } => entry(
            "8.7",
            format!(
                "The defender retreats from {} to {}.",
                name(d, *from),
                name(d, *to)
            ),
            false,
        ),
        Event::Surrendered {
            side: x,
            area,
            units,
            leaders,
        } => entry(
            "8.7",
            format!(
                "The {} army at {} surrenders ({} more eliminated).",
                side(*x),
                name(d, *area),
                force(*units, *leaders)
            ),
            false,
        ),
        Event::AttackerReturns {
            to,
            food,
            war,
            kept,
        } => entry(
            "8.7",
            format!(
                "The attacker returns to {}{}.",
                name(d, *to),
                if *kept {
                    format!(" with {food} Food and {war} War")
                } else {
                    ", leaving its supplies".into()
                }
            ),
            false,
        ),
        Event::SkirmishReturns { to } => entry(
            "8.8",
            format!("The skirmishers return to {}.", name(d, *to)),
            false,
        ),
        Event::Support {
            from,
            to,
            why,
            section,
        } => entry(
            section,
            format!(
                "Support Marker from space {} to {}: {why}.",
                from + 1,
                to + 1
            ),
            false,
        ),
        Event::Declaration => entry(
            "11.1",
            "The colonies declare their independence.".into(),
            false,
        ),
        Event::DeclarationSupplies { area, war } => entry(
            "11.1",
            format!("{} receives {war} War.", name(d, *area)),
            false,
        ),
        Event::DugInRemoved => entry("9.0", "Dug-In markers are removed.".into(), false),
        Event::Disbanded { area, units, food } => entry(
            "10.1",
            format!(
                "{} {} home from {} ({food} Food lost).",
                number(*units as usize, "Unit", "Units"),
                if *units == 1 { "goes" } else { "go" },
                name(d, *area)
            ),
            false,
        ),
        Event::MarkersReturned { to_cup, to_box } => entry(
            "10.1",
            format!(
                "{} {} to the cup, {to_box} to the box.",
                number(
                    *to_cup as usize,
                    "reinforcement marker",
                    "reinforcement markers"
                ),
                if *to_cup == 1 { "returns" } else { "return" }
            ),
            false,
        ),
        Event::Drew { city, placed, .. } => entry(
            "9.0",
            format!(
                "Reinforcement marker drawn: {}{}.",
                name(d, *city),
                if *placed {
                    ": two Units muster there"
                } else {
                    " (Crown-held: none)"
                }
            ),
            true,
        ),
        Event::CupEmpty => entry("9.0", "The cup is empty.".into(), false),
        Event::LeaderPlaced { area } => entry(
            "10.1",
            format!(
                "The third Patriot Leader joins the army in {}.",
                name(d, *area)
            ),
            false,
        ),
        // Each player reads the concession as their own act or the opponent's; the line for
        // everybody that follows says who wins.
        Event::Conceded { side: sd, reader } => LogEntry {
            section: "13.4".into(),
            text: if sd == reader {
                "You concede the game (§13.4).".into()
            } else {
                format!("The {} player concedes the game (§13.4).", side(*sd))
            },
            chance: false,
            audience: Audience::Side(reader.0),
        },
        Event::GameEnds { winner, reason } => entry(
            reason_section(*reason),
            format!(
                "{} {}",
                match winner {
                    Some(w) => format!("The {} player wins:", side(*w)),
                    None => "Both players lose:".into(),
                },
                reason_text(*reason)
            ),
            false,
        ),
    }
}

pub fn reason_section(r: EndReason) -> &'static str {
    match r {
        EndReason::NoLeaders => "2.2",
        EndReason::Treaty => "11.2",
        EndReason::FourthMarker => "13.1",
        EndReason::Expectations => "12.0",
        EndReason::HudsonLine | EndReason::VictoryCities => "13.2",
        EndReason::Draw => "13.3",
        EndReason::Concession => "13.4",
    }
}

/// Why the game ended, for everybody. A concession is said without naming who conceded
/// (the loser): the same words must read right to the player who conceded, to the other and
/// to spectators; each player's own line in the log says it in their words (§13.4).
pub fn reason_text(r: EndReason) -> String {
    match r {
        EndReason::NoLeaders => "the other side has no Leader left on the map (§2.2).",
        EndReason::Treaty => "the Support Marker reached the Treaty of Alliance (§11.2).",
        EndReason::FourthMarker => {
            "the Crown took its last reinforcement marker and did not win that year (§13.1)."
        }
        EndReason::Expectations => {
            "the Crown missed an asterisk deadline for its Victory Cities (§12.0)."
        }
        EndReason::HudsonLine => "the Crown holds the Hudson line at Turn End (§13.2).",
        EndReason::VictoryCities => "the Crown holds the Victory Cities it must (§13.2).",
        EndReason::Draw => "the last turn ended with no victory (§13.3).",
        EndReason::Concession => "the game was conceded (§13.4).",
    }
    .to_string()
}
