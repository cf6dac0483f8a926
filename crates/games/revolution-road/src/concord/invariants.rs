//! The one set of checks a From Boston to Concord state must pass: used by `validate` (every
//! position read from a file or a client) and by the random-play tests after every decision.
//! The checks run in order: first the shape of the data (every index and count in range, so
//! the rules code may index without further checks), then the board (the pieces, markers,
//! tracks, deck and pool agree with the rules), then the phase (what is being decided fits the
//! board), and last that the side to act has a decision (or the game is over). Each error
//! names the member at fault and the rule it breaks.

use super::Concord;
use super::pieces::members;
use super::state::*;
use crate::common::MILITIA_POOL;

/// Largest VP entry we accept, in half points, on either sign (the whole game scores far less;
/// the bound keeps sums from overflowing).
const VP_BOUND: i16 = 1000;
/// Most unapplied hits a side may have pending (far more than any roll of the game's dice).
const HITS_BOUND: u8 = 64;

type R = Result<(), String>;

fn err<T>(path: impl std::fmt::Display, what: impl std::fmt::Display) -> Result<T, String> {
    Err(format!("{path}: {what}"))
}

/// Every check, in order. `Ok` means the rules code can work on the state without panicking
/// and the state is one the rules could reach.
pub fn check(g: &Concord, s: &State) -> R {
    shape(g, s)?;
    board(g, s)?;
    phase(g, s)?;
    decision(g, s)
}

