//! Short, stable notation for actions (units by roster id, regions by map id), labels for
//! people, and log lines with their rule sections.

use super::Concord;
use super::action::{Action, Event};
use super::sequence::Actions;
use super::state::*;
use muster_core::game::{Audience, IllegalAction, IllegalKind, LogEntry};
use muster_core::words::{and_list, count, face, number};

const VERBS: [&str; 41] = [
    "reserve",
    "attack",
    "assault",
    "charge",
    "move",
    "move-son",
    "assemble",
    "ambush",
    "snipe",
    "rally",
    "search",
    "escape",
    "hinder",
    "unhinder",
    "call-to-arms",
    "plan",
    "intel",
    "pass",
    "pick",
    "done",
    "to",
    "stop",
    "drop",
    "hit",
    "simultaneous",
    "defensive-fire",
    "opfire",
    "no-opfire",
    "redraw",
    "no-redraw",
    "stay",
    "rider",
    "ride",
    "ride-evade",
    "alert",
    "exit",
    "exit-evade",
    "remove-alert",
    "reroll",
    "keep-roll",
    "search-arms",
];

pub fn notation(g: &Concord, s: &State, a: Action) -> String {
    let r = |x: u8| g.data.map.id(x).to_string();
    let u = |x: u8| g.unit_id(s, x).to_string();
    match a {
        Action::Reserve => "reserve".into(),
        Action::Attack(x) => format!("attack {}", r(x)),
        Action::Assault(f, t) => format!("assault {} {}", r(f), r(t)),
        Action::Charge(x) => format!("charge {}", r(x)),
        Action::Move(x) => format!("move {}", r(x)),
        Action::MoveSon(x) => format!("move-son {}", u(x)),
        Action::Assemble(f, t) => format!("assemble {} {}", r(f), r(t)),
        Action::Ambush(x) => format!("ambush {}", r(x)),
        Action::Snipe(x) => format!("snipe {}", r(x)),
        Action::Rally(x) => format!("rally {}", r(x)),
        Action::Search(x) => format!("search {}", r(x)),
        Action::Escape(x) => format!("escape {}", u(x)),
        Action::Hinder(m, x) => format!("hinder {} {}", HINDER_NAMES[m as usize % 3], r(x)),
        Action::Unhinder(m) => format!("unhinder {}", HINDER_NAMES[m as usize % 3]),
        Action::CallToArms => "call-to-arms".into(),
        Action::Plan => "plan".into(),
        Action::Intel => "intel".into(),
        Action::Pass => "pass".into(),
        Action::Pick(x) => format!("pick {}", u(x)),
        Action::Done => "done".into(),
        Action::To(x) => format!("to {}", r(x)),
        Action::Stop => "stop".into(),
        Action::Drop(x) => format!("drop {}", u(x)),
        Action::Hit(x) => format!("hit {}", u(x)),
        Action::Simultaneous => "simultaneous".into(),
        Action::DefensiveFire => "defensive-fire".into(),
        Action::OpFire => "opfire".into(),
        Action::NoOpFire => "no-opfire".into(),
        Action::Redraw => "redraw".into(),
        Action::NoRedraw => "no-redraw".into(),
        Action::Stay => "stay".into(),
        Action::Rider(x) => format!("rider {}", u(x)),
        Action::Ride(x, false) => format!("ride {}", r(x)),
        Action::Ride(x, true) => format!("ride-evade {}", r(x)),
        Action::Alert => "alert".into(),
        Action::Exit => "exit".into(),
        Action::ExitEvade => "exit-evade".into(),
        Action::RemoveAlert(x) => format!("remove-alert {}", r(x)),
        Action::Reroll(x) => format!("reroll {}", u(x)),
        Action::KeepRoll => "keep-roll".into(),
        Action::SearchArms => "search-arms".into(),
    }
}

