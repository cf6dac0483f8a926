//! A test kit for every game: positions and records taken from random play, mutated field by
//! field, and fed to the same load and replay paths the engine uses (`muster engine`'s `load`
//! and `replay`). Every input must be either refused with a clear error or accepted as a
//! position the game can go on from: nothing may panic, every state reached must load again,
//! and `position` → load → `position` must be byte-identical (issue 15).
//!
//! A game's test calls it through the object-safe API, so it needs nothing but its game:
//!
//! ```ignore
//! use muster_core::registry::Entry;
//! use muster_core::testkit::{FuzzConfig, assert_fuzz};
//! let game = Entry(std::sync::Arc::new(MyGame::new()));
//! let report = assert_fuzz(&game, &FuzzConfig::from_env(400));
//! ```
//!
//! Everything is deterministic for a [`FuzzConfig`] (the seed picks the games, the sample
//! points, the mutations and the actions tried) and bounded in time: the number of inputs is
//! fixed, and each accepted input is played on for at most [`FuzzConfig::playout`] decisions.
//! `MUSTER_FUZZ=N` in the environment sets the number of inputs ([`FuzzConfig::from_env`]).

use crate::dice::Dice;
use crate::error::ErrorKind;
use crate::game::Options;
use crate::record::Record;
use crate::registry::{DynGame, Match};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// How much to fuzz.
#[derive(Clone, Debug)]
pub struct FuzzConfig {
    /// Mutated inputs to try in all (positions and records together).
    pub inputs: usize,
    /// Random games played per scenario to collect real positions and records.
    pub games_per_scenario: usize,
    /// Positions (and records) kept per game, spread over the game.
    pub samples_per_game: usize,
    /// At most this many decisions per collecting game.
    pub max_game_len: usize,
    /// Legal actions applied (each on a copy) from every accepted input.
    pub actions_per_input: usize,
    /// Decisions played on from an accepted input, checking every state reached.
    pub playout: usize,
    /// One input in this many is a record (the rest are positions); 0 for positions only.
    pub record_every: usize,
    /// The seed of everything random in the run.
    pub seed: u64,
    /// Failures kept for the report (the run goes on counting after that).
    pub max_failures: usize,
}

impl Default for FuzzConfig {
    fn default() -> Self {
        Self {
            inputs: 400,
            games_per_scenario: 3,
            samples_per_game: 12,
            max_game_len: 3_000,
            actions_per_input: 6,
            playout: 12,
            record_every: 5,
            seed: 15,
            max_failures: 12,
        }
    }
}

impl FuzzConfig {
    /// The default configuration with `default_inputs` inputs, or the number in the
    /// environment variable `MUSTER_FUZZ` when it is set (and `MUSTER_FUZZ_SEED` for the seed).
    /// Long runs also collect more games, so that more real positions are mutated.
    pub fn from_env(default_inputs: usize) -> Self {
        let mut cfg = Self {
            inputs: default_inputs,
            ..Self::default()
        };
        if let Some(n) = env_number("MUSTER_FUZZ") {
            cfg.inputs = n as usize;
            cfg.games_per_scenario = (n as usize / 2_000).clamp(3, 40);
        }
        if let Some(seed) = env_number("MUSTER_FUZZ_SEED") {
            cfg.seed = seed;
        }
        cfg
    }
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().replace('_', "").parse().ok())
}

/// One input that broke the contract.
#[derive(Clone, Debug)]
pub struct FuzzFailure {
    /// `position` or `record`.
    pub kind: &'static str,
    /// Where it came from and what was changed, e.g.
    /// `oriskany game 1 decision 40: state.phase.target = 99`.
    pub mutation: String,
    /// The whole input, as compact JSON.
    pub input: String,
    /// What went wrong: the panic message, or the broken promise.
    pub problem: String,
}

