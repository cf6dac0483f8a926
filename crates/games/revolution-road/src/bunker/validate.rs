//! The invariants of a Bunker Hill position: what every position reachable in play satisfies,
//! checked on every `load` (through `Game::validate`) and after every decision of the random
//! play tests, so the two can never disagree. A position that passes can be played on without
//! an index leaving its bounds.
//!
//! Errors name the path in the position (`state.units[12].at`) and the rule broken.

use super::Bunker;
use super::sequence::{Actions, Board, to_act};
use super::solitaire::{OBJECTIVES, TARGETS, TURNS, ZONES};
use super::state::*;
use crate::common::MILITIA_POOL;

/// The flags a counter may carry.
const FLAGS: u8 = BROKEN | MOVED | FIRED | RALLIED | PANIC | HIDDEN;

/// Counters of one side in one region while a combat or a forced move is under way (a region
/// may briefly hold more than its 3.0 limit: an assault's attackers moving in, a retreat
/// waiting for its destination). Nothing in play exceeds this.
pub const UNSETTLED_STACK: u8 = 6;

fn err<T>(path: impl std::fmt::Display, rule: impl std::fmt::Display) -> Result<T, String> {
    Err(format!("state.{path}: {rule}"))
}

/// No combat, reorganization or forced move in progress: the 3.0 limits and the separation
/// of the two sides hold exactly.
pub fn settled(s: &State) -> bool {
    s.tasks.is_empty() && !matches!(s.phase, Phase::Reorg { .. } | Phase::Assault { .. })
}

/// Every invariant except "someone has a legal action" (which needs the rules to run, see
/// [`validate`]).
pub fn check(g: &Bunker, s: &State) -> Result<(), String> {
    let n = g.data.map.n() as u8;
    let region_ok = |r: u8| r < n || r == MUSTER;
    check_units(g, s, n)?;
    check_deck(g, s)?;
    check_tracks(g, s, n)?;
    check_solo(s)?;

    // Sets of counters name real counters.
    let live: Units = if s.units.len() >= 128 {
        u128::MAX
    } else {
        (1u128 << s.units.len()) - 1
    };
    for (path, m) in [
        ("sel", s.sel),
        ("fight.att", s.fight.att),
        ("fight.def", s.fight.def),
    ] {
        if m & !live != 0 {
            return err(
                path,
                format!(
                    "counter {} does not exist (there are {})",
                    127 - (m & !live).leading_zeros(),
                    s.units.len()
                ),
            );
        }
    }
    if s.group != 255 && !region_ok(s.group) {
        return err("group", "no such region (255 for none)");
    }

    // Tasks name real counters, regions and sides.
    let unit_ok = |u: u8| (u as usize) < s.units.len();
    for (i, t) in s.tasks.iter().enumerate() {
        let bad = match *t {
            Task::Hits {
                side, region, n, ..
            } => {
                if side > 1 {
                    Some("side must be 0 (Patriot) or 1 (British)")
                } else if !region_ok(region) {
                    Some("no such region")
                } else if n > 24 {
                    Some("at most 24 hits")
                } else {
                    None
                }
            }
            Task::Scatter { region } => (!region_ok(region)).then_some("no such region"),
            // 5.3: fire spreads from a burning town region (only town regions burn, 4.6).
            Task::Spread { from } => (from >= n || s.ablaze >> from & 1 == 0)
                .then_some("fire spreads only from a burning town region (5.3)"),
            Task::Flee { unit, steps } => {
                if !unit_ok(unit) {
                    Some("no such counter")
                } else if !(s.units[unit as usize].side == PATRIOT
                    && matches!(s.units[unit as usize].kind, Kind::Militia | Kind::Minuteman))
                {
                    Some("only Patriot militia and Minutemen flee toward the Muster Box (9.1, 9.2)")
                } else if steps > 6 {
                    Some("a flight is at most 6 regions (9.1, 9.2)")
                } else {
                    None
                }
            }
            Task::Evacuate { unit } => (!unit_ok(unit)).then_some("no such counter"),
            Task::Retreat { unit, origin } => {
                if !unit_ok(unit) {
                    Some("no such counter")
                } else if !region_ok(origin) {
                    Some("no such region")
                } else {
                    None
                }
            }
            Task::AssaultStep | Task::NextTurn => None,
        };
        if let Some(b) = bad {
            return err(format_args!("tasks[{i}]"), b);
        }
        if let Task::Flee { unit, .. } | Task::Evacuate { unit } | Task::Retreat { unit, .. } = *t {
            if !s.units[unit as usize].in_play() {
                return err(
                    format_args!("tasks[{i}]"),
                    "the counter that must move is not on the map",
                );
            }
        }
    }

    check_phase(g, s, n)?;
    check_board(g, s, n)?;
    check_step(g, s, n)?;
    Ok(())
}

