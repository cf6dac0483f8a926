//! The bots' knowledge of From Boston to Concord (`concord/knowledge.rs`) in the solitaire
//! scenarios (15.2): the estimate the search bots stop their playouts with. It only guides
//! bots; a player is offered every legal action.

mod common;
use common::*;
use muster_core::{Dice, Game, Knowledge, Options};
use muster_revolution_road::Concord;
use muster_revolution_road::concord::state::*;

fn solitaire(scenario: &str) -> (Concord, State) {
    let g = game();
    let s = g.new_game(scenario, &Options::new(), 7).unwrap();
    (g, s)
}

/// Puts every British piece on the map (or waiting to land) in one region.
fn gather_british(g: &Concord, s: &mut State, at: &str) {
    let r = region(g, at);
    for i in 0..s.units.len() {
        if g.side_of(s, i as u8) == BRITISH && matches!(s.units[i].at, Loc::At(_) | Loc::Pending) {
            s.units[i].at = Loc::At(r);
        }
    }
}

/// 15.2: the British score 2 VP for ending with every piece in one region and the Patriot 2
/// for preventing it, so the bots judge the British better placed with their forces gathered
/// than split between Boston and Concord, in both solitaire scenarios.
#[test]
fn rule_15_2_knowledge_values_the_british_gathered_in_one_region() {
    for scenario in ["solitaire-british", "solitaire-patriot"] {
        let (g, mut s) = solitaire(scenario);
        // On the eleventh turn, when there is no longer time to spare for it.
        s.turn = 11;
        let split = g.evaluate(&s, BRITISH).unwrap();
        let mut gathered = s.clone();
        // Menotomy: no Patriot there, so no other item of the VP aid changes.
        gather_british(&g, &mut gathered, "menotomy");
        let together = g.evaluate(&gathered, BRITISH).unwrap();
        assert!(
            together > split + 0.05,
            "{scenario}: gathered {together} vs split {split}"
        );
    }
}

/// 15.2: the further the game has run, the less time the British have to gather, so the same
/// split position is judged worse for them on the last turn than on the first.
#[test]
fn rule_15_2_knowledge_sees_the_gathering_slip_away_as_the_turns_run_out() {
    let (g, s) = solitaire("solitaire-patriot");
    let early = g.evaluate(&s, BRITISH).unwrap();
    let mut late = s.clone();
    late.turn = 12;
    let last = g.evaluate(&late, BRITISH).unwrap();
    assert!(last + 0.05 < early, "turn 12 {last} vs turn 8 {early}");
    // Gathered, the turn hardly matters: the 2 VP are as good as held.
    let mut gathered = late.clone();
    gather_british(&g, &mut gathered, "menotomy");
    let mut gathered_early = gathered.clone();
    gathered_early.turn = 8;
    let (a, b) = (
        g.evaluate(&gathered, BRITISH).unwrap(),
        g.evaluate(&gathered_early, BRITISH).unwrap(),
    );
    assert!((a - b).abs() < 0.05, "gathered: turn 12 {a} vs turn 8 {b}");
}

/// 15.2: British Regulars alone in Lexington score 4 VP, outnumbering the Patriot there more
/// than two to one 3, and otherwise 2: with every British piece gathered in Lexington (so that
/// nothing else of the VP aid changes) the bots judge the three cases in that order.
#[test]
fn rule_15_2_knowledge_scores_lexington_by_the_odds_there() {
    let (g, mut s) = solitaire("solitaire-patriot");
    gather_british(&g, &mut s, "lexington");
    let lex = region(&g, "lexington");
    let elsewhere = Loc::At(region(&g, "lincoln"));
    let patriot_fighters: Vec<usize> = (0..s.units.len())
        .filter(|&i| {
            g.side_of(&s, i as u8) == PATRIOT
                && matches!(s.units[i].at, Loc::At(_))
                && matches!(
                    s.units[i].kind,
                    Kind::Minuteman | Kind::Militia | Kind::Hidden | Kind::Leader
                )
        })
        .collect();
    // Alone: every Patriot fighter and leader out of Lexington.
    let mut alone = s.clone();
    for &i in &patriot_fighters {
        alone.units[i].at = elsewhere;
    }
    // Outnumbered: one unbroken Minuteman (strength 1) against eleven Regulars.
    let mut outnumbered = alone.clone();
    let mm = patriot_fighters
        .iter()
        .copied()
        .find(|&i| s.units[i].kind == Kind::Minuteman && !s.units[i].flipped)
        .unwrap();
    outnumbered.units[mm].at = Loc::At(lex);
    // Held: every Patriot fighter in Lexington, the hidden ones worth 2 each.
    let mut held = alone.clone();
    for &i in &patriot_fighters {
        held.units[i].at = Loc::At(lex);
        if held.units[i].kind == Kind::Hidden {
            held.units[i].kind = Kind::Militia;
            held.units[i].value = 2;
        }
    }
    let regulars = 2 * g.unbroken_regulars(&held, lex) as u32;
    let patriots = g.strength(&held, g.fighters(&held, PATRIOT, lex)) as u32;
    assert!(regulars <= 2 * patriots, "{regulars} against {patriots}");
    let [clear, over, even] =
        [&alone, &outnumbered, &held].map(|x| g.evaluate(x, BRITISH).unwrap());
    assert!(clear > over, "alone {clear} vs outnumbering {over}");
    assert!(over > even, "outnumbering {over} vs held {even}");
}

/// Over positions of random solitaire games the two sides' estimates are complementary and
/// within (0, 1): the bots on either side read the same position the same way.
#[test]
fn knowledge_estimates_of_the_two_sides_add_up_to_one_in_the_solitaire_scenarios() {
    let g = game();
    let mut checked = 0;
    for scenario in ["solitaire-british", "solitaire-patriot"] {
        for seed in 0..10u64 {
            let mut s = g.new_game(scenario, &Options::new(), seed).unwrap();
            let mut pick = Dice::from_seed(seed ^ 0x5eed);
            let mut n = 0;
            let mut legal = Vec::new();
            while let Some(side) = g.to_act(&s) {
                if n % 5 == 0 {
                    let p = g.evaluate(&s, PATRIOT).unwrap();
                    let b = g.evaluate(&s, BRITISH).unwrap();
                    assert!(p > 0.0 && p < 1.0, "{scenario} seed {seed}: {p}");
                    assert!(
                        (p + b - 1.0).abs() < 1e-5,
                        "{scenario} seed {seed}: {p} + {b}"
                    );
                    checked += 1;
                }
                g.legal_actions(&s, &mut legal);
                let a = legal[pick.below(legal.len() as u32) as usize];
                g.apply(&mut s, side, a).unwrap();
                n += 1;
            }
        }
    }
    assert!(checked > 200, "{checked}");
}
