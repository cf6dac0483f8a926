//! Batch simulation: many games between two bots, summarised for balance studies.

use crate::{Bots, Level, Pace};
use muster_core::{Error, ErrorKind, Options, Registry};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Which side bot A plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Seating {
    /// A plays the first side in even games and the second in odd games.
    Alternate,
    /// A always plays this side (an index into the game's sides).
    Fixed(u8),
}

/// What to simulate.
#[derive(Clone, Debug, Serialize)]
pub struct SimConfig {
    pub game: String,
    pub scenario: String,
    pub options: Options,
    pub a: Level,
    pub b: Level,
    pub games: usize,
    pub seed: u64,
    pub threads: usize,
    pub seating: Seating,
    /// How the search levels budget a decision: iterations (reproducible, the default) or
    /// the clock (`--time-budget`: what a player of the server meets, not reproducible).
    pub pace: Pace,
    /// Write each game's record (`game-SEED.json`, replayable) and full log (`game-SEED.log`)
    /// here, to study how the games were won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub records: Option<std::path::PathBuf>,
}

/// One finished game.
#[derive(Clone, Debug, Serialize)]
pub struct GameResult {
    pub seed: u64,
    /// The side bot A played.
    pub a_side: String,
    pub winner: Option<String>,
    /// Did bot A win?
    pub a_won: bool,
    pub vp: Vec<i32>,
    pub decisions: u64,
    pub seconds: f64,
    /// What bot A's and bot B's decisions cost in this game.
    pub effort: [Effort; 2],
}

/// What a bot's decisions cost: how many, their seconds and search iterations.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq)]
pub struct Effort {
    pub decisions: u64,
    pub seconds: f64,
    /// The slowest single decision.
    pub max_seconds: f64,
    pub iterations: u64,
    /// Searches that started from the tree the bot's previous decision kept (a decision in
    /// steps; `mcts::Reuse`), and the root visits they started with in all.
    pub continued: u64,
    pub reused_visits: u64,
}

impl Effort {
    fn add(&mut self, t: &crate::Thought) {
        self.decisions += 1;
        self.seconds += t.seconds;
        self.max_seconds = self.max_seconds.max(t.seconds);
        self.iterations += t.iterations;
        if t.reused > 0 {
            self.continued += 1;
            self.reused_visits += t.reused;
        }
    }

    fn merge(&mut self, other: &Effort) {
        self.decisions += other.decisions;
        self.seconds += other.seconds;
        self.max_seconds = self.max_seconds.max(other.max_seconds);
        self.iterations += other.iterations;
        self.continued += other.continued;
        self.reused_visits += other.reused_visits;
    }

    /// Mean seconds a decision (0 with none).
    pub fn seconds_per_decision(&self) -> f64 {
        self.seconds / self.decisions.max(1) as f64
    }

    /// Mean search iterations a decision, forced moves and baselines counting 0.
    pub fn iterations_per_decision(&self) -> f64 {
        self.iterations as f64 / self.decisions.max(1) as f64
    }
}