/// Every index in range and every count within its bounds.
fn shape(g: &Concord, s: &State) -> R {
    let setup = g.setup(s);
    let map = &g.data.map;
    let n = map.regions.len();
    if s.units.len() != setup.roster.len() {
        return err(
            "units",
            format!(
                "the {} scenario has {} counters in roster order, not {}",
                s.mode.id(),
                setup.roster.len(),
                s.units.len()
            ),
        );
    }
    for (what, len) in [
        ("gather", s.gather.len()),
        ("arms", s.arms.len()),
        ("alert", s.alert.len()),
    ] {
        if len != n {
            return err(what, format!("one entry per region ({n}), not {len}"));
        }
    }
    for (i, u) in s.units.iter().enumerate() {
        let id = setup.roster[i].id.as_str();
        let p = format!("units[{i}] ({id})");
        match u.at {
            Loc::At(r) if r as usize >= n => return err(&p, format!("no region {r}")),
            Loc::Edge(e) if e > 2 => {
                return err(&p, "a Nightrider box is edge 0, 1 or 2 (6.12)");
            }
            _ => {}
        }
        if u.value > 2 {
            return err(&p, "militia strength is 0, 1 or 2 (4.1, 15.1)");
        }
    }
    for (v, (have, max)) in s.pool.0.iter().zip(MILITIA_POOL).enumerate() {
        if *have > max {
            return err(
                format!("pool[{v}]"),
                format!("the cup holds at most {max} pieces of strength {v} (15.1)"),
            );
        }
    }
    for (r, x) in s.gather.iter().enumerate() {
        if *x > MUSTER {
            return err(
                format!("gather[{r}]"),
                "0 (none), 1 (Gather) or 2 (Muster) (4.3)",
            );
        }
    }
    for (r, x) in s.arms.iter().enumerate() {
        if *x > ARMS_SEARCHED {
            return err(
                format!("arms[{r}]"),
                "0 (none), 1 (hidden) or 2 (searched) (4.7)",
            );
        }
    }
    let regions: Regions = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    for (what, m) in [
        ("ambushed", s.ambushed),
        ("sniped", s.sniped),
        ("british_in", s.british_in),
    ] {
        if m & !regions != 0 {
            return err(
                what,
                format!("a region set names a region beyond {}", n - 1),
            );
        }
    }
    let roster: Units = if s.units.len() >= 64 {
        u64::MAX
    } else {
        (1u64 << s.units.len()) - 1
    };
    let b = &s.battle;
    for (what, m) in [
        ("mustering", s.mustering),
        ("rallying", s.rallying),
        ("dropped", s.dropped),
        ("alerted_by", s.alerted_by),
        ("battle.attackers", b.attackers),
        ("battle.defenders", b.defenders),
        ("battle.retreating", b.retreating),
        ("battle.missed[0]", b.missed[0]),
        ("battle.missed[1]", b.missed[1]),
    ] {
        if m & !roster != 0 {
            return err(what, "a unit set names a unit not in the roster");
        }
    }
    if b.attacker > 1 {
        return err("battle.attacker", "a side is 0 (Patriot) or 1 (British)");
    }
    if b.region as usize >= n {
        return err("battle.region", format!("no region {}", b.region));
    }
    if b.from != 255 && b.from as usize >= n {
        return err(
            "battle.from",
            "an Assault's region, or 255 for an Attack (6.2)",
        );
    }
    if b.dest as usize >= n {
        return err("battle.dest", format!("no region {}", b.dest));
    }
    if b.pending.iter().any(|h| *h > HITS_BOUND) {
        return err("battle.pending", format!("at most {HITS_BOUND} hits"));
    }
    if s.mover > 1 {
        return err("mover", "a side is 0 (Patriot) or 1 (British) (5.2)");
    }
    if s.actions.iter().any(|a| *a > 5) {
        return err("actions", "an action track runs from 0 to 5 (2.0)");
    }
    if s.reserves.iter().any(|r| *r > 2) {
        return err("reserves", "at most 2 Reserve Actions (2.0)");
    }
    for (m, h) in s.hinder.iter().enumerate() {
        if let HinderAt::Map { region, turns } = *h {
            if region as usize >= n {
                return err(format!("hinder[{m}].region"), format!("no region {region}"));
            }
            if !(1..=2).contains(&turns) {
                return err(
                    format!("hinder[{m}].turns"),
                    "a Hinder marker stays 2 turns, then 1 (6.11)",
                );
            }
        }
    }
    for side in 0..2 {
        if s.vp.0[side].iter().any(|v| v.abs() > VP_BOUND) {
            return err(
                format!("vp[{side}]"),
                format!("each cause holds at most {VP_BOUND} half points"),
            );
        }
    }
    if let Some(e) = s.ended
        && e.winner > 1
    {
        return err("ended.winner", "a side is 0 (Patriot) or 1 (British)");
    }
    // The deck: every card of the scenario exactly once (2.0, 15.3, 15.4).
    let ids = g.deck_ids(s.mode);
    let mut seen = [false; 256];
    for (pile, cards) in [
        ("deck.draw", &s.deck.draw),
        ("deck.discard", &s.deck.discard),
    ] {
        for c in cards.iter() {
            if !ids.contains(c) {
                return err(
                    pile,
                    format!("card {c} is not a card of the {} deck", s.mode.id()),
                );
            }
            if std::mem::replace(&mut seen[*c as usize], true) {
                return err(pile, format!("card {c} appears twice (2.0)"));
            }
        }
    }
    if let Some(c) = ids.iter().find(|c| !seen[**c as usize]) {
        return err(
            "deck",
            format!("card {c} is missing: every card is in the draw pile or the discards (2.0)"),
        );
    }
    for side in 0..2 {
        let k = s.deck.known[side] as usize;
        if k > 2 || k > s.deck.draw.len() {
            return err(
                format!("deck.known[{side}]"),
                "Gather Intelligence shows at most the top two cards of the draw pile (6.14)",
            );
        }
    }
    if s.card != 0 && !ids.contains(&s.card) {
        return err(
            "card",
            format!("card {} is not a card of the {} deck", s.card, s.mode.id()),
        );
    }
    Ok(())
}

