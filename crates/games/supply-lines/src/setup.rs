//! §3.0-§3.2 Set-Up, and the checks of a position read from a file.

use crate::action::Action;
use crate::data::{Data, Kind};
use crate::state::{Activation, Area, Group, Order, Phase, Pick, SideId, State};
use crate::{crown, sequence, supply, victory};
use arrayvec::ArrayVec;
use muster_core::{Dice, Key};

/// A new game: markers on their first spaces, two War in Ticonderoga and one in every other
/// fort (as the map file says), the armies of §3.1 and §3.2, all Patriot markers in the cup.
pub fn new_game(d: &Data, scenario: &str, seed: u64) -> Result<State, String> {
    let mut areas = ArrayVec::new();
    for a in &d.areas {
        areas.push(Area {
            id: a.id,
            side: None,
            units: 0,
            leaders: 0,
            food: 0,
            war: a.start_war,
            dug_in: false,
            destroyed: false,
        });
    }
    for x in &d.setup {
        let ar = &mut areas[x.area as usize];
        ar.side = Some(SideId(x.side));
        ar.units = x.units;
        ar.leaders = x.leaders;
    }
    let mut s = State {
        scenario: Key::new(scenario)?,
        turn: 1,
        phase: Phase::Over,
        areas,
        support: d.support_start,
        declared: false,
        pass: 0,
        passed: false,
        winter_attack: [false; 2],
        crown_taken: 0,
        triumvirate: false,
        in_nova: 0,
        deadlines: 0,
        last_chance: 0,
        quebec_attacked: false,
        cup: if d.patriot_markers.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << d.patriot_markers.len()) - 1
        },
        drawn: 0,
        ended: None,
        dice: Dice::from_seed(seed),
    };
    let mut ev = Vec::new();
    sequence::begin_turn(d, &mut s, &mut ev);
    sequence::settle(d, &mut s, &mut ev);
    Ok(s)
}

/// The most Units and Leaders one area (or one attacking army) may hold: not a rule (the
/// rules set no limit, §2.1), a bound far above what the counters and reinforcements reach
/// that keeps the counts within their bytes.
const MAX_UNITS: u8 = 100;
const MAX_LEADERS: u8 = 20;

fn side_name(side: SideId) -> &'static str {
    if side == SideId::PATRIOT {
        "Patriot"
    } else {
        "Crown"
    }
}

/// The most Units and Leaders `side` could ever gather into one army from `s`: all it has on
/// the map and attacking, and every reinforcement still to come (two Units per Patriot marker
/// in the cup, §9.0; the Crown's markers not yet arrived, §5.7; the Triumvirs, §12.1). Armies
/// only merge, march, fight and winter (which remove Units), so no army of a position whose
/// bound is within the area limit can pass it.
fn army_bound(d: &Data, s: &State, side: SideId) -> (u32, u32) {
    let (mut units, mut leaders) = s
        .areas
        .iter()
        .filter(|a| a.side == Some(side))
        .fold((0u32, 0u32), |(u, l), a| {
            (u + a.units as u32, l + a.leaders as u32)
        });
    if let Phase::Refuse { battle: b }
    | Phase::RefuseCarry { battle: b, .. }
    | Phase::AttackerCommit { battle: b }
    | Phase::DefenderCommit { battle: b }
    | Phase::Retreat { battle: b } = s.phase
        && b.attacker == side
    {
        units += b.units as u32;
        leaders += b.leaders as u32;
    }
    if side == SideId::PATRIOT {
        units += 2 * s.cup.count_ones();
    } else {
        let numbered = s.in_nova & !(crown::TRIUMVIRATE_BIT | crown::TRIUMVIRATE_FIRST);
        for (i, m) in d.crown_markers.iter().enumerate() {
            if i >= s.crown_taken as usize || (i < 8 && numbered >> i & 1 == 1) {
                units += m.units as u32;
                leaders += m.leaders as u32;
            }
        }
        if !s.triumvirate || s.in_nova & crown::TRIUMVIRATE_BIT != 0 {
            leaders += d.triumvirate_leaders as u32;
        }
    }
    (units, leaders)
}

