//! Rule tests for §2 Components, §3 Set-Up and §5 Supplies, on hand-built positions.

mod common;
use common::*;
use muster_core::{Game, Options};
use muster_supply_lines::state::{Phase, Pick};
use muster_supply_lines::supply::{reach, stock};
use muster_supply_lines::{Event, SCENARIO};

#[test]
fn rule_2_1_sea_box_is_adjacent_to_every_port_and_only_ports() {
    let g = game();
    let d = g.data();
    let sea = at(&g, "sea");
    for (i, a) in d.areas.iter().enumerate() {
        let i = i as u8;
        if i == sea {
            continue;
        }
        assert_eq!(d.adjacent(sea) >> i & 1 == 1, a.port, "{}", a.id);
    }
    // Two Points carry the port symbol (§2.1).
    assert_eq!((d.ports & d.points).count_ones(), 2);
    // Every City but Nova Scotia has a Point next to it, or it could never generate (§5.1).
    for (i, a) in d.areas.iter().enumerate() {
        if d.is(d.cities, i as u8) && i as u8 != d.nova_scotia {
            assert!(a.lines & d.points != 0, "{} has no adjacent Point", a.id);
        }
    }
}

#[test]
fn rule_3_0_set_up_as_printed() {
    let g = game();
    let s = g.new_game(SCENARIO, &Options::new(), 9).unwrap();
    let d = g.data();
    assert_eq!(s.turn, 1);
    assert_eq!(s.support, 2, "the third space, the left-most 3");
    assert_eq!(d.support[s.support as usize].draws, 3);
    assert_eq!(s.area(at(&g, "ticonderoga")).war, 2);
    for f in ["crown-point", "st-johns", "fort-edward", "fort-stanwix"] {
        assert_eq!(s.area(at(&g, f)).war, 1, "{f}");
    }
    let army = |id: &str| {
        let x = s.area(at(&g, id));
        (x.side.map(|s| s.0), x.units, x.leaders)
    };
    assert_eq!(army("boston"), (Some(1), 4, 1));
    assert_eq!(army("quebec"), (Some(1), 4, 1));
    assert_eq!(army("montreal"), (Some(1), 2, 0));
    assert_eq!(army("cambridge"), (Some(0), 4, 0));
    assert_eq!(army("watertown"), (Some(0), 2, 1));
    assert_eq!(army("new-york"), (Some(0), 2, 1));
    assert_eq!(army("albany"), (Some(0), 2, 0));
    assert_eq!(army("providence"), (Some(0), 2, 0));
    assert_eq!(s.cup.count_ones() as usize, d.patriot_markers.len());
    assert_eq!(s.crown_taken, 0);
    assert!(!s.triumvirate);
}

#[test]
fn rule_5_1_cities_generate_two_food_then_one_war_up_to_eight() {
    let g = game();
    let s = g.new_game(SCENARIO, &Options::new(), 9).unwrap();
    // Turn 1's Supply Phase has run: every occupied City with a usable Point produced 2 + 1.
    for c in [
        "boston",
        "quebec",
        "montreal",
        "cambridge",
        "new-york",
        "albany",
        "providence",
    ] {
        let x = s.area(at(&g, c));
        assert_eq!((x.food, x.war), (2, 1), "{c}");
    }
    // Unoccupied cities produce nothing.
    assert_eq!(s.area(at(&g, "philadelphia")).cubes(), 0);
}

fn supply_phase(
    g: &muster_supply_lines::SupplyLines,
    s: &mut muster_supply_lines::State,
) -> Vec<Event> {
    // Runs the Supply Phase of the current turn from its start.
    let mut ev = Vec::new();
    s.phase = Phase::Over;
    let d = g.data();
    let _ = d;
    // Starting the turn again through the public sequence.
    muster_supply_lines::sequence::begin_turn(g.data(), s, &mut ev);
    ev
}

#[test]
fn rule_5_1_no_generation_when_every_adjacent_point_is_enemy_held_or_in_winter() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "providence", P, 2, 0, 7, 0);
    put(&g, &mut s, "attleboro", C, 1, 0, 0, 0);
    put(&g, &mut s, "albany", P, 2, 0, 7, 0);
    supply_phase(&g, &mut s);
    // Providence's only Point is Crown-held; Albany fills up to eight, Food first.
    assert_eq!(s.area(at(&g, "providence")).cubes(), 7);
    let a = s.area(at(&g, "albany"));
    assert_eq!((a.food, a.war), (8, 0));
    // A Winter Turn (turn 4) generates nothing.
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 2, 0, 0, 0);
    s.turn = 4;
    supply_phase(&g, &mut s);
    assert_eq!(s.area(at(&g, "albany")).cubes(), 0);
}

