//! Whole classic games and the rulebooks' worked examples, through the public API.

mod common;

use common::{Table, setup, table};
use seance_played::assert_refused;
use seance_rules::*;

#[test]
fn every_player_count_and_difficulty_sets_up_by_the_table() {
    for players in 2..=7 {
        for difficulty in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
            for secrets in [SecretMode::AppKept, SecretMode::Paper] {
                let s = setup(players, difficulty, secrets);
                let n = s.cards_per_category();
                let table = Table::new(s, players as u64 * 31);
                let game = table.game();
                let psychics = if players <= 3 {
                    2 * (players - 1)
                } else {
                    players - 1
                };
                assert_eq!(game.psychics.len(), psychics);
                for c in Category::ALL {
                    let laid = game.layout.of(c);
                    assert_eq!(laid.len(), n, "{players} players {difficulty:?}");
                    let base = Collection::default().pool(c, Third::Objects);
                    assert!(laid.iter().all(|card| base.contains(card)));
                    assert!(
                        laid.windows(2).all(|w| w[0] < w[1]),
                        "distinct and in order"
                    );
                }
                match (secrets, &game.assignments) {
                    (SecretMode::AppKept, Some(a)) => {
                        for c in Category::ALL {
                            let mine: Vec<Card> = a.iter().map(|s| s[c.index()]).collect();
                            assert!(mine.iter().all(|card| game.layout.of(c).contains(card)));
                            let mut distinct = mine.clone();
                            distinct.sort();
                            distinct.dedup();
                            assert_eq!(
                                distinct.len(),
                                psychics,
                                "each psychic has their own {c:?}"
                            );
                        }
                    }
                    (SecretMode::Paper, None) => {}
                    other => panic!("secrets as set up: {other:?}"),
                }
                let tokens = [0, 0, 4, 4, 6, 6][players - 2];
                assert!(game.psychics.iter().all(|p| p.held.total() == tokens));
                let crows = match difficulty {
                    Difficulty::Easy => 1,
                    Difficulty::Medium => 3,
                    Difficulty::Hard => 1,
                };
                assert_eq!(game.crows_left(), crows);
            }
        }
    }
}

#[test]
fn the_same_seed_draws_the_same_game() {
    let a = Table::new(setup(5, Difficulty::Medium, SecretMode::AppKept), 42);
    let b = Table::new(setup(5, Difficulty::Medium, SecretMode::AppKept), 42);
    let c = Table::new(setup(5, Difficulty::Medium, SecretMode::AppKept), 43);
    assert_eq!(a.start, b.start);
    assert_ne!(a.start, c.start);
}

#[test]
fn a_five_player_game_won() {
    let mut t = Table::new(setup(5, Difficulty::Medium, SecretMode::AppKept), 7);
    // Turn 1: Alex (1) and Carl (2) agree with Stephanie (0); Paul (3) disagrees.
    for p in 0..4 {
        t.play(Command::GiveVision { psychic: p });
    }
    assert_eq!(
        t.game().phase,
        Phase::Interpretation,
        "the timer starts after the last vision"
    );
    let right = t.secret(0);
    t.play(Command::PlaceIntuition {
        psychic: 0,
        card: right,
    });
    for (by, face) in [(1, Face::Agree), (2, Face::Agree), (3, Face::Disagree)] {
        t.play(Command::PlaceToken { by, on: 0, face });
    }
    for p in 1..4 {
        let wrong = t.wrong_card(p);
        t.play(Command::PlaceIntuition {
            psychic: p,
            card: wrong,
        });
    }
    t.play(Command::EndInterpretation);
    let events = t.play(Command::Manifest {
        psychic: 0,
        right: None,
    });
    assert!(events.contains(&Event::Manifested {
        psychic: 0,
        right: true,
        card: Some(right),
        moved: vec![1, 2]
    }));
    let tracks: Vec<u8> = t.game().psychics.iter().map(|p| p.track).collect();
    assert_eq!(tracks, [0, 1, 1, 0]);
    for p in 1..4 {
        t.play(Command::Manifest {
            psychic: p,
            right: None,
        });
    }
    assert_eq!(t.game().hour, 2);
    assert_eq!(
        t.game().psychics[3].held,
        Faces {
            agree: 2,
            disagree: 1
        },
        "used tokens stay out until turn 4"
    );

    t.find_everything();
    let game = t.game();
    assert_eq!(game.groups.len(), 4);
    assert!(
        game.psychics.iter().all(|p| p.held.total() == 4),
        "tokens come back for the poll"
    );

    t.play(Command::ChooseCulprit { group: 2 });
    for psychic in 0..4 {
        if t.game().level_of(psychic).is_none() {
            t.play(Command::StateLevel {
                psychic,
                level: Level::High,
            });
        }
    }
    for card in 1..=3u8 {
        t.play(Command::RevealVisionCard);
        for psychic in 0..4 {
            if t.game().level_of(psychic).unwrap().card() == card {
                t.play(Command::Vote { psychic, group: 2 });
            }
        }
        if t.game().counting() {
            break;
        }
    }
    t.read_count();
    assert_eq!(t.game().outcome, Some(Outcome::Won));
    assert_eq!(
        t.game().count.as_ref().unwrap().steps[1],
        CountStep::Majority { group: 2 }
    );
}

#[test]
fn a_game_lost_on_time_after_hour_seven() {
    let mut t = Table::new(setup(4, Difficulty::Easy, SecretMode::AppKept), 3);
    let mut recovered_at = Vec::new();
    for hour in 1..=7 {
        assert_eq!(t.game().hour, hour);
        t.play(Command::UseCrow);
        assert_eq!(t.game().crows_left(), 0, "Easy: one crow per turn");
        let events = t.turn(&[]);
        if events.contains(&Event::TokensRecovered) {
            recovered_at.push(hour + 1);
        }
    }
    assert_eq!(recovered_at, [4], "tokens come back at the start of turn 4");
    assert_eq!(t.game().outcome, Some(Outcome::LostOnTime));
    assert_eq!(t.game().phase, Phase::Ended);
    assert_refused!(
        t.try_do(Command::GiveVision { psychic: 0 }),
        seance_rules::refusals::GAME_OVER
    );
}