/// [`check`], then: a live game has a side to act with at least one legal action.
pub fn validate(g: &Bunker, s: &State) -> Result<(), String> {
    check(g, s)?;
    if s.ended.is_none() && to_act(s).is_some() {
        let mut out = Actions::new();
        g.legal(s, &mut out);
        if out.is_empty() {
            return err(
                "phase",
                format!(
                    "{:?} offers no decision in this position (a live game always has one)",
                    s.phase
                ),
            );
        }
    }
    Ok(())
}

fn check_units(g: &Bunker, s: &State, n: u8) -> Result<(), String> {
    let roster = g.roster(s.mode);
    if s.units.len() != roster.len() {
        return err(
            "units",
            format!(
                "the {} scenario has {} counters, not {} (12.1, 12.2)",
                s.mode.id(),
                roster.len(),
                s.units.len()
            ),
        );
    }
    for (i, (u, r)) in s.units.iter().zip(roster).enumerate() {
        let at = |m: &str| err::<()>(format_args!("units[{i}]"), m);
        if u.kind != r.kind || u.side != r.side {
            return err(
                format_args!("units[{i}]"),
                format!(
                    "counter {i} of the roster is a {} {:?}, not a {} {:?}",
                    SIDE_IDS[r.side as usize & 1],
                    r.kind,
                    SIDE_IDS.get(u.side as usize).unwrap_or(&"?"),
                    u.kind
                ),
            );
        }
        if u.kind == Kind::Leader && u.value != r.value {
            return at("a leader's value is its place in the leader list, fixed by the roster");
        }
        if !(u.at < n || matches!(u.at, MUSTER | PENDING | REMOVED | SETUP | COPPS | UNUSED)) {
            return err(
                format_args!("units[{i}].at"),
                format!(
                    "no location {} (regions 0-{}, 60 muster, 61 pending, 62 removed, 63 setup, 64 copps, 65 unused)",
                    u.at,
                    n - 1
                ),
            );
        }
        if u.flags & !FLAGS != 0 {
            return err(format_args!("units[{i}].flags"), "unknown flag bits");
        }
        if u.has(HIDDEN) && u.kind != Kind::Militia {
            return err(
                format_args!("units[{i}].flags"),
                "only militia have a hidden strength (4.1)",
            );
        }
        // 9.1: Panic markers go on broken Patriot militia and Minutemen, and stay on broken
        // units (a panicked unit may not rally).
        if u.has(PANIC)
            && !(u.side == PATRIOT
                && matches!(u.kind, Kind::Militia | Kind::Minuteman)
                && u.broken())
        {
            return err(
                format_args!("units[{i}].flags"),
                "only broken Patriot militia and Minutemen panic (9.1)",
            );
        }
        match u.kind {
            Kind::Militia if u.value > 2 => {
                return err(
                    format_args!("units[{i}].value"),
                    "militia strength is 0, 1 or 2 (4.1)",
                );
            }
            Kind::Militia | Kind::Leader => {}
            _ if u.value != 0 => {
                return err(
                    format_args!("units[{i}].value"),
                    "only militia and leaders have a value",
                );
            }
            _ => {}
        }
        if (u.kind == Kind::Battery) != (u.at == COPPS) {
            return at("the Copp's Hill Battery is always in Boston, and nothing else is (4.4)");
        }
        if u.kind == Kind::Battery && u.flags & !(FIRED | MOVED) != 0 {
            return at("the Copp's Hill Battery never takes hits or panics (4.4)");
        }
        if u.side == BRITISH && u.at == MUSTER {
            return at("no British counter enters the Muster Box (3.2)");
        }
        if u.side == PATRIOT && g.is_zone(u.at) {
            return at("Patriot counters never enter a Landing Zone (3.5)");
        }
        if u.arrive > 10 {
            return err(format_args!("units[{i}].arrive"), "turn 1 to 10");
        }
        if u.zone > 6 {
            return err(
                format_args!("units[{i}].zone"),
                "landing zone 1 to 6, 0 for none",
            );
        }
        if u.at == PENDING && u.arrive == 0 {
            return err(
                format_args!("units[{i}].arrive"),
                "a counter on the turn track has a turn of arrival (12.1)",
            );
        }
    }
    // The militia pieces: those drawn and those in the cup are the 21 of 15.1.
    for v in 0..3u8 {
        let drawn = s
            .units
            .iter()
            .filter(|u| u.kind == Kind::Militia && !u.has(HIDDEN) && u.value == v)
            .count();
        if drawn + s.pool.0[v as usize] as usize > MILITIA_POOL[v as usize] as usize {
            return err(
                "pool",
                format!(
                    "{drawn} militia of strength {v} drawn and {} in the cup; there are {} (4.1, 12.1)",
                    s.pool.0[v as usize], MILITIA_POOL[v as usize]
                ),
            );
        }
    }
    Ok(())
}