/// The pieces, markers and tracks agree with the rules.
fn board(g: &Concord, s: &State) -> R {
    let setup = g.setup(s);
    let map = &g.data.map;
    if s.turn < setup.first_turn || s.turn > setup.last_turn {
        return err(
            "turn",
            format!(
                "the {} game runs from turn {} to turn {}",
                s.mode.id(),
                setup.first_turn,
                setup.last_turn
            ),
        );
    }
    let mut revealed = [0u8; 3];
    let mut hidden_on_map = 0u8;
    for (i, u) in s.units.iter().enumerate() {
        let def = &setup.roster[i];
        let p = format!("units[{i}] ({})", def.id);
        let kind_ok = u.kind == def.kind || (def.kind == Kind::Hidden && u.kind == Kind::Militia);
        if !kind_ok {
            return err(&p, format!("kind {:?} does not match the roster", u.kind));
        }
        if u.kind == Kind::Militia {
            revealed[u.value as usize] += 1;
        } else if u.value != 0 {
            return err(
                &p,
                "only a revealed militia piece has a strength value (4.1)",
            );
        }
        if u.kind == Kind::Hidden && matches!(u.at, Loc::At(_)) {
            hidden_on_map += 1;
        }
        if u.flipped && matches!(u.kind, Kind::Hidden | Kind::Cannon) {
            return err(
                &p,
                "a hidden marker is revealed before it breaks, and the cannon is destroyed by a hit (4.1)",
            );
        }
        if u.since > s.turn {
            return err(&p, "captured or left the map on a turn still to come");
        }
        let british = def.side == BRITISH;
        match u.at {
            Loc::At(r) => {
                let region = &map.regions[r as usize];
                if region.alert_box && (british || !(u.kind.military() || u.kind == Kind::Leader)) {
                    return err(
                        &p,
                        format!(
                            "only Patriot units and leaders wait in the alert box {} (4.6)",
                            region.id
                        ),
                    );
                }
                if region.alert_box && s.alert[r as usize] && !u.under {
                    return err(
                        &p,
                        format!("units in {} are under its Alert marker (4.6)", region.id),
                    );
                }
                if r == map.boston && !british && !u.flipped && u.kind != Kind::Rider {
                    return err(&p, "no Patriot unit enters Boston (3.0)");
                }
            }
            Loc::Edge(_) if u.kind != Kind::Rider => {
                return err(&p, "only a Nightrider is in a Nightrider box (6.12)");
            }
            Loc::Edge(_) if u.flipped => {
                return err(&p, "a captured Nightrider is on the map (6.12)");
            }
            Loc::Pending if !g.is_percy(s, i as u8) => {
                return err(
                    &p,
                    "only Percy's reinforcements wait on the turn track (12.0)",
                );
            }
            Loc::Spare if def.kind != Kind::Hidden => {
                return err(&p, "only a hidden-militia slot may be spare");
            }
            Loc::Removed if matches!(u.kind, Kind::Son | Kind::Rider) && !u.flipped => {
                return err(
                    &p,
                    "Sons of Liberty and Nightriders leave the game only as captives (5.3)",
                );
            }
            _ => {}
        }
        if u.under && !matches!(u.at, Loc::At(_)) {
            return err(&p, "only a piece in a region is under a marker (4.3, 4.6)");
        }
    }
    for (v, (have, max)) in revealed.iter().zip(MILITIA_POOL).enumerate() {
        if have + s.pool.0[v] != max {
            return err(
                format!("pool[{v}]"),
                format!(
                    "{have} militia of strength {v} revealed and {} in the cup; they make {max} (15.1)",
                    s.pool.0[v]
                ),
            );
        }
    }
    if hidden_on_map > s.pool.len() {
        return err(
            "pool",
            "more hidden markers on the map than pieces in the cup to reveal them (4.1)",
        );
    }
    for r in 0..map.regions.len() {
        let region = &map.regions[r];
        // 4.3: Gather markers start where the map prints them (not at all in a scenario set up
        // without markers, 15.2); one only ever flips from Gather to Muster and comes off.
        let printed = if setup.markers {
            region.gather
        } else {
            NO_MARKER
        };
        if s.gather[r] != NO_MARKER && (printed == NO_MARKER || s.gather[r] < printed) {
            return err(
                format!("gather[{r}]"),
                if printed == NO_MARKER {
                    format!("{} has no Gather marker (4.3)", region.id)
                } else {
                    format!(
                        "the marker of {} starts Muster side up and never flips back (4.3)",
                        region.id
                    )
                },
            );
        }
        if !setup.markers && (s.arms[r] != ARMS_NONE || s.alert[r]) {
            return err(
                format!("{}[{r}]", if s.alert[r] { "alert" } else { "arms" }),
                format!(
                    "the {} scenario is set up without Hidden Arms and Alert markers (15.2)",
                    s.mode.id()
                ),
            );
        }
        if s.arms[r] != ARMS_NONE && map.regions[r].arms.is_none() {
            return err(
                format!("arms[{r}]"),
                format!("{} has no Hidden Arms marker (4.7)", map.regions[r].id),
            );
        }
        if s.alert[r] && !map.regions[r].alert_box {
            return err(
                format!("alert[{r}]"),
                format!("{} is not an alert box (4.6)", map.regions[r].id),
            );
        }
    }
    if s.british_in != g.british_regions(s) {
        return err(
            "british_in",
            "must be the regions holding British units (4.3)",
        );
    }
    for u in members(s.alerted_by) {
        if s.units[u as usize].kind != Kind::Rider {
            return err("alerted_by", format!("unit {u} is not a Nightrider (6.12)"));
        }
    }
    for u in members(s.mustering) {
        let x = s.units[u as usize];
        if x.kind != Kind::Minuteman || !matches!(x.at, Loc::At(_)) {
            return err(
                "mustering",
                format!("unit {u} is not a Minuteman on the map (4.3)"),
            );
        }
    }
    for (side, row) in s.vp.0.iter().enumerate() {
        if row.iter().map(|v| *v as i32).sum::<i32>().abs() > VP_BOUND as i32 {
            return err(format!("vp[{side}]"), "the VP track is out of bounds");
        }
    }
    // The VP for destroyed units and killed leaders match the enemy pieces out of the game
    // (the VP aid; 15.2 counts one point each in the solitaire game).
    let vp = g.data.vp;
    let (unit_v, leader_v) = if s.mode.solitaire() {
        (1, 1)
    } else {
        (vp.destroyed_unit, vp.killed_leader)
    };
    for side in [PATRIOT, BRITISH] {
        let lost = |leader: bool| {
            s.units
                .iter()
                .enumerate()
                .filter(|(i, u)| {
                    g.side_of(s, *i as u8) != side
                        && u.at == Loc::Removed
                        && (u.kind == Kind::Leader) == leader
                        && !matches!(u.kind, Kind::Son | Kind::Rider | Kind::Hidden)
                })
                .count() as i16
        };
        for (cause, want) in [
            (Cause::Destroyed, 2 * unit_v * lost(false)),
            (Cause::Killed, 2 * leader_v * lost(true)),
        ] {
            if s.vp.0[side as usize][cause as usize] != want {
                return err(
                    format!("vp[{side}][{}]", cause as usize),
                    format!(
                        "{} must be {want} half points for the enemy pieces removed",
                        CAUSE_NAMES[cause as usize]
                    ),
                );
            }
        }
    }
    if s.prescott_turn > setup.last_turn + 1 {
        return err("prescott_turn", "after the last turn (6.12)");
    }
    Ok(())
}