#[test]
fn finding_the_object_in_hour_four_moves_three_spaces() {
    // 003 p.10: Paul finds his combination in the fourth hour and moves 3 spaces.
    let mut t = Table::new(setup(5, Difficulty::Easy, SecretMode::AppKept), 11);
    t.turn(&[3]);
    t.turn(&[]);
    t.turn(&[3]);
    assert_eq!(t.game().hour, 4);
    let events = t.turn(&[3]);
    assert!(events.contains(&Event::Finished {
        psychic: 3,
        bonus: 3
    }));
    assert_eq!(t.game().psychics[3].track, 3);
    assert_eq!(t.game().psychics[3].seeking(), None);
    // Finished psychics get no more visions but may still play tokens.
    assert_refused!(
        t.try_do(Command::GiveVision { psychic: 3 }),
        seance_rules::refusals::FINISHED_NO_VISION
    );
    t.play(Command::GiveEveryVision);
    let card = t.wrong_card(0);
    t.play(Command::PlaceIntuition { psychic: 0, card });
    t.play(Command::PlaceToken {
        by: 3,
        on: 0,
        face: Face::Agree,
    });
    assert_refused!(
        t.try_do(Command::PlaceToken {
            by: 0,
            on: 0,
            face: Face::Agree,
        }),
        seance_rules::refusals::NOT_OWN_PAWN
    );
    assert_refused!(
        t.try_do(Command::PlaceToken {
            by: 0,
            on: 3,
            face: Face::Agree,
        }),
        seance_rules::refusals::TOKEN_ON_FINISHED
    );
}

#[test]
fn token_rules_are_enforced_until_the_timer_ends() {
    let mut t = Table::new(setup(5, Difficulty::Hard, SecretMode::AppKept), 5);
    // 003 p.10: tokens go beside the intuition pawns the others have played.
    assert_refused!(
        t.try_do(Command::PlaceToken {
            by: 0,
            on: 1,
            face: Face::Agree,
        }),
        seance_rules::refusals::PAWN_NOT_PLACED
    );
    t.play(Command::GiveEveryVision);
    for p in 1..4 {
        let card = t.wrong_card(p);
        t.play(Command::PlaceIntuition { psychic: p, card });
    }
    t.play(Command::PlaceToken {
        by: 0,
        on: 1,
        face: Face::Agree,
    });
    assert_refused!(
        t.try_do(Command::PlaceToken {
            by: 0,
            on: 1,
            face: Face::Agree,
        }),
        seance_rules::refusals::TOKEN_THERE
    );
    // Turning a token over is one command, and one step to undo: the ✓ goes back to the
    // hand, the ✗ onto the pawn.
    let held = t.game().psychics[0].held;
    let turn_over = || Command::PlaceToken {
        by: 0,
        on: 1,
        face: Face::Disagree,
    };
    t.play(turn_over());
    assert_eq!(t.game().placements.len(), 1);
    assert_eq!(t.game().placements[0].face, Face::Disagree);
    assert_eq!(t.game().psychics[0].held.agree, held.agree + 1);
    assert_eq!(t.game().psychics[0].held.disagree, held.disagree - 1);
    t.undo();
    assert_eq!(t.game().placements[0].face, Face::Agree);
    assert_eq!(t.game().psychics[0].held, held);
    t.play(turn_over());
    t.play(Command::PlaceToken {
        by: 0,
        on: 2,
        face: Face::Disagree,
    });
    let none_left = assert_refused!(
        t.try_do(Command::PlaceToken {
            by: 0,
            on: 3,
            face: Face::Disagree,
        }),
        seance_rules::refusals::TOKENS_HELD
    );
    assert_eq!(
        none_left.param("agree"),
        Some(&Param::Number(2)),
        "{none_left}"
    );
    assert_eq!(
        none_left.param("disagree"),
        Some(&Param::Number(0)),
        "{none_left}"
    );
    t.play(Command::EndInterpretation);
    assert_refused!(
        t.try_do(Command::PlaceToken {
            by: 1,
            on: 0,
            face: Face::Agree,
        }),
        seance_rules::refusals::UNTIL_TIMER_ENDS
    );
    assert_refused!(
        t.try_do(Command::WithdrawToken { by: 0, on: 1 }),
        seance_rules::refusals::UNTIL_TIMER_ENDS
    );
    // Hard: one crow per game.
    t.play(Command::UseCrow);
    assert_refused!(t.try_do(Command::UseCrow), "no_crows_left");
}

#[test]
fn visions_come_one_per_psychic_per_turn() {
    let mut t = Table::new(setup(6, Difficulty::Easy, SecretMode::AppKept), 9);
    t.play(Command::GiveVision { psychic: 1 });
    let again = assert_refused!(
        t.try_do(Command::GiveVision { psychic: 1 }),
        seance_rules::refusals::ONE_VISION_PER_TURN
    );
    let waiting = ["Stephanie", "Carl", "Paul", "Mathieu"]
        .map(|name| Param::Person {
            name: name.into(),
            colour: None,
        })
        .to_vec();
    assert_eq!(
        again.param("waiting"),
        Some(&Param::List(waiting)),
        "{again}"
    );
    assert_refused!(
        t.try_do(Command::EndInterpretation),
        seance_rules::refusals::TIMER_NOT_STARTED
    );
    let off_table = assert_refused!(
        t.try_do(Command::PlaceIntuition {
            psychic: 0,
            card: 40.into(),
        }),
        seance_rules::refusals::CARD_ON_TABLE
    );
    assert_eq!(
        off_table.param("category"),
        Some(&Category::Character.term()),
        "{off_table}"
    );
    assert_refused!(
        t.try_do(Command::GiveVision { psychic: 9 }),
        seance_rules::refusals::NO_SUCH_PSYCHIC
    );
    // A pawn interprets a vision: Stephanie has none yet, Alex has his.
    let card = t.game().layout.characters[0];
    assert_refused!(
        t.try_do(Command::PlaceIntuition { psychic: 0, card }),
        seance_rules::refusals::VISION_BEFORE_PAWN
    );
    t.play(Command::PlaceIntuition { psychic: 1, card });
}

