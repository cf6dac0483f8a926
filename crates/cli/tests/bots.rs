//! Bots on every scenario of every game in the registry: legal play to the end, reproducible
//! choices, and no reading of hidden information. Written over the registry so that every game
//! added later is covered without new test code (issue 6).

use muster_ai::Level;
use muster_core::{Match, Options};

fn scenarios() -> Vec<(String, String)> {
    let registry = muster_cli::registry(None).unwrap();
    registry
        .games()
        .iter()
        .flat_map(|g| g.scenarios.iter().map(|s| (g.id.clone(), s.id.clone())))
        .collect()
}

fn new_match(game: &str, scenario: &str, seed: u64) -> Box<dyn Match> {
    muster_cli::registry(None)
        .unwrap()
        .new_match(game, scenario, &Options::new(), seed)
        .unwrap()
}

/// Plays a game: `first_level` for the first `searching` decisions, then `rest` to the end.
/// Every action a bot returns must be accepted by the game.
fn play(m: &mut Box<dyn Match>, first_level: Level, searching: usize, rest: Level) -> usize {
    let bots = muster_cli::bots();
    let mut n = 0;
    while let Some(side) = m.to_act() {
        let level = if n < searching { first_level } else { rest };
        let action = bots.choose(m.as_ref(), level, n as u64).unwrap();
        let legal: Vec<String> = m.legal().into_iter().map(|l| l.action).collect();
        assert!(
            legal.contains(&action),
            "{level} chose {action:?}, not in {legal:?}"
        );
        m.act(Some(&side), &action).unwrap();
        n += 1;
        assert!(n < 100_000, "the game does not end");
    }
    n
}

#[test]
fn every_level_plays_only_legal_actions_and_finishes_every_scenario() {
    for (game, scenario) in scenarios() {
        for (i, (level, searching)) in [
            (Level::Random, usize::MAX),
            (Level::Easy, usize::MAX),
            (Level::Medium, 30),
            (Level::Hard, 3),
        ]
        .into_iter()
        .enumerate()
        {
            let mut m = new_match(&game, &scenario, 40 + i as u64);
            let n = play(&mut m, level, searching, Level::Random);
            assert!(n > 0);
            let o = m.outcome().expect("the game ended with an outcome");
            assert_eq!(o.vp.len(), m.info().sides.len(), "{game}/{scenario}");
        }
    }
}

#[test]
fn bots_are_reproducible_for_a_seed() {
    let bots = muster_cli::bots();
    for (game, scenario) in scenarios() {
        let mut m = new_match(&game, &scenario, 5);
        for step in 0..12 {
            if m.to_act().is_none() {
                break;
            }
            for level in [Level::Random, Level::Easy, Level::Medium] {
                let a = bots.choose(m.as_ref(), level, 1000 + step).unwrap();
                let b = bots.choose(m.as_ref(), level, 1000 + step).unwrap();
                assert_eq!(a, b, "{game}/{scenario} {level} at step {step}");
            }
            let side = m.to_act().unwrap();
            let a = bots.choose(m.as_ref(), Level::Random, step).unwrap();
            m.act(Some(&side), &a).unwrap();
        }
    }
}

#[test]
fn bots_never_read_what_their_side_cannot_see() {
    // Two states that differ only in what the side to act may not know (hidden values, deck
    // order, the other side's peeks, the dice) must get the same decision.
    let bots = muster_cli::bots();
    for (game, scenario) in scenarios() {
        let mut m = new_match(&game, &scenario, 9);
        for step in 0..40u64 {
            let Some(side) = m.to_act() else { break };
            if step % 4 == 0 {
                let other = m.determinized(&side, 77 + step).unwrap();
                assert_eq!(
                    other.legal(),
                    m.legal(),
                    "the side's own options are known to it"
                );
                for level in [Level::Easy, Level::Medium] {
                    assert_eq!(
                        bots.choose(m.as_ref(), level, step).unwrap(),
                        bots.choose(other.as_ref(), level, step).unwrap(),
                        "{game}/{scenario} {level} at step {step}"
                    );
                }
            }
            let a = bots.choose(m.as_ref(), Level::Random, step).unwrap();
            m.act(Some(&side), &a).unwrap();
        }
    }
}

#[test]
fn unknown_level_is_refused_with_a_clear_error() {
    let e = muster_ai::Level::parse("grandmaster").unwrap_err();
    assert!(e.message.contains("random"), "{}", e.message);
}