/// The counts of a run.
#[derive(Clone, Debug, Default)]
pub struct FuzzReport {
    /// Real positions and records collected from random play.
    pub samples: usize,
    /// Mutated inputs tried.
    pub inputs: usize,
    /// Refused with a clear error of the right kind.
    pub refused: usize,
    /// Accepted and checked.
    pub accepted: usize,
    /// Inputs whose handling panicked somewhere (load, legal, act, undo, view, text, position).
    pub panics: usize,
    /// Inputs accepted but then breaking a promise (no legal action, a state that does not load
    /// again, a round trip that is not byte-identical, a listed action refused, ...), or refused
    /// with the wrong kind of error or no message.
    pub invalid: usize,
    /// Legal actions applied from accepted inputs, and playout decisions.
    pub actions: usize,
    /// The first failures (up to [`FuzzConfig::max_failures`]).
    pub failures: Vec<FuzzFailure>,
    /// Some refusals, as (mutation, error message), for reading what the game refuses.
    pub refusals: Vec<(String, String)>,
}

impl std::fmt::Display for FuzzReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} samples, {} mutated inputs: {} refused, {} accepted, {} panics, {} invalid; {} actions applied",
            self.samples,
            self.inputs,
            self.refused,
            self.accepted,
            self.panics,
            self.invalid,
            self.actions
        )?;
        for x in &self.failures {
            write!(
                f,
                "\n- {} {}: {}\n  input: {}",
                x.kind,
                x.mutation,
                x.problem,
                truncate(&x.input, 4_000)
            )?;
        }
        Ok(())
    }
}