/// A turn in one tap each for the visions and the answers is the same turn as tapped psychic
/// by psychic: the same events, in seating order, ending the hour the same way.
#[test]
fn every_vision_and_every_answer_in_one_tap_each() {
    let six = || setup(6, Difficulty::Easy, SecretMode::AppKept);
    let (mut one_by_one, mut at_once) = (Table::new(six(), 9), Table::new(six(), 9));
    one_by_one.play(Command::GiveVision { psychic: 2 });
    at_once.play(Command::GiveVision { psychic: 2 });
    for p in [0, 1, 3, 4] {
        one_by_one.play(Command::GiveVision { psychic: p });
    }
    at_once.play(Command::GiveEveryVision);
    assert_eq!(at_once.game(), one_by_one.game());
    assert_eq!(at_once.game().phase, Phase::Interpretation);
    assert_refused!(
        at_once.try_do(Command::GiveEveryVision),
        seance_rules::refusals::VISIONS_ALL_GIVEN
    );
    assert_refused!(
        at_once.try_do(Command::ManifestEvery),
        seance_rules::refusals::MANIFESTATION
    );
    for t in [&mut one_by_one, &mut at_once] {
        for p in 0..5 {
            let card = if p % 2 == 0 {
                t.secret(p)
            } else {
                t.wrong_card(p)
            };
            t.play(Command::PlaceIntuition { psychic: p, card });
        }
        t.play(Command::EndInterpretation);
    }
    let told: Vec<Event> = (0..5)
        .flat_map(|psychic| {
            one_by_one.play(Command::Manifest {
                psychic,
                right: None,
            })
        })
        .collect();
    assert_eq!(at_once.play(Command::ManifestEvery), told);
    assert_eq!(at_once.game(), one_by_one.game());
    assert_eq!(at_once.game().hour, 2);
    // Where the ghost keeps the secrets on paper, only the ghost can say each answer.
    let mut paper = Table::new(setup(4, Difficulty::Medium, SecretMode::Paper), 2);
    paper.play(Command::GiveEveryVision);
    paper.play(Command::EndInterpretation);
    assert_refused!(
        paper.try_do(Command::ManifestEvery),
        seance_rules::refusals::ANSWERS_ONE_BY_ONE
    );
}

#[test]
fn a_refused_command_changes_nothing() {
    let mut t = Table::new(setup(5, Difficulty::Medium, SecretMode::AppKept), 1);
    t.play(Command::GiveVision { psychic: 0 });
    let (before, version) = (t.game().clone(), t.timeline.version());
    assert!(t.try_do(Command::GiveVision { psychic: 0 }).is_err());
    assert!(
        t.try_do(Command::Manifest {
            psychic: 0,
            right: None
        })
        .is_err()
    );
    assert!(t.try_do(Command::ChooseCulprit { group: 1 }).is_err());
    assert_eq!(t.game(), &before);
    assert_eq!(t.timeline.version(), version);
}

#[test]
fn a_two_player_game_lines_up_four_groups_and_picks_one() {
    let mut t = Table::new(setup(2, Difficulty::Easy, SecretMode::AppKept), 21);
    assert_refused!(
        t.try_do(Command::PlaceToken {
            by: 0,
            on: 1,
            face: Face::Agree
        }),
        "no_clairvoyancy"
    );
    t.find_everything();
    let game = t.game();
    assert_eq!(game.groups.len(), 4);
    assert_eq!(
        game.groups.iter().filter(|g| g.psychic.is_none()).count(),
        2,
        "two extra groups"
    );
    let mut all: Vec<Card> = game.groups.iter().flat_map(|g| g.cards).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 12, "no card in two groups");
    for g in game.groups.iter().filter(|g| g.psychic.is_none()) {
        for (c, card) in Category::ALL.iter().zip(g.cards) {
            assert!(
                game.layout.of(*c).contains(&card),
                "extra groups come from the cards laid out"
            );
        }
    }
    assert_refused!(t.try_do(Command::RevealVisionCard), "shared_vision_face_up");
    assert_refused!(t.try_do(Command::PickGroup { group: 1 }), "culprit_first");
    t.play(Command::ChooseCulprit { group: 4 });
    t.play(Command::PickGroup { group: 3 });
    assert_eq!(t.game().outcome, Some(Outcome::LostWrongGroup));
    assert_eq!(
        t.game().view(Role::Table).culprit,
        Some(4),
        "revealed at the end"
    );
}

#[test]
fn a_three_player_game_agrees_on_a_group() {
    let mut t = Table::new(setup(3, Difficulty::Hard, SecretMode::AppKept), 8);
    assert_eq!(t.game().psychics.len(), 4);
    assert_eq!(t.game().psychics[0].name, "Stephanie");
    t.find_everything();
    assert_eq!(t.game().groups.len(), 4);
    assert!(t.game().groups.iter().all(|g| g.psychic.is_some()));
    t.play(Command::ChooseCulprit { group: 1 });
    assert_refused!(
        t.try_do(Command::Vote {
            psychic: 0,
            group: 1
        }),
        "vote_in_straw_poll"
    );
    t.play(Command::PickGroup { group: 1 });
    assert_eq!(t.game().outcome, Some(Outcome::Won));
}

