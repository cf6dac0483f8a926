//! The bot ladder (issue 18): in every scenario of every game, each level plays the level
//! below it, sides swapped game by game, and a rung passes when the upper level wins at least
//! 65% of the games and the 95% interval of that rate starts above 55%. The win rates imply
//! rating gaps (the Elo logistic on the Glicko-2 display scale), from which the levels' fixed
//! ratings are chained up from `random`.
//!
//! Where equal bots win a scenario mostly with one side, the rate with sides alternating is
//! squeezed toward 50% whatever the levels' strengths, so each rung also reports a
//! side-adjusted figure ([`Even`]): the score the upper level would expect on an even board,
//! fitted by the Elo logistic with an advantage for each side (a Bradley–Terry model with a
//! home advantage).

use crate::sim::{self, Effort, Rate, Seating, SimConfig};
use crate::{Bots, Level, Pace};
use muster_core::{Error, ErrorKind, Options, Registry};
use serde::Serialize;
use std::sync::Mutex;

/// A rung passes with at least this win rate...
pub const PASS_RATE: f64 = 0.65;
/// ...and the lower end of its 95% interval above this.
pub const PASS_LOW: f64 = 0.55;
/// The rating `random` is anchored at (the chain of measured gaps starts here).
pub const RANDOM_RATING: f64 = 1000.0;

/// What to measure.
#[derive(Clone, Debug, Serialize)]
pub struct LadderConfig {
    /// The levels, weakest first; each plays the next one up.
    pub levels: Vec<Level>,
    /// Only these game ids (all when empty).
    pub games: Vec<String>,
    /// Only these scenario ids (all when empty).
    pub scenarios: Vec<String>,
    /// Games per rung and scenario (sides alternate, so an even number seats each level on
    /// each side equally often).
    pub games_per_rung: usize,
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    pub pace: Pace,
}

/// One level against the one below in one scenario.
#[derive(Clone, Debug, Serialize)]
pub struct Rung {
    pub game: String,
    pub scenario: String,
    pub upper: Level,
    pub lower: Level,
    /// The upper level's wins.
    pub wins: Rate,
    /// The upper level's wins on each side it played, in the game's side order: where equal
    /// bots win mostly with one side, a rung's rate hangs on the upsets with the other.
    pub by_side: Vec<SideWins>,
    pub draws: u64,
    pub pass: bool,
    /// The rating gap the upper level's score (draws counting half) implies.
    pub gap: f64,
    /// The side-adjusted score and gap (absent unless the upper level played every side).
    pub even: Option<Even>,
    pub upper_effort: Effort,
    pub lower_effort: Effort,
    pub mean_decisions: f64,
    pub seconds: f64,
}

/// A level's wins on one side.
#[derive(Clone, Debug, Serialize)]
pub struct SideWins {
    pub side: String,
    pub wins: u64,
    pub draws: u64,
    pub games: u64,
}

/// A rung's score with the sides' advantage taken out. With the upper level scoring `p_i` as
/// side `i`, the model is logit(p_i) = d + a_i, the side advantages `a_i` summing to zero; `d`
/// is the mean of the sides' logits, and the even-board score is 1 / (1 + e^−d). Each side's
/// score is taken half a game toward even (so a sweep stays finite), and the interval is
/// d ± 1.96 standard errors (each logit's variance 1 / (n p (1 − p))), mapped the same way.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Even {
    pub score: f64,
    pub low: f64,
    pub high: f64,
    /// 400·log10(e^d): the rating gap on an even board.
    pub gap: f64,
    /// Would it pass the ladder's thresholds ([`PASS_RATE`], [`PASS_LOW`])?
    pub pass: bool,
}

/// The side-adjusted score of [`Even`]; `None` when some side has no games.
pub fn side_adjusted(by_side: &[SideWins]) -> Option<Even> {
    if by_side.is_empty() || by_side.iter().any(|s| s.games == 0) {
        return None;
    }
    let k = by_side.len() as f64;
    let (mut d, mut var) = (0.0, 0.0);
    for s in by_side {
        let n = s.games as f64 + 1.0;
        let p = (s.wins as f64 + s.draws as f64 / 2.0 + 0.5) / n;
        d += (p / (1.0 - p)).ln() / k;
        var += 1.0 / (n * p * (1.0 - p)) / (k * k);
    }
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let half = 1.959_963_985 * var.sqrt();
    let (score, low) = (sigmoid(d), sigmoid(d - half));
    Some(Even {
        score,
        low,
        high: sigmoid(d + half),
        gap: 400.0 * d / std::f64::consts::LN_10,
        pass: score >= PASS_RATE && low > PASS_LOW,
    })
}