/// Reads notation back: the legal action whose notation this is.
pub fn parse(g: &Concord, s: &State, text: &str) -> Result<Action, IllegalAction> {
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let verb = t.split(' ').next().unwrap_or("");
    if !VERBS.contains(&verb) {
        return Err(IllegalAction::new(
            IllegalKind::Unparsable,
            format!("{text:?} is not an action of this game; actions begin with one of {VERBS:?}"),
        ));
    }
    let mut legal = Actions::new();
    g.legal(s, &mut legal);
    legal
        .iter()
        .copied()
        .find(|a| notation(g, s, *a) == t)
        .ok_or_else(|| {
            IllegalAction::not_legal(format!("{t:?} is not legal now ({})", g.prompt(s).text))
        })
}

pub fn label(g: &Concord, s: &State, a: Action) -> String {
    label_in(g, s, s.phase, a)
}

/// The label of an action decided in `phase` (the state may be the one after it).
fn label_in(g: &Concord, s: &State, phase: Phase, a: Action) -> String {
    let r = |x: u8| g.data.map.name(x).to_string();
    let u = |x: u8| {
        g.setup(s)
            .roster
            .get(x as usize)
            .map_or("?".to_string(), |d| d.name.clone())
    };
    match a {
        Action::Reserve => "Pay the next action from the reserve (5.2)".into(),
        Action::Attack(x) => format!("Attack in {} (6.1)", r(x)),
        Action::Assault(f, t) => format!("Assault from {} into {} (6.2)", r(f), r(t)),
        Action::Charge(x) => format!("Charge in {} (6.3)", r(x)),
        Action::Move(x) => format!("Move units out of {} (6.4)", r(x)),
        Action::MoveSon(x) => format!("Move {} (4.4)", u(x)),
        Action::Assemble(f, t) => format!("Assemble from {} into {} (6.5)", r(f), r(t)),
        Action::Ambush(x) => format!("Ambush in {} (6.6)", r(x)),
        Action::Snipe(x) => format!("Snipe in {} (6.7)", r(x)),
        Action::Rally(x) => format!("Rally in {} (6.8)", r(x)),
        Action::Search(x) => format!("Search / capture in {} (6.9)", r(x)),
        Action::Escape(x) => format!("Escape attempt for {} (6.10)", u(x)),
        Action::Hinder(m, x) => format!(
            "Place the Hinder {} marker in {} (6.11)",
            HINDER_TITLES[m as usize % 3],
            r(x)
        ),
        Action::Unhinder(m) => format!(
            "Remove the Hinder {} marker (6.11)",
            HINDER_TITLES[m as usize % 3]
        ),
        Action::CallToArms => "Call to Arms (6.12)".into(),
        Action::Plan => "Plan: gain a reserve action (6.13)".into(),
        Action::Intel => "Gather Intelligence: look at the top two cards (6.14)".into(),
        Action::Pass => "Pass (6.15)".into(),
        Action::Pick(x) if matches!(phase, Phase::Escort { .. }) => {
            format!("{} retreats with an escort (7.1.2)", u(x))
        }
        Action::Pick(x) if matches!(phase, Phase::RallyLeaders { .. }) => {
            format!("{} performed the rally: Rally marker (6.8)", u(x))
        }
        Action::Pick(x) if matches!(phase, Phase::SearchNext { .. }) => {
            format!("Draw for {} next (8.2)", u(x))
        }
        Action::Pick(x) => format!("Choose {}", u(x)),
        Action::Done => "Done".into(),
        Action::To(x) => format!("To {}", r(x)),
        Action::Stop => "Stop here".into(),
        Action::Drop(x) => format!("Drop off {}", u(x)),
        Action::Hit(x) => format!("Hit on {}", u(x)),
        Action::Simultaneous => "Simultaneous combat: take one hit first (7.0)".into(),
        Action::DefensiveFire => "Face defensive fire (7.0)".into(),
        Action::OpFire => "Fire on the retreating units (7.1.3)".into(),
        Action::NoOpFire => "Do not fire on them".into(),
        Action::Redraw => "Pay 1 VP for another capture draw (8.2)".into(),
        Action::NoRedraw => "No more draws".into(),
        Action::Stay => "Stay".into(),
        Action::Rider(x) => format!("Ride with {} (6.12)", u(x)),
        Action::Ride(x, false) => format!("Ride to {}", r(x)),
        Action::Ride(x, true) => format!("Ride to {}, paying a point to evade the British", r(x)),
        Action::Alert => "Alert the Gather marker here (1 point)".into(),
        Action::Exit => "Leave the map at this edge (1 point)".into(),
        Action::ExitEvade => {
            "Leave the map at this edge, paying a point to evade the British (2 points)".into()
        }
        Action::RemoveAlert(x) => format!("Remove the Alert marker of {}", r(x)),
        Action::Reroll(x) => format!(
            "Re-roll a missed die of {} (hits on {}+) (14.1)",
            u(x),
            s.units.get(x as usize).map_or(6, |k| g.hits_on(s, k.kind))
        ),
        Action::KeepRoll => "Keep the roll (14.1)".into(),
        Action::SearchArms => "Draw for the hidden arms next (8.1)".into(),
    }
}