#[test]
fn rule_2_3_patriot_generates_first_when_cubes_run_short() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 2, 0, 0, 0);
    put(&g, &mut s, "albany", P, 2, 0, 0, 0);
    // Park all but two Food cubes in empty forts and cities, out of play.
    let forts = [
        "ticonderoga",
        "crown-point",
        "st-johns",
        "fort-edward",
        "fort-stanwix",
        "trenton",
        "morristown",
        "hartford",
    ];
    let mut left = g.data().food_cubes - 2;
    for f in forts {
        let n = left.min(8);
        s.area_mut(at(&g, f)).food = n;
        left -= n;
    }
    assert_eq!(left, 0);
    supply_phase(&g, &mut s);
    assert_eq!(
        s.area(at(&g, "albany")).food,
        2,
        "the Patriot takes the last Food"
    );
    assert_eq!(s.area(at(&g, "boston")).food, 0);
    assert_eq!(s.area(at(&g, "boston")).war, 1);
    assert_eq!(stock(g.data(), &s).0, 0);
}

#[test]
fn rule_5_2_nova_scotia_produces_by_the_last_marker_and_the_crown_picks_food() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.crown_taken = 2;
    supply_phase(&g, &mut s);
    assert!(
        matches!(s.phase, Phase::NovaScotia { output: 2 }),
        "{:?}",
        s.phase
    );
    assert_eq!(legal(&g, &s), vec!["food 0", "food 1", "food 2"]);
    play(&g, &mut s, &["food 1"]);
    let ns = s.area(at(&g, "nova-scotia"));
    assert_eq!((ns.food, ns.war), (1, 1));
    // Nothing moves into Nova Scotia (§5.2), even from a Crown port.
    put(&g, &mut s, "boston", C, 2, 0, 3, 0);
    assert_eq!(
        reach(g.data(), &s, C, at(&g, "boston")) >> at(&g, "nova-scotia") & 1,
        0
    );
    assert_ne!(
        reach(g.data(), &s, C, at(&g, "nova-scotia")) >> at(&g, "boston") & 1,
        0
    );
}

#[test]
fn rule_5_3_supply_lines_chain_through_adjacent_friendly_armies() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 1, 0, 3, 0);
    put(&g, &mut s, "kinderhook", P, 1, 0, 0, 0);
    put(&g, &mut s, "springfield", P, 1, 0, 0, 0);
    put(&g, &mut s, "hartford", P, 1, 0, 0, 0);
    put(&g, &mut s, "saratoga", C, 1, 0, 0, 0);
    let r = reach(g.data(), &s, P, at(&g, "albany"));
    assert_ne!(r >> at(&g, "hartford") & 1, 0, "three links away");
    assert_eq!(r >> at(&g, "saratoga") & 1, 0, "never through the enemy");
    assert_eq!(r >> at(&g, "fort-edward") & 1, 0, "only to armies");
    // Moving three cubes along the line takes three decisions, however long the line.
    play(&g, &mut s, &["from albany", "to hartford", "food 3"]);
    assert_eq!(s.area(at(&g, "hartford")).food, 3);
    assert_eq!(s.area(at(&g, "albany")).food, 0);
}

#[test]
fn rule_5_3_limits_are_checked_only_when_the_player_finishes() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 1, 0, 6, 0);
    put(&g, &mut s, "kinderhook", P, 1, 0, 0, 0);
    // Kinderhook's army of one may carry two; four can pass through it for a while.
    play(&g, &mut s, &["from albany", "to kinderhook", "food 4"]);
    assert!(!is_legal(&g, &s, "pass"), "over the limit: no finishing");
    assert!(
        is_legal(&g, &s, "from kinderhook"),
        "the owner moves the excess"
    );
    assert!(
        !is_legal(&g, &s, "discard kinderhook"),
        "room exists in Albany"
    );
    assert!(!is_legal(&g, &s, "march albany"));
    play(&g, &mut s, &["from kinderhook", "to albany", "food 2"]);
    assert!(is_legal(&g, &s, "march albany"), "within the limits again");
}