fn check_deck(g: &Bunker, s: &State) -> Result<(), String> {
    // The scenario's cards (12.1: ten cards; 12.2: those without hash marks), each exactly
    // once between the draw pile and the discards.
    let want: Vec<u8> = g
        .data
        .cards
        .iter()
        .filter(|c| !s.mode.solitaire() || c.hash == 0)
        .map(|c| c.id)
        .collect();
    let mut seen = Vec::new();
    for (path, pile) in [
        ("deck.draw", &s.deck.draw),
        ("deck.discard", &s.deck.discard),
    ] {
        for (i, c) in pile.iter().enumerate() {
            if !want.contains(c) {
                return err(
                    format_args!("{path}[{i}]"),
                    format!("card {c} is not a card of this scenario (12.1, 12.2: {want:?})"),
                );
            }
            if seen.contains(c) {
                return err(
                    format_args!("{path}[{i}]"),
                    format!("card {c} appears twice (2.0: each card once)"),
                );
            }
            seen.push(*c);
        }
    }
    if let Some(c) = want.iter().find(|c| !seen.contains(c)) {
        return err(
            "deck",
            format!("card {c} is missing (2.0: every card is in the draw pile or the discards)"),
        );
    }
    if s.deck
        .known
        .iter()
        .any(|k| *k as usize > s.deck.draw.len().min(2))
    {
        return err(
            "deck.known",
            "at most the top two cards of the draw pile are known",
        );
    }
    if s.card != 0 {
        if !want.contains(&s.card) {
            return err(
                "card",
                format!("card {} is not a card of this scenario", s.card),
            );
        }
        if s.deck.discard.last() != Some(&s.card) {
            return err(
                "card",
                "the turn's card is the one last drawn (the top of the discards, 5.1)",
            );
        }
    }
    Ok(())
}

fn check_tracks(g: &Bunker, s: &State, n: u8) -> Result<(), String> {
    if s.ammo > 24 {
        return err("ammo", "the ammunition track runs 0 to 24 (8.0)");
    }
    if s.morale.iter().any(|m| *m > 24) {
        return err("morale", "the morale tracks run 0 to 24 (9.0)");
    }
    // 9.0, 9.2, 9.3: a side is demoralized exactly when its morale has reached 0 (it never
    // recovers, and morale only rises by rallies, which a demoralized side may not use); it
    // has lost its Reserve Actions and may not Plan for more.
    for (i, side) in SIDE_IDS.iter().enumerate() {
        if s.demoralized[i] != (s.morale[i] == 0) {
            return err(
                format_args!("demoralized[{i}]"),
                format!("the {side} is demoralized exactly when his morale is 0 (9.2, 9.3)"),
            );
        }
        if s.demoralized[i] && s.reserves[i] != 0 {
            return err(
                format_args!("reserves[{i}]"),
                format!("a demoralized {side} has no Reserve Actions (9.2, 9.3)"),
            );
        }
    }
    if s.demoralized == [true, true] && s.ended.is_none() {
        return err(
            "demoralized",
            "both sides demoralized end the game at once (9.4)",
        );
    }
    if s.actions.iter().any(|a| *a > 5) {
        return err("actions", "the action tracks run 0 to 5 (5.1)");
    }
    if s.reserves.iter().any(|r| *r > 2) {
        return err("reserves", "at most 2 Reserve Actions (5.2)");
    }
    if s.fleet > 2 {
        return err("fleet", "box 0 Mystic, 1 Boston Harbor, 2 Charles (4.5)");
    }
    if s.mover > 1 {
        return err("mover", "0 (Patriot) or 1 (British)");
    }
    let (lo, hi) = if s.mode.solitaire() {
        (5, 10)
    } else {
        (10, 10)
    };
    if !(lo..=hi).contains(&s.last_turn) {
        return err(
            "last_turn",
            format!("{lo} to {hi} in this scenario (5.3, 12.3, 12.4)"),
        );
    }
    if s.turn == 0 || s.turn > s.last_turn {
        return err("turn", "turn 1 to the last turn (5.3)");
    }
    let regions = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    if s.ablaze & !(g.data.map.town & regions) != 0 {
        return err("ablaze", "only town regions burn (4.6)");
    }
    if s.staged & !(g.data.map.staging & regions) != 0 {
        return err("staged", "only staging areas have a Staging Number (3.5)");
    }
    Ok(())
}