/// The one set of checks of a state, used by `validate` (a position read from a file) and
/// by the random-play tests after every decision, so that what the tests hold true of every
/// reachable state is exactly what a load demands. An error names the member at fault (its
/// path in the position's `state`) and the rule.
///
/// - every area of the map in order, every index (areas, markers, track spaces) in range;
/// - armies and supplies where they may stand (§2.1, §5.5, §12.1), cube totals within the
///   60 Food and 40 War (§2.0, §2.3), counting what an attacking army carries;
/// - the storage and carrying limits (§5.3): no City or Fort above 8, no army at a Point
///   above one more than its Units, except where the rules let them be broken for a while
///   (see [`may_exceed`]);
/// - the tracks: turn, pass, support (with the Declaration, §11.1), the Crown's markers;
/// - the phase fits the board: the areas and numbers it names are real and within what the
///   areas hold, a supply move half-chosen is one the player could have chosen;
/// - `over` exactly when `ended` is set, and a live game has a side with a legal action.
pub fn validate(d: &Data, s: &State) -> Result<(), String> {
    if s.areas.len() != d.areas.len() {
        return Err(format!(
            "areas: the map has {} areas, the position {}",
            d.areas.len(),
            s.areas.len()
        ));
    }
    for (i, (x, def)) in s.areas.iter().zip(&d.areas).enumerate() {
        let at = |m: &str| format!("areas[{i}] ({}): {m}", def.id);
        if x.id != def.id {
            return Err(at(&format!(
                "expected area {:?} here, found {:?}",
                def.id, x.id
            )));
        }
        if x.units > MAX_UNITS || x.leaders > MAX_LEADERS {
            return Err(at("at most 100 Units and 20 Leaders in one area"));
        }
        if x.units == 0 && x.leaders == 0 && x.side.is_some() {
            return Err(at("a side is named but no army is there"));
        }
        if (x.units > 0 || x.leaders > 0) && x.side.is_none() {
            return Err(at("an army needs a side"));
        }
        if x.units == 0
            && x.leaders > 0
            && !(i as u8 == d.nova_scotia && x.side == Some(SideId::CROWN))
        {
            return Err(at(
                "Leaders without Units may wait only in Nova Scotia (§12.1)",
            ));
        }
        if def.kind == Kind::Sea && (x.side == Some(SideId::PATRIOT) || x.food > 0) {
            return Err(at(
                "the Sea Box holds only Crown units and War (§2.1, §5.4)",
            ));
        }
        if i as u8 == d.nova_scotia && x.side == Some(SideId::PATRIOT) {
            return Err(at("Nova Scotia is the Crown's alone (§5.2)"));
        }
        if def.kind == Kind::Point && x.units == 0 && x.cubes() > 0 {
            return Err(at("supplies at a Point need an army to carry them (§5.5)"));
        }
        if (x.destroyed && def.kind != Kind::City)
            || (x.dug_in && def.kind != Kind::City && def.kind != Kind::Fort)
        {
            return Err(at(
                "Destroyed marks only Cities; Dug-In only Cities and Forts",
            ));
        }
        // §5.3: the limits, broken only while the rules let the owner put them right later.
        let cap = supply::limit(d, s, i as u8);
        let exempt = if i as u8 == d.nova_scotia {
            // Nothing enters Nova Scotia and it produces only within its room (§5.2, §5.4).
            false
        } else if x.units > 0 {
            x.side.is_some_and(|side| may_exceed(d, s, side))
        } else {
            // Left over-full by a March in the mover's own window, who must discard the
            // excess before he finishes (rulings S23).
            matches!(
                s.phase,
                Phase::Activate { .. } | Phase::After { .. } | Phase::Over
            )
        };
        if x.cubes() > cap && !exempt {
            return Err(at(&match def.kind {
                Kind::Point => format!(
                    "an army of {} Units at a Point carries at most {cap} supplies, not {} \
                     (§5.3, §5.5)",
                    x.units,
                    x.cubes()
                ),
                _ => format!(
                    "a City or Fort holds at most {cap} supplies, not {} (§2.1, §5.3)",
                    x.cubes()
                ),
            }));
        }
    }
    let (bf, bw) = supply::carried_in_battle(s);
    let (food, war) = (s.food_on_map() + bf as u32, s.war_on_map() + bw as u32);
    if food > d.food_cubes as u32 || war > d.war_cubes as u32 {
        return Err(format!(
            "areas: {food} Food and {war} War in play (on the map and carried in battle); \
             there are only {} and {} (§2.0, §2.3)",
            d.food_cubes, d.war_cubes
        ));
    }
    if s.turn == 0 || s.turn > d.turns() {
        return Err(format!(
            "turn: {} is not a turn of 1 to {}",
            s.turn,
            d.turns()
        ));
    }
    if s.support > d.treaty {
        return Err(format!(
            "support: space {} is off the track (0 to {}, §11.0)",
            s.support, d.treaty
        ));
    }
    if s.declared != (s.support >= d.declaration) {
        return Err(format!(
            "declared: must be set exactly when the Support Marker is on the Declaration \
             space ({}) or beyond, never below it once declared (§11.1)",
            d.declaration
        ));
    }
    if s.support == d.treaty && s.ended.is_none() {
        return Err("support: the Treaty of Alliance ends the game at once (§11.2)".into());
    }
    if s.pass as usize >= d.pass_labels.len() {
        return Err(format!(
            "pass: space {} is off the track (0 to {}, §7.0)",
            s.pass,
            d.pass_labels.len() - 1
        ));
    }
    if s.crown_taken as usize > d.crown_markers.len() {
        return Err(format!(
            "crown_taken: {} markers taken; the track has only {} (§5.7)",
            s.crown_taken,
            d.crown_markers.len()
        ));
    }
    let numbered = s.in_nova & !(crown::TRIUMVIRATE_BIT | crown::TRIUMVIRATE_FIRST);
    if numbered >> s.crown_taken != 0
        || (s.in_nova & crown::TRIUMVIRATE_BIT != 0 && !s.triumvirate)
        || (s.in_nova & crown::TRIUMVIRATE_FIRST != 0
            && (s.in_nova & crown::TRIUMVIRATE_BIT == 0 || numbered == 0))
    {
        return Err(
            "in_nova: only markers taken from the track can wait in Nova Scotia (§5.7, §12.1)"
                .into(),
        );
    }
    if s.deadlines >> 1 >> d.turns() != 0 || s.deadlines & 1 != 0 {
        return Err(format!(
            "deadlines: only turns 1 to {} have a Turn End (§12.0)",
            d.turns()
        ));
    }
    if s.last_chance > d.turns() {
        return Err(format!(
            "last_chance: turn {} is past the last turn, {} (§13.1)",
            s.last_chance,
            d.turns()
        ));
    }
    let markers = d.patriot_markers.len();
    if markers < 32 && (s.cup | s.drawn) >> markers != 0 || s.cup & s.drawn != 0 {
        return Err(format!(
            "cup/drawn: bits 0 to {} name the {markers} reinforcement markers, each in the \
             cup or drawn, not both (§9.0)",
            markers.saturating_sub(1)
        ));
    }
    for side in [SideId::PATRIOT, SideId::CROWN] {
        let (units, leaders) = army_bound(d, s, side);
        if units > MAX_UNITS as u32 || leaders > MAX_LEADERS as u32 {
            return Err(format!(
                "areas: the {} has {units} Units and {leaders} Leaders on the map, attacking \
                 and still to come (reinforcements, §5.7, §9.0, §12.1); at most \
                 {MAX_UNITS} and {MAX_LEADERS}, the most one area may hold, so that no army \
                 can grow past them",
                side_name(side)
            ));
        }
    }
    let n = d.areas.len() as u8;
    let ok = |a: u8| a < n;
    let bad_ref = match s.phase {
        Phase::Supply { pick, .. } | Phase::Impulse { pick, .. } | Phase::After { pick, .. } => {
            !pick.from.is_none_or(ok) || !pick.to.is_none_or(ok)
        }
        Phase::Activate { act, .. } => {
            !ok(act.origin)
                || !act.group.to.is_none_or(ok)
                || !act.pick.from.is_none_or(ok)
                || !act.pick.to.is_none_or(ok)
        }
        Phase::Refuse { battle }
        | Phase::AttackerCommit { battle }
        | Phase::DefenderCommit { battle }
        | Phase::Retreat { battle } => !ok(battle.origin) || !ok(battle.target),
        Phase::RefuseCarry { battle, to, .. } => {
            !ok(battle.origin) || !ok(battle.target) || !ok(to)
        }
        _ => false,
    };
    if bad_ref {
        return Err(format!(
            "phase: refers to an area the map does not have (areas 0 to {})",
            n - 1
        ));
    }
    phase_fits(d, s).map_err(|m| format!("phase: {m}"))?;
    if (s.phase == Phase::Over) != s.ended.is_some() {
        return Err(
            "phase: \"over\" exactly when the game has ended (`ended` set), and never \
             otherwise"
                .into(),
        );
    }
    if s.ended.is_none() {
        // §2.2: a side with no Leader on the map has already lost.
        let mut t = s.clone();
        victory::check_leaders(&mut t, &mut Vec::new());
        if t.ended.is_some() {
            return Err(
                "areas: a side with no Leader on the map has lost (§2.2); `ended` must say so"
                    .into(),
            );
        }
        let mut buf = sequence::Actions::new();
        sequence::legal(d, s, &mut buf);
        if buf.is_empty() {
            return Err(format!(
                "phase: {} has no legal decision in this position",
                step_name(&s.phase)
            ));
        }
    }
    Ok(())
}