#[test]
fn in_paper_mode_the_ghost_answers() {
    let mut t = Table::new(setup(4, Difficulty::Medium, SecretMode::Paper), 2);
    assert!(t.game().assignments.is_none());
    for p in 0..3 {
        t.play(Command::GiveVision { psychic: p });
    }
    let card = t.game().layout.characters[0];
    t.play(Command::PlaceIntuition { psychic: 0, card });
    t.play(Command::EndInterpretation);
    assert_refused!(
        t.try_do(Command::Manifest {
            psychic: 0,
            right: None,
        }),
        seance_rules::refusals::GHOST_ANSWERS
    );
    assert_refused!(
        t.try_do(Command::Manifest {
            psychic: 1,
            right: Some(true),
        }),
        seance_rules::refusals::INTUITION_FIRST
    );
    t.play(Command::Manifest {
        psychic: 0,
        right: Some(true),
    });
    t.play(Command::Manifest {
        psychic: 1,
        right: Some(false),
    });
    t.play(Command::Manifest {
        psychic: 2,
        right: Some(false),
    });
    assert_eq!(t.game().psychics[0].found, vec![card]);
    assert_eq!(t.game().psychics[0].seeking(), Some(Category::Location));
    // Two pawns on one card cannot both be right: each psychic's card is their own.
    let mut shared = Table::new(setup(4, Difficulty::Medium, SecretMode::Paper), 2);
    let same = shared.game().layout.characters[3];
    for p in 0..3 {
        shared.play(Command::GiveVision { psychic: p });
        shared.play(Command::PlaceIntuition {
            psychic: p,
            card: same,
        });
    }
    shared.play(Command::EndInterpretation);
    shared.play(Command::Manifest {
        psychic: 2,
        right: Some(true),
    });
    let both = assert_refused!(
        shared.try_do(Command::Manifest {
            psychic: 0,
            right: Some(true),
        }),
        seance_rules::refusals::CARD_COLLECTED
    );
    assert_eq!(
        both.param("holder"),
        Some(&Param::Person {
            name: "Carl".into(),
            colour: None
        }),
        "{both}"
    );
    // Another psychic may not put a pawn on a collected card.
    t.play(Command::GiveVision { psychic: 1 });
    assert_refused!(
        t.try_do(Command::PlaceIntuition { psychic: 1, card }),
        "card_on_table"
    );
}

#[test]
fn secrets_stay_with_the_ghost_and_votes_stay_sealed() {
    let mut t = Table::new(setup(5, Difficulty::Easy, SecretMode::AppKept), 13);
    assert!(t.game().view(Role::Ghost).assignments.is_some());
    for role in [Role::Table, Role::Psychic(0), Role::Psychic(3)] {
        assert_eq!(t.game().view(role).assignments, None, "{role:?}");
    }
    t.find_everything();
    t.play(Command::ChooseCulprit { group: 3 });
    assert_eq!(t.game().view(Role::Ghost).culprit, Some(3));
    assert_eq!(t.game().view(Role::Table).culprit, None);
    assert!(t.game().view(Role::Table).culprit_sealed);
    for psychic in 0..4 {
        if t.game().level_of(psychic).is_none() {
            t.play(Command::StateLevel {
                psychic,
                level: Level::Intermediate,
            });
        }
    }
    t.play(Command::RevealVisionCard);
    let low: Vec<usize> = (0..4)
        .filter(|&p| t.game().level_of(p) == Some(Level::Low))
        .collect();
    let mut next_card = 1;
    while low.is_empty() && next_card < 3 {
        t.play(Command::RevealVisionCard);
        next_card += 1;
    }
    let voter = (0..4)
        .find(|&p| t.game().level_of(p).unwrap().card() == next_card)
        .unwrap();
    t.play(Command::Vote {
        psychic: voter,
        group: 1,
    });
    let other = (voter + 1) % 4;
    assert_eq!(t.game().view(Role::Psychic(voter)).my_vote, Some(1));
    assert_eq!(t.game().view(Role::Psychic(other)).my_vote, None);
    assert!(t.game().view(Role::Table).psychics[voter].voted);
    let json = serde_json::to_string(&t.game().view(Role::Table)).unwrap();
    assert!(json.contains("\"my_vote\":null") && json.contains("\"count\":null"));
    assert_refused!(
        t.try_do(Command::Vote {
            psychic: voter,
            group: 2
        }),
        "vote_once"
    );
}

#[test]
fn the_poll_is_staged_by_level_and_age_is_asked_only_when_it_decides() {
    let mut t = Table::new(setup(5, Difficulty::Easy, SecretMode::AppKept), 17);
    t.find_everything();
    t.play(Command::ChooseCulprit { group: 1 });
    let tracks: Vec<u8> = t.game().psychics.iter().map(|p| p.track).collect();
    // Everyone finished in hour III: +4 each, and nobody played a token.
    assert_eq!(tracks, [4, 4, 4, 4]);
    assert!((0..4).all(|p| t.game().level_of(p) == Some(Level::Low)));
    assert_refused!(
        t.try_do(Command::Vote {
            psychic: 0,
            group: 1,
        }),
        seance_rules::refusals::VOTE_WHEN_REVEALED
    );
    t.play(Command::RevealVisionCard);
    // A two-two tie between psychics on the same space: the eldest decides.
    for (psychic, group) in [(0, 1), (1, 2), (2, 1)] {
        t.play(Command::Vote { psychic, group });
    }
    assert_refused!(t.try_do(Command::RevealVisionCard), "vote_first");
    t.play(Command::Vote {
        psychic: 3,
        group: 2,
    });
    let events = t.read_count();
    assert_eq!(
        events.last(),
        Some(&Event::EldestAsked {
            among: vec![0, 1, 2, 3]
        })
    );
    assert_eq!(t.game().phase, Phase::Revelation);
    assert_refused!(
        t.try_do(Command::DeclareEldest { psychic: 7 }),
        "no_such_psychic"
    );
    let shown = t.game().shown;
    t.play(Command::DeclareEldest { psychic: 1 });
    // A slip is undone and done again; the count read before stays read.
    t.undo();
    assert!(t.game().may(&table(), Extra::Undo).is_err());
    assert!(t.game().may(&table(), Extra::Redo).is_ok());
    t.redo();
    // The count goes on from where the table stopped: the ballots are not read again.
    assert_eq!(
        t.game().shown,
        shown - 1,
        "all but the question for the eldest"
    );
    assert_eq!(t.game().outcome, None);
    t.read_count();
    assert_eq!(t.game().chosen, Some(2));
    assert_eq!(t.game().outcome, Some(Outcome::LostWrongGroup));
    let steps = &t.game().count.as_ref().unwrap().steps;
    assert!(matches!(
        steps.last(),
        Some(CountStep::Decided {
            group: 2,
            by: 1,
            because: Decider::EldestPlayer,
            ..
        })
    ));
}

