//! `medium`'s and `hard`'s choices side by side at every decision one side made in a saved game
//! (a record from `muster sim --records DIR`), each level asked with several seeds (issue 18,
//! docs/performance.md, step 14). Where `hard` and `medium` differ, is either sure? A level
//! whose seeds agree with each other has found a choice its search can tell apart; one whose
//! seeds scatter is picking among moves it rates alike. Decisions with one legal action are
//! skipped. The bots here start each decision afresh (no tree kept from the step before), so
//! they may differ from the game's own bot, whose choice is shown as "played".
//!
//!     cargo run --release -p muster-cli --example side_by_side -- DIR/game-1400.json british [SEEDS]
use muster_ai::Level;
use muster_core::Record;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(path), Some(side)) = (args.first(), args.get(1)) else {
        eprintln!("usage: side_by_side RECORD SIDE [SEEDS (default 3)]");
        std::process::exit(2);
    };
    let seeds: u64 = args
        .get(2)
        .map_or(3, |s| s.parse().expect("SEEDS is a number"));
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let record: Record = serde_json::from_str(&text).expect("a muster record");
    let registry = muster_cli::registry(None).expect("the registry");
    let bots = muster_cli::bots();
    let mut m = registry
        .new_match(
            &record.game,
            &record.scenario,
            &record.options,
            record.seed.expect("a record that starts from a seed"),
        )
        .expect("the record's game");
    let (mut asked, mut same_first, mut hard_sure, mut medium_sure, mut played_hard) =
        (0, 0, 0, 0, 0);
    let mut differ_hard_sure = 0;
    let mut differ = 0;
    println!("n\tlegal\tplayed\tmedium (by seed)\thard (by seed)");
    for (n, step) in record.actions.iter().enumerate() {
        if step.side == *side && m.legal().len() > 1 {
            let picks = |level: Level| -> Vec<String> {
                (0..seeds)
                    .map(|k| bots.choose(m.as_ref(), level, 1000 * n as u64 + k).unwrap())
                    .collect()
            };
            let medium = picks(Level::Medium);
            let hard = picks(Level::Hard);
            let sure = |v: &[String]| v.iter().all(|a| *a == v[0]);
            asked += 1;
            same_first += usize::from(medium[0] == hard[0]);
            hard_sure += usize::from(sure(&hard));
            medium_sure += usize::from(sure(&medium));
            played_hard += usize::from(step.action == hard[0]);
            if medium[0] != hard[0] {
                differ += 1;
                differ_hard_sure += usize::from(sure(&hard));
            }
            println!(
                "{n}\t{}\t{}\t{}\t{}",
                m.legal().len(),
                step.action,
                medium.join(" | "),
                hard.join(" | ")
            );
        }
        m.act(Some(&step.side), &step.action)
            .unwrap_or_else(|e| panic!("step {n}: {}", e.message));
    }
    println!(
        "{side}: {asked} decisions with a choice; hard's first seed chose as medium's in {same_first}; \
         hard's {seeds} seeds agreed in {hard_sure}, medium's in {medium_sure}; where the two \
         levels differed ({differ}), hard's seeds agreed in {differ_hard_sure}; the game's own \
         bot played hard's first choice in {played_hard}"
    );
}