fn step_name(p: &Phase) -> String {
    serde_json::to_value(p)
        .ok()
        .and_then(|v| v.get("step").and_then(|x| x.as_str()).map(str::to_string))
        .unwrap_or_default()
}

/// May `side`'s armies hold more than their limits (§5.3) in this phase? Only where the rules
/// allow it for a while:
///
/// - while `side` itself moves supplies or carries out its activation (Supply, Impulse,
///   Activate, After, and its attack in progress): §5.3 lets him break the limits while he
///   moves, and §5.5 makes him put them right before he finishes;
/// - for the other side, after an activation that hit it (a beaten attacker's supplies given
///   to the defender, Units lost at a Point, a refusal into a full City: §8.7 leaves the
///   defender's limits to his own next impulse), and while the beaten defender retreats;
/// - between a winter Turn End and the players' moves of the next Supply Phase (winter
///   disbanding halves armies at Points, §10.1), and while the third Leader is placed;
/// - once the game is over.
///
/// Everywhere else both sides are within their limits: a supply window ends only within
/// them (`Done`, a pass and an activation are offered only then), and nothing else adds
/// supplies to an area beyond its room.
pub fn may_exceed(d: &Data, s: &State, side: SideId) -> bool {
    // Winter disbanding (§10.1) is the one step of a Turn End that can break a limit.
    let after_winter = s.turn > 1 && d.is_winter(s.turn - 1);
    match s.phase {
        Phase::Supply { side: x, .. } => {
            x == side || (side == SideId::PATRIOT && x == SideId::CROWN && after_winter)
        }
        Phase::NovaScotia { .. } => after_winter,
        Phase::Impulse { side: x, .. } | Phase::Activate { side: x, .. } => x == side,
        Phase::After { .. } | Phase::Retreat { .. } => true,
        Phase::Refuse { battle }
        | Phase::RefuseCarry { battle, .. }
        | Phase::AttackerCommit { battle }
        | Phase::DefenderCommit { battle } => battle.attacker == side,
        Phase::PlaceLeader | Phase::Over => true,
        Phase::Request => false,
    }
}