fn truncate(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// A real position or record, with where it came from.
#[derive(Clone, Debug)]
pub struct Sample {
    pub origin: String,
    pub position: Value,
    pub record: Value,
}

/// Plays `cfg.games_per_scenario` random games in every scenario of `game` (default options)
/// and keeps the position and record at `cfg.samples_per_game` points of each, the start and
/// the end included.
pub fn collect_samples(game: &dyn DynGame, cfg: &FuzzConfig) -> Vec<Sample> {
    let mut out = Vec::new();
    let mut pick = Dice::from_seed(cfg.seed ^ 0x5a5a_0015);
    let scenarios: Vec<String> = game.info().scenarios.iter().map(|s| s.id.clone()).collect();
    for scenario in &scenarios {
        for g in 0..cfg.games_per_scenario {
            let seed = pick.next_u64() % 1_000_000;
            let Ok(mut m) = game.new_match(scenario, &Options::new(), seed) else {
                continue;
            };
            // Sample points: decisions 0, 1, 2, ... then spread evenly over a typical game.
            let every = (cfg.max_game_len / cfg.samples_per_game.max(1)).max(1) / 8 + 1;
            let mut n = 0;
            let mut kept = 0;
            loop {
                let over = m.to_act().is_none();
                if kept < cfg.samples_per_game && (n < 3 || n % every == 0 || over) {
                    out.push(Sample {
                        origin: format!("{scenario} seed {seed} (game {g}) decision {n}"),
                        position: m.position(),
                        record: serde_json::to_value(m.record()).unwrap_or(Value::Null),
                    });
                    kept += 1;
                }
                if over || n >= cfg.max_game_len {
                    break;
                }
                let legal = m.legal();
                if legal.is_empty() {
                    break;
                }
                let a = &legal[pick.below(legal.len() as u32) as usize].action;
                if m.act(None, a).is_err() {
                    break;
                }
                n += 1;
            }
            // A record that starts from a position (`start`): load the middle of this game and
            // play a few decisions on.
            if let Some(mid) = out.last().map(|s: &Sample| s.position.clone())
                && let Ok(mut loaded) = game.load(&mid)
            {
                for _ in 0..4 {
                    let legal = loaded.legal();
                    if legal.is_empty() {
                        break;
                    }
                    let a = legal[pick.below(legal.len() as u32) as usize]
                        .action
                        .clone();
                    if loaded.act(None, &a).is_err() {
                        break;
                    }
                }
                out.push(Sample {
                    origin: format!("{scenario} seed {seed} (game {g}) loaded at decision {n}"),
                    position: loaded.position(),
                    record: serde_json::to_value(loaded.record()).unwrap_or(Value::Null),
                });
            }
            // Always keep the end (or the last state reached).
            if kept >= cfg.samples_per_game {
                out.push(Sample {
                    origin: format!("{scenario} seed {seed} (game {g}) decision {n} (end)"),
                    position: m.position(),
                    record: serde_json::to_value(m.record()).unwrap_or(Value::Null),
                });
            }
        }
    }
    out
}

/// Runs the fuzzer and returns its counts; see [`assert_fuzz`] for the test form.
pub fn fuzz(game: &dyn DynGame, cfg: &FuzzConfig) -> FuzzReport {
    let samples = collect_samples(game, cfg);
    fuzz_samples(game, cfg, &samples)
}

/// Runs the fuzzer, prints its counts, and panics listing the first offending inputs if any
/// input panicked or broke a promise. Also fails when no real position could be collected or
/// when nothing was accepted or nothing refused (a fuzzer that tests nothing).
pub fn assert_fuzz(game: &dyn DynGame, cfg: &FuzzConfig) -> FuzzReport {
    let start = std::time::Instant::now();
    let report = fuzz(game, cfg);
    eprintln!(
        "fuzz {}: {report} ({:.1} s)",
        game.info().id,
        start.elapsed().as_secs_f64()
    );
    if std::env::var_os("MUSTER_FUZZ_VERBOSE").is_some() {
        for (m, e) in &report.refusals {
            eprintln!("refused: {m}\n  {e}");
        }
    }
    assert!(report.samples > 0, "no position could be collected");
    assert!(
        report.panics == 0 && report.invalid == 0,
        "fuzz {}: {report}",
        game.info().id
    );
    if cfg.inputs >= 50 {
        assert!(report.refused > 0 && report.accepted > 0, "{report}");
    }
    report
}

/// Runs the fuzzer over given samples (for a game's own hand-made positions too).
pub fn fuzz_samples(game: &dyn DynGame, cfg: &FuzzConfig, samples: &[Sample]) -> FuzzReport {
    let mut report = FuzzReport {
        samples: samples.len(),
        ..FuzzReport::default()
    };
    if samples.is_empty() {
        return report;
    }
    let mut rng = Dice::from_seed(cfg.seed);
    // Strings seen in the positions, for swaps.
    let mut pool = BTreeSet::new();
    for s in samples {
        strings(&s.position, &mut pool);
        strings(&s.record, &mut pool);
    }
    let pool: Vec<String> = pool.into_iter().collect();
    let max_len = samples
        .iter()
        .map(|s| longest_array(&s.position))
        .max()
        .unwrap_or(0);
    for i in 0..cfg.inputs {
        let sample = &samples[rng.below(samples.len() as u32) as usize];
        let as_record = cfg.record_every > 0 && i % cfg.record_every == cfg.record_every - 1;
        let (kind, base) = if as_record {
            ("record", &sample.record)
        } else {
            ("position", &sample.position)
        };
        let mut input = base.clone();
        let mut what = Vec::new();
        // One mutation mostly, sometimes two or three stacked.
        let count = match rng.below(8) {
            0 => 3,
            1 | 2 => 2,
            _ => 1,
        };
        for _ in 0..count {
            let other = &samples[rng.below(samples.len() as u32) as usize];
            let other = if as_record {
                &other.record
            } else {
                &other.position
            };
            what.push(mutate(&mut input, other, &pool, max_len, &mut rng));
        }
        let mutation = format!("{}: {}", sample.origin, what.join("; "));
        report.inputs += 1;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            check_input(game, cfg, kind, &input, &mut rng.clone())
        }));
        // The checks draw from their own copy of the generator; step ours past it.
        rng.next_u64();
        let problem = match outcome {
            Ok(Checked::Refused(message)) => {
                report.refused += 1;
                if report.refusals.len() < cfg.max_failures {
                    report.refusals.push((mutation.clone(), message));
                }
                None
            }
            Ok(Checked::Accepted(actions)) => {
                report.accepted += 1;
                report.actions += actions;
                None
            }
            Ok(Checked::Broken(p)) => {
                report.invalid += 1;
                Some(p)
            }
            Err(panic) => {
                report.panics += 1;
                Some(format!("panicked: {}", panic_text(&panic)))
            }
        };
        if let Some(problem) = problem
            && report.failures.len() < cfg.max_failures
        {
            report.failures.push(FuzzFailure {
                kind,
                mutation,
                input: input.to_string(),
                problem,
            });
        }
    }
    report
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".into()
    }
}

enum Checked {
    Refused(String),
    /// Accepted and sound, with the number of actions applied.
    Accepted(usize),
    Broken(String),
}

/// Loads a position the way `muster engine` does (`load`), or a record (`replay`).
fn load(game: &dyn DynGame, kind: &str, input: &Value) -> Result<Box<dyn Match>, crate::Error> {
    if kind == "record" {
        let record: Record = serde_json::from_value(input.clone())
            .map_err(|e| crate::Error::new(ErrorKind::BadRecord, format!("not a record: {e}")))?;
        game.replay(&record)
    } else {
        game.load(input)
    }
}