#[test]
fn a_level_whose_card_has_passed_is_refused() {
    // 000 p.12: psychics vote after the card of their level; the track stands still in
    // the revelation, so once card 2 is turned nobody unvoted can be Low.
    // Six players: the 6–7 side's bands are unknown, so the table reads every level.
    let mut t = Table::new(setup(6, Difficulty::Easy, SecretMode::AppKept), 17);
    t.find_everything();
    t.play(Command::ChooseCulprit { group: 1 });
    for (psychic, level) in [(0, Level::Intermediate)]
        .into_iter()
        .chain((1..5).map(|p| (p, Level::Low)))
    {
        t.play(Command::StateLevel { psychic, level });
    }
    t.play(Command::RevealVisionCard);
    for psychic in 1..5 {
        t.play(Command::Vote { psychic, group: 1 });
    }
    t.play(Command::RevealVisionCard);
    assert_refused!(
        t.try_do(Command::StateLevel {
            psychic: 0,
            level: Level::Low,
        }),
        seance_rules::refusals::LEVEL_CARD_PASSED
    );
    // A correction to the card now up lets them vote at once.
    t.play(Command::StateLevel {
        psychic: 0,
        level: Level::Intermediate,
    });
    t.play(Command::Vote {
        psychic: 0,
        group: 1,
    });
    t.read_count();
    assert_eq!(t.game().outcome, Some(Outcome::Won));
}

#[test]
fn a_level_the_bands_leave_open_is_read_off_the_track() {
    let mut t = Table::new(setup(4, Difficulty::Easy, SecretMode::AppKept), 4);
    // Turn 1: Stephanie right with Alex's ✓ and Carl's ✓ on her pawn; others wrong with ✗.
    t.play(Command::GiveEveryVision);
    let right = t.secret(0);
    t.play(Command::PlaceIntuition {
        psychic: 0,
        card: right,
    });
    for p in 1..3 {
        let card = t.wrong_card(p);
        t.play(Command::PlaceIntuition { psychic: p, card });
    }
    t.play(Command::PlaceToken {
        by: 1,
        on: 0,
        face: Face::Agree,
    });
    t.play(Command::PlaceToken {
        by: 2,
        on: 0,
        face: Face::Agree,
    });
    t.play(Command::PlaceToken {
        by: 0,
        on: 1,
        face: Face::Disagree,
    });
    t.play(Command::PlaceToken {
        by: 0,
        on: 2,
        face: Face::Disagree,
    });
    t.turn(&[0]);
    assert_eq!(
        t.game()
            .psychics
            .iter()
            .map(|p| p.track)
            .collect::<Vec<_>>(),
        [2, 1, 1]
    );
    t.find_everything();
    // Stephanie finished in hour III (+4): space 6, Intermediate; Alex and Carl in IV (+3): 4, Low.
    let tracks: Vec<u8> = t.game().psychics.iter().map(|p| p.track).collect();
    assert_eq!(tracks, [6, 4, 4]);
    assert_eq!(t.game().level_of(0), Some(Level::Intermediate));
    assert_refused!(
        t.try_do(Command::StateLevel {
            psychic: 1,
            level: Level::High,
        }),
        seance_rules::refusals::LEVEL_OFF_BAND
    );
}

#[test]
fn undo_goes_back_to_the_start_and_redo_returns() {
    let mut t = Table::new(setup(4, Difficulty::Medium, SecretMode::AppKept), 6);
    let fresh = t.game().clone();
    let mut states = vec![fresh.clone()];
    for p in 0..3 {
        t.play(Command::GiveVision { psychic: p });
        states.push(t.game().clone());
    }
    t.play(Command::UseCrow);
    states.push(t.game().clone());
    for expected in states.iter().rev().skip(1) {
        t.undo();
        assert_eq!(t.game(), expected);
    }
    assert!(!t.timeline.can_undo());
    assert_eq!(
        t.timeline.push(Entry::Undo),
        Err(TimelineError::NothingToUndo)
    );
    for expected in states.iter().skip(1) {
        t.redo();
        assert_eq!(t.game(), expected);
    }
    assert_eq!(
        t.timeline.push(Entry::Redo),
        Err(TimelineError::NothingToRedo)
    );
    // A new command after an undo drops what could have been redone.
    t.undo();
    t.play(Command::UseCrow);
    assert!(!t.timeline.can_redo());
}

#[test]
fn an_undo_says_which_change_it_took_back() {
    let mut t = Table::new(setup(4, Difficulty::Medium, SecretMode::AppKept), 6);
    let latest = |t: &Table| t.timeline.recent().last().unwrap().clone();
    t.play(Command::GiveVision { psychic: 0 }); // version 1
    t.play(Command::GiveVision { psychic: 1 }); // version 2
    t.undo(); // 3 takes back 2
    assert_eq!(
        (latest(&t).kind, latest(&t).undid),
        (seance_timeline::ChangeKind::Undone, Some(2))
    );
    t.undo(); // 4 takes back 1
    assert_eq!(latest(&t).undid, Some(1));
    t.redo(); // 5 brings 1's events back
    assert_eq!(
        (latest(&t).kind, latest(&t).undid),
        (seance_timeline::ChangeKind::Redone, None)
    );
    t.undo(); // 6 takes back the redo, 5
    assert_eq!(latest(&t).undid, Some(5));
    t.play(Command::GiveVision { psychic: 2 }); // 7
    assert_eq!(latest(&t).undid, None);
}

