//! The board as text for terminal play: the tracks, then every area with its army and
//! supplies. Nothing on this board is hidden, so every viewer sees the same.

use crate::data::{Data, Kind, SIDE_NAMES};
use crate::state::State;
use crate::victory;
use muster_core::Viewer;
use std::fmt::Write;

pub fn render(d: &Data, s: &State, _viewer: Viewer) -> String {
    let mut o = String::new();
    let year = d.years.get(s.turn as usize - 1).copied().unwrap_or(0);
    let _ = writeln!(
        o,
        "Turn {}/{} ({year}{})   Support {}/{}{}   Pass {}   Crown VC {}/{}   markers taken {}{}",
        s.turn,
        d.turns(),
        if d.is_winter(s.turn) { ", winter" } else { "" },
        s.support + 1,
        d.treaty + 1,
        if s.declared {
            " (Independence declared)"
        } else {
            ""
        },
        d.pass_labels
            .get(s.pass as usize)
            .map_or("?", |x| x.as_str()),
        victory::crown_cities(d, s),
        victory::required(d, s),
        s.crown_taken,
        if s.triumvirate { " + Triumvirate" } else { "" }
    );
    let _ = writeln!(
        o,
        "Stock: {} Food, {} War   Patriot cup: {} markers",
        crate::supply::stock(d, s).0,
        crate::supply::stock(d, s).1,
        s.cup.count_ones()
    );
    for (i, (x, def)) in s.areas.iter().zip(&d.areas).enumerate() {
        if x.units == 0 && x.leaders == 0 && x.cubes() == 0 && !x.destroyed {
            continue;
        }
        let kind = match def.kind {
            Kind::City => "city",
            Kind::Fort => "fort",
            Kind::Point => "point",
            Kind::Sea => "sea",
        };
        let army = match x.side {
            Some(side) if x.units > 0 || x.leaders > 0 => format!(
                "{} {}U {}L",
                SIDE_NAMES[side.0 as usize & 1],
                x.units,
                x.leaders
            ),
            _ => "-".into(),
        };
        let _ = writeln!(
            o,
            "{:<18} {:<5}{}{} {:<18} {}F {}W{}{}",
            def.name,
            kind,
            if def.victory { "*" } else { " " },
            if def.port { "⚓" } else { " " },
            army,
            x.food,
            x.war,
            if x.dug_in { " dug-in" } else { "" },
            if x.destroyed { " DESTROYED" } else { "" }
        );
        let _ = i;
    }
    o
}