fn check_solo(s: &State) -> Result<(), String> {
    let o = &s.solo;
    if o.objective as usize >= OBJECTIVES.len() {
        return err(
            "solo.objective",
            format!("0 to {} (12.3, 12.4)", OBJECTIVES.len() - 1),
        );
    }
    if o.targets >> TARGETS.len() != 0 {
        return err(
            "solo.targets",
            "a mask of the five objective targets (12.3)",
        );
    }
    if o.zones & !0b0111_1110 != 0 {
        return err("solo.zones", "a mask of landing zones 1 to 6");
    }
    if o.setup > 4 {
        return err("solo.setup", "Patriot set-up 1 to 4, 0 before it is chosen");
    }
    if !s.mode.solitaire() && *o != Solo::default() {
        return err("solo", "only the solitaire scenarios have an objective");
    }
    Ok(())
}

fn check_phase(g: &Bunker, s: &State, n: u8) -> Result<(), String> {
    let region_ok = |r: u8| r < n || r == MUSTER;
    // 10.0: the game is over exactly when its result is recorded.
    if matches!(s.phase, Phase::Over) != s.ended.is_some() {
        return err(
            "phase",
            "the phase is \"over\" exactly when \"ended\" is present",
        );
    }
    if let Some(e) = s.ended {
        if e.winner > 1 {
            return err("ended.winner", "0 (Patriot) or 1 (British)");
        }
        if e.why > 2 {
            return err(
                "ended.why",
                "0 turns over, 1 both sides demoralized, 2 objective met",
            );
        }
        if !s.tasks.is_empty() {
            return err("tasks", "nothing is left to do once the game is over");
        }
    }
    // (An objective is also chosen again when the British upgrade it, 12.3.)
    let setup = matches!(
        s.phase,
        Phase::SetupBritish | Phase::SetupPatriot | Phase::Focus
    );
    if setup && s.turn != 1 {
        return err("phase", "the set-up comes before turn 1 (12.1, 12.4)");
    }
    let solo_only = matches!(
        s.phase,
        Phase::Objective | Phase::ThreePick | Phase::ZonePick | Phase::Focus
    );
    if solo_only && !s.mode.solitaire() {
        return err(
            "phase",
            "objectives and the defence focus are solitaire steps (12.3, 12.4)",
        );
    }
    if matches!(s.phase, Phase::SetupBritish | Phase::SetupPatriot) && s.mode.solitaire() {
        return err("phase", "the solitaire set-up follows the objective (12.2)");
    }
    // During the set-up (12.1-12.4) the British stand only in landing zones and staging areas
    // and the Patriots only outside them, so that neither side's set-up can land on the other.
    let in_setup = matches!(
        s.phase,
        Phase::SetupBritish | Phase::SetupPatriot | Phase::Focus
    ) || (s.turn == 1
        && matches!(
            s.phase,
            Phase::Objective | Phase::ThreePick | Phase::ZonePick
        )
        && s.units.iter().any(|u| u.at == SETUP));
    if in_setup {
        for (i, u) in s.units.iter().enumerate() {
            if u.at < n && (u.side == BRITISH) != (g.is_zone(u.at) || g.is_staging(u.at)) {
                return err(
                    format_args!("units[{i}].at"),
                    "during the set-up the British stand only in landing zones and staging areas, the Patriots only outside them (12.1-12.4)",
                );
            }
        }
    }
    if let Phase::Volley { from, to, free } = s.phase {
        if from >= n || to >= n || from == to {
            return err("phase", "a volley fires from one region into another (6.1)");
        }
        let holds = |side: u8, r: u8| s.units.iter().any(|u| u.side == side && u.at == r);
        if !holds(s.mover, from) || !holds(1 - s.mover, to) {
            return err(
                "phase",
                "a volley fires from a region of the mover's counters at one holding the enemy (6.1)",
            );
        }
        let range = if s.mover == PATRIOT && s.ammo == 0 {
            1
        } else {
            2
        };
        if g.dist(from, to) > range || !g.sees(&Board::of(s), from, to) {
            return err(
                "phase",
                "a volley fires at most two regions (one without ammunition) along a line of sight (6.1, 7.2)",
            );
        }
        if free && s.mode != Mode::SolitairePatriot {
            return err(
                "phase.free",
                "only the 12.4 British Final Fire volleys without an action",
            );
        }
    }
    let bad = match s.phase {
        Phase::Volley { from, to, .. } => !(region_ok(from) && to < n),
        Phase::Move { from, .. } => !region_ok(from),
        Phase::Reorg { a, b } => !(a < n && b < n),
        Phase::Rally { region } => !region_ok(region),
        Phase::Land { zone, to } => !(zone < n && to < n),
        Phase::Bombard { which } => which > 1,
        Phase::Assault { .. } => {
            let f = s.fight;
            !(region_ok(f.from) && f.to < n && f.attacker < 2)
        }
        _ => false,
    };
    if bad {
        return err("phase", "names a region that does not exist");
    }
    if let Phase::Assault { .. } = s.phase {
        let f = s.fight;
        for u in bits(f.att) {
            if s.units[u as usize].side != f.attacker {
                return err("fight.att", format!("counter {u} is not the attacker's"));
            }
        }
        for u in bits(f.def) {
            if s.units[u as usize].side == f.attacker {
                return err("fight.def", format!("counter {u} is the attacker's own"));
            }
        }
    }
    check_solo_phase(s)?;
    Ok(())
}