#[test]
fn the_rulebook_straw_poll_example_votes_in_its_order() {
    // 003 p.12: Stephanie on space 4 votes after the first card (Low), Alex and Carl on 5
    // and 6 after the second (Intermediate), Paul on 11 after the third (High).
    let s = setup(5, Difficulty::Medium, SecretMode::Paper);
    let Event::Started { layout, .. } = &Game::start(s.clone(), 1).unwrap()[0] else {
        unreachable!()
    };
    let mut history = vec![Event::Started {
        setup: Box::new(s),
        seed: 1,
        layout: layout.clone(),
    }];
    for (psychic, space) in [4u8, 5, 6, 11].into_iter().enumerate() {
        for c in Category::ALL {
            let card = Some(layout.of(c)[psychic]);
            history.push(Event::Manifested {
                psychic,
                right: true,
                card,
                moved: vec![],
            });
        }
        history.push(Event::Finished {
            psychic,
            bonus: space,
        });
    }
    let groups = (0..4)
        .map(|p| Group {
            number: p as u8 + 1,
            cards: Category::ALL.map(|c| layout.of(c)[p]),
            psychic: Some(p),
        })
        .collect();
    history.extend([
        Event::TurnEnded,
        Event::TokensRecovered,
        Event::LinedUp { groups },
    ]);
    let (timeline, start) = (Timeline::resume(history.clone(), []).unwrap(), history);
    let mut t = Table {
        timeline,
        start,
        entries: Vec::new(),
    };

    let (stephanie, alex, carl, paul) = (0, 1, 2, 3);
    t.play(Command::ChooseCulprit { group: 3 });
    t.play(Command::RevealVisionCard);
    for early in [alex, carl, paul] {
        assert_refused!(
            t.try_do(Command::Vote {
                psychic: early,
                group: 1
            }),
            "vote_when_revealed"
        );
    }
    t.play(Command::Vote {
        psychic: stephanie,
        group: 1,
    });
    t.play(Command::RevealVisionCard);
    t.play(Command::Vote {
        psychic: alex,
        group: 3,
    });
    assert_refused!(t.try_do(Command::RevealVisionCard), "vote_first");
    t.play(Command::Vote {
        psychic: carl,
        group: 1,
    });
    t.play(Command::RevealVisionCard);
    // Two votes for 1, one for 3, and Paul's: a tie if he votes 3, which he breaks.
    t.play(Command::Vote {
        psychic: paul,
        group: 3,
    });
    t.read_count();
    assert_eq!(t.game().chosen, Some(3));
    assert_eq!(t.game().outcome, Some(Outcome::Won));
    let steps = &t.game().count.as_ref().unwrap().steps;
    assert_eq!(steps[1], CountStep::Tie { groups: vec![1, 3] });
    assert_eq!(
        steps[2],
        CountStep::Decided {
            group: 3,
            by: paul,
            space: 11,
            because: Decider::Furthest
        }
    );
}

/// The cards the table may put `psychic`'s pawn on now.
fn pawn_cards(game: &Game, psychic: usize) -> Vec<Card> {
    game.allowed(&table())
        .into_iter()
        .find_map(|a| match a {
            Action::PlaceIntuition { psychic: p, cards } if p == psychic => Some(cards),
            _ => None,
        })
        .unwrap_or_default()
}

/// Who votes now, as the table may enter it.
fn voting(game: &Game) -> Vec<usize> {
    game.allowed(&table())
        .into_iter()
        .filter_map(|a| match a {
            Action::Vote { psychic, .. } => Some(psychic),
            _ => None,
        })
        .collect()
}

fn may_reveal(game: &Game) -> bool {
    game.allowed(&table()).contains(&Action::RevealVisionCard)
}

#[test]
fn a_pawn_is_offered_only_the_cards_it_may_go_on() {
    let mut t = Table::new(setup(5, Difficulty::Medium, SecretMode::AppKept), 3);
    let laid = t.game().layout.characters.clone();
    assert_eq!(pawn_cards(t.game(), 0), [], "no pawn before the vision");
    t.play(Command::GiveVision { psychic: 0 });
    assert_eq!(pawn_cards(t.game(), 0), laid);
    t.turn(&[0]);
    t.play(Command::GiveEveryVision);
    assert_eq!(
        pawn_cards(t.game(), 0),
        t.game().uncollected(Category::Location),
        "Stephanie now seeks a location"
    );
    assert_eq!(
        pawn_cards(t.game(), 1).len(),
        laid.len() - 1,
        "her character is taken"
    );
    t.play(Command::EndInterpretation);
    assert!(
        (0..4).all(|p| pawn_cards(t.game(), p).is_empty()),
        "once the sand has run out no pawn moves"
    );
}

#[test]
fn the_rules_say_who_votes_now_and_whether_the_next_card_may_turn() {
    let mut t = Table::new(setup(5, Difficulty::Easy, SecretMode::AppKept), 9);
    t.find_everything();
    assert_eq!(t.game().view(Role::Table).decision, Decision::StrawPoll);
    assert!(!may_reveal(t.game()), "the culprit is sealed first");
    t.play(Command::ChooseCulprit { group: 1 });
    assert!(may_reveal(t.game()));
    t.play(Command::RevealVisionCard);
    let view = t.game().view(Role::Table);
    let low: Vec<usize> = (0..4)
        .filter(|&i| t.game().level_of(i) == Some(Level::Low))
        .collect();
    assert_eq!(voting(t.game()), low, "after card 1, the Low level votes");
    assert!(low.iter().all(|&i| view.psychics[i].votes_after == Some(1)));
    assert!(!may_reveal(t.game()), "not before the Low level has voted");
    for &i in &low {
        t.play(Command::Vote {
            psychic: i,
            group: 1,
        });
    }
    assert!(voting(t.game()).is_empty());
    assert!(may_reveal(t.game()) || t.game().counting());
}