fn check_input(
    game: &dyn DynGame,
    cfg: &FuzzConfig,
    kind: &str,
    input: &Value,
    rng: &mut Dice,
) -> Checked {
    let m = match load(game, kind, input) {
        Err(e) => {
            let fine = if kind == "record" {
                matches!(
                    e.kind,
                    ErrorKind::BadRecord
                        | ErrorKind::UnknownGame
                        | ErrorKind::UnknownScenario
                        | ErrorKind::BadOption
                )
            } else {
                e.kind == ErrorKind::BadPosition
            };
            if !fine {
                return Checked::Broken(format!(
                    "refused with kind {:?} (message {:?}); a {kind} is refused as bad_{kind}",
                    e.kind, e.message
                ));
            }
            if e.message.trim().is_empty() {
                return Checked::Broken(format!("refused with {:?} but no message", e.kind));
            }
            return Checked::Refused(e.message);
        }
        Ok(m) => m,
    };
    let mut actions = 0;
    if let Err(p) = check_match(game, &*m, "after load") {
        return Checked::Broken(p);
    }
    if kind == "record" {
        // The record of the replayed game replays to the same position.
        let again = serde_json::to_value(m.record())
            .map_err(|e| e.to_string())
            .and_then(|r| load(game, "record", &r).map_err(|e| e.message));
        match again {
            Ok(again) if again.position() == m.position() => {}
            Ok(_) => {
                return Checked::Broken("record → replay gives another position".into());
            }
            Err(e) => return Checked::Broken(format!("its own record is refused: {e}")),
        }
    }
    // Every legal action (or a sample) applies, and each result is sound; undo restores.
    let legal = m.legal();
    let mut tried: Vec<usize> = (0..legal.len()).collect();
    while tried.len() > cfg.actions_per_input {
        tried.swap_remove(rng.below(tried.len() as u32) as usize);
    }
    let side = m.to_act();
    for i in tried {
        let a = &legal[i].action;
        let mut next = m.clone_box();
        let before = next.position();
        if let Err(e) = next.act(side.as_deref(), a) {
            return Checked::Broken(format!("listed action {a:?} refused: {e}"));
        }
        actions += 1;
        if let Err(p) = check_match(game, &*next, &format!("after {a:?}")) {
            return Checked::Broken(p);
        }
        if let Some(side) = &side
            && next.can_undo(side)
        {
            if let Err(e) = next.undo(Some(side)) {
                return Checked::Broken(format!("can_undo but undo refused: {e}"));
            }
            if next.position() != before {
                return Checked::Broken(format!("undo after {a:?} does not restore the position"));
            }
        }
    }
    // Play on for a while, checking every state reached.
    let mut m = m;
    for _ in 0..cfg.playout {
        let legal = m.legal();
        if legal.is_empty() {
            break;
        }
        let a = legal[rng.below(legal.len() as u32) as usize].action.clone();
        if let Err(e) = m.act(None, &a) {
            return Checked::Broken(format!("listed action {a:?} refused in playout: {e}"));
        }
        actions += 1;
        if let Err(p) = check_match(game, &*m, &format!("in playout after {a:?}")) {
            return Checked::Broken(p);
        }
    }
    Checked::Accepted(actions)
}

