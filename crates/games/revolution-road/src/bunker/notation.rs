//! Short, stable action notation (read back by `parse`), labels for people, and log entries
//! with their rule sections.

use super::Bunker;
use super::action::{Action, Event};
use super::sequence::{Actions, to_act};
use super::solitaire::{FOCUS_NAMES, OBJECTIVES, TARGET_NAMES, TARGETS};
use super::state::*;
use muster_core::game::{IllegalAction, IllegalKind};
use muster_core::words::{count, face, number};
use muster_core::{Audience, LogEntry};

const BOXES: [&str; 3] = ["mystic", "harbour", "charles"];

pub fn notation(g: &Bunker, s: &State, a: Action) -> String {
    let r = |x: u8| g.region_id(x).to_string();
    let u = |x: u8| {
        if (x as usize) < s.units.len() {
            g.unit_id(s, x)
        } else {
            format!("#{x}")
        }
    };
    match a {
        Action::Place(x) => format!("place {}", r(x)),
        Action::Objective(0) => "objective roll".into(),
        Action::Objective(o) => format!("objective {o}"),
        Action::Target(k) => format!("target {}", TARGETS.get(k as usize).unwrap_or(&"?")),
        Action::Zone(z) => format!("zone {z}"),
        Action::Focus(f) => format!("focus {f}"),
        Action::PanicAt(x) => format!("panic {}", r(x)),
        Action::Yield => "yield".into(),
        Action::Pass => "pass".into(),
        Action::Plan => "plan".into(),
        Action::Reserve => "reserve".into(),
        Action::Volley { from, to } => format!("volley {} {}", r(from), r(to)),
        Action::Assault { from, to } => format!("assault {} {}", r(from), r(to)),
        Action::Cannonade => "cannonade".into(),
        Action::Bombard => "bombard".into(),
        Action::Move(x) => format!("move {}", r(x)),
        Action::Naval(j) => format!("naval {}", BOXES.get(j as usize).unwrap_or(&"?")),
        Action::Rally(x) => format!("rally {}", r(x)),
        Action::Reorg { a, b } => format!("reorg {} {}", r(a), r(b)),
        Action::Snipe(x) => format!("snipe {}", r(x)),
        Action::Land { zone, to } => format!("land {} {}", r(zone), r(to)),
        Action::Upgrade(o) => format!("upgrade {o}"),
        Action::Add(x) => format!("add {}", u(x)),
        Action::Done => "done".into(),
        Action::Boost => "boost".into(),
        Action::Gun { from, to } => format!("gun {} {}", r(from), r(to)),
        Action::Shell(x) => format!("shell {}", r(x)),
        Action::HotShot(x) => format!("hotshot {}", r(x)),
        Action::Hold => "hold".into(),
        Action::Go { unit, to } => format!("go {} {}", u(unit), r(to)),
        Action::Hit(x) => format!("hit {}", u(x)),
        Action::Dest(x) => format!("to {}", r(x)),
        Action::Fire(n) => format!("fire {n}"),
        Action::Spread(x) => format!("spread {}", r(x)),
    }
}

const WORDS: [&str; 36] = [
    "place",
    "objective",
    "target",
    "zone",
    "focus",
    "panic",
    "yield",
    "pass",
    "plan",
    "reserve",
    "volley",
    "assault",
    "cannonade",
    "bombard",
    "move",
    "naval",
    "rally",
    "reorg",
    "snipe",
    "land",
    "upgrade",
    "add",
    "done",
    "boost",
    "gun",
    "shell",
    "hotshot",
    "hold",
    "go",
    "hit",
    "to",
    "fire",
    "spread",
    "",
    "",
    "",
];

/// Reads an action: the text must be the notation of one of the legal actions.
pub fn parse(g: &Bunker, s: &State, text: &str) -> Result<Action, IllegalAction> {
    let norm: Vec<&str> = text.split_whitespace().collect();
    let Some(first) = norm.first() else {
        return Err(IllegalAction::new(IllegalKind::Unparsable, "empty action"));
    };
    let first = first.to_ascii_lowercase();
    if !WORDS.iter().any(|w| !w.is_empty() && *w == first) {
        return Err(IllegalAction::new(
            IllegalKind::Unparsable,
            format!(
                "{text:?} is not a Bunker Hill action (it starts with one of: volley, assault, move, done, ...)"
            ),
        ));
    }
    let want = norm.join(" ").to_ascii_lowercase();
    let mut legal = Actions::new();
    g.legal(s, &mut legal);
    legal
        .iter()
        .copied()
        .find(|a| notation(g, s, *a) == want)
        .ok_or_else(|| IllegalAction::not_legal(format!("{text:?} is not a legal action now")))
}