fn unit_ok(s: &State, path: &str, u: u8, want: &[Kind], rule: &str) -> Result<Unit, String> {
    match s.units.get(u as usize) {
        None => err(path, format!("no unit {u}")),
        Some(x) if !want.contains(&x.kind) => err(path, format!("unit {u} is not a {rule}")),
        Some(x) => Ok(*x),
    }
}

fn region_ok(g: &Concord, path: &str, r: u8) -> R {
    if r as usize >= g.data.map.regions.len() {
        return err(path, format!("no region {r}"));
    }
    Ok(())
}

fn units_ok(s: &State, path: &str, m: Units) -> R {
    if s.units.len() < 64 && m >> s.units.len() != 0 {
        return err(path, "a unit set names a unit not in the roster");
    }
    Ok(())
}

fn side_ok(path: &str, side: u8) -> R {
    if side > 1 {
        return err(path, "a side is 0 (Patriot) or 1 (British)");
    }
    Ok(())
}

/// Is this phase a step of an Attack, Assault or Charge (7.0, 7.1, 6.3)?
fn in_battle(p: &Phase) -> bool {
    matches!(
        p,
        Phase::Attackers
            | Phase::RetreatPick
            | Phase::RetreatTo { .. }
            | Phase::OpFire
            | Phase::Defenders
            | Phase::FireMode
            | Phase::AfterPick { .. }
            | Phase::Advance { .. }
            | Phase::Escort { .. }
            | Phase::ChargeLeaders { .. }
    )
}

