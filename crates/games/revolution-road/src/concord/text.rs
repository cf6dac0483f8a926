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
            let mut tag = g.unit_id(s, i as u8).to_string();
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
            let _ = write!(units, " {tag}");
        }
        if line.is_empty() && units.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{:<16}{}{}", map.regions[ri].id, line, units);
    }
    for (i, u) in s.units.iter().enumerate() {
        if let Loc::Edge(e) = u.at {
            let _ = writeln!(
                out,
                "{} is off the {} edge",
                g.unit_id(s, i as u8),
                super::data::EDGES[e as usize % 3]
            );
        }
    }
    out.push_str(
        "(b) broken, (w) wounded, _ under a marker, ' moved, * fired, =? hidden militia\n",
    );
    out
}