/// The verb for a counter whose name is a plural noun ("British Regulars arrive", "Patriot
/// militia arrives").
fn verb(s: &State, u: u8, one: &'static str, many: &'static str) -> &'static str {
    match s.units.get(u as usize).map(|x| x.kind) {
        Some(Kind::Regular | Kind::Marine | Kind::Minuteman) => many,
        _ => one,
    }
}

/// A counter for people, by what is printed on it ("British Regulars", "Patriot militia
/// (strength 2)", "British leader Howe"), never by its id: counters of one kind are alike.
pub fn unit_name(_g: &Bunker, s: &State, u: u8) -> String {
    let Some(x) = s.units.get(u as usize) else {
        return "?".into();
    };
    let side = SIDE_NAMES[x.side as usize & 1];
    match x.kind {
        Kind::Leader => format!(
            "{side} leader {}",
            LEADERS.get(x.value as usize).map_or("?", |l| l.1)
        ),
        Kind::Battery => "the Copp's Hill Battery".into(),
        Kind::Militia if !x.has(HIDDEN) => format!("{side} militia (strength {})", x.value),
        Kind::Militia => format!("{side} militia (strength unknown)"),
        k => format!(
            "{side} {}",
            match k {
                Kind::Regular => "Regulars",
                Kind::Marine => "Marines",
                Kind::Cannon => "field cannon",
                _ => "Minutemen",
            }
        ),
    }
}

/// A region (or the Muster Box) for people.
pub fn rname(g: &Bunker, r: u8) -> String {
    match r {
        MUSTER => "the Muster Box".into(),
        _ => g
            .data
            .map
            .regions
            .get(r as usize)
            .map_or("?".into(), |x| x.name.clone()),
    }
}

pub fn label(g: &Bunker, s: &State, a: Action) -> String {
    let r = |x: u8| rname(g, x);
    let u = |x: u8| unit_name(g, s, x);
    match a {
        Action::Place(x) => {
            let next = s
                .units
                .iter()
                .position(|y| y.at == SETUP && Some(y.side) == to_act(s))
                .map_or("counter".into(), |i| u(i as u8));
            format!("Place {next} in {} (12.1)", r(x))
        }
        Action::Objective(0) => "Roll for the British objective (12.3)".into(),
        Action::Objective(o) => format!("Objective: {} (12.3)", OBJECTIVES[o as usize % 9]),
        Action::Target(k) => format!("Objective target: {} (12.3)", TARGET_NAMES[k as usize % 5]),
        Action::Zone(z) => format!("Landing Zone {z}"),
        Action::Focus(f) => format!(
            "Defence focus: {} (12.4)",
            FOCUS_NAMES.get(f as usize).copied().unwrap_or("?")
        ),
        Action::PanicAt(x) => format!("Militia in {} check for panic (9.1)", r(x)),
        Action::Yield => "Pass: the opponent must take the next action (5.2)".into(),
        Action::Pass => "Spend an action doing nothing (6.12)".into(),
        Action::Plan => "Plan: gain a Reserve Action and end your actions (6.11)".into(),
        Action::Reserve => "Use a Reserve Action (5.2)".into(),
        Action::Volley { from, to } => format!("Volley Fire from {} at {} (6.1)", r(from), r(to)),
        Action::Assault { from, to } => format!("Assault {} from {} (6.2)", r(to), r(from)),
        Action::Cannonade => "Cannonade (6.3)".into(),
        Action::Bombard => "Bombard with the fleet and Copp's Hill (6.4)".into(),
        Action::Move(x) => format!("Land Move from {} (6.5)", r(x)),
        Action::Naval(j) => format!(
            "Move the fleet to {} (6.6)",
            g.data
                .map
                .fleet
                .get(j as usize)
                .map_or("?", |f| f.name.as_str())
        ),
        Action::Rally(x) => format!("Rally in {} (6.7)", r(x)),
        Action::Reorg { a, b } => {
            format!("Reorganize the Line between {} and {} (6.8)", r(a), r(b))
        }
        Action::Snipe(x) => format!("Snipe at {} (6.9)", r(x)),
        Action::Land { zone, to } => format!("Land Troops from {} to {} (6.10)", r(zone), r(to)),
        Action::Upgrade(o) => format!(
            "Upgrade the objective to: {} (12.3)",
            OBJECTIVES[o as usize % 9]
        ),
        Action::Add(x) => format!("Pick {}", u(x)),
        Action::Done => "Done".into(),
        Action::Boost => "Spend one more ammunition for one more die (11.2)".into(),
        Action::Gun { from, to } => format!("Cannons in {} fire at {} (6.3)", r(from), r(to)),
        Action::Shell(x) => format!("Bombard the counters in {} (6.4)", r(x)),
        Action::HotShot(x) => format!("Hot Shot at {} (6.4)", r(x)),
        Action::Hold => "Hold fire".into(),
        Action::Go { unit, to } => format!("Move {} to {} (6.5)", u(unit), r(to)),
        Action::Hit(x) => format!("{} takes the hit (7.0)", u(x)),
        Action::Dest(x) => format!("To {}", r(x)),
        Action::Fire(0) => "Hold the free defensive fire (8.0)".into(),
        Action::Fire(n) => format!("Free defensive fire, hitting on {n}-6 (6.2)"),
        Action::Spread(x) => format!("The fire spreads to {} (5.3)", r(x)),
    }
}