/// Is this phase one of the other steps of an action with a battle record (`State::battle`):
/// the hits of an Attack, Assault, Charge, Snipe or OpFire (7.0, 6.3, 6.7, 7.1.3), a re-roll
/// (14.1), or the cannon breaking a unit before combat (4.1)?
fn battle_step(p: &Phase) -> bool {
    match p {
        Phase::Hits { then, .. } => *then != Then::MoveOn,
        Phase::Reroll { .. } => true,
        Phase::CannonBreak { in_move, .. } => !in_move,
        _ => false,
    }
}

/// Is this the retreat after combat (7.1.4), when the attackers may have left the battle?
fn after_combat_retreat(p: &Phase) -> bool {
    matches!(
        p,
        Phase::AfterPick { .. }
            | Phase::RetreatTo { mode: 1, .. }
            | Phase::Hits {
                then: Then::NextAfterRetreat,
                ..
            }
    )
}

/// The battle record fits the board: the attack is an action of the side in its round, the
/// attackers are the attacker's and stand where they attack from until the retreat after
/// combat, and while the attacker still picks them, one of them (or a unit that may join)
/// can carry the attack.
fn battle_fits(g: &Concord, s: &State, p: &Phase) -> R {
    let b = &s.battle;
    let atk_side = b.attacker;
    if atk_side != s.mover {
        return err(
            "battle.attacker",
            "an Attack, Assault, Charge or Snipe is an action of the side in its round (5.2)",
        );
    }
    for u in members(b.attackers) {
        if g.side_of(s, u) != atk_side {
            return err(
                "battle.attackers",
                format!("unit {u} is not the attacker's"),
            );
        }
    }
    for u in members(b.defenders) {
        if g.side_of(s, u) == atk_side {
            return err(
                "battle.defenders",
                format!("unit {u} is the attacker's, not the defender's"),
            );
        }
    }
    // 7.1, 6.3: the units retreating are all of the side retreating (the defender before
    // combat and after a Charge; after combat, the side whose retreat it is).
    let retreater = match *p {
        Phase::AfterPick { side } | Phase::RetreatTo { side, .. } | Phase::Hits { side, .. } => {
            side
        }
        _ => 1 - atk_side,
    };
    // 7.0: nothing retreats in the combat itself (from the choice of participants to the
    // hits of the dice); the retreat before combat is over or dropped, the one after it is
    // still to come (and a Charge's retreat follows its hits, 6.3).
    let in_combat = match *p {
        Phase::Defenders | Phase::FireMode | Phase::Reroll { .. } | Phase::CannonBreak { .. } => {
            true
        }
        Phase::Hits { then, .. } => matches!(
            then,
            Then::RollSimultaneous
                | Then::DefenderTakes
                | Then::AttackerFires
                | Then::AfterCombat
                | Then::ChargePatriot
                | Then::ChargeRetreat
        ),
        _ => false,
    };
    if in_combat && b.retreating != 0 {
        return err(
            "battle.retreating",
            "no unit retreats during the combat itself (7.0, 7.1)",
        );
    }
    for u in members(b.retreating) {
        if g.side_of(s, u) != retreater {
            return err(
                "battle.retreating",
                format!("unit {u} is not of the side retreating (7.1)"),
            );
        }
    }
    let map = &g.data.map;
    let assault = b.from != 255;
    if assault && !map.adjacent(b.from, b.region) {
        return err(
            "battle.from",
            "an Assault goes into an adjacent region (6.2)",
        );
    }
    if *p == Phase::Attackers {
        // 6.1, 6.2: the attacker picks units in the region it attacks from (the Assault's
        // origin), each able to join, and the attack needs a unit able to carry it.
        let src = if assault { b.from } else { b.region };
        for u in members(b.attackers) {
            let x = s.units[u as usize];
            if x.at != Loc::At(src) || !g.may_join_attack(s, u, assault) {
                return err(
                    "battle.attackers",
                    format!(
                        "unit {u} is not a unit in {} able to join the {} (6.1, 6.2)",
                        map.regions[src as usize].id,
                        if assault { "Assault" } else { "Attack" }
                    ),
                );
            }
        }
        let carrier = (0..s.units.len() as u8)
            .any(|u| s.units[u as usize].at == Loc::At(src) && g.can_attack_with(s, u, assault));
        if !carrier {
            return err(
                "battle.attackers",
                format!(
                    "no unbroken unit in {} able to carry the {} (6.1, 6.2, 7.0)",
                    map.regions[src as usize].id,
                    if assault { "Assault" } else { "Attack" }
                ),
            );
        }
    } else if !after_combat_retreat(p) {
        // Until the retreat after combat the attackers stay where they attack from (an
        // Assault's units move into the region once picked, 6.2), or are out of the game.
        for u in members(b.attackers) {
            let x = s.units[u as usize];
            let ok =
                matches!(x.at, Loc::At(r) if r == b.region || r == b.from) || x.at == Loc::Removed;
            if !ok {
                return err(
                    "battle.attackers",
                    format!("unit {u} is neither in the battle's region nor its origin (7.0, 7.1)"),
                );
            }
        }
    }
    Ok(())
}

