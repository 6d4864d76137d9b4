//! What a change costs the server per game: every screen's view with what its device may
//! do (`allowed`), for a 7-player game mid-turn and in the straw poll. Beside it, in the
//! same run: the views alone (the floor), and the views with the probing they once did
//! (`decide` on a dummy vote per psychic, a pick and a reveal: 2 + N clones of the game per
//! view), which `allowed` replaced.
//!
//! Run: `cargo bench -p seance-rules --bench views`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group};
use seance_rules::*;

fn seven_players() -> Setup {
    Setup::with_dealt_colours(
        "Laura",
        &["Stephanie", "Alex", "Carl", "Paul", "Mathieu", "Léa"],
        Difficulty::Easy,
        SecretMode::AppKept,
    )
}

fn play(t: &mut Timeline, c: Command) {
    let entry = t.decide(c).unwrap();
    t.push(entry).unwrap();
}

/// A game in its first interpretation, every pawn on a card and a few tokens out.
fn mid_turn() -> Game {
    let (mut t, _) = begin(seven_players(), 7).unwrap();
    for psychic in 0..6 {
        play(&mut t, Command::GiveVision { psychic });
    }
    let cards = t.game().layout.characters.clone();
    for (psychic, &card) in cards.iter().enumerate().take(6) {
        play(&mut t, Command::PlaceIntuition { psychic, card });
    }
    for by in 1..4 {
        play(
            &mut t,
            Command::PlaceToken {
                by,
                on: 0,
                face: Face::Agree,
            },
        );
    }
    t.game().clone()
}

/// A game in the straw poll, every psychic having found their three cards.
fn straw_poll() -> Game {
    let (mut t, _) = begin(seven_players(), 8).unwrap();
    while t.game().phase != Phase::Revelation {
        let secrets = t.game().assignments.clone().unwrap();
        for (psychic, secret) in secrets.iter().enumerate() {
            if let Some(c) = t.game().psychics[psychic].seeking() {
                play(&mut t, Command::GiveVision { psychic });
                let card = secret[c.index()];
                play(&mut t, Command::PlaceIntuition { psychic, card });
            }
        }
        play(&mut t, Command::EndInterpretation);
        for psychic in 0..6 {
            if t.game().phase == Phase::Manifestation && t.game().psychics[psychic].vision {
                play(
                    &mut t,
                    Command::Manifest {
                        psychic,
                        right: None,
                    },
                );
            }
        }
    }
    t.game().clone()
}

/// Every screen of a game: the table (no phones) and each seat's phone.
fn screens(game: &Game) -> Vec<(Role, Who<Role>)> {
    std::iter::once((Role::Table, Who::Table { phones: Vec::new() }))
        .chain(std::iter::once((Role::Ghost, Who::Seat(Seat::Ghost))))
        .chain((0..game.psychics.len()).map(|i| (Role::Psychic(i), Who::Seat(Seat::Psychic(i)))))
        .collect()
}

/// What the views once asked `decide` for, cloning the game each time.
fn probe(game: &Game) -> usize {
    let votes = (0..game.psychics.len())
        .filter(|&psychic| game.decide(&Command::Vote { psychic, group: 1 }, 0).is_ok())
        .count();
    let pick = game.decide(&Command::PickGroup { group: 1 }, 0).is_ok();
    let reveal = game.decide(&Command::RevealVisionCard, 0).is_ok();
    votes + usize::from(pick) + usize::from(reveal)
}

fn views(c: &mut Criterion) {
    for (name, game) in [("mid-turn", mid_turn()), ("straw poll", straw_poll())] {
        let screens = screens(&game);
        let mut group = c.benchmark_group(format!("every screen, 7 players, {name}"));
        group.bench_function("views alone (floor)", |b| {
            b.iter(|| {
                for (role, _) in &screens {
                    black_box(game.view(*role));
                }
            })
        });
        group.bench_function("views and the old probing", |b| {
            b.iter(|| {
                for (role, _) in &screens {
                    black_box((game.view(*role), probe(&game)));
                }
            })
        });
        group.bench_function("views and allowed", |b| {
            b.iter(|| {
                for (role, who) in &screens {
                    black_box((game.view(*role), game.allowed(who)));
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, views);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