/// The promises every game in progress keeps: it is either over or has a side with a legal
/// action; views and text for every viewer work; its position loads again (so the game's
/// checks pass) and comes back byte-identical.
fn check_match(game: &dyn DynGame, m: &dyn Match, when: &str) -> Result<(), String> {
    let legal = m.legal();
    let _ = m.prompt();
    match (m.outcome(), m.to_act()) {
        (Some(_), None) if legal.is_empty() => {}
        (Some(_), _) => return Err(format!("{when}: the game is over but a side is to act")),
        (None, None) => return Err(format!("{when}: no outcome and nobody to act")),
        (None, Some(side)) => {
            if legal.is_empty() {
                return Err(format!("{when}: {side} is to act with no legal action"));
            }
        }
    }
    // Each legal action is listed once (the search bots match their tree's children against
    // this list and rely on it; a player offered one action twice could not tell them apart).
    let mut seen = BTreeSet::new();
    if let Some(twice) = legal.iter().find(|e| !seen.insert(e.action.as_str())) {
        return Err(format!(
            "{when}: the legal action {} is listed twice",
            twice.action
        ));
    }
    let mut viewers: Vec<Option<&str>> = m.info().sides.iter().map(|s| Some(s.as_str())).collect();
    viewers.push(None);
    for v in viewers {
        m.view(v)
            .map_err(|e| format!("{when}: view for {v:?} fails: {e}"))?;
        m.render_text(v)
            .map_err(|e| format!("{when}: text for {v:?} fails: {e}"))?;
        m.log(v)
            .map_err(|e| format!("{when}: log for {v:?} fails: {e}"))?;
    }
    let p = m.position();
    if p.get("state").is_none_or(Value::is_null) {
        return Err(format!("{when}: position has no state"));
    }
    let again = game
        .load(&p)
        .map_err(|e| format!("{when}: its own position is refused: {}", e.message))?;
    let text = m
        .try_position_text()
        .map_err(|e| format!("{when}: position text fails: {}", e.message))?;
    if serde_json::from_str::<Value>(&text).ok().as_ref() != Some(&p) {
        return Err(format!(
            "{when}: the position written as text is not the position:\n  {text}\n  {p}"
        ));
    }
    let (a, b) = (p.to_string(), again.position().to_string());
    if a != b {
        return Err(format!(
            "{when}: position → load → position differs:\n  {a}\n  {b}"
        ));
    }
    if again.legal() != legal {
        return Err(format!(
            "{when}: the reloaded position has other legal actions"
        ));
    }
    Ok(())
}

fn strings(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

fn longest_array(v: &Value) -> usize {
    match v {
        Value::Array(a) => a.iter().map(longest_array).max().unwrap_or(0).max(a.len()),
        Value::Object(o) => o.values().map(longest_array).max().unwrap_or(0),
        _ => 0,
    }
}

/// A step of a path into a JSON value.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn path_text(path: &[Step]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            Step::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Step::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    if s.is_empty() { "(top)".into() } else { s }
}

fn all_paths(v: &Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(here.clone());
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(Step::Index(i));
                all_paths(x, here, out);
                here.pop();
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                here.push(Step::Key(k.clone()));
                all_paths(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn get_mut<'a>(v: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let mut v = v;
    for step in path {
        v = match step {
            Step::Key(k) => v.get_mut(k.as_str())?,
            Step::Index(i) => v.get_mut(*i)?,
        };
    }
    Some(v)
}

fn get<'a>(v: &'a Value, path: &[Step]) -> Option<&'a Value> {
    let mut v = v;
    for step in path {
        v = match step {
            Step::Key(k) => v.get(k.as_str())?,
            Step::Index(i) => v.get(*i)?,
        };
    }
    Some(v)
}