/// The Hinder markers for people, in the order of `HINDER_NAMES` (6.11).
const HINDER_TITLES: [&str; 3] = ["Movement", "Muster", "Search"];

/// Whether a decision inside an action gets a log line of its own, and the units it concerns
/// (`None`: no line). Picking the units of a group (to move, attack, defend or retreat) gets
/// none: the line that ends the choice, or the group's march (`Event::Marched`), names the
/// whole group, so the log reads the same whether the counters were picked one request at a
/// time or in one batch. `s` is the state before the decision.
pub fn step_group(s: &State, a: Action) -> Option<Units> {
    let b = &s.battle;
    match (s.phase, a) {
        (Phase::Round { .. }, _) => None,
        (
            Phase::Move { .. }
            | Phase::Attackers
            | Phase::Defenders
            | Phase::RetreatPick
            | Phase::AfterPick { .. }
            | Phase::Assemble { .. },
            Action::Pick(_),
        ) => None,
        // The march is logged by `Event::Marched`; stopping or ending the Move action adds
        // nothing a reader needs.
        // Units dropped off are logged together by `Event::Dropped`.
        (Phase::Move { .. }, Action::To(_) | Action::Stop | Action::Done | Action::Drop(_)) => None,
        // An ambush's or a rally's units are named by the roll or the rally that follows.
        (
            Phase::Ambush { .. } | Phase::Rally { .. } | Phase::RallyLeaders { .. },
            Action::Pick(_),
        ) => None,
        // The broken unit is logged by `Event::Broken`.
        (Phase::ForcedBreak { .. } | Phase::CannonBreak { .. }, Action::Pick(_)) => None,
        (Phase::Attackers, Action::Done) => Some(b.attackers),
        (Phase::Defenders, Action::Done) => Some(b.defenders),
        (Phase::RetreatPick | Phase::AfterPick { .. }, Action::Done) => Some(b.retreating),
        (Phase::RetreatTo { .. }, _) => Some(b.retreating),
        (Phase::Assemble { group, .. }, Action::Done) => Some(group),
        // Ending another choice says nothing on its own.
        (_, Action::Done) => None,
        _ => Some(0),
    }
}

/// Units for people, alike ones counted: "7 Regulars, Smith and Pitcairn", "Militia 3".
pub fn group_text(g: &Concord, s: &State, group: Units) -> String {
    let roster = &g.setup(s).roster;
    let name = |u: u8| {
        roster
            .get(u as usize)
            .map_or("?".to_string(), |d| d.name.clone())
    };
    let kinds: [(Kind, &str, &str); 4] = [
        (Kind::Regular, "Regulars", "Regulars"),
        (Kind::Minuteman, "Minutemen", "Minutemen"),
        (Kind::Militia, "militia", "militia"),
        (Kind::Hidden, "militia", "militia"),
    ];
    let members = || (0..64u8).filter(move |u| group >> u & 1 == 1);
    let mut parts: Vec<String> = Vec::new();
    let mut counted = 0u64;
    for (i, (kind, _, many)) in kinds.iter().enumerate() {
        // Militia known and hidden are one count.
        if i == 3 {
            continue;
        }
        let of_kind: Vec<u8> = members()
            .filter(|&u| {
                s.units.get(u as usize).is_some_and(|x| {
                    x.kind == *kind || (*kind == Kind::Militia && x.kind == Kind::Hidden)
                })
            })
            .collect();
        match of_kind.len() {
            0 => {}
            1 => parts.push(name(of_kind[0])),
            n => parts.push(format!("{n} {many}")),
        }
        counted |= of_kind.iter().fold(0, |m, &u| m | 1u64 << u);
    }
    for u in members().filter(|u| counted >> u & 1 == 0) {
        parts.push(name(u));
    }
    and_list(&parts)
}

