//! Hidden information in Bunker Hill: no view holds the deck order, an undrawn militia
//! strength or the dice key; `determinize` resamples only the deck order and the dice.

mod bunker_support;
use bunker_support::*;
use muster_core::{Dice, Game, Options, Viewer};
use muster_revolution_road::bunker::state::*;

fn played(seed: u64, steps: usize) -> State {
    let g = game();
    let mut s = g.new_game("standard", &Options::new(), seed).unwrap();
    let mut pick = Dice::from_seed(seed);
    let mut acts = Vec::new();
    for _ in 0..steps {
        let Some(side) = g.to_act(&s) else { break };
        g.legal_actions(&s, &mut acts);
        let a = acts[pick.below(acts.len() as u32) as usize];
        g.apply(&mut s, side, a).unwrap();
    }
    s
}

#[test]
fn view_never_shows_the_deck_order_hidden_strengths_or_the_dice() {
    let g = game();
    for seed in 0..5 {
        let s = played(seed, 60);
        let key = serde_json::to_value(&s.dice).unwrap()["key"]
            .as_str()
            .unwrap()
            .to_string();
        for viewer in [Viewer::Side(0), Viewer::Side(1), Viewer::Spectator] {
            let v = serde_json::to_value(g.view(&s, viewer)).unwrap();
            let text = v.to_string();
            assert!(!text.contains(&key), "dice key leaked");
            assert!(!text.contains("word_pos"));
            assert!(v.get("deck").is_none() && v.get("dice").is_none());
            assert_eq!(v["draw_pile"].as_u64().unwrap() as usize, s.deck.draw.len());
            for (i, p) in v["pieces"].as_array().unwrap().iter().enumerate() {
                if s.units[i].has(HIDDEN) {
                    assert!(
                        p["strength"].is_null(),
                        "an undrawn militia strength is unknown to all"
                    );
                }
            }
        }
    }
}

#[test]
fn determinize_resamples_only_the_deck_order_and_the_dice() {
    let g = game();
    let s = played(3, 80);
    let mut changed_order = false;
    for k in 0..20u64 {
        let mut t = s.clone();
        let mut rng = rand_chacha_like(k);
        g.determinize(&mut t, 0, &mut rng);
        let mut a = s.deck.draw.to_vec();
        let mut b = t.deck.draw.to_vec();
        changed_order |= a != b;
        a.sort();
        b.sort();
        assert_eq!(a, b, "the same cards remain to be drawn");
        assert_eq!(t.deck.discard, s.deck.discard);
        let mut u = t.clone();
        u.deck = s.deck.clone();
        u.dice = s.dice.clone();
        assert_eq!(u, s, "nothing else changes");
    }
    assert!(s.deck.draw.len() < 2 || changed_order);
}

/// A small seeded generator for `determinize`.
fn rand_chacha_like(seed: u64) -> impl rand_core::Rng {
    struct R(Dice);
    impl rand_core::TryRng for R {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.0.next_u64() as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(self.0.next_u64())
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            for b in dst.iter_mut() {
                *b = self.0.next_u64() as u8;
            }
            Ok(())
        }
    }
    R(Dice::from_seed(seed))
}

#[test]
fn position_round_trips_through_json_and_validates() {
    let g = game();
    let s = played(5, 120);
    let json = serde_json::to_string(&s).unwrap();
    let mut back: State = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
    g.validate(&mut back).unwrap();
    let mut bad = s.clone();
    bad.ammo = 30;
    assert!(g.validate(&mut bad).is_err());
    let mut bad = s.clone();
    bad.tasks.clear();
    bad.tasks.push(Task::Flee {
        unit: 200,
        steps: 3,
    });
    assert!(g.validate(&mut bad).is_err(), "a task naming no counter");
    let mut bad = s.clone();
    bad.deck.draw.push(2);
    assert!(
        g.validate(&mut bad).is_err(),
        "card 2 is not a Bunker Hill card"
    );
}

#[test]
fn text_and_board_render() {
    let g = game();
    let s = played(2, 40);
    let t = g.render_text(&s, Viewer::Spectator);
    assert!(t.contains("Bunker Hill") && t.contains("ammo"));
    let b = g.board("standard");
    assert_eq!(b["regions"].as_array().unwrap().len(), g.data.map.n());
    assert!(b["regions"][0]["polygon"].is_array());
}
