//! The board as text for terminal play.

use super::Bunker;
use super::notation::unit_name;
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
        let names: Vec<&str> = bits64(s.ablaze).map(|r| g.region_id(r)).collect();
        let _ = writeln!(o, "Ablaze: {}", names.join(", "));
    }
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
            continue;
        }
        let _ = writeln!(o, "{}: {}", g.region_id(r), here.join("; "));
    }
    let _ = writeln!(o, "{}", g.prompt(s).text);
    o
}