#[test]
fn rule_5_5_forced_discards_take_war_before_food() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    // A lone army at a Point with more than it can carry and nowhere to send it.
    put(&g, &mut s, "oswego", P, 1, 0, 2, 1);
    assert!(!is_legal(&g, &s, "pass"));
    assert!(is_legal(&g, &s, "discard oswego"));
    play(&g, &mut s, &["discard oswego"]);
    let x = s.area(at(&g, "oswego"));
    assert_eq!((x.food, x.war), (2, 0), "War goes first");
    assert!(is_legal(&g, &s, "march oswego"));
}

#[test]
fn rule_5_5_the_owner_chooses_where_excess_goes_and_nothing_is_placed_for_him() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    // Kinderhook's army of one carries two; it holds five. Albany has room for three,
    // Hartford (further along the line through Springfield) for eight.
    put(&g, &mut s, "kinderhook", P, 1, 0, 3, 2);
    put(&g, &mut s, "albany", P, 1, 0, 5, 0);
    put(&g, &mut s, "springfield", P, 1, 0, 0, 0);
    put(&g, &mut s, "hartford", P, 1, 0, 0, 0);
    let offered = legal(&g, &s);
    // No single action settles the limits for him, and nothing may be discarded while a
    // move could keep it.
    assert!(!offered.iter().any(|a| a == "settle"), "{offered:?}");
    assert!(
        !offered.iter().any(|a| a.starts_with("discard")),
        "{offered:?}"
    );
    assert!(!offered.contains(&"pass".to_string()));
    // He sends the War to Hartford rather than to the nearest room, then one Food to Albany.
    play(&g, &mut s, &["from kinderhook", "to hartford", "war 2"]);
    assert!(!is_legal(&g, &s, "pass"), "still one over");
    play(&g, &mut s, &["from kinderhook", "to albany", "food 1"]);
    let k = s.area(at(&g, "kinderhook"));
    assert_eq!((k.food, k.war), (2, 0));
    assert_eq!(s.area(at(&g, "hartford")).war, 2);
    assert_eq!(s.area(at(&g, "albany")).food, 6);
    assert!(
        is_legal(&g, &s, "pass"),
        "moving only the excess is no free move: the impulse may still pass (rulings S8)"
    );
}

#[test]
fn rule_5_5_when_only_discarding_remains_the_owner_picks_the_area_one_cube_at_a_time() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    // Two lone armies at Points, each one over, with no friendly army beside them.
    put(&g, &mut s, "oswego", P, 1, 0, 2, 1);
    put(&g, &mut s, "head-of-elk", P, 1, 0, 3, 0);
    let offered = legal(&g, &s);
    assert!(
        offered.contains(&"discard oswego".to_string()),
        "{offered:?}"
    );
    assert!(offered.contains(&"discard head-of-elk".to_string()));
    assert!(!offered.contains(&"pass".to_string()));
    // One cube per decision: Head of Elk first, then Oswego's War (War before Food).
    play(&g, &mut s, &["discard head-of-elk"]);
    assert_eq!(s.area(at(&g, "head-of-elk")).food, 2);
    assert!(
        !is_legal(&g, &s, "discard head-of-elk"),
        "within its limit now"
    );
    assert!(!is_legal(&g, &s, "pass"), "Oswego is still over");
    play(&g, &mut s, &["discard oswego"]);
    let o = s.area(at(&g, "oswego"));
    assert_eq!((o.food, o.war), (2, 0));
    assert!(
        is_legal(&g, &s, "pass"),
        "forced discards are no free moves"
    );
}

#[test]
fn rule_5_4_sea_moves_link_crown_ports_except_to_or_from_quebec() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 2, 1, 4, 2);
    put(&g, &mut s, "new-york", C, 2, 0, 0, 0);
    put(&g, &mut s, "quebec", C, 2, 0, 0, 0);
    put(&g, &mut s, "long-island", C, 1, 0, 0, 0);
    let d = g.data();
    let r = reach(d, &s, C, at(&g, "boston"));
    assert_ne!(r >> at(&g, "new-york") & 1, 0);
    assert_ne!(
        r >> at(&g, "long-island") & 1,
        0,
        "a port Point acts as a port"
    );
    assert_eq!(
        r >> at(&g, "quebec") & 1,
        0,
        "Quebec trades by sea only with Nova Scotia"
    );
    assert_ne!(r >> at(&g, "sea") & 1, 0, "War may go to the Sea Box");
    let r = reach(d, &s, C, at(&g, "nova-scotia"));
    assert_ne!(r >> at(&g, "quebec") & 1, 0);
    // Only War goes to the Sea Box.
    play(&g, &mut s, &["from boston", "to sea"]);
    assert!(!is_legal(&g, &s, "food 1"));
    play(&g, &mut s, &["war 2"]);
    assert_eq!(s.area(at(&g, "sea")).war, 2);
    // The Patriot has no sea lines.
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", P, 1, 0, 1, 0);
    put(&g, &mut s, "new-york", P, 1, 0, 0, 0);
    assert_eq!(reach(d, &s, P, at(&g, "boston")), 0);
}