/// The verb of a group: "Regulars 3 marches", "7 Regulars and Smith march".
fn verb(group: Units, one: &str, many: &str) -> String {
    if group.count_ones() == 1 { one } else { many }.to_string()
}

/// A label's text and the section it ends with: ("Attack in Lexington", "6.1").
fn split_section(label: &str) -> (String, Option<String>) {
    if let Some(open) = label.rfind(" (")
        && label.ends_with(')')
    {
        let sec = &label[open + 2..label.len() - 1];
        if !sec.is_empty() && sec.chars().all(|c| c.is_ascii_digit() || c == '.') {
            return (label[..open].to_string(), Some(sec.to_string()));
        }
    }
    (label.to_string(), None)
}

/// The log line of a decision inside an action: who did what, under the section of the
/// decision (the prompt's) unless the label names a closer one.
fn step_line(
    g: &Concord,
    s: &State,
    sd: u8,
    a: Action,
    phase: Phase,
    group: Units,
) -> (String, String) {
    let who = SIDE_NAMES[sd as usize & 1];
    let r = |x: u8| g.data.map.name(x).to_string();
    let u = |x: u8| group_text(g, s, 1u64 << x);
    let units = group_text(g, s, group);
    let text = match (phase, a) {
        (Phase::Attackers, _) => format!("{who}: {units} {}", verb(group, "attacks", "attack")),
        (Phase::Defenders, _) if group == 0 => format!("{who}: no units defend"),
        (Phase::Defenders, _) => format!("{who}: {units} {}", verb(group, "defends", "defend")),
        (Phase::RetreatPick, _) if group == 0 => format!("{who}: no units retreat before combat"),
        (Phase::RetreatPick, _) => format!(
            "{who}: {units} {} before combat",
            verb(group, "retreats", "retreat")
        ),
        (Phase::AfterPick { .. }, _) if group == 0 => {
            format!("{who}: no units retreat after combat")
        }
        (Phase::AfterPick { .. }, _) => format!(
            "{who}: {units} {} after combat",
            verb(group, "retreats", "retreat")
        ),
        (Phase::RetreatTo { .. }, Action::To(t)) => format!(
            "{who}: {units} {} to {}",
            verb(group, "retreats", "retreat"),
            r(t)
        ),
        (
            Phase::Assemble {
                from, to, reserve, ..
            },
            _,
        ) => format!(
            "{who}: {units} {} from {} into {}{}",
            verb(group, "assembles", "assemble"),
            r(from),
            r(to),
            if reserve { " (from the reserve)" } else { "" }
        ),
        (Phase::Move { .. } | Phase::Hits { .. }, Action::Hit(x)) => {
            format!("{who}: {} takes the hit", u(x))
        }
        (Phase::MoveSon { unit, .. }, Action::To(t)) => {
            format!("{who}: {} moves to {}", u(unit), r(t))
        }
        (Phase::SonAway { unit, .. }, Action::To(t)) => {
            format!("{who}: {} slips away to {}", u(unit), r(t))
        }
        (Phase::SonAway { unit, .. }, Action::Stay) => format!("{who}: {} stays", u(unit)),
        (Phase::Captives { unit, .. }, Action::To(t)) => {
            format!("{who}: the captive {} is taken to {}", u(unit), r(t))
        }
        (Phase::Muster { unit }, Action::To(t)) => {
            format!("{who}: {} musters in {}", u(unit), r(t))
        }
        (Phase::Muster { unit }, Action::Stay) => {
            format!("{who}: {} musters where it is", u(unit))
        }
        (Phase::Advance { .. }, Action::Pick(x)) => {
            format!("{who}: {} advances with the cannon", u(x))
        }
        (Phase::ChargeLeaders { .. }, Action::Pick(x)) => {
            format!("{who}: {} leaves with the broken units", u(x))
        }
        _ => format!("{who}: {}", split_section(&label_in(g, s, phase, a)).0),
    };
    let section = split_section(&label_in(g, s, phase, a))
        .1
        .unwrap_or_else(|| g.prompt_of(phase).to_string());
    (section, text)
}