/// A win count with its 95% Wilson score interval.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Rate {
    pub wins: u64,
    pub games: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn new(wins: u64, games: u64) -> Rate {
        if games == 0 {
            return Rate {
                wins,
                games,
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let n = games as f64;
        let p = wins as f64 / n;
        let z = 1.959_963_985_f64;
        let denom = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denom;
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
        Rate {
            wins,
            games,
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

/// Figures for one side of the board.
#[derive(Clone, Debug, Serialize)]
pub struct SideSummary {
    pub side: String,
    pub wins: Rate,
    pub mean_vp: f64,
    pub vp_sd: f64,
}

/// Figures for one bot.
#[derive(Clone, Debug, Serialize)]
pub struct BotSummary {
    pub bot: String,
    pub level: Level,
    pub wins: Rate,
    /// Its decisions over every game, with their seconds and iterations.
    pub effort: Effort,
    pub seconds_per_decision: f64,
    pub iterations_per_decision: f64,
}

/// The whole study.
#[derive(Clone, Debug, Serialize)]
pub struct SimReport {
    pub config: SimConfig,
    pub sides: Vec<SideSummary>,
    pub bots: Vec<BotSummary>,
    pub draws: u64,
    pub mean_decisions: f64,
    pub decisions_per_second: f64,
    pub seconds: f64,
    pub results: Vec<GameResult>,
    /// The search levels tuned for this study ([`crate::Tuning`]; absent as the levels ship).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tuning: Vec<crate::Tuning>,
}

fn mix(a: u64, b: u64) -> u64 {
    let mut x = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 29)
}

/// Plays one game between the bots; bot A plays `a_side`.
pub fn play_one(
    registry: &Registry,
    bots: &Bots,
    config: &SimConfig,
    seed: u64,
    a_side: u8,
) -> Result<GameResult, Error> {
    let start = Instant::now();
    let mut m = registry.new_match(&config.game, &config.scenario, &config.options, seed)?;
    let a_side_name = m.info().side_name(a_side).to_string();
    let mut decisions = 0u64;
    let mut effort = [Effort::default(); 2];
    // Each bot keeps its own search tree between its decisions (mcts::Reuse).
    let mut memory = [crate::Memory::default(), crate::Memory::default()];
    while let Some(side) = m.to_act() {
        let (level, bot) = if side == a_side_name {
            (config.a, 0)
        } else {
            (config.b, 1)
        };
        let t = bots.think_remembering(
            m.as_ref(),
            level,
            mix(seed, decisions),
            config.pace,
            &mut memory[bot],
        )?;
        effort[bot].add(&t);
        m.act(Some(&side), &t.action)?;
        decisions += 1;
        if decisions > 1_000_000 {
            return Err(Error::new(
                ErrorKind::IllegalAction,
                "the game does not end",
            ));
        }
    }
    let o = m
        .outcome()
        .ok_or_else(|| Error::new(ErrorKind::GameOver, "no outcome at the end"))?;
    let winner = o.winner.map(|w| m.info().side_name(w).to_string());
    if let Some(dir) = &config.records {
        write_game(
            dir,
            m.as_ref(),
            seed,
            &a_side_name,
            winner.as_deref(),
            &o.vp,
        )?;
    }
    Ok(GameResult {
        seed,
        a_won: winner.as_deref() == Some(a_side_name.as_str()),
        a_side: a_side_name,
        winner,
        vp: o.vp,
        decisions,
        seconds: start.elapsed().as_secs_f64(),
        effort,
    })
}

/// Saves a finished game: its record, which `muster play --resume` and the engine protocol
/// replay, and its log as text, one line per entry with its rule section.
fn write_game(
    dir: &std::path::Path,
    m: &dyn muster_core::Match,
    seed: u64,
    a_side: &str,
    winner: Option<&str>,
    vp: &[i32],
) -> Result<(), Error> {
    let io = |e: std::io::Error, path: &std::path::Path| {
        Error::new(ErrorKind::Io, format!("{}: {e}", path.display()))
    };
    std::fs::create_dir_all(dir).map_err(|e| io(e, dir))?;
    let record = m.record();
    let json = serde_json::to_string_pretty(&record)
        .map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
    let path = dir.join(format!("game-{seed}.json"));
    std::fs::write(&path, json).map_err(|e| io(e, &path))?;
    let mut text = format!(
        "# {} {} seed {seed}: bot A played {a_side}; winner {}; VP {vp:?}\n",
        record.game,
        record.scenario,
        winner.unwrap_or("none"),
    );
    for e in m.log(None)? {
        text.push_str(&format!("[{}] {}\n", e.section, e.text));
    }
    let path = dir.join(format!("game-{seed}.log"));
    std::fs::write(&path, text).map_err(|e| io(e, &path))
}

/// Plays the study; `progress` is called as each game finishes, with the number finished so
/// far and that game's result.
pub fn run(
    registry: &Registry,
    bots: &Bots,
    config: &SimConfig,
    progress: &(dyn Fn(usize, &GameResult) + Sync),
) -> Result<SimReport, Error> {
    let info = registry.get(&config.game)?.info().clone();
    if !info.scenarios.iter().any(|s| s.id == config.scenario) {
        return Err(Error::new(
            ErrorKind::UnknownScenario,
            format!("{} has no scenario {:?}", info.id, config.scenario),
        ));
    }
    let n_sides = info.sides.len() as u8;
    if let Seating::Fixed(s) = config.seating
        && s >= n_sides
    {
        return Err(Error::new(ErrorKind::UnknownSide, "no such side"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
        .map_err(|e| Error::new(ErrorKind::BadRequest, e.to_string()))?;
    let done = AtomicUsize::new(0);
    let start = Instant::now();
    let results: Result<Vec<GameResult>, Error> = pool.install(|| {
        (0..config.games)
            .into_par_iter()
            .map(|i| {
                let a_side = match config.seating {
                    Seating::Alternate => (i % n_sides as usize) as u8,
                    Seating::Fixed(s) => s,
                };
                let r = play_one(
                    registry,
                    bots,
                    config,
                    config.seed.wrapping_add(i as u64),
                    a_side,
                );
                if let Ok(result) = &r {
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, result);
                }
                r
            })
            .collect()
    });
    let results = results?;
    let seconds = start.elapsed().as_secs_f64();
    let mut report = summarise(&info.sides, config.clone(), results, seconds);
    report.tuning = bots.tuning().to_vec();
    Ok(report)
}

/// The summary figures of a list of results.
pub fn summarise(
    side_names: &[String],
    config: SimConfig,
    results: Vec<GameResult>,
    seconds: f64,
) -> SimReport {
    let n = results.len() as u64;
    let sides = side_names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let wins = results
                .iter()
                .filter(|r| r.winner.as_deref() == Some(name))
                .count() as u64;
            let vps: Vec<f64> = results
                .iter()
                .map(|r| r.vp.get(i).copied().unwrap_or(0) as f64)
                .collect();
            let mean = vps.iter().sum::<f64>() / vps.len().max(1) as f64;
            let var =
                vps.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (vps.len().max(2) - 1) as f64;
            SideSummary {
                side: name.clone(),
                wins: Rate::new(wins, n),
                mean_vp: mean,
                vp_sd: var.sqrt(),
            }
        })
        .collect();
    let a_wins = results.iter().filter(|r| r.a_won).count() as u64;
    let draws = results.iter().filter(|r| r.winner.is_none()).count() as u64;
    let b_wins = n - a_wins - draws;
    let decisions: u64 = results.iter().map(|r| r.decisions).sum();
    let bot = |i: usize, name: &str, level: Level, wins: u64| {
        let mut effort = Effort::default();
        for r in &results {
            effort.merge(&r.effort[i]);
        }
        BotSummary {
            bot: name.into(),
            level,
            wins: Rate::new(wins, n),
            effort,
            seconds_per_decision: effort.seconds_per_decision(),
            iterations_per_decision: effort.iterations_per_decision(),
        }
    };
    let bots = vec![bot(0, "a", config.a, a_wins), bot(1, "b", config.b, b_wins)];
    SimReport {
        bots,
        config,
        sides,
        draws,
        mean_decisions: decisions as f64 / n.max(1) as f64,
        decisions_per_second: decisions as f64 / seconds.max(1e-9),
        seconds,
        results,
        tuning: Vec::new(),
    }
}

/// The report as an SVG chart: win rate with its 95% interval for each bot and each side.
pub fn svg(report: &SimReport) -> String {
    let rows: Vec<(String, &Rate)> = report
        .bots
        .iter()
        .map(|b| (format!("bot {} ({})", b.bot, b.level), &b.wins))
        .chain(
            report
                .sides
                .iter()
                .map(|s| (format!("side {}", s.side), &s.wins)),
        )
        .collect();
    let (w, row_h, left) = (640.0, 36.0, 190.0);
    let plot = w - left - 30.0;
    let h = 70.0 + row_h * rows.len() as f64;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"20\" font-size=\"15\">{} / {}: {} vs {}, {} games (95% intervals)</text>\n",
        esc(&report.config.game),
        esc(&report.config.scenario),
        report.config.a,
        report.config.b,
        report.results.len()
    );
    for pct in [0, 25, 50, 75, 100] {
        let x = left + plot * pct as f64 / 100.0;
        out += &format!(
            "<line x1=\"{x}\" y1=\"35\" x2=\"{x}\" y2=\"{}\" stroke=\"#ccc\"/><text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">{pct}%</text>\n",
            h - 25.0,
            h - 10.0
        );
    }
    for (i, (label, r)) in rows.iter().enumerate() {
        let y = 45.0 + row_h * i as f64;
        let bar = plot * r.rate;
        out += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n<rect x=\"{left}\" y=\"{y}\" width=\"{bar:.1}\" height=\"{}\" fill=\"#3b6ea5\"/>\n\
             <line x1=\"{:.1}\" y1=\"{}\" x2=\"{:.1}\" y2=\"{}\" stroke=\"black\" stroke-width=\"2\"/>\n\
             <text x=\"{:.1}\" y=\"{}\" fill=\"#222\">{:.1}%</text>\n",
            left - 8.0,
            y + 17.0,
            esc(label),
            row_h - 12.0,
            left + plot * r.low,
            y + (row_h - 12.0) / 2.0,
            left + plot * r.high,
            y + (row_h - 12.0) / 2.0,
            left + plot * r.high + 6.0,
            y + 17.0,
            100.0 * r.rate
        );
    }
    out + "</svg>\n"
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        // 50 of 100: about 40.4% to 59.6%.
        let r = Rate::new(50, 100);
        assert!(
            (r.low - 0.4038).abs() < 0.001 && (r.high - 0.5962).abs() < 0.001,
            "{r:?}"
        );
        // 0 of 10: 0% to about 27.8%.
        let r = Rate::new(0, 10);
        assert_eq!(r.low, 0.0);
        assert!((r.high - 0.2775).abs() < 0.001, "{r:?}");
        // 10 of 10 mirrors it.
        let r = Rate::new(10, 10);
        assert!((r.low - 0.7225).abs() < 0.001 && r.high == 1.0, "{r:?}");
    }
}