/// The phase's numbers must fit the armies it refers to, so that no decision can take away
/// more than an area holds.
fn phase_fits(d: &Data, s: &State) -> Result<(), String> {
    match s.phase {
        Phase::Supply { side, pick } | Phase::Impulse { side, pick, .. } => {
            pick_fits(d, s, side, pick)?;
        }
        Phase::After { side, pick } => pick_fits(d, s, side, pick)?,
        Phase::Activate { side, act } => {
            let o = s.area(act.origin);
            if !o.held_by(side) {
                return Err("act.origin: the activated army is not in its area".into());
            }
            let g = act.group;
            if act.left.is_some_and(|l| l > o.units)
                || g.units.is_some_and(|n| n == 0 || n > o.units)
                || g.leaders.is_some_and(|l| l > o.leaders)
                || g.food.is_some_and(|f| f > o.food)
                || g.to.is_some_and(|t| t == act.origin)
            {
                return Err("act.group: the detachment asks for more than its area holds".into());
            }
            if g.to.is_none() && (g.units.is_some() || g.leaders.is_some() || g.food.is_some())
                || g.units.is_none() && (g.leaders.is_some() || g.food.is_some())
                || g.leaders.is_none() && g.food.is_some()
            {
                return Err(
                    "act.group: a detachment is chosen in order: destination, Units, Leaders, \
                     Food"
                        .into(),
                );
            }
            let sea = act.origin == d.sea;
            let fits = match act.order {
                Order::March => !sea,
                Order::Attack => !sea && o.leaders > 0 && act.left.is_none() && !act.moved,
                Order::Skirmish => {
                    !side.is_crown() && !sea && (o.leaders > 0 || o.units <= 2) && !act.moved
                }
                Order::Transport | Order::Bombard => {
                    !act.moved
                        && act.left.is_none()
                        && crate::impulse::can_activate_with(
                            d,
                            s,
                            side,
                            s.held(side.other()),
                            act.origin,
                            act.order,
                        )
                }
                // Dig-In and Destroy are carried out at once (§7.5, §7.7).
                Order::DigIn | Order::Destroy => false,
            };
            if !fits {
                return Err(format!(
                    "act.order: this army cannot be carrying out a {} here (§{})",
                    act.order.word(),
                    act.order.section()
                ));
            }
            group_fits(d, s, side, &act)?;
            if !act.pick.is_empty() && !crate::impulse::between_detachments(&act) {
                return Err(
                    "act.pick: a supply move inside an activation only between March \
                     detachments (§5.3, rulings S16)"
                        .into(),
                );
            }
            pick_fits(d, s, side, act.pick).map_err(|m| format!("act.{m}"))?;
        }
        Phase::Refuse { battle: b }
        | Phase::RefuseCarry { battle: b, .. }
        | Phase::AttackerCommit { battle: b }
        | Phase::DefenderCommit { battle: b }
        | Phase::Retreat { battle: b } => {
            if b.units == 0 || !s.area(b.target).held_by(b.attacker.other()) || b.target == b.origin
            {
                return Err("battle: the battle needs attacking Units and a defending army".into());
            }
            if b.units > MAX_UNITS || b.leaders > MAX_LEADERS {
                return Err("battle: at most 100 Units and 20 Leaders attack".into());
            }
            if b.leaders == 0 {
                return Err("battle.leaders: an attack needs a Leader (§2.2, §7.3)".into());
            }
            if d.areas[b.origin as usize].lines >> b.target & 1 == 0 {
                return Err(
                    "battle: the attacker's area must be adjacent to the defender's (§7.3)".into(),
                );
            }
            if b.food as u32 + b.war as u32 > b.units as u32 + 1 {
                return Err(format!(
                    "battle: {} Units carry at most {} supplies, not {} (§5.5)",
                    b.units,
                    b.units as u32 + 1,
                    b.food as u32 + b.war as u32
                ));
            }
            if b.dice > d.war_cubes {
                return Err("battle.dice: more Battle Dice than War cubes (§8.2)".into());
            }
            if let Phase::RefuseCarry { to, food, .. } = s.phase {
                let x = s.area(b.target);
                if x.leaders == 0 || x.units / 2 == 0 {
                    return Err(
                        "a refusing army takes supplies only with a Leader and two or more \
                         Units (§8.1)"
                            .into(),
                    );
                }
                if crate::battle::fallback(d, s, b.attacker.other(), b.target, Some(b.origin)) >> to
                    & 1
                    == 0
                {
                    return Err(
                        "to: a refusing army moves to an adjacent friendly or empty area, not \
                         the attacker's (§8.1)"
                            .into(),
                    );
                }
                if food.is_some_and(|f| f > x.food || f > x.units / 2) {
                    return Err(
                        "food: the refusing army takes at most half its Units in supplies, \
                         from what it has (§8.1)"
                            .into(),
                    );
                }
            }
        }
        Phase::NovaScotia { output }
            if d.is_winter(s.turn) || output == 0 || output != supply::nova_output(d, s) =>
        {
            return Err(format!(
                "output: Nova Scotia produces {} now (§5.2), not {output}",
                supply::nova_output(d, s)
            ));
        }
        _ => {}
    }
    Ok(())
}