pub fn describe(g: &Concord, s: &State, e: &Event) -> LogEntry {
    let r = |x: u8| g.data.map.name(x).to_string();
    let u = |x: u8| {
        g.setup(s)
            .roster
            .get(x as usize)
            .map_or("?".to_string(), |d| d.name.clone())
    };
    let side = |x: u8| SIDE_NAMES[x as usize & 1];
    let entry = |section: &str, text: String, chance: bool| LogEntry {
        section: section.to_string(),
        text,
        chance,
        audience: Audience::All,
    };
    match *e {
        Event::Act {
            side: sd,
            action,
            reserve,
        } => {
            let (text, section) = split_section(&label_in(g, s, Phase::Round { reserve }, action));
            entry(
                &section.unwrap_or_else(|| "6.0".into()),
                format!(
                    "{}: {text}{}",
                    side(sd),
                    if reserve { " (from the reserve)" } else { "" }
                ),
                false,
            )
        }
        Event::Step {
            side: sd,
            action,
            phase,
            group,
        } => {
            let (section, text) = step_line(g, s, sd, action, phase, group);
            entry(&section, text, false)
        }
        Event::Marched {
            side: sd,
            group,
            from,
            to,
        } => entry(
            "6.4",
            format!(
                "{}: {} {} from {} to {}",
                side(sd),
                group_text(g, s, group),
                verb(group, "moves", "move"),
                r(from),
                r(to)
            ),
            false,
        ),
        Event::Dropped {
            side: sd,
            group,
            at,
        } => entry(
            "6.4.2",
            format!(
                "{}: {} {} behind in {}",
                side(sd),
                group_text(g, s, group),
                verb(group, "stays", "stay"),
                r(at)
            ),
            false,
        ),
        Event::TurnStart {
            turn,
            card,
            british,
            patriot,
            hash,
        } => entry(
            "5.1",
            format!(
                "Turn {turn}: card {card}: British {}, Patriot {}, {}",
                number(british as usize, "action", "actions"),
                number(patriot as usize, "action", "actions"),
                number(hash as usize, "hash mark", "hash marks")
            ),
            true,
        ),
        Event::FirstPlayer { side: sd, die } => entry(
            "5.2",
            format!(
                "Tied actions: die {}, the {} player goes first",
                face(die),
                side(sd)
            ),
            true,
        ),
        Event::Reveal { unit, value } => entry(
            "4.1",
            format!("{} revealed: a militia of strength {value}", u(unit)),
            true,
        ),
        Event::Roll {
            side: sd,
            dice: 0,
            section,
            ..
        } => entry(
            section,
            format!("{} has no dice to roll: no hits", side(sd)),
            // Still the moment of the roll: undo does not go back past it.
            true,
        ),
        Event::Roll {
            side: sd,
            dice,
            hits,
            section,
            faces,
            need,
        } => entry(
            section,
            format!(
                "{} rolls {}{}: {faces} → {}",
                side(sd),
                number(dice as usize, "die", "dice"),
                match need {
                    6 => " (hits on 6)".to_string(),
                    1..=5 => format!(" (hits on {need}-6)"),
                    _ => String::new(),
                },
                count(hits as usize, "hit", "hits")
            ),
            true,
        ),
        Event::Die {
            side: sd,
            unit,
            die,
            section,
        } => {
            let who = if unit == 255 {
                String::new()
            } else {
                format!(" for {}", u(unit))
            };
            entry(
                section,
                format!("{} rolls {}{who}", side(sd), face(die)),
                true,
            )
        }
        Event::Broken { unit } => entry("4.1", format!("{} is broken", u(unit)), false),
        Event::Wounded { unit } => entry("4.2", format!("{} is wounded", u(unit)), false),
        Event::Removed { unit } => entry("4.1", format!("{} leaves the game", u(unit)), false),
        Event::Rallied { side: sd, group } => entry(
            "6.8",
            format!(
                "{}: {} {}",
                side(sd),
                group_text(g, s, group),
                verb(group, "rallies", "rally")
            ),
            false,
        ),
        Event::RallyMarker { unit } => entry(
            "6.8",
            format!("{} performed the rally and gets a Rally marker", u(unit)),
            false,
        ),
        Event::Escorted { unit, escorted } => entry(
            "7.1.2",
            if escorted {
                format!("{} retreats with an escort", u(unit))
            } else {
                format!("{} has no escort", u(unit))
            },
            false,
        ),
        Event::Captured { unit } => entry("8.2", format!("{} is captured", u(unit)), true),
        Event::Escaped { unit } => entry("6.10", format!("{} escapes", u(unit)), true),
        Event::SearchCard {
            card,
            hash,
            net,
            son,
        } => {
            let what = if son == 255 {
                "hidden arms".to_string()
            } else {
                u(son)
            };
            let result = match (son, net) {
                (255, 0) => " → nothing found".to_string(),
                (255, n) => format!(" → {}", count(n as usize, "VP", "VP")),
                (_, 0) => format!(" → {what} is not found"),
                _ => format!(" → {what} is captured"),
            };
            entry(
                if son == 255 { "8.1" } else { "8.2" },
                format!(
                    "Search for {what}: card {card}, {}, {net} after the Patriot units here{result}",
                    number(hash as usize, "hash mark", "hash marks")
                ),
                true,
            )
        }
        Event::ArmsCard {
            region,
            card,
            hash,
            points,
        } => entry(
            "14.5",
            format!(
                "Hidden arms in {}: card {card}, {hash} marks, {points} VP to the Patriot",
                r(region)
            ),
            true,
        ),
        Event::Peek {
            side: sd,
            top,
            second,
        } => LogEntry {
            section: "6.14".into(),
            text: {
                let card = |id: u8| {
                    let c = g.data.cards.get(id);
                    format!(
                        "card {id} (British {}, Patriot {}, {})",
                        number(c.british as usize, "action", "actions"),
                        number(c.patriot as usize, "action", "actions"),
                        number(c.hash as usize, "hash mark", "hash marks")
                    )
                };
                format!(
                    "Gather Intelligence: the next cards are {} and then {}",
                    card(top),
                    card(second)
                )
            },
            chance: true,
            audience: Audience::Side(sd),
        },
        Event::Flipped { region } => entry(
            "4.3",
            format!("The Gather marker in {} turns to Muster", r(region)),
            false,
        ),
        Event::MusterRemoved { region } => entry(
            "4.5",
            format!("The Muster marker in {} comes off", r(region)),
            false,
        ),
        Event::AlertRemoved { region } => entry(
            "4.6",
            format!("The Alert marker of {} comes off", r(region)),
            false,
        ),
        Event::Vp {
            side: sd,
            halves,
            cause,
        } => entry(
            "13.0",
            format!(
                "The {} {} {} VP ({})",
                SIDE_PEOPLE[sd as usize & 1],
                if halves >= 0 { "gain" } else { "pay" },
                halves.unsigned_abs() as f32 / 2.0,
                CAUSE_NAMES.get(cause as usize).copied().unwrap_or("?")
            ),
            false,
        ),
        Event::Shot => entry("10.0", "The Shot Heard 'Round the World".into(), false),
        Event::Concord => entry("11.0", "The British have reached Concord".into(), false),
        Event::PercyArrives => entry(
            "12.0",
            "Percy's reinforcements arrive in Boston".into(),
            false,
        ),
        Event::PrescottActive => entry("6.12", "Samuel Prescott may ride".into(), false),
        Event::Reinforcement { unit, region, die } => entry(
            "15.2",
            format!("Die {}: {} arrives in {}", face(die), u(unit), r(region)),
            true,
        ),
        Event::Reshuffle => entry(
            "2.0",
            "The discards are reshuffled into a new deck".into(),
            true,
        ),
        Event::TurnEnd { turn } => entry("5.3", format!("End of turn {turn}"), false),
        Event::GameOver { winner } => {
            entry("13.0", format!("The {} player wins", side(winner)), false)
        }
    }
}
