//! The board as text for terminal play: a hex map with terrain and units, the tracks, and a
//! unit list.

use crate::data::{SIDE_NAMES, Scenario, StarSide};
use crate::map::{BRIDGE, RIVER, ROAD};
use crate::state::{Loc, State};
use crate::{sequence, victory};
use muster_core::Viewer;
use muster_core::hex::Hex;
use std::fmt::Write;

/// One-letter tags: Americans a, b, c..., British A, B, C... in roster order.
fn tags(sc: &Scenario) -> Vec<char> {
    let mut counts = [0u8; 2];
    sc.units
        .iter()
        .map(|u| {
            let n = counts[u.side as usize];
            counts[u.side as usize] += 1;
            let base = if u.side == 0 { b'a' } else { b'A' };
            (base + n.min(25)) as char
        })
        .collect()
}

pub fn render(sc: &Scenario, s: &State, _viewer: Viewer) -> String {
    let mut out = String::new();
    let vp = victory::vp(sc, s);
    let stage = match s.phase {
        crate::state::Phase::Setup { side } => format!("{} set-up", SIDE_NAMES[side.0 as usize]),
        _ => format!("{} active", SIDE_NAMES[s.active.0 as usize]),
    };
    let _ = writeln!(
        out,
        "{} ({}) — turn {}/{}, {stage} — VP American {} British {} (goal {})",
        sc.name, sc.date, s.turn, sc.turns, vp.american, vp.british, sc.vp_goal
    );
    let _ = writeln!(
        out,
        "Leadership: American {} British {}{}   Artillery: American {} British {}{}",
        s.leadership.american,
        s.leadership.british,
        if s.leader_used {
            " (used this turn)"
        } else {
            ""
        },
        s.artillery.american,
        s.artillery.british,
        if s.artillery_used {
            " (used this turn)"
        } else {
            ""
        },
    );
    let tag = tags(sc);
    let mut at = [None; muster_core::hex::SLOTS];
    for (i, u) in s.units.iter().enumerate() {
        if let Loc::Map(h) = u.at {
            at[h.slot()] = Some(i);
        }
    }
    let grid = sc.map.grid;
    let is_low = |c: u8| match grid.low {
        muster_core::hex::LowColumns::Even => c % 2 == 1,
        muster_core::hex::LowColumns::Odd => c % 2 == 0,
    };
    out.push_str("\n    ");
    for c in 0..grid.cols {
        let _ = write!(out, "{:<4}", (b'A' + c) as char);
    }
    out.push('\n');
    let cell = |h: Hex| -> String {
        let t = sc.map.terrain(h).code();
        let road = if (0..6).any(|d| sc.map.side(h, d) & ROAD != 0) {
            '='
        } else {
            ' '
        };
        match at[h.slot()] {
            Some(i) => format!(
                "{t}{road}{}{}",
                tag[i],
                if s.units[i].reduced { '\'' } else { ' ' }
            ),
            None if sc.stars.iter().any(|(x, _)| *x == h) => format!("{t}{road}* "),
            None if sc.exit.is_some_and(|(x, _, _)| x == h) => format!("{t}{road}> "),
            None => format!("{t}{road}  "),
        }
    };
    for r in 0..grid.rows {
        for half in [false, true] {
            if half {
                out.push_str("    ");
            } else {
                let _ = write!(out, "{:>3} ", r + 1);
            }
            for c in 0..grid.cols {
                if is_low(c) == half {
                    out.push_str(&cell(Hex::new(c, r)));
                } else {
                    out.push_str("    ");
                }
            }
            out.push('\n');
        }
    }
    out.push_str(
        "\nTerrain: . clear  w woods  h hill  f farm  s swamp   = road   * VP star   > exit   ' reduced\n",
    );
    // Each hexside once: the N, NE and SE sides of every hex.
    let (mut rivers, mut bridges) = (Vec::new(), Vec::new());
    for h in sc.map.hexes() {
        for d in 0..3 {
            let f = sc.map.side(h, d);
            if let Some(n) = grid.neighbor(h, d) {
                if f & BRIDGE != 0 {
                    bridges.push(format!("{h}|{n}"));
                } else if f & RIVER != 0 {
                    rivers.push(format!("{h}|{n}"));
                }
            }
        }
    }
    if !rivers.is_empty() {
        let _ = writeln!(out, "River hexsides: {}", rivers.join(" "));
    }
    if !bridges.is_empty() {
        let _ = writeln!(out, "Bridges: {}", bridges.join(" "));
    }
    let stars: Vec<String> = sc
        .stars
        .iter()
        .map(|(h, side)| match side {
            StarSide::Side(x) => format!("{h} ({})", SIDE_NAMES[*x as usize]),
            StarSide::Both => format!("{h} (both)"),
        })
        .collect();
    if !stars.is_empty() {
        let _ = writeln!(out, "VP stars: {}", stars.join(", "));
    }
    for side in [0u8, 1] {
        let _ = writeln!(out, "\n{} units:", SIDE_NAMES[side as usize]);
        for (i, (u, d)) in s.units.iter().zip(&sc.units).enumerate() {
            if d.side != side || u.at == Loc::Absent {
                continue;
            }
            let (cf, mp) = if u.reduced {
                (d.reduced_cf, d.reduced_mp)
            } else {
                (d.cf, d.mp)
            };
            let place = match u.at {
                Loc::Map(h) => h.to_string(),
                Loc::Pending => match d.start {
                    crate::data::Start::Entry { turn, area } => {
                        format!("enters turn {turn}, area {}", sc.areas[area as usize].name)
                    }
                    _ => "pending".into(),
                },
                Loc::Unplaced => "to set up".into(),
                Loc::Eliminated => "eliminated".into(),
                Loc::Exited => "exited".into(),
                Loc::Absent => "absent".into(),
            };
            let mut marks = Vec::new();
            if u.reduced {
                marks.push("reduced");
            }
            if u.moved {
                marks.push("moved");
            }
            if u.attacked {
                marks.push("attacked");
            }
            if u.rallied {
                marks.push("rallied");
            }
            let _ = writeln!(
                out,
                "  {} {:<14} {:<34} {cf}-{mp}  {place}{}",
                tag[i],
                d.id.as_str(),
                d.name,
                if marks.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", marks.join(", "))
                }
            );
        }
    }
    let p = sequence::prompt(sc, s);
    let _ = writeln!(out, "\n§{}: {}", p.section, p.text);
    out
}