#[test]
fn the_view_recalls_what_the_ghost_said_this_turn_and_the_last() {
    let mut t = Table::new(setup(5, Difficulty::Easy, SecretMode::AppKept), 4);
    for p in 0..4 {
        t.play(Command::GiveVision { psychic: p });
    }
    let right = t.secret(0);
    t.play(Command::PlaceIntuition {
        psychic: 0,
        card: right,
    });
    t.play(Command::PlaceToken {
        by: 2,
        on: 0,
        face: Face::Agree,
    });
    t.play(Command::PlaceToken {
        by: 3,
        on: 0,
        face: Face::Disagree,
    });
    t.play(Command::EndInterpretation);
    t.play(Command::Manifest {
        psychic: 0,
        right: None,
    });
    let said = t.game().view(Role::Table).manifestations;
    assert_eq!(
        said,
        vec![Manifestation {
            psychic: 0,
            right: true,
            card: Some(right),
            moved: vec![2],
            bonus: 0
        }]
    );
    for p in 1..4 {
        t.play(Command::Manifest {
            psychic: p,
            right: None,
        });
    }
    let view = t.game().view(Role::Table);
    assert!(view.manifestations.is_empty(), "a new turn has begun");
    assert_eq!(view.last_turn.len(), 4);
    assert_eq!(view.last_turn[0], said[0]);
    // Finishing is recorded with its bonus: Stephanie, right in hours I to III, finds
    // her object in hour III (+4); the others, wrong in hour I, are still searching.
    t.turn(&[0, 1, 2, 3]);
    t.turn(&[0, 1, 2, 3]);
    let last = t.game().view(Role::Table).last_turn;
    let bonuses: Vec<u8> = last.iter().map(|m| m.bonus).collect();
    assert_eq!(bonuses, [4, 0, 0, 0]);
    assert!(last.iter().all(|m| m.right));
}

/// The hand moves one hour forward only when a new turn begins (001 l.449-452, 003
/// l.798-802, 004 l.153-159): the turn that ends Phase 1 was played in the hour shown.
#[test]
fn the_last_turn_is_told_in_the_hour_it_was_played() {
    let mut t = Table::new(setup(5, Difficulty::Easy, SecretMode::AppKept), 11);
    assert_eq!(t.game().view(Role::Table).last_turn_hour, 0, "no turn yet");
    t.turn(&[]);
    let view = t.game().view(Role::Table);
    assert_eq!((view.hour, view.last_turn_hour), (2, 1));
    t.find_everything();
    let view = t.game().view(Role::Table);
    assert_eq!(view.phase, Phase::Revelation);
    assert!(!view.last_turn.is_empty());
    assert_eq!(
        view.last_turn_hour, view.hour,
        "the psychics were through in hour {}",
        view.hour
    );
}

#[test]
fn each_device_acts_only_for_whom_the_rules_say() {
    let t = Table::new(setup(5, Difficulty::Easy, SecretMode::AppKept), 5);
    let game = t.game().clone();
    let pawn = |psychic| Command::PlaceIntuition {
        psychic,
        card: game.layout.characters[0],
    };
    let refusal =
        |who: Who<Role>, command: &Command| game.permit(&who, command).err().map(|e| e.code);
    // A psychic's phone: its own pawn, nobody else's, and none of the ghost's acts.
    assert_eq!(refusal(Who::Seat(Seat::Psychic(1)), &pawn(1)), None);
    assert_eq!(
        refusal(Who::Seat(Seat::Psychic(1)), &pawn(2)),
        Some("psychic_acts_for_self")
    );
    let vision = Command::GiveVision { psychic: 1 };
    assert_eq!(
        refusal(Who::Seat(Seat::Psychic(1)), &vision),
        Some("psychic_acts_for_self")
    );
    // The ghost's phone: the visions, never a psychic's pawn.
    assert_eq!(refusal(Who::Seat(Seat::Ghost), &vision), None);
    assert_eq!(
        refusal(Who::Seat(Seat::Ghost), &pawn(0)),
        Some("ghost_not_for_psychics")
    );
    // A watcher: nothing.
    assert_eq!(
        refusal(Who::Watcher, &vision),
        Some(seance_timeline::refusals::WATCHER)
    );
    // The table: everyone's acts, but a sealed choice belongs to the phone holding its seat.
    let vote = Command::Vote {
        psychic: 2,
        group: 1,
    };
    assert_eq!(refusal(table(), &vote), None);
    let phones = Who::Table {
        phones: vec![Seat::Psychic(2), Seat::Ghost],
    };
    assert_eq!(
        refusal(phones.clone(), &vote),
        Some(seance_timeline::refusals::VOTE_ON_PHONE)
    );
    assert_eq!(
        refusal(phones.clone(), &pawn(2)),
        None,
        "a pawn is on the table"
    );
    assert_eq!(
        refusal(phones.clone(), &Command::ChooseCulprit { group: 1 }),
        Some("culprit_on_phone")
    );
    // Undo, the timer and knocks: the table and the ghost's phone.
    for extra in [Extra::Undo, Extra::Redo, Extra::Timer, Extra::Knock] {
        assert!(t.game().may(&Who::Seat(Seat::Ghost), extra).is_ok());
        assert!(t.game().may(&Who::Seat(Seat::Psychic(0)), extra).is_err());
        assert!(t.game().may(&Who::Watcher, extra).is_err());
    }
    for extra in [Extra::Undo, Extra::Redo, Extra::Timer] {
        assert!(t.game().may(&phones, extra).is_ok());
    }
    // Séance answers for the ghost here: the table has no knocks to make for them. On
    // paper the ghost answers, and may knock through the table.
    assert_refused!(
        t.game().may(&phones, Extra::Knock),
        seance_rules::refusals::APP_ANSWERS
    );
    let paper = Table::new(setup(5, Difficulty::Easy, SecretMode::Paper), 5);
    assert!(paper.game().may(&phones, Extra::Knock).is_ok());
    assert!(
        paper
            .game()
            .allowed(&Who::Table { phones: vec![] })
            .contains(&Action::Knock)
    );
    assert!(
        !t.game()
            .allowed(&Who::Table { phones: vec![] })
            .contains(&Action::Knock)
    );
}