/// The solitaire objective against the phase and the turn track (12.3, 12.4).
fn check_solo_phase(s: &State) -> Result<(), String> {
    if !s.mode.solitaire() {
        return Ok(());
    }
    let o = s.solo.objective;
    // 12.3 lists objectives 1-6 for the British player's choice; 12.4 rolls among its own
    // list (numbered 1, 2, 3, 7 and 8 here, see `solitaire.rs`).
    let offered: &[u8] = if s.mode == Mode::SolitaireBritish {
        &[0, 1, 2, 3, 4, 5, 6]
    } else {
        &[0, 1, 2, 3, 7, 8]
    };
    if !offered.contains(&o) {
        return err(
            "solo.objective",
            format!(
                "objective {o} is not one of the {} scenario (12.3, 12.4)",
                s.mode.id()
            ),
        );
    }
    // The objective is chosen (12.3) or rolled (12.4) before the set-up, and never undone.
    let choosing = matches!(s.phase, Phase::Objective | Phase::Focus);
    if (o == 0) != choosing {
        return err(
            "solo.objective",
            "no objective only while it is chosen or rolled, before the set-up (12.3, 12.4)",
        );
    }
    // The objective sets the landing zones (12.2 A); "any three" picks three objectives and
    // then its zones up to three (12.3), keeping those of the objective it upgrades.
    let (targets, zones) = (s.solo.targets.count_ones(), s.solo.zones.count_ones());
    let picked = match (o, s.phase) {
        (0, _) => s.solo.targets == 0 && s.solo.zones == 0 && s.solo.setup == 0,
        (6, Phase::ThreePick) => targets < 3 && zones <= 2,
        (6, Phase::ZonePick) => targets == 3 && zones < 3,
        (6, _) => targets == 3 && zones == 3,
        _ => s.solo.targets == 0 && s.solo.zones == ZONES[o as usize],
    };
    if !picked {
        return err(
            "solo",
            format!(
                "objective {o} has the landing zones and targets it sets or picks (12.2, 12.3, 12.4)"
            ),
        );
    }
    let setting_up = o == 6 && matches!(s.phase, Phase::ThreePick | Phase::ZonePick);
    if o != 0 && !setting_up && !(1..=4).contains(&s.solo.setup) {
        return err(
            "solo.setup",
            "the Patriot defence set-up follows the objective (12.3, 12.4)",
        );
    }
    if s.last_turn != TURNS[o as usize] {
        return err(
            "last_turn",
            format!(
                "the objective sets the last turn: {} for objective {o} (12.3, 12.4)",
                TURNS[o as usize]
            ),
        );
    }
    match s.phase {
        Phase::Objective if s.mode != Mode::SolitaireBritish || s.turn != 1 => err(
            "phase",
            "only the 12.3 British player chooses an objective, before turn 1 begins",
        ),
        Phase::Focus if s.mode != Mode::SolitairePatriot => err(
            "phase",
            "only the 12.4 Patriot player chooses a defence focus",
        ),
        Phase::ThreePick | Phase::ZonePick if s.mode != Mode::SolitaireBritish || o != 6 => err(
            "phase",
            "objectives and zones are picked only for the 12.3 objective 6, \"any three\"",
        ),
        _ => Ok(()),
    }
}

