//! The bot ladder (issue 18): in every scenario of every game, each level plays the level
//! below it, sides swapped game by game, and a rung passes when the upper level wins at least
//! 65% of the games and the 95% interval of that rate starts above 55%. The win rates imply
//! rating gaps (the Elo logistic on the Glicko-2 display scale), from which the levels' fixed
//! ratings are chained up from `random`.

use crate::sim::{self, Effort, Rate, Seating, SimConfig};
use crate::{Bots, Level, Pace};
use muster_core::{Error, ErrorKind, Options, Registry};
use serde::Serialize;

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
    pub games: u64,
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

/// Climbs the ladder; `progress` is told of every rung as it finishes.
pub fn run(
    registry: &Registry,
    bots: &Bots,
    config: &LadderConfig,
    progress: &dyn Fn(&Rung),
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
            let r = sim::run(registry, bots, &sim_config, &|_| {})?;
            let wins = r.bots[0].wins.clone();
            let sides: Vec<String> = r.sides.iter().map(|x| x.side.clone()).collect();
            let rung = Rung {
                by_side: by_side(&sides, &r.results),
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
            Step {
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
}