#[test]
fn rule_5_7_one_request_a_turn_arrives_next_campaign_turn_and_advances_support() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.phase = Phase::Request;
    let before = s.support;
    assert_eq!(legal(&g, &s), vec!["request", "triumvirate", "no-request"]);
    play(&g, &mut s, &["request"]);
    assert_eq!(s.crown_taken, 1);
    assert_eq!(s.support, before + 1, "§11.0: requests advance support");
    assert!(
        matches!(s.phase, Phase::Impulse { .. }),
        "one marker only, then initiative"
    );
    // Next Campaign Turn: four Units in Nova Scotia.
    s.turn = 3;
    let units = s.area(at(&g, "nova-scotia")).units;
    supply_phase(&g, &mut s);
    assert_eq!(s.area(at(&g, "nova-scotia")).units, units + 4);
    assert_eq!(s.in_nova, 0);
    // Taken before a Winter Turn, a marker waits through it.
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.in_nova = 1;
    s.crown_taken = 1;
    s.turn = 4;
    supply_phase(&g, &mut s);
    assert_eq!(s.in_nova, 1);
    let _ = Pick::default();
}

#[test]
fn rule_5_5_no_discard_while_moving_war_to_the_sea_box_makes_room() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    // Boston holds 9 Food, one over; Roxbury (one Unit, so it carries two) is full of War.
    // Boston has only Food, which cannot go to the Sea Box, and the line has no room; but
    // Roxbury's War may go to the Sea Box through Boston, after which the Food fits.
    put(&g, &mut s, "boston", C, 4, 1, 9, 0);
    put(&g, &mut s, "roxbury", C, 1, 0, 0, 2);
    put(&g, &mut s, "new-york", P, 2, 1, 0, 0);
    let offered = legal(&g, &s);
    assert!(
        !offered.contains(&"discard boston".to_string()),
        "a move can still put the limit right: {offered:?}"
    );
    assert!(offered.contains(&"from roxbury".to_string()), "{offered:?}");
    assert!(!offered.contains(&"pass".to_string()));
    play(&g, &mut s, &["from roxbury"]);
    assert_eq!(legal(&g, &s), vec!["to sea", "cancel"]);
    play(&g, &mut s, &["to sea", "war 1"]);
    assert_eq!(s.area(at(&g, "sea")).war, 1);
    play(&g, &mut s, &["from boston", "to roxbury", "food 1"]);
    let b = s.area(at(&g, "boston"));
    assert_eq!((b.food, b.war), (8, 0));
    let r = s.area(at(&g, "roxbury"));
    assert_eq!((r.food, r.war), (1, 1));
    assert!(
        is_legal(&g, &s, "pass"),
        "putting the limit right is no free move (rulings S8)"
    );
}

#[test]
fn rule_5_5_discard_once_no_sequence_of_moves_can_put_the_limits_right() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    // Boston two Food over; Roxbury carries two, one War. Sending the War to the Sea Box
    // makes room for one Food only: the other cannot be kept, so a discard is open now,
    // and so is the move that saves one Food.
    put(&g, &mut s, "boston", C, 4, 1, 10, 0);
    put(&g, &mut s, "roxbury", C, 1, 0, 1, 1);
    let offered = legal(&g, &s);
    assert!(
        offered.contains(&"discard boston".to_string()),
        "{offered:?}"
    );
    assert!(offered.contains(&"from roxbury".to_string()), "{offered:?}");
    play(&g, &mut s, &["discard boston"]);
    // Now the War's trip to the Sea Box would make the room, so no more discards.
    let offered = legal(&g, &s);
    assert!(
        !offered.contains(&"discard boston".to_string()),
        "{offered:?}"
    );
    play(&g, &mut s, &["from roxbury", "to sea", "war 1"]);
    play(&g, &mut s, &["from boston", "to roxbury", "food 1"]);
    assert_eq!(s.area(at(&g, "boston")).food, 8);
    assert!(is_legal(&g, &s, "pass"));
    // The Patriot has no Sea Box: a full line means a discard.
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 2, 0, 9, 0);
    put(&g, &mut s, "kinderhook", P, 1, 0, 0, 2);
    assert_eq!(legal(&g, &s), vec!["discard albany"]);
}