/// The detachment's choices so far must each be one the player could have made, in order:
/// destination, Units, Leaders, Food (§7.1-§7.4).
fn group_fits(d: &Data, s: &State, side: SideId, act: &Activation) -> Result<(), String> {
    let g = act.group;
    let mut a = *act;
    a.group = Group::default();
    a.pick = Pick::default();
    let steps = [
        ("to", g.to.map(Action::To)),
        ("units", g.units.map(Action::Units)),
        ("leaders", g.leaders.map(Action::Leaders)),
        ("food", g.food.map(Action::Food)),
    ];
    let mut buf = sequence::Actions::new();
    for (name, step) in steps {
        let Some(step) = step else { break };
        buf.clear();
        crate::impulse::legal_step(d, s, side, &a, &mut buf);
        if !buf.contains(&step) {
            return Err(format!(
                "act.group.{name}: not a choice this {} could have made (§{})",
                act.order.word(),
                act.order.section()
            ));
        }
        match step {
            Action::To(t) => a.group.to = Some(t),
            Action::Units(n) => a.group.units = Some(n),
            Action::Leaders(l) => a.group.leaders = Some(l),
            Action::Food(f) => a.group.food = Some(f),
            _ => {}
        }
    }
    Ok(())
}

/// A supply move half-chosen must be one the player could have chosen: its source a legal
/// first step, its destination a legal second one (§5.3).
fn pick_fits(d: &Data, s: &State, side: SideId, pick: Pick) -> Result<(), String> {
    let Some(f) = pick.from else {
        if pick.to.is_some() {
            return Err("pick: a supply move has a destination but no source".into());
        }
        return Ok(());
    };
    let mut buf = sequence::Actions::new();
    supply::legal_moves(d, s, side, Pick::default(), &mut buf);
    if !buf.contains(&Action::From(f)) {
        return Err(format!(
            "pick.from: area {f} is no source of supplies for this side now (§5.3)"
        ));
    }
    if let Some(t) = pick.to {
        buf.clear();
        supply::legal_moves(
            d,
            s,
            side,
            Pick {
                from: Some(f),
                to: None,
            },
            &mut buf,
        );
        if !buf.contains(&Action::To(t)) {
            return Err(format!(
                "pick.to: area {t} is not on the supply line of area {f} (§5.3, §5.4)"
            ));
        }
    }
    Ok(())
}