pub fn describe(g: &Bunker, s: &State, e: &Event) -> LogEntry {
    let u = |x: u8| unit_name(g, s, x);
    let r = |x: u8| rname(g, x);
    let side = |x: u8| SIDE_NAMES[x as usize & 1];
    let (section, text, chance) = match *e {
        Event::Placed { unit, region } => (
            "12.1",
            format!("{} set up in {}", u(unit), r(region)),
            false,
        ),
        Event::Took {
            side: sd,
            action,
            reserve,
        } => {
            // The line goes under the section of the action taken (its label's), else 5.2.
            let l = label(g, s, action);
            let (text, section) = match l.rfind(" (") {
                Some(i)
                    if l.ends_with(')')
                        && l[i + 2..l.len() - 1]
                            .chars()
                            .all(|c| c.is_ascii_digit() || c == '.') =>
                {
                    (l[..i].to_string(), l[i + 2..l.len() - 1].to_string())
                }
                _ => (l.clone(), "5.2".to_string()),
            };
            return LogEntry {
                section,
                text: format!(
                    "{}{}: {text}",
                    side(sd),
                    if reserve { " (Reserve Action)" } else { "" },
                ),
                chance: false,
                audience: Audience::All,
            };
        }
        Event::Card {
            card,
            patriot,
            british,
        } => (
            "5.1",
            format!(
                "Card {card}: Patriot {}, British {}",
                number(patriot as usize, "action", "actions"),
                number(british as usize, "action", "actions")
            ),
            true,
        ),
        Event::First { side: sd, die } => (
            "5.2",
            if die == 0 {
                format!("{} acts first (more actions)", side(sd))
            } else {
                format!("Die {}: {} acts first", face(die), side(sd))
            },
            die > 0,
        ),
        Event::AmmoRoll { die, arrived } => (
            "4.3",
            format!(
                "Ammunition roll {} plus the turn: {}",
                face(die),
                if arrived {
                    "the right ammunition arrives"
                } else {
                    "still the wrong ammunition"
                }
            ),
            true,
        ),
        Event::Arrived { unit } => (
            "12.1",
            format!("{} {}", u(unit), verb(s, unit, "arrives", "arrive")),
            false,
        ),
        Event::Revealed { unit, value } => (
            "4.1",
            format!("{} is revealed: strength {value}", u(unit)),
            true,
        ),
        Event::Roll {
            side: sd, dice: 0, ..
        } => (
            "7.0",
            format!("{} has no dice to roll: no hits", side(sd)),
            true,
        ),
        Event::Roll {
            side: sd,
            dice,
            hits,
            need,
            faces,
            sixes,
        } => (
            "7.0",
            format!(
                "{} rolls {} (hits on {}): {}{} → {}",
                side(sd),
                number(dice as usize, "die", "dice"),
                if need >= 6 {
                    "6".to_string()
                } else {
                    format!("{need}-6")
                },
                faces,
                if sixes.is_empty() {
                    String::new()
                } else {
                    format!(" and, hitting on 6 only, {sixes}")
                },
                count(hits as usize, "hit", "hits")
            ),
            true,
        ),
        Event::Flipped { unit } => (
            "7.0",
            format!("{} {} flipped", u(unit), verb(s, unit, "is", "are")),
            false,
        ),
        Event::Removed { unit } => (
            "7.0",
            format!("{} {} eliminated", u(unit), verb(s, unit, "is", "are")),
            false,
        ),
        Event::SetUp { side: sd, units } => (
            "12.1",
            format!("{} set up: {}", side(sd), by_region(g, s, sd, units)),
            false,
        ),
        Event::Together { side: sd, units } => (
            "12.1",
            format!(
                "{} reinforcements arrive: {}",
                side(sd),
                by_region(g, s, sd, units)
            ),
            false,
        ),
        Event::Went {
            side: sd,
            units,
            to,
        } => (
            "6.5",
            format!(
                "{}: {} move to {}",
                side(sd),
                group_text(g, s, sd, units),
                r(to)
            ),
            false,
        ),
        Event::Moved { unit, to } => (
            "6.5",
            format!(
                "{} {} to {}",
                u(unit),
                verb(s, unit, "moves", "move"),
                r(to)
            ),
            false,
        ),
        Event::Courage {
            unit,
            die,
            total,
            passed,
        } => (
            "3.4",
            format!(
                "{} courage check: die {}, total {total}: {}",
                u(unit),
                face(die),
                if passed { "holds" } else { "fails" }
            ),
            true,
        ),
        Event::Morale { side: sd, value } => ("9.0", format!("{} morale {value}", side(sd)), false),
        Event::Ammo { value } => ("8.0", format!("Patriot ammunition {value}"), false),
        Event::Demoralized { side: sd } => (
            "9.2",
            format!("The {} are demoralized", SIDE_PEOPLE[sd as usize & 1]),
            false,
        ),
        Event::Ablaze { region, die } => (
            "4.6",
            if die > 0 {
                format!("{} is ablaze (die {})", r(region), face(die))
            } else {
                format!("The fire spreads to {}", r(region))
            },
            die > 0,
        ),
        Event::NoFire { region, die } => (
            "5.3",
            format!("{} does not catch fire (die {})", r(region), face(die)),
            true,
        ),
        Event::SpreadRoll { from, die, spreads } => (
            "5.3",
            if spreads {
                format!(
                    "The fire in {} spreads (die {}): the British choose where",
                    r(from),
                    face(die)
                )
            } else {
                format!(
                    "The fire in {} does not spread (die {})",
                    r(from),
                    face(die)
                )
            },
            true,
        ),
        Event::Rallied { unit, die } => (
            "6.7",
            if unit == 255 {
                format!("A rally attempt fails (die {})", face(die))
            } else {
                format!("{} rallies", u(unit))
            },
            die > 0,
        ),
        Event::PanicRemoved { unit } => ("9.1", format!("A leader calms {}", u(unit)), false),
        Event::Ignored { region } => (
            "11.1",
            format!("The works in {} absorb the first hit", r(region)),
            false,
        ),
        Event::AssaultEnds { attacker_won } => (
            "6.2",
            if attacker_won {
                "The assault takes the region".into()
            } else {
                "The assault is thrown back".into()
            },
            false,
        ),
        // The British player's objective (12.3), or the one rolled for the British bot (12.4).
        Event::Objective { objective, die } => (
            if s.mode == Mode::SolitairePatriot {
                "12.4"
            } else {
                "12.3"
            },
            format!(
                "British objective: {}{}",
                OBJECTIVES[objective as usize % 9],
                if die > 0 {
                    format!(" (die {})", face(die))
                } else {
                    String::new()
                }
            ),
            die > 0,
        ),
        Event::TurnEnds { turn } => ("5.3", format!("End of turn {turn}"), false),
        Event::GameEnds { winner, why } => (
            "10.0",
            format!(
                "The game ends ({}): the {} win",
                match why {
                    1 => "mutual demoralization, 9.4",
                    2 => "the British objective is met, 12.4",
                    _ => "last turn",
                },
                SIDE_PEOPLE[winner as usize & 1]
            ),
            false,
        ),
    };
    LogEntry {
        section: section.into(),
        text,
        chance,
        audience: Audience::All,
    }
}