#[test]
fn rule_2_0_sixty_food_and_forty_war_and_no_war_made_once_all_forty_are_out() {
    let g = game();
    let d = g.data();
    assert_eq!((d.food_cubes, d.war_cubes), (60, 40));
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 2, 0, 0, 0);
    // Every War cube is on the map, in empty areas out of play (§2.3: piece limited).
    for f in [
        "ticonderoga",
        "crown-point",
        "st-johns",
        "fort-edward",
        "fort-stanwix",
    ] {
        s.area_mut(at(&g, f)).war = 8;
    }
    assert_eq!(stock(d, &s).1, 0);
    supply_phase(&g, &mut s);
    let a = s.area(at(&g, "albany"));
    assert_eq!((a.food, a.war), (2, 0), "Food still comes, War does not");
}

#[test]
fn rule_2_1_forts_store_up_to_eight_but_never_generate() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    // An occupied Fort with an empty Point beside it makes nothing in a Campaign Turn.
    put(&g, &mut s, "fort-stanwix", P, 2, 0, 0, 1);
    supply_phase(&g, &mut s);
    assert_eq!(s.area(at(&g, "fort-stanwix")).cubes(), 1);
    // It stores eight, and nine is one over.
    let d = g.data();
    let fs = at(&g, "fort-stanwix");
    assert_eq!(muster_supply_lines::supply::limit(d, &s, fs), 8);
    s.area_mut(fs).food = 8;
    s.phase = Phase::Impulse {
        side: P,
        pick: Pick::default(),
        moved: false,
    };
    assert_eq!(muster_supply_lines::supply::excess(d, &s, P, fs), 1);
    assert!(!is_legal(&g, &s, "pass"));
}

#[test]
fn rule_2_1_sea_box_supplies_never_leave_and_only_the_crown_sends_there() {
    let g = game();
    let d = g.data();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 2, 1, 0, 0);
    put(&g, &mut s, "roxbury", C, 1, 0, 0, 0);
    s.area_mut(at(&g, "sea")).war = 3;
    // Nothing in the Sea Box can be moved out (only Bombardment spends it, §7.6).
    assert_eq!(reach(d, &s, C, at(&g, "sea")), 0);
    assert!(!is_legal(&g, &s, "from sea"), "{:?}", legal(&g, &s));
    // A Patriot port never reaches the Sea Box.
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", P, 2, 0, 0, 2);
    put(&g, &mut s, "roxbury", P, 1, 0, 0, 0);
    assert_eq!(reach(d, &s, P, at(&g, "boston")) >> at(&g, "sea") & 1, 0);
}

#[test]
fn rule_2_2_leaders_never_count_toward_what_an_army_carries() {
    let g = game();
    let d = g.data();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "kinderhook", P, 1, 2, 3, 0);
    let k = at(&g, "kinderhook");
    assert_eq!(muster_supply_lines::supply::limit(d, &s, k), 2);
    assert_eq!(muster_supply_lines::supply::excess(d, &s, P, k), 1);
}

#[test]
fn rule_5_4_quebec_sends_by_sea_to_no_american_port_and_receives_from_nova_scotia() {
    let g = game();
    let d = g.data();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "quebec", C, 2, 1, 4, 2);
    put(&g, &mut s, "boston", C, 2, 0, 0, 0);
    let r = reach(d, &s, C, at(&g, "quebec"));
    assert_eq!(r >> at(&g, "boston") & 1, 0, "not from Quebec to Boston");
    assert_eq!(r >> at(&g, "nova-scotia") & 1, 0, "never to Nova Scotia");
    assert_ne!(
        reach(d, &s, C, at(&g, "nova-scotia")) >> at(&g, "quebec") & 1,
        0
    );
}

