//! How well the search bots' estimate of From Boston to Concord (`concord/knowledge.rs`)
//! foretells the results of saved games (records from `muster sim --records DIR`; issue 18,
//! docs/performance.md, step 16).
//!
//! Every record is replayed; at the first decision of each turn and at every tenth decision the
//! estimate of a British win is read, and set against whether the British won. For each turn the
//! table gives the positions read, the British share of wins, the mean estimate, the lead in VP
//! it rests on (`Concord::provisional_lead`), and a logistic `slope * lead + offset` fitted to
//! the results, with the mean log loss of the estimate as it stands and of the fit. Positions of
//! one game are not independent, so the fit is a description, not a test.
//!
//!     cargo run --release -p muster-revolution-road --example concord_calibration -- DIR/*.json
use muster_core::{Game, Knowledge, Record, Session};
use muster_revolution_road::Concord;
use muster_revolution_road::concord::state::BRITISH;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One position read: the estimate, the lead it implies, whether the British won.
struct Read {
    estimate: f64,
    lead: f64,
    won: bool,
}

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: concord_calibration RECORD...");
        std::process::exit(2);
    }
    let game = Arc::new(Concord::new().expect("the Concord data"));
    let mut by_turn: BTreeMap<u8, Vec<Read>> = BTreeMap::new();
    let mut games = 0;
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let record: Record = serde_json::from_str(&text).expect("a muster record");
        let seed = record.seed.expect("a record that starts from a seed");
        let mut session = Session::new(game.clone(), &record.scenario, &record.options, seed)
            .unwrap_or_else(|e| panic!("{path}: {}", e.message));
        let mut reads = Vec::new();
        let mut turn = 0;
        for (n, step) in record.actions.iter().enumerate() {
            let s = session.state();
            if s.turn != turn || n % 10 == 0 {
                turn = s.turn;
                let estimate = game.evaluate(s, BRITISH).unwrap_or(0.5) as f64;
                let lead = game.provisional_lead(s) as f64 / 2.0;
                reads.push((s.turn, estimate, lead));
            }
            session
                .act(None, &step.action)
                .unwrap_or_else(|e| panic!("{path}, step {n}: {}", e.message));
        }
        let Some(outcome) = game.outcome(session.state()) else {
            eprintln!("{path}: unfinished, skipped");
            continue;
        };
        games += 1;
        let won = outcome.winner == Some(BRITISH);
        for (turn, estimate, lead) in reads {
            by_turn.entry(turn).or_default().push(Read {
                estimate,
                lead,
                won,
            });
        }
    }
    println!("{games} games");
    println!(
        "turn\tread\tBritish won\tmean estimate\tmean lead\tfit slope\tfit offset\tlog loss now\tlog loss fitted"
    );
    for (turn, reads) in &by_turn {
        let n = reads.len() as f64;
        let won = reads.iter().filter(|r| r.won).count() as f64 / n;
        let estimate = reads.iter().map(|r| r.estimate).sum::<f64>() / n;
        let lead = reads.iter().map(|r| r.lead).sum::<f64>() / n;
        let (slope, offset) = fit(reads);
        let loss_now = log_loss(reads.iter().map(|r| (r.estimate, r.won)));
        let loss_fit = log_loss(
            reads
                .iter()
                .map(|r| (logistic(slope * r.lead + offset), r.won)),
        );
        println!(
            "{turn}\t{}\t{won:.2}\t{estimate:.2}\t{lead:+.2}\t{slope:.3}\t{offset:+.3}\t{loss_now:.3}\t{loss_fit:.3}",
            reads.len()
        );
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn log_loss(xs: impl Iterator<Item = (f64, bool)>) -> f64 {
    let (mut sum, mut n) = (0.0, 0.0);
    for (p, won) in xs {
        let p = p.clamp(1e-6, 1.0 - 1e-6);
        sum -= if won { p.ln() } else { (1.0 - p).ln() };
        n += 1.0;
    }
    sum / n
}

/// A little ridge on both parameters, so that a turn whose results the lead separates still
/// gives a finite fit.
const RIDGE: f64 = 1e-3;

/// Maximum-likelihood logistic regression of the result on the lead (Newton's method, two
/// parameters, with [`RIDGE`]).
fn fit(reads: &[Read]) -> (f64, f64) {
    let (mut a, mut b) = (0.0, 0.0);
    for _ in 0..100 {
        let (mut ga, mut gb) = (-RIDGE * a, -RIDGE * b);
        let (mut haa, mut hab, mut hbb) = (RIDGE, 0.0, RIDGE);
        for r in reads {
            let p = logistic(a * r.lead + b);
            let y = if r.won { 1.0 } else { 0.0 };
            let w = p * (1.0 - p);
            ga += (y - p) * r.lead;
            gb += y - p;
            haa += w * r.lead * r.lead;
            hab += w * r.lead;
            hbb += w;
        }
        let det = haa * hbb - hab * hab;
        let (da, db) = ((hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det);
        a += da;
        b += db;
        if da.abs() + db.abs() < 1e-9 {
            break;
        }
    }
    (a, b)
}