/// The phase fits the board: every unit, region and side it names is real, and the unit it is
/// about may do what is asked of it.
fn phase(g: &Concord, s: &State) -> R {
    match (s.resume, s.phase) {
        (None, _) => {}
        (Some(Phase::Muster { .. } | Phase::Over), _) => {
            return err(
                "resume",
                "must be the decision a free move (4.3) interrupted",
            );
        }
        (Some(_), Phase::Muster { .. }) => {}
        (Some(_), _) => {
            return err("resume", "only while a Minuteman makes its free move (4.3)");
        }
    }
    if let Some(p) = s.resume {
        one_phase(g, s, &p, "resume")?;
    }
    one_phase(g, s, &s.phase, "phase")?;
    match (s.ended.is_some(), s.phase == Phase::Over) {
        (true, false) => {
            return err(
                "phase",
                "the game has ended (ended is set), so the phase is over",
            );
        }
        (false, true) => {
            return err(
                "ended",
                "the phase is over, so the game's end must be recorded",
            );
        }
        _ => {}
    }
    // 6.8: the units of a Rally are told when it ends, so none wait outside a Rally.
    if s.rallying != 0 && s.ended.is_none() && !matches!(s.phase, Phase::Rally { .. }) {
        return err(
            "rallying",
            "units wait to be told as rallied only during a Rally (6.8)",
        );
    }
    if s.mustering != 0 && s.ended.is_none() && !matches!(s.phase, Phase::Muster { .. }) {
        return err(
            "mustering",
            "Minutemen freed by a flipped Gather marker move at once (4.3)",
        );
    }
    Ok(())
}

