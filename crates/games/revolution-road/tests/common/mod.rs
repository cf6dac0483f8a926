//! Helpers for rule tests: the built-in game, random play, hand-built positions (units put
//! where a test needs them, dice chosen to roll what a test needs), and the exhaustive check
//! that legal actions and apply agree.
#![allow(dead_code)]

use muster_core::{Dice, Game, Key};
use muster_revolution_road::concord::sequence::to_act;
use muster_revolution_road::concord::state::*;
use muster_revolution_road::{Action, Concord};

pub fn game() -> Concord {
    Concord::new().unwrap()
}

pub fn rand_chacha_rng(seed: u64) -> impl rand_core::Rng {
    StdRng(Dice::from_seed(seed))
}

/// A generator over the game's own dice (tests only).
pub struct StdRng(pub Dice);
impl rand_core::TryRng for StdRng {
    type Error = std::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.0.next_u64() as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.0.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst {
            *b = self.0.next_u64() as u8;
        }
        Ok(())
    }
}

pub fn play_random(g: &Concord, s: &mut State, seed: u64, check: impl Fn(&State)) {
    let mut pick = Dice::from_seed(seed ^ 0x55);
    let mut actions = Vec::new();
    let mut n = 0;
    while let Some(side) = g.to_act(s) {
        g.legal_actions(s, &mut actions);
        let a = actions[pick.below(actions.len() as u32) as usize];
        g.apply(s, side, a).unwrap();
        check(s);
        n += 1;
        assert!(n < 20_000);
    }
}

/// Every listed action applies (on a copy); every other action of the whole action space is
/// refused and leaves the state unchanged.
pub fn check_agreement(g: &Concord, s: &State, legal: &[Action]) {
    let side = g.to_act(s).unwrap();
    for a in legal {
        let mut c = s.clone();
        g.apply(&mut c, side, *a).unwrap();
        let text = g.notation(s, *a);
        assert_eq!(g.parse_action(s, &text).unwrap(), *a, "notation round trip");
    }
    for a in action_space(g, s) {
        if legal.contains(&a) {
            continue;
        }
        let mut c = s.clone();
        assert!(
            g.apply(&mut c, side, a).is_err(),
            "{a:?} applied but is not listed"
        );
        assert_eq!(&c, s);
    }
    let mut c = s.clone();
    assert!(g.apply(&mut c, 1 - side, legal[0]).is_err());
    assert_eq!(&c, s);
}

/// Every action with every unit and region argument.
pub fn action_space(g: &Concord, s: &State) -> Vec<Action> {
    let n = g.data.map.regions.len() as u8;
    let u = s.units.len() as u8;
    let mut v = vec![
        Action::Reserve,
        Action::CallToArms,
        Action::Plan,
        Action::Intel,
        Action::Pass,
        Action::Done,
        Action::Stop,
        Action::Simultaneous,
        Action::DefensiveFire,
        Action::OpFire,
        Action::NoOpFire,
        Action::Redraw,
        Action::NoRedraw,
        Action::Stay,
        Action::Alert,
        Action::Exit,
        Action::ExitEvade,
        Action::KeepRoll,
        Action::SearchArms,
    ];
    for r in 0..n {
        v.extend([
            Action::Attack(r),
            Action::Charge(r),
            Action::Move(r),
            Action::Ambush(r),
            Action::Snipe(r),
            Action::Rally(r),
            Action::Search(r),
            Action::To(r),
            Action::Ride(r, false),
            Action::Ride(r, true),
            Action::RemoveAlert(r),
        ]);
        for t in 0..n {
            v.push(Action::Assault(r, t));
            v.push(Action::Assemble(r, t));
        }
        for m in 0..3 {
            v.push(Action::Hinder(m, r));
        }
    }
    for m in 0..3 {
        v.push(Action::Unhinder(m));
    }
    for x in 0..u {
        v.extend([
            Action::MoveSon(x),
            Action::Escape(x),
            Action::Pick(x),
            Action::Drop(x),
            Action::Hit(x),
            Action::Rider(x),
            Action::Reroll(x),
        ]);
    }
    v
}