#[test]
fn rule_4_0_the_supply_phase_runs_crown_moves_then_patriot_moves_then_the_request() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 2, 1, 0, 0);
    put(&g, &mut s, "roxbury", C, 1, 0, 0, 0);
    put(&g, &mut s, "albany", P, 2, 0, 0, 0);
    put(&g, &mut s, "kinderhook", P, 1, 0, 0, 0);
    supply_phase(&g, &mut s);
    // Both Cities generated (§5.1), then the Crown moves first (§5.3).
    assert!(
        matches!(s.phase, Phase::Supply { side, .. } if side == C),
        "{:?}",
        s.phase
    );
    assert!(is_legal(&g, &s, "from boston"));
    play(&g, &mut s, &["done"]);
    assert!(matches!(s.phase, Phase::Supply { side, .. } if side == P));
    assert!(is_legal(&g, &s, "from albany"));
    play(&g, &mut s, &["done"]);
    assert_eq!(
        s.phase,
        Phase::Request,
        "the request ends the Supply Phase (§5.7)"
    );
}

#[test]
fn rule_5_2_nova_scotia_output_counts_numbered_markers_only_within_its_room() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    // Three markers taken, but Nova Scotia already holds seven: it makes one.
    s.crown_taken = 3;
    s.area_mut(at(&g, "nova-scotia")).food = 7;
    supply_phase(&g, &mut s);
    assert!(
        matches!(s.phase, Phase::NovaScotia { output: 1 }),
        "{:?}",
        s.phase
    );
    // The Triumvirate marker carries no number: one numbered marker gives one cube.
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.crown_taken = 1;
    s.triumvirate = true;
    supply_phase(&g, &mut s);
    assert!(
        matches!(s.phase, Phase::NovaScotia { output: 1 }),
        "{:?}",
        s.phase
    );
    // Nothing in a Winter Turn (§4.0: Campaign Turns only).
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.crown_taken = 2;
    s.turn = 4;
    supply_phase(&g, &mut s);
    assert!(!matches!(s.phase, Phase::NovaScotia { .. }));
    assert_eq!(s.area(at(&g, "nova-scotia")).cubes(), 0);
}

#[test]
fn rule_5_6_expended_supplies_go_back_to_the_stock() {
    let g = game();
    let d = g.data();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 4, 0, 1, 0);
    let (food, _) = stock(d, &s);
    play(&g, &mut s, &["march albany", "to saratoga"]);
    assert_eq!(
        stock(d, &s).0,
        food + 1,
        "the march's Food is back in the stock"
    );
}

#[test]
fn rule_7_7_a_destroyed_city_never_produces_but_still_stores() {
    let g = game();
    let d = g.data();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "hartford", P, 2, 0, 0, 3);
    s.area_mut(at(&g, "hartford")).destroyed = true;
    supply_phase(&g, &mut s);
    let h = s.area(at(&g, "hartford"));
    assert_eq!((h.food, h.war), (0, 3), "no production, the store kept");
    assert_eq!(
        muster_supply_lines::supply::limit(d, &s, at(&g, "hartford")),
        8
    );
}

/// §2.3 with §11.1: an attacking army's carried cubes are off the map during the battle but
/// still in play, so a Declaration in the middle of a battle hands out only the War truly
/// left in the stock.
#[test]
fn rule_2_3_cubes_carried_into_a_battle_are_not_in_the_stock() {
    let g = game();
    let d = g.data();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    // Roxbury's Patriots attack Boston; Cambridge and Providence are Patriot Cities (and York).
    put(&g, &mut s, "roxbury", P, 3, 1, 1, 3);
    put(&g, &mut s, "cambridge", P, 1, 0, 0, 0);
    put(&g, &mut s, "providence", P, 1, 0, 0, 0);
    put(&g, &mut s, "boston", C, 2, 0, 0, 0);
    // Every other War cube is on the map, in empty Forts and Cities.
    let mut left = d.war_cubes - 3;
    for f in [
        "ticonderoga",
        "crown-point",
        "st-johns",
        "fort-edward",
        "fort-stanwix",
        "trenton",
    ] {
        let n = left.min(8);
        s.area_mut(at(&g, f)).war = n;
        left -= n;
    }
    assert_eq!(left, 0);
    // One advance from the Declaration: winning this battle declares Independence.
    s.support = d.declaration - 1;
    s.dice = dice_rolling(&[1, 6, 6]);
    let ev = play(&g, &mut s, &["attack roxbury", "units 3", "war 2"]);
    assert!(ev.contains(&Event::Declaration), "{ev:?}");
    // Two War were spent; one is still carried into Boston: only two were free.
    let given: u8 = ev
        .iter()
        .filter_map(|e| match e {
            Event::DeclarationSupplies { war, .. } => Some(*war),
            _ => None,
        })
        .sum();
    assert_eq!(given, 2, "{ev:?}");
    assert_eq!(s.war_on_map(), d.war_cubes as u32);
}