/// The upper level's (bot A's) wins side by side, in the order of `sides`.
fn by_side(sides: &[String], results: &[sim::GameResult]) -> Vec<SideWins> {
    sides
        .iter()
        .map(|side| {
            let played = results.iter().filter(|g| &g.a_side == side);
            SideWins {
                side: side.clone(),
                wins: played.clone().filter(|g| g.a_won).count() as u64,
                draws: played.clone().filter(|g| g.winner.is_none()).count() as u64,
                games: played.count() as u64,
            }
        })
        .collect()
}

/// One pair of neighbouring levels over every scenario measured.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub upper: Level,
    pub lower: Level,
    /// The upper level's wins over every scenario.
    pub wins: Rate,
    pub draws: u64,
    /// Did every scenario's rung pass?
    pub all_pass: bool,
    /// The gap implied by the pooled score.
    pub gap: f64,
    /// The rungs' side-adjusted gaps ([`Even`]), weighted by their games (absent when no rung
    /// has one).
    pub even_gap: Option<f64>,
}

/// The whole ladder.
#[derive(Clone, Debug, Serialize)]
pub struct LadderReport {
    pub config: LadderConfig,
    pub rungs: Vec<Rung>,
    pub steps: Vec<Step>,
    /// Each level's rating: `random` at [`RANDOM_RATING`] plus the pooled gaps below it
    /// (only when the ladder starts at `random`; otherwise the lowest level is at 0).
    pub ratings: Vec<(Level, f64)>,
    /// The search levels tuned for this run ([`crate::Tuning`]; absent as the levels ship).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tuning: Vec<crate::Tuning>,
}

/// Does a rate pass the ladder's test?
pub fn passes(r: &Rate) -> bool {
    r.rate >= PASS_RATE && r.low > PASS_LOW
}

/// The rating gap a score implies: 400·log10(s / (1 − s)). A score of 0 or 1 says only that
/// the gap is large; it is taken as half a game from the end (so 20/20 gives about +621 and
/// is a lower bound).
pub fn implied_gap(score: f64, games: u64) -> f64 {
    let n = games.max(1) as f64;
    let s = score.clamp(0.5 / n, 1.0 - 0.5 / n);
    400.0 * (s / (1.0 - s)).log10()
}

fn score(wins: u64, draws: u64, games: u64) -> f64 {
    (wins as f64 + draws as f64 / 2.0) / games.max(1) as f64
}

/// Checks a configuration: at least two levels, weakest first, and at least one game.
fn check(config: &LadderConfig) -> Result<(), Error> {
    let bad = |m: String| Err(Error::new(ErrorKind::BadRequest, m));
    if config.levels.len() < 2 {
        return bad("a ladder needs at least two levels".into());
    }
    if config.levels.windows(2).any(|w| {
        crate::LEVELS.iter().position(|&l| l == w[0])
            >= crate::LEVELS.iter().position(|&l| l == w[1])
    }) {
        return bad(format!(
            "the levels must run weakest first without repeats ({:?})",
            crate::LEVELS.iter().map(|l| l.id()).collect::<Vec<_>>()
        ));
    }
    if config.games_per_rung == 0 {
        return bad("play at least 1 game a rung".into());
    }
    Ok(())
}

/// The (game, scenario) pairs a configuration covers, in the registry's order; an unknown
/// game or scenario id is an error.
fn scenarios(registry: &Registry, config: &LadderConfig) -> Result<Vec<(String, String)>, Error> {
    for g in &config.games {
        registry.get(g)?;
    }
    let mut out = Vec::new();
    for info in registry.games() {
        if !config.games.is_empty() && !config.games.contains(&info.id) {
            continue;
        }
        for s in &info.scenarios {
            if config.scenarios.is_empty() || config.scenarios.contains(&s.id) {
                out.push((info.id.clone(), s.id.clone()));
            }
        }
    }
    for s in &config.scenarios {
        if !out.iter().any(|(_, id)| id == s) {
            return Err(Error::new(
                ErrorKind::UnknownScenario,
                format!("no scenario {s:?} in the games chosen"),
            ));
        }
    }
    Ok(out)
}