/// Solitaire scenarios (issue 6, §2): the bot side is played by a bot by default, at the level
/// the player chooses, in the terminal and on the server.
#[test]
fn every_solitaire_scenario_seats_a_bot_on_its_bot_side() {
    let registry = muster_cli::registry(None).unwrap();
    let mut found = 0;
    for g in registry.games() {
        for s in &g.scenarios {
            let Some(bot) = &s.bot_side else { continue };
            found += 1;
            let player = g.sides.iter().find(|x| *x != bot).unwrap();
            let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_muster"))
                .args([
                    "play",
                    &g.id,
                    "--scenario",
                    &s.id,
                    "--seed",
                    "2",
                    "--vs",
                    "random",
                ])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            {
                use std::io::Write;
                let mut stdin = child.stdin.take().unwrap();
                let script = "1\n".repeat(60) + "q\n";
                let _ = stdin.write_all(script.as_bytes());
            }
            let out = child.wait_with_output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                text.contains(&format!("{player} to act —")),
                "{}/{}: {text}",
                g.id,
                s.id
            );
            assert!(
                !text.contains(&format!("{bot} to act —")),
                "{}/{}: the bot side was asked",
                g.id,
                s.id
            );
            for args in [vec!["--as", bot.as_str()], vec!["--vs", "human"]] {
                let refused = std::process::Command::new(env!("CARGO_BIN_EXE_muster"))
                    .args(["play", &g.id, "--scenario", &s.id])
                    .args(&args)
                    .stdin(std::process::Stdio::null())
                    .output()
                    .unwrap();
                assert!(!refused.status.success(), "{}/{} {args:?}", g.id, s.id);
                assert!(String::from_utf8_lossy(&refused.stderr).contains("bot"));
            }
        }
    }
    assert!(
        found > 0 || registry.games().iter().all(|g| g.id != "concord"),
        "concord has solitaire scenarios"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_refuses_a_solitaire_game_without_its_bot() {
    let registry = muster_cli::registry(None).unwrap();
    let solitaire: Vec<(String, String, String)> = registry
        .games()
        .iter()
        .flat_map(|g| {
            g.scenarios
                .iter()
                .filter_map(|s| s.bot_side.clone().map(|b| (g.id.clone(), s.id.clone(), b)))
        })
        .collect();
    let file = std::env::temp_dir().join(format!("muster-solitaire-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let config = muster_server::Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        database: format!("sqlite://{}", file.display()),
        secure_cookies: false,
        ..Default::default()
    };
    let state = muster_server::state(config, registry, muster_cli::bots())
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { muster_server::serve_on(listener, state).await });
    let http = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .unwrap();
    let base = format!("http://{addr}");
    let s: serde_json::Value = http
        .get(format!("{base}/api/session"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let csrf = s["csrf"].as_str().unwrap().to_string();
    let signed_up: serde_json::Value = http
        .post(format!("{base}/api/signup"))
        .header("X-CSRF-Token", &csrf)
        .json(&serde_json::json!({"name": "solo", "password": "solitaire player"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    // Sign-up gives a new CSRF token (docs/server.md).
    let csrf = signed_up["csrf"].as_str().unwrap().to_string();
    let post = |path: &str, body: serde_json::Value| {
        http.post(format!("{base}{path}"))
            .header("X-CSRF-Token", &csrf)
            .json(&body)
            .send()
    };
    for (game, scenario, bot) in solitaire {
        for (side, opponent) in [(bot.as_str(), "bot"), ("", "human")] {
            let side = if side.is_empty() {
                muster_cli::registry(None)
                    .unwrap()
                    .get(&game)
                    .unwrap()
                    .info()
                    .sides
                    .iter()
                    .find(|x| **x != bot)
                    .unwrap()
                    .clone()
            } else {
                side.to_string()
            };
            let r = post("/api/games", serde_json::json!({"game": game, "scenario": scenario, "side": side, "opponent": opponent, "level": "random"})).await.unwrap();
            assert_eq!(r.status().as_u16(), 422);
            let v: serde_json::Value = r.json().await.unwrap();
            assert_eq!(v["error"]["kind"], "solitaire");
        }
    }
    let _ = std::fs::remove_file(&file);
}

/// `muster sim --records DIR` keeps each game: its record replays to the same end and the log
/// file opens with the result the report gave; an unwritable folder is a clear error.
#[test]
fn sim_records_replay_to_the_reported_result() {
    use muster_ai::sim::{self, Seating, SimConfig};
    let registry = muster_cli::registry(None).unwrap();
    let bots = muster_cli::bots();
    let dir = std::env::temp_dir().join(format!("muster-sim-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = SimConfig {
        game: "battles".into(),
        scenario: "oriskany".into(),
        options: Options::new(),
        a: Level::Random,
        b: Level::Easy,
        games: 3,
        seed: 40,
        threads: 1,
        seating: Seating::Alternate,
        records: Some(dir.clone()),
        pace: muster_ai::Pace::Iterations,
    };
    let report = sim::run(&registry, &bots, &config, &|_, _| {}).unwrap();
    for r in &report.results {
        let json = std::fs::read_to_string(dir.join(format!("game-{}.json", r.seed))).unwrap();
        let record: muster_core::Record = serde_json::from_str(&json).unwrap();
        let m = registry.replay(&record).unwrap();
        let o = m.outcome().expect("the replayed game is over");
        assert_eq!(o.vp, r.vp, "seed {}", r.seed);
        let winner = o.winner.map(|w| m.info().side_name(w).to_string());
        assert_eq!(winner, r.winner, "seed {}", r.seed);
        let log = std::fs::read_to_string(dir.join(format!("game-{}.log", r.seed))).unwrap();
        let first = log.lines().next().unwrap();
        assert!(first.contains(&format!("seed {}", r.seed)), "{first}");
        assert!(first.contains(&format!("VP {:?}", r.vp)), "{first}");
        assert!(log.lines().count() > 10, "the log has the game in it");
    }
    // A file where the folder should be: the study stops with the path in the message.
    let blocked = dir.join("game-40.json");
    let config = SimConfig {
        records: Some(blocked.clone()),
        games: 1,
        ..config
    };
    let err = sim::run(&registry, &bots, &config, &|_, _| {}).unwrap_err();
    assert!(err.message.contains("game-40.json"), "{}", err.message);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18: the ladder plays each level against the one below, sides swapped game by game,
/// counts each level's decisions and their cost, and chains the ratings up from random; a
/// ladder that is not weakest first, or names a scenario it does not have, is refused.
#[test]
fn the_ladder_plays_each_level_against_the_one_below_and_chains_the_ratings() {
    use muster_ai::ladder::{self, LadderConfig};
    let registry = muster_cli::registry(None).unwrap();
    let bots = muster_cli::bots();
    let config = LadderConfig {
        levels: vec![Level::Random, Level::Easy],
        games: vec!["battles".into()],
        scenarios: vec!["oriskany".into()],
        games_per_rung: 2,
        seed: 11,
        threads: 1,
        pace: muster_ai::Pace::Iterations,
    };
    let seen = std::sync::Mutex::new(0);
    let games = std::sync::Mutex::new(Vec::new());
    let report = ladder::run(
        &registry,
        &bots,
        &config,
        &|_| {
            *seen.lock().unwrap() += 1;
        },
        &|g| {
            games.lock().unwrap().push((
                g.game.to_string(),
                g.scenario.to_string(),
                g.upper,
                g.done,
                g.of,
                g.result.seed,
                g.result.a_won,
                g.upper_wins,
            ))
        },
    )
    .unwrap();
    assert_eq!(*seen.lock().unwrap(), 1, "told of the one rung");
    // Told of each game as it finished: one game at a time, so in order, with the upper
    // level's wins so far adding up to the rung's.
    let games = games.into_inner().unwrap();
    assert_eq!(games.len(), 2, "told of both games");
    let mut wins = 0;
    for (i, (game, scenario, upper, done, of, seed, won, so_far)) in games.iter().enumerate() {
        assert_eq!((game.as_str(), scenario.as_str()), ("battles", "oriskany"));
        assert_eq!((*upper, *done, *of), (Level::Easy, i + 1, 2));
        assert_eq!(
            *seed,
            11 + i as u64,
            "games are seeded from the ladder's seed up"
        );
        wins += u64::from(*won);
        assert_eq!(*so_far, wins);
    }
    assert_eq!(report.rungs.len(), 1);
    let rung = &report.rungs[0];
    assert_eq!((rung.upper, rung.lower), (Level::Easy, Level::Random));
    assert_eq!(rung.wins.games, 2);
    assert_eq!(rung.pass, ladder::passes(&rung.wins));
    // Sides alternate, so the upper level played each side once, and its wins side by side
    // add up to its wins.
    let sides: Vec<&str> = rung.by_side.iter().map(|s| s.side.as_str()).collect();
    assert_eq!(sides, ["american", "british"]);
    assert!(rung.by_side.iter().all(|s| s.games == 1));
    assert_eq!(
        rung.by_side.iter().map(|s| s.wins).sum::<u64>(),
        rung.wins.wins
    );
    // The side-adjusted score is fitted from those sides, and with one rung the step's
    // side-adjusted gap is that rung's.
    let even = rung.even.clone().expect("both sides played");
    assert_eq!(Some(even.clone()), ladder::side_adjusted(&rung.by_side));
    assert_eq!(report.steps[0].even_gap, Some(even.gap));
    assert!(even.low < even.score && even.score < even.high);
    assert!(rung.upper_effort.decisions > 0 && rung.lower_effort.decisions > 0);
    assert_eq!(rung.lower_effort.iterations, 0, "random searches nothing");
    assert_eq!(report.ratings[0], (Level::Random, ladder::RANDOM_RATING));
    assert_eq!(
        report.ratings[1],
        (Level::Easy, ladder::RANDOM_RATING + report.steps[0].gap)
    );
    // The same seed plays the same games.
    let again = ladder::run(&registry, &bots, &config, &|_| {}, &|_| {}).unwrap();
    assert_eq!(again.rungs[0].wins, rung.wins);
    assert_eq!(again.rungs[0].wins.wins, games[1].7);
    let refused =
        |c: LadderConfig| ladder::run(&registry, &bots, &c, &|_| {}, &|_| {}).unwrap_err();
    let e = refused(LadderConfig {
        levels: vec![Level::Easy, Level::Random],
        ..config.clone()
    });
    assert!(e.message.contains("weakest first"), "{}", e.message);
    let e = refused(LadderConfig {
        scenarios: vec!["yorktown".into()],
        ..config.clone()
    });
    assert!(e.message.contains("yorktown"), "{}", e.message);
    let e = refused(LadderConfig {
        games_per_rung: 0,
        ..config
    });
    assert!(e.message.contains("at least 1"), "{}", e.message);
}

/// Issue 18's measurements tune a search level (`muster sim --iterations hard=N --depth
/// hard=N`); untuned, the bots search exactly as the levels ship, and a tuned level spends
/// the iterations asked while the other levels keep theirs.
#[test]
fn a_tuned_level_spends_the_iterations_asked_and_untuned_levels_ship_unchanged() {
    use muster_ai::Pace;
    let shipped = muster_cli::bots();
    for level in muster_ai::LEVELS {
        for pace in [Pace::Iterations, Pace::Time] {
            assert_eq!(
                shipped.params_at(level, pace),
                level.params_at(pace),
                "{level}"
            );
        }
    }
    let mut tuned = muster_cli::bots();
    tuned.tune(Level::Hard, Some(64), None).unwrap();
    tuned.tune(Level::Hard, None, Some(7)).unwrap();
    let hard = tuned.params_at(Level::Hard, Pace::Time).unwrap();
    assert_eq!(
        hard.playout_depth,
        Some(7),
        "the second call keeps the first's iterations"
    );
    assert!(matches!(
        hard.budget,
        muster_ai::mcts::Budget::Time { cap: 64, .. }
    ));
    assert_eq!(
        tuned.params_at(Level::Medium, Pace::Iterations),
        Level::Medium.params()
    );
    // A decision with a choice to make (the first with more than one legal action).
    let mut m = new_match("battles", "freemans-farm", 3);
    while m.legal().len() < 2 {
        let side = m.to_act().unwrap();
        let a = m.legal()[0].action.clone();
        m.act(Some(&side), &a).unwrap();
    }
    let t = tuned.think(m.as_ref(), Level::Hard, 1).unwrap();
    assert_eq!(t.iterations, 64);
    let t = tuned.think(m.as_ref(), Level::Medium, 1).unwrap();
    assert_eq!(t.iterations, muster_ai::MEDIUM_ITERATIONS as u64);
}

#[test]
fn tuning_is_refused_for_levels_that_do_not_search_and_for_zeros() {
    let mut bots = muster_cli::bots();
    for level in [Level::Random, Level::Easy] {
        let e = bots.tune(level, Some(100), None).unwrap_err();
        assert!(e.message.contains("does not search"), "{}", e.message);
    }
    for (i, d) in [(Some(0), None), (None, Some(0))] {
        let e = bots.tune(Level::Hard, i, d).unwrap_err();
        assert!(e.message.contains("at least 1"), "{}", e.message);
    }
    assert!(bots.tuning().is_empty(), "a refused tuning changes nothing");
}
