//! Short, stable notation for actions (units by roster id, regions by map id), labels for
//! people, and log lines with their rule sections.

use super::Concord;
use super::action::{Action, Event};
use super::sequence::Actions;
use super::state::*;
use muster_core::game::{Audience, IllegalAction, IllegalKind, LogEntry};

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
            "Place Hinder {} in {} (6.11)",
            HINDER_NAMES[m as usize % 3],
            r(x)
        ),
        Action::Unhinder(m) => format!(
            "Remove the Hinder {} marker (6.11)",
            HINDER_NAMES[m as usize % 3]
        ),
        Action::CallToArms => "Call to Arms (6.12)".into(),
        Action::Plan => "Plan: gain a reserve action (6.13)".into(),
        Action::Intel => "Gather Intelligence: look at the top two cards (6.14)".into(),
        Action::Pass => "Pass (6.15)".into(),
        Action::Pick(x) if matches!(s.phase, Phase::Escort { .. }) => {
            format!("{} retreats with an escort (7.1.2)", u(x))
        }
        Action::Pick(x) if matches!(s.phase, Phase::RallyLeaders { .. }) => {
            format!("{} performed the rally: Rally marker (6.8)", u(x))
        }
        Action::Pick(x) if matches!(s.phase, Phase::SearchNext { .. }) => {
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

/// The section a decision inside an action is logged under, where it is not simply 6.0.
fn step_section(a: Action) -> &'static str {
    match a {
        Action::Reroll(_) | Action::KeepRoll => "14.1",
        _ => "6.0",
    }
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
        } => entry(
            "6.0",
            format!(
                "{}: {}{}",
                side(sd),
                label(g, s, action),
                if reserve { " (from the reserve)" } else { "" }
            ),
            false,
        ),
        Event::Step { side: sd, action } => entry(
            step_section(action),
            format!("{}: {}", side(sd), label(g, s, action)),
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
                "Turn {turn}: card {card}: British {british} actions, Patriot {patriot}, {hash} hash marks"
            ),
            true,
        ),
        Event::FirstPlayer { side: sd, die } => entry(
            "5.2",
            format!(
                "Tied actions: die {die}, the {} player goes first",
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
            dice,
            hits,
            section,
        } => entry(
            section,
            format!("{} rolls {dice} dice: {hits} hits", side(sd)),
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
            entry(section, format!("{} rolls {die}{who}", side(sd)), true)
        }
        Event::Broken { unit } => entry("4.1", format!("{} is broken", u(unit)), false),
        Event::Wounded { unit } => entry("4.2", format!("{} is wounded", u(unit)), false),
        Event::Removed { unit } => entry("4.1", format!("{} leaves the game", u(unit)), false),
        Event::Rallied { unit } => entry("6.8", format!("{} rallies", u(unit)), false),
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
            entry(
                "8.0",
                format!("Search for {what}: card {card}, {hash} marks, {net} after Patriot units"),
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
            text: format!("The top cards are {top} and {second}"),
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
                "{} {} {} VP ({})",
                side(sd),
                if halves >= 0 { "gains" } else { "pays" },
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
            format!("Die {die}: {} arrives in {}", u(unit), r(region)),
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