/// One game of a rung, as it finishes (games finish in any order when several are played at
/// once): a rung of `hard` takes hours, and these let a run be followed, and its games so far
/// be counted, before the rung's figures come.
#[derive(Clone, Debug)]
pub struct GameDone<'a> {
    pub game: &'a str,
    pub scenario: &'a str,
    pub upper: Level,
    pub lower: Level,
    /// Games of the rung finished so far, this one included, and the rung's games.
    pub done: usize,
    pub of: usize,
    /// This game: its seed, the side the upper level played, the winner.
    pub result: &'a sim::GameResult,
    /// The upper level's wins and the draws among the games finished so far.
    pub upper_wins: u64,
    pub draws: u64,
}

/// Climbs the ladder; `progress` is told of every rung as it finishes, `game_done` of every
/// game.
pub fn run(
    registry: &Registry,
    bots: &Bots,
    config: &LadderConfig,
    progress: &dyn Fn(&Rung),
    game_done: &(dyn Fn(&GameDone) + Sync),
) -> Result<LadderReport, Error> {
    check(config)?;
    let pairs = scenarios(registry, config)?;
    let mut rungs = Vec::new();
    for (game, scenario) in &pairs {
        for w in config.levels.windows(2) {
            let (lower, upper) = (w[0], w[1]);
            let sim_config = SimConfig {
                game: game.clone(),
                scenario: scenario.clone(),
                options: Options::new(),
                a: upper,
                b: lower,
                games: config.games_per_rung,
                seed: config.seed,
                threads: config.threads,
                seating: Seating::Alternate,
                pace: config.pace,
                records: None,
            };
            // Games finished, the upper level's wins and the draws, counted together so that
            // each line reads one moment even with several games at once.
            let so_far = Mutex::new((0usize, 0u64, 0u64));
            let r = sim::run(registry, bots, &sim_config, &|_, result| {
                let (done, upper_wins, draws) = {
                    let mut n = so_far.lock().unwrap_or_else(|e| e.into_inner());
                    n.0 += 1;
                    n.1 += u64::from(result.a_won);
                    n.2 += u64::from(result.winner.is_none());
                    *n
                };
                game_done(&GameDone {
                    game,
                    scenario,
                    upper,
                    lower,
                    done,
                    of: config.games_per_rung,
                    result,
                    upper_wins,
                    draws,
                });
            })?;
            let wins = r.bots[0].wins.clone();
            let sides: Vec<String> = r.sides.iter().map(|x| x.side.clone()).collect();
            let by_side = by_side(&sides, &r.results);
            let rung = Rung {
                even: side_adjusted(&by_side),
                by_side,
                game: game.clone(),
                scenario: scenario.clone(),
                upper,
                lower,
                pass: passes(&wins),
                gap: implied_gap(score(wins.wins, r.draws, wins.games), wins.games),
                wins,
                draws: r.draws,
                upper_effort: r.bots[0].effort,
                lower_effort: r.bots[1].effort,
                mean_decisions: r.mean_decisions,
                seconds: r.seconds,
            };
            progress(&rung);
            rungs.push(rung);
        }
    }
    let steps: Vec<Step> = config
        .levels
        .windows(2)
        .map(|w| {
            let of: Vec<&Rung> = rungs.iter().filter(|r| r.upper == w[1]).collect();
            let wins = of.iter().map(|r| r.wins.wins).sum();
            let games = of.iter().map(|r| r.wins.games).sum();
            let draws = of.iter().map(|r| r.draws).sum();
            let even: Vec<(f64, f64)> = of
                .iter()
                .filter_map(|r| Some((r.even.as_ref()?.gap, r.wins.games as f64)))
                .collect();
            let weight: f64 = even.iter().map(|e| e.1).sum();
            Step {
                even_gap: (weight > 0.0)
                    .then(|| even.iter().map(|(g, w)| g * w).sum::<f64>() / weight),
                upper: w[1],
                lower: w[0],
                wins: Rate::new(wins, games),
                draws,
                all_pass: of.iter().all(|r| r.pass),
                gap: implied_gap(score(wins, draws, games), games),
            }
        })
        .collect();
    let mut rating = if config.levels[0] == Level::Random {
        RANDOM_RATING
    } else {
        0.0
    };
    let mut ratings = vec![(config.levels[0], rating)];
    for s in &steps {
        rating += s.gap;
        ratings.push((s.upper, rating));
    }
    Ok(LadderReport {
        config: config.clone(),
        rungs,
        steps,
        ratings,
        tuning: bots.tuning().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implied_gap_is_zero_at_even_and_grows_with_the_score() {
        assert!(implied_gap(0.5, 10).abs() < 1e-9);
        // 75% is about 191 points (the Elo logistic).
        assert!((implied_gap(0.75, 100) - 190.8).abs() < 0.5);
        assert!((implied_gap(0.25, 100) + 190.8).abs() < 0.5);
        // A clean sweep is finite: half a game from the end.
        let sweep = implied_gap(1.0, 20);
        assert!(sweep.is_finite() && (sweep - implied_gap(39.0 / 40.0, 20)).abs() < 1e-9);
    }

    #[test]
    fn a_rung_passes_only_with_65_percent_and_a_lower_bound_above_55() {
        assert!(passes(&Rate::new(30, 40))); // 75%, low about 60%
        assert!(!passes(&Rate::new(13, 20))); // 65% but low about 43%
        assert!(!passes(&Rate::new(120, 200))); // 60%, low about 53%
        assert!(passes(&Rate::new(140, 200))); // 70%, low about 63%
    }

    fn sides(a: (u64, u64), b: (u64, u64)) -> Vec<SideWins> {
        let side = |name: &str, (wins, games)| SideWins {
            side: name.into(),
            wins,
            draws: 0,
            games,
        };
        vec![side("first", a), side("second", b)]
    }

    #[test]
    fn side_adjusted_score_is_even_for_equal_levels_in_a_one_sided_scenario() {
        // Equal bots where the second side wins 19 games in 20: each level wins 1/20 as the
        // first side and 19/20 as the second, so the upper level's 50% is an even board.
        let e = side_adjusted(&sides((1, 20), (19, 20))).unwrap();
        assert!((e.score - 0.5).abs() < 1e-9 && e.gap.abs() < 1e-6);
        assert!(!e.pass && e.low < 0.5 && e.high > 0.5);
    }

    #[test]
    fn side_adjusted_score_undoes_the_squeeze_of_a_one_sided_scenario() {
        // A level 65% stronger on an even board (logit 0.62) where the second side's advantage
        // is logit 2.9 wins about 9% as the first side and 97% as the second: 53% alternating.
        let raw = Rate::new(9 + 97, 200);
        assert!(!passes(&raw) && raw.rate < 0.55);
        let e = side_adjusted(&sides((9, 100), (97, 100))).unwrap();
        assert!(e.score > 0.6 && e.score < 0.7, "{e:?}");
        assert!(e.gap > 70.0 && e.gap < 150.0, "{e:?}");
        // Where the sides are even, it agrees with the plain rate.
        let e = side_adjusted(&sides((70, 100), (70, 100))).unwrap();
        assert!((e.score - 0.7).abs() < 0.01 && e.pass, "{e:?}");
        // And it falls with the upper level's results on either side.
        let worse = side_adjusted(&sides((60, 100), (70, 100))).unwrap();
        assert!(worse.score < e.score && worse.gap < e.gap);
    }

    #[test]
    fn side_adjusted_score_needs_games_on_every_side_and_stays_finite_on_a_sweep() {
        assert_eq!(side_adjusted(&sides((3, 4), (0, 0))), None);
        assert_eq!(side_adjusted(&[]), None);
        let sweep = side_adjusted(&sides((8, 8), (8, 8))).unwrap();
        assert!(sweep.gap.is_finite() && sweep.score > 0.9 && sweep.score < 1.0);
        assert!(sweep.low > 0.55 && sweep.pass);
        // Few games give a wide interval.
        let few = side_adjusted(&sides((1, 2), (2, 2))).unwrap();
        assert!(few.low < 0.5 && !few.pass);
    }
}
