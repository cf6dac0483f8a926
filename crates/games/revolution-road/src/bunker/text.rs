//! The board as text for terminal play.

use super::Bunker;
use super::notation::{rname as region_name, unit_name};
use super::state::*;
use muster_core::Viewer;
use std::fmt::Write;

pub fn render(g: &Bunker, s: &State, _viewer: Viewer) -> String {
    let mut o = String::new();
    let vp = g.vp_halves(s);
    let _ = writeln!(
        o,
        "Bunker Hill ({}) - turn {}/{} - card {} - actions P{} B{} - reserves P{} B{}",
        s.mode.id(),
        s.turn,
        s.last_turn,
        s.card,
        s.actions[0],
        s.actions[1],
        s.reserves[0],
        s.reserves[1]
    );
    let _ = writeln!(
        o,
        "Patriot ammo {} - morale P{} B{}{}{} - VP P{} B{} - fleet: {} - British cannon: {}",
        s.ammo,
        s.morale[0],
        s.morale[1],
        if s.demoralized[0] {
            " (Patriots demoralized)"
        } else {
            ""
        },
        if s.demoralized[1] {
            " (British demoralized)"
        } else {
            ""
        },
        vp[0] as f32 / 2.0,
        vp[1] as f32 / 2.0,
        g.data
            .map
            .fleet
            .get(s.fleet as usize)
            .map_or("?", |f| f.name.as_str()),
        if s.ammo_arrived {
            "ammo arrived"
        } else {
            "wrong ammo"
        }
    );
    if s.ablaze != 0 {
        let names: Vec<String> = bits64(s.ablaze).map(|r| region_name(g, r)).collect();
        let _ = writeln!(o, "Ablaze: {}", names.join(", "));
    }
    let mut empty: Vec<String> = Vec::new();
    let mut places: Vec<u8> = (0..g.data.map.n() as u8).collect();
    places.push(MUSTER);
    for r in places {
        let here: Vec<String> = s
            .units
            .iter()
            .enumerate()
            .filter(|(_, x)| x.at == r)
            .map(|(i, x)| {
                let mut t = unit_name(g, s, i as u8);
                if x.broken() {
                    t.push_str(if x.kind == Kind::Leader {
                        " [wounded]"
                    } else if x.kind == Kind::Cannon {
                        " [damaged]"
                    } else {
                        " [broken]"
                    });
                }
                for (f, n) in [
                    (PANIC, " [panic]"),
                    (MOVED, " [moved]"),
                    (FIRED, " [fired]"),
                    (RALLIED, " [rallied]"),
                ] {
                    if x.has(f) {
                        t.push_str(n);
                    }
                }
                t
            })
            .collect();
        if here.is_empty() {
            if r != MUSTER {
                empty.push(region_name(g, r));
            }
            continue;
        }
        let _ = writeln!(o, "{}: {}", region_name(g, r), here.join("; "));
    }
    if !empty.is_empty() {
        let _ = writeln!(o, "Empty: {}", empty.join(", "));
    }
    if let Some(r) = selected(s)
        && (r as usize) < g.data.map.regions.len()
    {
        let adj = g.data.map.regions[r as usize].adj;
        let next: Vec<String> = bits64(adj).map(|t| region_name(g, t)).collect();
        let _ = writeln!(o, "Next to {}: {}", region_name(g, r), next.join(", "));
    }
    let _ = writeln!(
        o,
        "Legend: [broken] [wounded] leader, [damaged] cannon, [panic], [moved], [fired], \
         [rallied] markers; militia (strength unknown) are not yet revealed"
    );
    let _ = writeln!(o, "{}", g.prompt(s).text);
    o
}

/// The region whose pieces are being decided about, whose neighbours the board lists.
fn selected(s: &State) -> Option<u8> {
    match s.phase {
        Phase::Move { from, .. } | Phase::Volley { from, .. } => Some(from),
        Phase::Rally { region } => Some(region),
        Phase::Land { to, .. } => Some(to),
        Phase::Reorg { a, .. } => Some(a),
        _ => None,
    }
}