fn one_phase(g: &Concord, s: &State, p: &Phase, at: &str) -> R {
    let map = &g.data.map;
    let path = |f: &str| format!("{at}.{f}");
    if in_battle(p) || battle_step(p) {
        battle_fits(g, s, p)?;
    }
    match *p {
        Phase::Riders { rider, ap, .. } => {
            if ap > 4 {
                return err(
                    path("riders.ap"),
                    "a Nightrider has four Activity Points (6.12)",
                );
            }
            if rider != 255 {
                let x = unit_ok(
                    s,
                    &path("riders.rider"),
                    rider,
                    &[Kind::Rider],
                    "Nightrider",
                )?;
                if x.flipped || x.under || !matches!(x.at, Loc::At(_) | Loc::Edge(_)) {
                    return err(
                        path("riders.rider"),
                        "the riding Nightrider is free on the map or in a Nightrider box (6.12)",
                    );
                }
            }
        }
        Phase::Muster { unit } => {
            unit_ok(
                s,
                &path("muster.unit"),
                unit,
                &[Kind::Minuteman],
                "Minuteman",
            )?;
            if s.mustering & (1u64 << unit) == 0 || s.mustering.trailing_zeros() != unit as u32 {
                return err(
                    path("muster.unit"),
                    "the first Minuteman waiting for its free move (4.3)",
                );
            }
        }
        Phase::Escort { picked } => units_ok(s, &path("escort.picked"), picked)?,
        Phase::Reroll { side, .. } => side_ok(&path("reroll.side"), side)?,
        Phase::Round { reserve } => {
            let me = s.mover as usize;
            if s.actions[me] == 0 {
                return err(
                    format!("{at}.round"),
                    "the side in its action round has an action left on its track (5.2)",
                );
            }
            if reserve && s.reserves[me] == 0 {
                return err(
                    format!("{at}.round.reserve"),
                    "an action paid from the reserve needs a Reserve Action (5.2)",
                );
            }
        }
        Phase::Over => {}
        Phase::Move {
            from,
            group,
            at: here,
            steps,
            hits,
            fire_hits,
            ..
        } => {
            region_ok(g, &path("move.from"), from)?;
            region_ok(g, &path("move.at"), here)?;
            units_ok(s, &path("move.group"), group)?;
            if steps == 0 && here != from {
                return err(
                    path("move.at"),
                    "a group is formed in the region the Move leaves, before its first step (6.4)",
                );
            }
            if hits > HITS_BOUND || fire_hits > HITS_BOUND {
                return err(path("move.hits"), format!("at most {HITS_BOUND} hits"));
            }
            for u in members(group) {
                if g.side_of(s, u) != s.mover {
                    return err(
                        path("move.group"),
                        format!("unit {u} is not the mover's (6.4)"),
                    );
                }
                // 6.4: the group moves together; a unit lost on the way is out of the game.
                let x = s.units[u as usize].at;
                if x != Loc::At(here) && x != Loc::Removed {
                    return err(
                        path("move.group"),
                        format!("unit {u} is not with its group in region {here} (6.4)"),
                    );
                }
            }
        }
        Phase::CannonBreak { region, .. } => region_ok(g, &path("cannon-break.region"), region)?,
        Phase::ForcedBreak { from, group } => {
            region_ok(g, &path("forced-break.from"), from)?;
            units_ok(s, &path("forced-break.group"), group)?;
        }
        Phase::MoveSon { unit, .. } => {
            let x = unit_ok(
                s,
                &path("move-son.unit"),
                unit,
                &[Kind::Son],
                "Son of Liberty",
            )?;
            if x.flipped || !matches!(x.at, Loc::At(_)) {
                return err(
                    path("move-son.unit"),
                    "a free Son of Liberty on the map (4.4)",
                );
            }
        }
        Phase::Assemble {
            from, to, group, ..
        } => {
            region_ok(g, &path("assemble.from"), from)?;
            region_ok(g, &path("assemble.to"), to)?;
            if !g.may_enter(s, PATRIOT, to) {
                return err(
                    path("assemble.to"),
                    "an Assemble goes into a region Patriots may enter (6.5, 3.0)",
                );
            }
            units_ok(s, &path("assemble.group"), group)?;
            // 6.5: a Patriot action into an adjacent region, with units that may move, picked
            // in the region they leave.
            if s.mover != PATRIOT || !map.adjacent(from, to) {
                return err(
                    path("assemble"),
                    "an Assemble is a Patriot action into an adjacent region (6.5)",
                );
            }
            for u in members(group) {
                if s.units[u as usize].at != Loc::At(from) || !g.can_move(s, u) {
                    return err(
                        path("assemble.group"),
                        format!("unit {u} is not a Patriot unit in the region that may move (6.5)"),
                    );
                }
            }
        }
        Phase::RetreatTo { side, mode } => {
            side_ok(&path("retreat-to.side"), side)?;
            if mode > 2 {
                return err(path("retreat-to.mode"), "0, 1 or 2 (7.1, 6.3)");
            }
        }
        Phase::AfterPick { side } => side_ok(&path("after-pick.side"), side)?,
        Phase::Hits {
            side,
            region,
            n,
            first,
            among,
            ..
        } => {
            side_ok(&path("hits.side"), side)?;
            region_ok(g, &path("hits.region"), region)?;
            // 7.0: the side allocates the hits it took, one by one; none left ends the step.
            if n == 0 {
                return err(path("hits.n"), "at least one hit to allocate (7.0)");
            }
            units_ok(s, &path("hits.first"), first)?;
            units_ok(s, &path("hits.among"), among)?;
        }
        Phase::Advance { picked } => units_ok(s, &path("advance.picked"), picked)?,
        Phase::ChargeLeaders { region, taken } => {
            region_ok(g, &path("charge-leaders.region"), region)?;
            if taken > 2 {
                return err(path("charge-leaders.taken"), "at most two leaders (6.3)");
            }
        }
        Phase::Ambush { region, picked } => {
            region_ok(g, &path("ambush.region"), region)?;
            units_ok(s, &path("ambush.picked"), picked)?;
            // 6.6: a Patriot action after the Shot (10.0), once per region and turn, on two
            // unbroken Regulars that moved into the region; the Patriot picks them one by one.
            if s.mover != PATRIOT || !s.shot || s.ambushed & (1u64 << region) != 0 {
                return err(
                    path("ambush"),
                    "an Ambush is a Patriot action after the Shot, once per region and turn (6.6, 10.0)",
                );
            }
            let targets = g.ambush_targets(s, region);
            if picked & !targets != 0 || picked.count_ones() > 1 {
                return err(
                    path("ambush.picked"),
                    "the first of the two moved, unbroken Regulars in the region (6.6)",
                );
            }
            if targets.count_ones() < 2 {
                return err(
                    path("ambush.region"),
                    "an Ambush needs two moved, unbroken Regulars in the region (6.6)",
                );
            }
        }
        Phase::Rally { region, .. } => region_ok(g, &path("rally.region"), region)?,
        Phase::RallyLeaders { region, .. } => region_ok(g, &path("rally-leaders.region"), region)?,
        Phase::SearchNext { region } => region_ok(g, &path("search-next.region"), region)?,
        Phase::Redraw { region, son } => {
            region_ok(g, &path("redraw.region"), region)?;
            unit_ok(s, &path("redraw.son"), son, &[Kind::Son], "Son of Liberty")?;
        }
        Phase::SonAway { unit, .. } => {
            let x = unit_ok(
                s,
                &path("son-away.unit"),
                unit,
                &[Kind::Son, Kind::Rider],
                "Son of Liberty or Nightrider",
            )?;
            if !matches!(x.at, Loc::At(_)) {
                return err(path("son-away.unit"), "the piece is on the map (8.2, 6.10)");
            }
        }
        Phase::Captives { unit, .. } => {
            let x = unit_ok(
                s,
                &path("captives.unit"),
                unit,
                &[Kind::Son, Kind::Rider],
                "Son of Liberty or Nightrider",
            )?;
            if !x.flipped || !matches!(x.at, Loc::At(_)) {
                return err(path("captives.unit"), "a captive on the map (5.3)");
            }
        }
        Phase::Attackers
        | Phase::RetreatPick
        | Phase::OpFire
        | Phase::Defenders
        | Phase::FireMode => {}
    }
    let _ = map;
    Ok(())
}

/// After a load: either the game is over or the side to act has at least one decision.
fn decision(g: &Concord, s: &State) -> R {
    if s.ended.is_none() && super::sequence::to_act(s).is_some() {
        let mut out = super::sequence::Actions::new();
        g.legal(s, &mut out);
        if out.is_empty() {
            return err(
                "phase",
                format!("{:?} offers no decision in this position", s.phase),
            );
        }
    }
    Ok(())
}