/// Changes one thing in `v` and says what. Paths inside `state` (or a record's `start` and
/// `actions`) are chosen far more often than the envelope around them.
fn mutate(v: &mut Value, other: &Value, pool: &[String], max_len: usize, rng: &mut Dice) -> String {
    let mut paths = Vec::new();
    all_paths(v, &mut Vec::new(), &mut paths);
    let inner: Vec<&Vec<Step>> = paths
        .iter()
        .filter(|p| {
            matches!(p.first(), Some(Step::Key(k)) if k == "state" || k == "start" || k == "actions")
        })
        .collect();
    // The members right inside the state (its phase, units, counters, ...), for whole swaps.
    let top: Vec<&Vec<Step>> = inner.iter().copied().filter(|p| p.len() == 2).collect();
    let swap_top = !top.is_empty() && rng.below(8) == 0;
    let path = if swap_top {
        top[rng.below(top.len() as u32) as usize].clone()
    } else if !inner.is_empty() && rng.below(10) != 0 {
        inner[rng.below(inner.len() as u32) as usize].clone()
    } else {
        paths[rng.below(paths.len() as u32) as usize].clone()
    };
    let at = path_text(&path);
    // A whole member (a phase, say) swapped for the same member of another position.
    if swap_top && let Some(theirs) = get(other, &path).cloned() {
        if let Some(target) = get_mut(v, &path) {
            *target = theirs;
        }
        return format!("{at} swapped with another sample's");
    }
    // Strings of this input itself, for swaps within the same position.
    let mut own = BTreeSet::new();
    strings(v, &mut own);
    let own: Vec<String> = own.into_iter().collect();
    // The same member in another sample: a phase (or anything else) swapped between positions.
    let theirs = get(other, &path).cloned();
    let Some(target) = get_mut(v, &path) else {
        return format!("{at}: (gone)");
    };
    let pick = |rng: &mut Dice, n: usize| rng.below(n as u32) as usize;
    // Changes that fit any value.
    if rng.below(6) == 0 {
        let choice = pick(rng, 6);
        let (new, text) = match choice {
            0 if theirs.is_some() => (theirs.unwrap(), "swapped with another sample's".to_string()),
            1 => (Value::Null, "null".into()),
            2 => (json!("x"), "\"x\"".into()),
            3 => (json!(7), "7".into()),
            4 => (json!({}), "{}".into()),
            _ => (json!([]), "[]".into()),
        };
        *target = new;
        return format!("{at} = {text}");
    }
    match target {
        Value::Number(n) => {
            let x = n.as_i64().map(i128::from).or(n.as_u64().map(i128::from));
            let x = x.unwrap_or(0);
            let len = max_len as i128;
            let choices: [i128; 16] = [
                0,
                x + 1,
                x - 1,
                x + 2,
                x - 2,
                -1,
                -x,
                1 << 32,
                1 << 63,
                u64::MAX as i128,
                len,
                len + 1,
                99,
                255,
                256,
                i64::MIN as i128,
            ];
            let c = pick(rng, choices.len() + 1);
            if c == choices.len() {
                *target = json!(x as f64 + 0.5);
                return format!("{at} = {} (a fraction)", x as f64 + 0.5);
            }
            let new = choices[c];
            *target = if new < 0 {
                json!(new as i64)
            } else {
                json!(new as u64)
            };
            format!("{at} = {new}")
        }
        Value::String(s) => {
            let c = pick(rng, 5);
            let new = match c {
                0 if !own.is_empty() => own[pick(rng, own.len())].clone(),
                1 if !pool.is_empty() => pool[pick(rng, pool.len())].clone(),
                2 => String::new(),
                3 => format!("{s}x"),
                _ => s.to_uppercase(),
            };
            let text = format!("{at} = {new:?}");
            *s = new;
            text
        }
        Value::Bool(b) => {
            *b = !*b;
            format!("{at} = {b}")
        }
        Value::Array(a) => {
            if a.is_empty() {
                a.push(json!(0));
                return format!("{at}: added 0");
            }
            let i = pick(rng, a.len());
            match pick(rng, 5) {
                0 => {
                    a.remove(i);
                    format!("{at}[{i}] removed")
                }
                1 => {
                    let x = a[i].clone();
                    a.insert(i, x);
                    format!("{at}[{i}] duplicated")
                }
                2 => {
                    let j = pick(rng, a.len());
                    a.swap(i, j);
                    format!("{at}[{i}] and [{j}] swapped")
                }
                3 => {
                    a.truncate(i);
                    format!("{at} cut to {i} elements")
                }
                _ => {
                    let x = a[i].clone();
                    a.push(x);
                    format!("{at}[{i}] appended again")
                }
            }
        }
        Value::Object(o) => {
            let keys: Vec<String> = o.keys().cloned().collect();
            if keys.is_empty() || pick(rng, 3) == 0 {
                let name = ["zzz", "extra", "step2", "Side"][pick(rng, 4)];
                o.insert(name.into(), json!(1));
                format!("{at}: unknown member {name:?} added")
            } else if pick(rng, 4) == 0 {
                // Members taken from the other sample's object at this path.
                if let Some(Value::Object(t)) = theirs {
                    let k = t.keys().nth(pick(rng, t.len().max(1)));
                    if let Some(k) = k.cloned() {
                        o.insert(k.clone(), t[&k].clone());
                        return format!("{at}.{k} taken from another sample");
                    }
                }
                let mut m = Map::new();
                std::mem::swap(o, &mut m);
                format!("{at}: every member removed")
            } else {
                let k = &keys[pick(rng, keys.len())];
                o.remove(k);
                format!("{at}.{k} removed")
            }
        }
        Value::Null => {
            *target = json!(0);
            format!("{at} = 0")
        }
    }
}