/// The step under way against the board (6.1-6.10): what was true of the board when its
/// action began still holds while its counters are picked, since nothing moves but them;
/// the regions it names are those its action may use, and the counters picked are the
/// mover's, where the action takes them from.
fn check_step(g: &Bunker, s: &State, n: u8) -> Result<(), String> {
    let map = &g.data.map;
    let holds = |side: u8, r: u8| s.units.iter().any(|u| u.side == side && u.at == r);
    let holds_mil = |side: u8, r: u8| {
        s.units
            .iter()
            .any(|u| u.side == side && u.at == r && u.kind.military())
    };
    let adjacent = |a: u8, b: u8| a < n && map.regions[a as usize].adj >> b & 1 == 1;
    let ablaze = |r: u8| r < 64 && s.ablaze >> r & 1 == 1;
    let me = s.mover;
    // Each picked counter passes `ok`, or the step names it.
    let picked = |rule: &str, ok: &dyn Fn(u8, &Unit) -> bool| -> Result<(), String> {
        for u in bits(s.sel) {
            if !ok(u, &s.units[u as usize]) {
                return err("sel", format!("counter {u}: {rule}"));
            }
        }
        Ok(())
    };
    // The pick steps: the action's counters are chosen, nothing else is being resolved.
    let picking = matches!(
        s.phase,
        Phase::Volley { .. }
            | Phase::Move { .. }
            | Phase::Reorg { .. }
            | Phase::Rally { .. }
            | Phase::Land { .. }
    );
    if !s.tasks.is_empty() && s.sel != 0 {
        return err(
            "sel",
            "nothing is picked while tasks are resolved (the first task is decided first)",
        );
    }
    if picking && !s.tasks.is_empty() {
        return err(
            "tasks",
            format!(
                "nothing is resolved while the counters of {:?} are picked (5.2)",
                s.phase
            ),
        );
    }
    let picks = matches!(
        s.phase,
        Phase::Volley { .. }
            | Phase::Move { .. }
            | Phase::Reorg { .. }
            | Phase::Land { .. }
            | Phase::Assault { .. }
    );
    if !picks && s.sel != 0 {
        return err(
            "sel",
            "counters are picked only in a volley, move, reorganization, landing or assault",
        );
    }
    let british_only = matches!(
        s.phase,
        Phase::Bombard { .. } | Phase::Land { .. } | Phase::FinalFire
    ) || matches!(s.phase, Phase::Volley { free: true, .. });
    if british_only && me != BRITISH {
        return err(
            "mover",
            "Bombard, Land Troops and the Final Fire are British actions (6.4, 6.10, 12.4)",
        );
    }
    if s.phase == Phase::FinalFire && s.mode != Mode::SolitairePatriot {
        return err("phase", "the British Final Fire is a 12.4 step");
    }
    match s.phase {
        Phase::Reinforce => {
            let waiting = s
                .units
                .iter()
                .any(|u| u.side == BRITISH && u.at == PENDING && u.arrive == s.turn);
            if s.mode.solitaire() || !waiting {
                return err(
                    "phase",
                    "a landing zone is chosen for British reinforcements arriving this turn (12.1, 11.3)",
                );
            }
        }
        Phase::Panic if s.morale[PATRIOT as usize] > 12 => {
            return err(
                "phase",
                "militia check for panic only while the Patriot morale is at 12 or below (9.1)",
            );
        }
        Phase::Volley { from, .. } => {
            if g.is_zone(from) {
                return err("phase.from", "no volley from a landing zone (3.5, 6.1)");
            }
            picked(
                "a volley fires only the mover's units in the firing region that may fire (6.1, 9.1)",
                &|u, x| x.at == from && g.can_volley(s, u, me),
            )?;
            if s.sel.count_ones() > g.fire_cap(s, from) as u32 {
                return err("sel", "at most three units fire from a staging area (3.5)");
            }
            let boost_ok = s.options.more_ammo && me == PATRIOT && s.sel != 0 && s.ammo >= 2;
            if s.count > 1 || (s.count == 1 && !boost_ok) {
                return err(
                    "count",
                    "0, or 1 once the Patriot has bought the extra die (11.2)",
                );
            }
        }
        Phase::Move { from, exempt } => {
            if g.is_zone(from) {
                return err(
                    "phase.from",
                    "counters leave a landing zone only by Land Troops (3.5, 6.10)",
                );
            }
            picked(
                "the counters that moved are the mover's, with a Moved marker (6.5)",
                &|_, x| x.side == me && x.has(MOVED),
            )?;
            let military = bits(s.sel)
                .filter(|&u| s.units[u as usize].kind.military())
                .count();
            if s.count as usize != military {
                return err("count", "the number of units moved so far (3.5)");
            }
            let leaders = s
                .units
                .iter()
                .filter(|u| u.kind == Kind::Leader && u.side == PATRIOT && u.at <= MUSTER)
                .count();
            if exempt > 0
                && (!s.mode.solitaire()
                    || from != MUSTER
                    || me != PATRIOT
                    || exempt as usize > leaders)
            {
                return err(
                    "phase.exempt",
                    "only Patriot leaders leaving the Muster Box spare militia the Neck check, one each (12.2)",
                );
            }
        }
        Phase::Reorg { a, b } => {
            let open = |r: u8| map.land >> r & 1 == 1 && !ablaze(r) && !holds(1 - me, r);
            if !(a < b && adjacent(a, b) && open(a) && open(b)) {
                return err(
                    "phase",
                    "a reorganization shifts counters between two adjacent land regions free of the enemy and of fire (6.8, 6.5)",
                );
            }
            picked(
                "the counters shifted are the mover's, from the two regions, without a Moved or Panic marker (6.8, 9.1)",
                &|_, x| {
                    x.side == me
                        && (x.at == a || x.at == b)
                        && !x.has(MOVED | PANIC)
                        && x.kind != Kind::Battery
                },
            )?;
        }
        Phase::Rally { region }
            if g.is_zone(region) || !holds(me, region) || s.demoralized[me as usize] =>
        {
            return err(
                "phase",
                "a rally is in a region of the mover's counters, never by a demoralized side (6.7, 9.2, 9.3)",
            );
        }
        Phase::Land { zone, to } => {
            let staging = map.staging >> to & 1 == 1;
            if !(g.is_zone(zone)
                && staging
                && adjacent(zone, to)
                && !holds(PATRIOT, to)
                && !ablaze(to))
            {
                return err(
                    "phase",
                    "troops land from a landing zone into an adjacent staging area free of Patriots and of fire (6.10, 3.5)",
                );
            }
            picked(
                "the counters landing are British, in the landing zone, without a Moved marker (6.10)",
                &|_, x| x.side == BRITISH && x.at == zone && !x.has(MOVED),
            )?;
            let military = bits(s.sel)
                .filter(|&u| s.units[u as usize].kind.military())
                .count();
            if military > g.transport(s, zone) as usize {
                return err(
                    "sel",
                    "no more units land than the zone's transport number (3.5)",
                );
            }
        }
        Phase::Assault { stage } => {
            let f = s.fight;
            if f.attacker != me {
                return err("fight.attacker", "the mover is the one assaulting (6.2)");
            }
            if f.from >= n
                || g.is_zone(f.from)
                || map.land >> f.to & 1 == 0
                || !adjacent(f.from, f.to)
            {
                return err(
                    "fight",
                    "an assault is launched from a region into an adjacent land region (6.2)",
                );
            }
            let dfd = 1 - f.attacker;
            if matches!(stage, Stage::Withdraw | Stage::DefFire) && dfd != PATRIOT {
                return err(
                    "phase.stage",
                    "only a Patriot defender withdraws before combat or chooses the free fire (7.1, 6.2)",
                );
            }
            // 6.2: the attacker falls back to the region the assault was launched from, so
            // that region keeps room for the attackers still in the fight (3.0).
            let back = s
                .units
                .iter()
                .enumerate()
                .filter(|(i, u)| {
                    u.side == f.attacker
                        && u.kind.military()
                        && (u.at == f.from || (u.at == f.to && f.att >> i & 1 == 1))
                })
                .count();
            if back > g.cap(f.attacker, f.from) as usize {
                return err(
                    "fight",
                    format!(
                        "{back} {} units would fall back to {}: at most {} (6.2, 3.0)",
                        SIDE_IDS[f.attacker as usize],
                        g.region_id(f.from),
                        g.cap(f.attacker, f.from)
                    ),
                );
            }
            // In an assault, hits are taken in the assaulted region (6.2).
            if let Some(i) = s
                .tasks
                .iter()
                .position(|t| matches!(*t, Task::Hits { region, .. } if region != f.to))
            {
                return err(
                    format_args!("tasks[{i}]"),
                    "an assault's hits are taken in the assaulted region (6.2)",
                );
            }
            if s.tasks.is_empty() {
                // (The rounds run as tasks, with the stage before them.)
                let before = matches!(stage, Stage::Select | Stage::Withdraw | Stage::DefFire);
                if before != (f.round == 0) {
                    return err(
                        "fight.round",
                        "round 0 until the free defensive fire, then the rounds of combat (6.2)",
                    );
                }
                // The assault is chosen against a region of enemy counters (the attackers move
                // in once they are picked), and the free fire
                // is asked for right after the check that both sides still have units there.
                // (After a round, flights of a side demoralized by its hits, 9.2, may leave
                // the region to one side before the retreats are asked for.)
                let ok = match stage {
                    Stage::Select => {
                        f.att == 0 && f.def == 0 && holds(dfd, f.to) && !holds(f.attacker, f.to)
                    }
                    Stage::DefFire => holds_mil(f.attacker, f.to) && holds_mil(dfd, f.to),
                    _ => true,
                };
                if !ok {
                    return err(
                        "fight",
                        format!(
                            "an assault's {stage:?} step is taken where the defender's counters are, the attacker's units in it once they have moved in (6.2)"
                        ),
                    );
                }
                let from_pool = |u: u8, x: &Unit| x.at == f.from && g.can_assault(s, u, me);
                let in_fight = |u: u8, x: &Unit, side: u8, m: Units| {
                    x.side == side && x.at == f.to && m >> u & 1 == 1
                };
                match stage {
                    Stage::Select => picked(
                        "the assaulting counters are the attacker's in the region of launch that have not moved or fired (6.2)",
                        &from_pool,
                    )?,
                    Stage::Withdraw | Stage::DefBack => picked(
                        "the counters retreating are the defender's in the assaulted region (7.1)",
                        &|u, x| in_fight(u, x, dfd, f.def),
                    )?,
                    Stage::AttBack => picked(
                        "the counters falling back are the attacker's in the assaulted region (7.1)",
                        &|u, x| in_fight(u, x, f.attacker, f.att),
                    )?,
                    Stage::DefFire => picked(
                        "nothing is picked for the free defensive fire (6.2)",
                        &|_, _| false,
                    )?,
                }
            }
        }
        _ => {}
    }
    Ok(())
}

