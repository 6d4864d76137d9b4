//! The journal's speed, each figure beside a baseline measured in the same run:
//! - a command decided, durably journaled and applied (p50/p99), against a bare SQLite
//!   insert of the same row with the same durability (WAL, synchronous=FULL);
//! - resuming a whole 7-turn game from its journal, against reading its rows only;
//! - replaying that game's entries, against parsing them only.
//!
//! Run: `cargo bench -p seance-journal` (targets: command < 5 ms p99, resume < 10 ms).

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use rusqlite::Connection;
use seance_journal::Journal;
use seance_rules::*;

fn setup() -> Setup {
    Setup::with_dealt_colours(
        "Laura",
        &["Stephanie", "Alex", "Carl", "Paul"],
        Difficulty::Medium,
        SecretMode::AppKept,
    )
}

/// The commands of a 5-player game lost after seven full turns, with tokens played.
fn seven_turns() -> (Vec<Event>, Vec<Entry>) {
    let (mut timeline, start) = seance_rules::begin(setup(), 1).unwrap();
    let mut entries = Vec::new();
    let mut play = |timeline: &mut Timeline, command: Command| {
        let entry = timeline.decide(command).unwrap();
        timeline.push(entry.clone()).unwrap();
        entries.push(entry);
    };
    while timeline.game().phase != Phase::Ended {
        for p in 0..4 {
            play(&mut timeline, Command::GiveVision { psychic: p });
        }
        for p in 0..4 {
            let game = timeline.game();
            let c = game.psychics[p].seeking().unwrap();
            let secret = game.assignments.as_ref().unwrap()[p][c.index()];
            let card = *game.uncollected(c).iter().find(|&&x| x != secret).unwrap();
            play(&mut timeline, Command::PlaceIntuition { psychic: p, card });
            if timeline.game().psychics[p].held.disagree > 0 {
                play(
                    &mut timeline,
                    Command::PlaceToken {
                        by: p,
                        on: (p + 1) % 4,
                        face: Face::Disagree,
                    },
                );
            }
        }
        play(&mut timeline, Command::EndInterpretation);
        for p in 0..4 {
            play(
                &mut timeline,
                Command::Manifest {
                    psychic: p,
                    right: None,
                },
            );
        }
    }
    (start, entries)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// p50/p99 of one durable command, and of the baseline insert, printed as a ratio.
fn command_latency() {
    let (start, entries) = seven_turns();
    let dir = tempfile::tempdir().unwrap();
    let mut journal = Journal::open(&dir.path().join("j.sqlite3")).unwrap();
    let base = Connection::open(dir.path().join("base.sqlite3")).unwrap();
    base.pragma_update(None, "journal_mode", "WAL").unwrap();
    base.pragma_update(None, "synchronous", "FULL").unwrap();
    base.execute_batch(
        "CREATE TABLE rows (game INTEGER, seq INTEGER, entry TEXT, PRIMARY KEY (game, seq))",
    )
    .unwrap();

    let (mut ours, mut floor) = (Vec::new(), Vec::new());
    for round in 0..8 {
        let mut timeline = Timeline::resume(start.clone(), []).unwrap();
        let game = journal.create(&start, timeline.game()).unwrap();
        for entry in &entries {
            let Entry::Command { command, .. } = entry else {
                unreachable!()
            };
            let t = Instant::now();
            let decided = timeline.decide(command.clone()).unwrap();
            let mut next = timeline.clone();
            next.push(decided.clone()).unwrap();
            journal
                .append(game, next.version(), &decided, next.game().status(), None)
                .unwrap();
            timeline = next;
            ours.push(t.elapsed());

            let text = serde_json::to_string(entry).unwrap();
            let t = Instant::now();
            base.execute(
                "INSERT INTO rows VALUES (?1, ?2, ?3)",
                rusqlite::params![round, timeline.version() as i64, text],
            )
            .unwrap();
            floor.push(t.elapsed());
        }
    }
    ours.sort();
    floor.sort();
    let (o50, o99, f50, f99) = (
        percentile(&ours, 0.5),
        percentile(&ours, 0.99),
        percentile(&floor, 0.5),
        percentile(&floor, 0.99),
    );
    println!(
        "command, durably applied ({} samples): p50 {o50:?}, p99 {o99:?}",
        ours.len()
    );
    println!("baseline, one fsync'd SQLite insert:    p50 {f50:?}, p99 {f99:?}");
    println!(
        "ratio to baseline: p50 {:.2}×, p99 {:.2}× (target: p99 < 5 ms)\n",
        o50.as_secs_f64() / f50.as_secs_f64(),
        o99.as_secs_f64() / f99.as_secs_f64()
    );
}

fn resume_and_replay(c: &mut Criterion) {
    let (start, entries) = seven_turns();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.sqlite3");
    let mut journal = Journal::open(&path).unwrap();
    let mut timeline = Timeline::resume(start.clone(), []).unwrap();
    let game = journal.create(&start, timeline.game()).unwrap();
    for entry in &entries {
        timeline.push(entry.clone()).unwrap();
        journal
            .append(
                game,
                timeline.version(),
                entry,
                timeline.game().status(),
                None,
            )
            .unwrap();
    }
    println!(
        "the 7-turn game: {} entries, {} events",
        entries.len(),
        timeline.events().count()
    );

    let mut group = c.benchmark_group("resume");
    group.bench_function("resume the game from its journal", |b| {
        b.iter(|| {
            Journal::open(&path)
                .unwrap()
                .load::<Game>(game)
                .unwrap()
                .timeline
                .version()
        })
    });
    group.bench_function("baseline: read its rows only", |b| {
        b.iter(|| {
            let conn = Connection::open(&path).unwrap();
            let mut stmt = conn
                .prepare("SELECT entry FROM entries WHERE game = ?1 ORDER BY seq")
                .unwrap();
            stmt.query_map([game], |r| r.get::<_, String>(0))
                .unwrap()
                .map(|r| r.unwrap().len())
                .sum::<usize>()
        })
    });
    group.finish();

    let texts: Vec<String> = entries
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    let mut group = c.benchmark_group("replay");
    group.bench_function("replay a 7-turn game", |b| {
        b.iter(|| {
            let parsed = texts
                .iter()
                .map(|t| serde_json::from_str::<Entry>(t).unwrap());
            Timeline::resume(start.clone(), parsed).unwrap().version()
        })
    });
    group.bench_function("baseline: parse its entries only", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| serde_json::from_str::<Entry>(t).unwrap())
                .filter(|e| matches!(e, Entry::Command { .. }))
                .count()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = resume_and_replay
}

fn main() {
    command_latency();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