/// A player who plays two colours is named once, and each of their psychics by that name
/// and its colour, for the UI to word in the table's language ("Stephanie (rouge)").
#[test]
fn a_player_of_two_colours_is_told_apart_by_colour() {
    let mut t = Table::new(setup(3, Difficulty::Easy, SecretMode::AppKept), 3);
    let view = t.game().view(Role::Table);
    let first = &view.psychics[0];
    assert_eq!(first.name, "Stephanie");
    assert!(first.two_colours);
    t.play(Command::GiveVision { psychic: 1 });
    let again = t.try_do(Command::GiveVision { psychic: 1 }).unwrap_err();
    let colour = t.game().psychics[1].colour.key();
    assert_eq!(
        again.param("name"),
        Some(&Param::Person {
            name: "Stephanie".into(),
            colour: Some(colour)
        }),
        "{again}"
    );
}

/// Nothing is told before its time: the count is made when the last vote is in, and every
/// view and log holds only what the table has shown of it; the verdict comes with its last
/// line, which nobody takes back.
#[test]
fn the_count_is_told_only_as_far_as_the_table_has_shown_it() {
    let mut t = Table::new(setup(5, Difficulty::Easy, SecretMode::AppKept), 17);
    t.find_everything();
    t.play(Command::ChooseCulprit { group: 2 });
    t.play(Command::RevealVisionCard);
    for (psychic, group) in [(0, 2), (1, 2), (2, 1)] {
        t.play(Command::Vote { psychic, group });
    }
    let last = t.play(Command::Vote {
        psychic: 3,
        group: 2,
    });
    let roles = [Role::Table, Role::Ghost, Role::Psychic(0), Role::Psychic(3)];
    for event in &last {
        for role in roles {
            let told = serde_json::to_string(&t.game().told(event, role)).unwrap();
            assert!(
                !told.contains("tally"),
                "{role:?} was told the count: {told}"
            );
        }
    }
    let ghost = Who::Seat(Seat::Ghost);
    let show = |lines| Command::ShowCount { lines };
    assert_refused!(t.game().permit(&ghost, &show(1)), "table_shows_count");
    assert_refused!(
        t.game().permit(&Who::Seat(Seat::Psychic(0)), &show(1)),
        "psychic_acts_for_self"
    );
    assert_refused!(t.try_do(show(0)), seance_rules::refusals::COUNT_LINES);
    assert_refused!(t.try_do(show(7)), seance_rules::refusals::COUNT_LINES);
    assert_refused!(t.try_do(show(3)), seance_rules::refusals::COUNT_LINES);
    assert_refused!(
        t.try_do(Command::UseCrow),
        seance_rules::refusals::COUNT_FIRST
    );
    // Before the first line the last vote may still be taken back; not after.
    assert!(t.game().may(&table(), Extra::Undo).is_ok());
    for lines in 0..6 {
        if lines > 0 {
            t.play(show(lines));
            assert_refused!(t.game().may(&ghost, Extra::Undo), "count_read");
        }
        assert_eq!(Listed::status(t.game()), Status::Playing);
        assert!(Listed::record(t.game()).is_none());
        for role in roles {
            let view = t.game().view(role);
            let count = view.count.unwrap();
            assert_eq!(count.lines(), lines, "{role:?}");
            assert_eq!(
                (count.chosen, view.chosen, view.outcome),
                (None, None, None)
            );
            assert_eq!(view.culprit, None, "{role:?} told the culprit's group");
        }
    }
    let events = t.play(show(6));
    assert!(matches!(
        events.last(),
        Some(Event::Ended { won: true, .. })
    ));
    let view = t.game().view(Role::Psychic(0));
    assert_eq!((view.chosen, view.culprit), (Some(2), Some(2)));
    assert_eq!(view.count.unwrap().lines(), 6);
    assert_refused!(t.game().may(&table(), Extra::Undo), "count_read");
}

/// A game's own bands (the API's per-game value) are held to the same facts as the table's
/// told track (003 p.12's example, 4-5 side: space 5 is Intermediate, 11 High): they may
/// narrow what the rulebook leaves open, never contradict it.
#[test]
fn a_games_own_bands_keep_to_the_rulebooks_facts() {
    let with = |intermediate_from, high_from| Setup {
        bands: Some(LevelBands {
            intermediate_from,
            high_from,
        }),
        ..setup(5, Difficulty::Easy, SecretMode::AppKept)
    };
    let narrowed = with(Bound::exact(5), Bound { lo: 8, hi: 10 });
    narrowed.validate().unwrap();
    assert_eq!(
        narrowed.bands().unwrap().level(7),
        Some(Level::Intermediate)
    );
    for (intermediate, high) in [
        (Bound::exact(20), Bound::exact(25)),
        (Bound::exact(4), Bound::exact(9)),
        (Bound::exact(5), Bound { lo: 6, hi: 9 }),
        (Bound::exact(5), Bound { lo: 8, hi: 12 }),
    ] {
        let refused = with(intermediate, high).validate().unwrap_err();
        assert_eq!(
            refused.code,
            refusals::BAND_NOT_PRINTED,
            "{intermediate:?} {high:?}"
        );
        assert!(seance_rules::begin(with(intermediate, high), 1).is_err());
    }
    // Where no track is used (three players), there are no levels to hold them to.
    let three = Setup {
        bands: Some(LevelBands {
            intermediate_from: Bound::exact(20),
            high_from: Bound::exact(25),
        }),
        ..setup(3, Difficulty::Easy, SecretMode::AppKept)
    };
    three.validate().unwrap();
}