fn check_board(g: &Bunker, s: &State, n: u8) -> Result<(), String> {
    // Military units per side and region (3.0).
    let mut count = [[0u8; 64]; 2];
    let mut any = [0u64; 2];
    for u in s.units.iter() {
        if u.at < n {
            any[u.side as usize & 1] |= 1 << u.at;
            if u.kind.military() {
                count[u.side as usize & 1][u.at as usize] += 1;
            }
        }
    }
    let settled = settled(s);
    // The regions a combat, reorganization or forced move under way is resolving.
    let mut involved = 0u64;
    if !settled {
        let mut add = |r: u8| {
            if r < n {
                involved |= 1 << r;
            }
        };
        match s.phase {
            Phase::Assault { .. } => {
                add(s.fight.to);
                add(s.fight.from);
            }
            Phase::Reorg { a, b } => {
                add(a);
                add(b);
            }
            _ => {}
        }
        for t in s.tasks.iter() {
            match *t {
                Task::Hits { region, .. } | Task::Scatter { region } => add(region),
                Task::Flee { unit, .. } | Task::Evacuate { unit } | Task::Retreat { unit, .. } => {
                    add(s.units[unit as usize].at)
                }
                Task::Spread { .. } | Task::AssaultStep | Task::NextTurn => {}
            }
        }
    }
    for side in 0..2u8 {
        for r in 0..n {
            let c = count[side as usize][r as usize];
            let cap = g.cap(side, r);
            let limit = if cap == 255 || involved >> r & 1 == 0 {
                cap
            } else {
                UNSETTLED_STACK
            };
            if c > limit {
                return err(
                    "units",
                    format!(
                        "{} {} units in {}: at most {cap} (3.0){}",
                        c,
                        SIDE_IDS[side as usize],
                        g.region_id(r),
                        if involved >> r & 1 == 0 {
                            ""
                        } else {
                            ", and never more than 6 during a combat"
                        }
                    ),
                );
            }
        }
    }
    // The two sides share a region only while a combat or forced move there is resolved.
    let shared = any[0] & any[1];
    if shared != 0 {
        let allowed = involved
            & !(match s.phase {
                Phase::Reorg { .. } if s.tasks.is_empty() => u64::MAX,
                _ => 0,
            });
        let wrong = shared & !allowed;
        if wrong != 0 {
            return err(
                "units",
                format!(
                    "Patriot and British counters share {} outside a combat (6.2, 7.1)",
                    g.region_id(wrong.trailing_zeros() as u8)
                ),
            );
        }
    }
    Ok(())
}