/// Plays the opening Call to Arms by finishing it at once.
pub fn finish_opening(g: &Concord, s: &mut State) {
    while matches!(
        s.phase,
        Phase::Riders { opening: true, .. } | Phase::Muster { .. }
    ) {
        let a = if matches!(s.phase, Phase::Muster { .. }) {
            Action::Stay
        } else {
            Action::Done
        };
        let side = to_act(s).unwrap();
        g.apply(s, side, a).unwrap();
    }
}

/// Index of a unit by roster id.
pub fn unit(g: &Concord, s: &State, id: &str) -> u8 {
    g.setup(s)
        .unit(id)
        .unwrap_or_else(|| panic!("no unit {id}"))
}

/// Index of a region by id.
pub fn region(g: &Concord, id: &str) -> u8 {
    g.data
        .map
        .index(id)
        .unwrap_or_else(|| panic!("no region {id}"))
}

/// A standard game after the opening, with every piece taken off the map (Removed) so that
/// a test puts back only what it needs. The pool stays full.
pub fn empty_board(g: &Concord, seed: u64) -> State {
    let mut s = g.start(Mode::Standard, Opts::default(), seed);
    finish_opening(g, &mut s);
    for u in s.units.iter_mut() {
        u.at = Loc::Spare;
        u.under = false;
        u.flipped = false;
        u.moved = false;
        u.fired = false;
        if u.kind == Kind::Militia {
            s.pool.0[u.value as usize] += 1;
            u.kind = Kind::Hidden;
        }
    }
    for r in 0..s.gather.len() {
        s.gather[r] = NO_MARKER;
        s.arms[r] = ARMS_NONE;
        s.alert[r] = false;
    }
    s.british_in = 0;
    s.mustering = 0;
    s.called = false;
    s.shot = false;
    s.concord = false;
    s.vp = Ledger::default();
    s
}

/// Puts a unit in a region.
pub fn put(g: &Concord, s: &mut State, id: &str, at: &str) -> u8 {
    let u = unit(g, s, id);
    let r = region(g, at);
    s.units[u as usize].at = Loc::At(r);
    if g.side_of(s, u) == BRITISH {
        s.british_in |= 1u64 << r;
    }
    u
}

/// Puts a militia piece of known strength in a region (taken from the pool).
pub fn put_militia(g: &Concord, s: &mut State, id: &str, at: &str, value: u8) -> u8 {
    let u = put(g, s, id, at);
    assert!(s.pool.take(value));
    s.units[u as usize].kind = Kind::Militia;
    s.units[u as usize].value = value;
    u
}

/// Sets the action round: `side` to act with `n` actions, the other with `other`.
pub fn round(s: &mut State, side: u8, n: u8, other: u8) {
    s.mover = side;
    s.actions[side as usize] = n;
    s.actions[1 - side as usize] = other;
    s.phase = Phase::Round { reserve: false };
}

/// Dice whose next rolls are as given (by searching seeds): for tests that need a roll.
pub fn dice_rolling(rolls: &[u8]) -> Dice {
    for seed in 0..2_000_000u64 {
        let mut d = Dice::from_seed(seed);
        if rolls.iter().all(|r| d.d6() == *r) {
            return Dice::from_seed(seed);
        }
    }
    panic!("no seed rolls {rolls:?}");
}

pub fn apply(g: &Concord, s: &mut State, a: Action) {
    let side = to_act(s).expect("someone acts");
    g.apply(s, side, a)
        .unwrap_or_else(|e| panic!("{a:?} refused: {e} in {:?}", s.phase));
}

pub fn legal(g: &Concord, s: &State) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    v
}

pub fn key(s: &str) -> Key {
    Key::new(s).unwrap()
}

/// Chooses a unit by id.
pub fn pick(g: &Concord, s: &mut State, id: &str) {
    let u = unit(g, s, id);
    apply(g, s, Action::Pick(u));
}
