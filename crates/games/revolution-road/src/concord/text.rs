//! The board as text for terminal play: every region with its markers and counters.

use super::Concord;
use super::state::*;
use muster_core::Viewer;
use std::fmt::Write;

pub fn render(g: &Concord, s: &State, viewer: Viewer) -> String {
    let map = &g.data.map;
    let mut out = String::new();
    let card = g.data.cards.get(s.card);
    let _ = writeln!(
        out,
        "From Boston to Concord ({}) - turn {}/{} - card {} (hash {}) - actions P{} B{} - reserves P{} B{} - VP P{} B{}{}",
        s.mode.id(),
        s.turn,
        g.setup(s).last_turn,
        s.card,
        card.hash,
        s.actions[0],
        s.actions[1],
        s.reserves[0],
        s.reserves[1],
        s.vp.halves(PATRIOT) as f32 / 2.0,
        s.vp.halves(BRITISH) as f32 / 2.0,
        if s.shot { " - shot fired" } else { "" },
    );
    let _ = writeln!(
        out,
        "deck {} cards, {} discards; militia pool 0:{} 1:{} 2:{}",
        s.deck.draw.len(),
        s.deck.discard.len(),
        s.pool.0[0],
        s.pool.0[1],
        s.pool.0[2]
    );
    if let Viewer::Side(side) = viewer {
        let seen = s.deck.seen_by(side);
        if !seen.is_empty() {
            let _ = writeln!(out, "you saw the next cards: {seen:?}");
        }
    }
    let mut empty: Vec<&str> = Vec::new();
    for r in 0..map.regions.len() as u8 {
        let mut line = String::new();
        let ri = r as usize;
        match s.gather[ri] {
            GATHER => line.push_str(" [gather]"),
            MUSTER => line.push_str(" [muster]"),
            _ => {}
        }
        if s.alert[ri] {
            line.push_str(" [alert]");
        }
        match (s.arms[ri], map.regions[ri].arms) {
            (ARMS_HIDDEN, Some(n)) => {
                let _ = write!(
                    line,
                    " [arms {}]",
                    if n == 0 {
                        "-".to_string()
                    } else {
                        n.to_string()
                    }
                );
            }
            (ARMS_SEARCHED, _) => line.push_str(" [searched]"),
            _ => {}
        }
        for (m, h) in s.hinder.iter().enumerate() {
            if let HinderAt::Map { region, turns } = h
                && *region == r
            {
                let _ = write!(line, " [hinder {} {turns}]", HINDER_NAMES[m]);
            }
        }
        let mut units = String::new();
        for (i, u) in s.units.iter().enumerate() {
            if u.at != Loc::At(r) {
                continue;
            }
            let mut tag = unit_name(g, s, i as u8);
            if u.kind == Kind::Militia {
                let _ = write!(tag, "={}", u.value);
            }
            if u.kind == Kind::Hidden {
                tag.push_str("=?");
            }
            if u.flipped {
                tag.push_str(match u.kind {
                    Kind::Leader => "(w)",
                    Kind::Son | Kind::Rider => "(captured)",
                    _ => "(b)",
                });
            }
            if u.under {
                tag.push('_');
            }
            if u.moved {
                tag.push('\'');
            }
            if u.fired {
                tag.push('*');
            }
            if !units.is_empty() {
                units.push(',');
            }
            let _ = write!(units, " {tag}");
        }
        if line.is_empty() && units.is_empty() {
            empty.push(map.name(r));
            continue;
        }
        let _ = writeln!(out, "{}:{}{}", map.name(r), line, units);
    }
    if !empty.is_empty() {
        let _ = writeln!(out, "Empty: {}", empty.join(", "));
    }
    for (i, u) in s.units.iter().enumerate() {
        if let Loc::Edge(e) = u.at {
            let _ = writeln!(
                out,
                "{} is off the {} edge",
                unit_name(g, s, i as u8),
                super::data::EDGES[e as usize % 3]
            );
        }
    }
    pending(g, s, &mut out);
    if let Some(r) = selected(g, s) {
        let next: Vec<String> = (0..map.regions.len() as u8)
            .filter(|&t| map.adjacent(r, t))
            .map(|t| {
                let mut n = map.name(t).to_string();
                if map.is_road(r, t) {
                    n.push_str(" (road)");
                } else if map.is_stream(r, t) {
                    n.push_str(" (stream)");
                }
                n
            })
            .collect();
        let _ = writeln!(out, "Next to {}: {}", map.name(r), next.join(", "));
    }
    out.push_str(
        "Legend: =N militia of strength N, =? hidden militia, (b) broken, (w) wounded, \
         (captured), _ under a marker, ' moved, * fired; [gather] [muster] [alert] markers, \
         [arms N] hidden arms, [searched], [hinder KIND TURNS]\n",
    );
    out
}

/// A counter for the board: its roster name ("Regulars 3", "Paul Revere").
fn unit_name(g: &Concord, s: &State, u: u8) -> String {
    g.setup(s)
        .roster
        .get(u as usize)
        .map_or_else(|| "?".to_string(), |d| d.name.clone())
}

/// The region of the piece or group being decided about, whose neighbours the board lists.
fn selected(g: &Concord, s: &State) -> Option<u8> {
    let of = |u: u8| s.units.get(u as usize).and_then(|x| x.at.region());
    match s.phase {
        Phase::Move { at, .. } => Some(at),
        Phase::MoveSon { unit, .. }
        | Phase::Muster { unit }
        | Phase::SonAway { unit, .. }
        | Phase::Captives { unit, .. } => of(unit),
        Phase::Riders { rider, .. } if rider != 255 => of(rider),
        Phase::Assemble { from, .. } => Some(from),
        Phase::RetreatTo { .. } | Phase::Advance { .. } => Some(s.battle.region),
        _ => {
            let _ = g;
            None
        }
    }
}

/// The decision in progress, where the board alone does not show it.
fn pending(g: &Concord, s: &State, out: &mut String) {
    let names = |set: Units| {
        (0..64u8)
            .filter(|u| set & (1u64 << u) != 0)
            .map(|u| unit_name(g, s, u))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match s.phase {
        Phase::Escort { picked } => {
            let (wanting, escorts) = g.escort_needs(s);
            let _ = writeln!(
                out,
                "7.1.2 retreat: {} for: {}; escorted so far: {}",
                muster_core::words::number(escorts as usize, "escort", "escorts"),
                names(wanting),
                names(picked)
            );
        }
        Phase::Reroll { side, .. } => {
            let _ = writeln!(
                out,
                "14.1 re-roll: {} {} hits so far; missed dice: {}",
                SIDE_NAMES[side as usize & 1],
                s.battle.pending[(1 - side as usize) & 1],
                names(s.battle.missed[side as usize & 1])
            );
        }
        Phase::RallyLeaders { region, need } => {
            let _ = writeln!(
                out,
                "6.8 rally: {need} flips still to assign to leaders in {}: {}",
                g.data.map.name(region),
                names(g.rally_leaders(s, region))
            );
        }
        Phase::SearchNext { region } => {
            let _ = writeln!(
                out,
                "8.0 search in {}: draws left for {}{}",
                g.data.map.name(region),
                if s.battle.arms { "the arms " } else { "" },
                names(s.battle.defenders)
            );
        }
        Phase::Muster { unit } => {
            let _ = writeln!(
                out,
                "4.3 free move of {}{}",
                unit_name(g, s, unit),
                if s.resume.is_some() {
                    " (then the interrupted action goes on)"
                } else {
                    ""
                }
            );
        }
        _ => {}
    }
}