/// One side's counters region by region, in the order of the regions' first counters:
/// "3 Regulars in Moulton's Point beach; 2 Regulars in Moulton's Point north".
fn by_region(g: &Bunker, s: &State, side: u8, units: super::state::Units) -> String {
    let mut by: Vec<(u8, super::state::Units)> = Vec::new();
    for x in (0..128u8).filter(|x| units >> x & 1 == 1) {
        let at = s.units.get(x as usize).map_or(0, |y| y.at);
        match by.iter_mut().find(|(r, _)| *r == at) {
            Some((_, m)) => *m |= 1 << x,
            None => by.push((at, 1 << x)),
        }
    }
    let parts: Vec<String> = by
        .iter()
        .map(|&(at, m)| format!("{} in {}", group_text(g, s, side, m), rname(g, at)))
        .collect();
    parts.join("; ")
}

/// A group of one side's counters for people, like ones counted: "3 Regulars and leader Pigot".
fn group_text(g: &Bunker, s: &State, side: u8, units: super::state::Units) -> String {
    let prefix = format!("{} ", SIDE_NAMES[side as usize & 1]);
    let mut names: Vec<(String, usize)> = Vec::new();
    for u in (0..128u8).filter(|u| units >> u & 1 == 1) {
        let name = unit_name(g, s, u);
        let name = name.strip_prefix(&prefix).unwrap_or(&name).to_string();
        match names.iter_mut().find(|(n, _)| *n == name) {
            Some((_, k)) => *k += 1,
            None => names.push((name, 1)),
        }
    }
    let parts: Vec<String> = names
        .into_iter()
        .map(|(n, k)| if k == 1 { n } else { format!("{k} {n}") })
        .collect();
    match parts.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}
