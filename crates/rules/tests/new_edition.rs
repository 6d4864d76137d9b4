//! The new edition's rules (RULES.md §2; the Italian rulebook 004): card sets, the
//! three-player variant, candles, the pocket watch without a sand timer, resolution medium
//! by medium, and the revelation with a culprit drawn at random.

mod common;

use common::{Table, cards, new_setup, setup, table, two_set_box};
use seance_played::assert_refused;
use seance_rules::*;

#[test]
fn one_set_per_category_is_laid_out_and_each_medium_gets_one_of_its_cards() {
    for seed in 0..12 {
        let t = Table::new(new_setup(5, SecretMode::AppKept, false), seed);
        let game = t.game();
        assert_eq!(game.layout.sets.len(), 3, "the app tells which set");
        let secrets = game.assignments.as_ref().expect("app-kept");
        assert_eq!(secrets.len(), 4);
        for c in Category::ALL {
            let set = &game.layout.sets[c.index()];
            let expected: Vec<Card> = match set.as_str() {
                "green" => cards(1..=8),
                _ => cards(9..=16),
            };
            assert_eq!(game.layout.of(c), expected, "the whole {set} set, face up");
            let mut drawn: Vec<Card> = secrets.iter().map(|s| s[c.index()]).collect();
            assert!(drawn.iter().all(|d| expected.contains(d)));
            drawn.sort_unstable();
            drawn.dedup();
            assert_eq!(drawn.len(), 4, "one ghost card per medium, none twice");
        }
    }
    let paper = Table::new(new_setup(5, SecretMode::Paper, false), 1);
    assert_eq!(
        paper.game().assignments,
        None,
        "the ghost draws from the box"
    );
}

#[test]
fn the_players_may_name_a_set_and_the_mixed_variant_draws_across_sets() {
    let mut setup = new_setup(4, SecretMode::AppKept, false);
    setup.deal = Some(Deal::Sets {
        characters: Some("green".into()),
        locations: Some("red".into()),
        objects: Some("green".into()),
    });
    let t = Table::new(setup, 3);
    assert_eq!(t.game().layout.sets, ["green", "red", "green"]);
    assert_eq!(t.game().layout.locations, cards(9..=16));

    let mixed = (0..10)
        .map(|seed| Table::new(new_setup(4, SecretMode::AppKept, true), seed))
        .collect::<Vec<_>>();
    for t in &mixed {
        assert!(t.game().layout.sets.is_empty());
        for c in Category::ALL {
            assert_eq!(t.game().layout.of(c).len(), 8);
        }
    }
    assert!(
        mixed
            .iter()
            .any(|t| t.game().layout.objects.iter().any(|c| c.number <= 8)
                && t.game().layout.objects.iter().any(|c| c.number > 8)),
        "the mixed variant takes cards from both sets"
    );
}

#[test]
fn setups_the_new_edition_does_not_have_are_refused_with_what_to_do() {
    let err = Game::start(new_setup(3, SecretMode::AppKept, false), 1);
    assert!(err.is_ok(), "three players is the two-colour variant");
    let mut two = new_setup(3, SecretMode::AppKept, false);
    two.players.truncate(1);
    let err = assert_refused!(Game::start(two, 1), seance_rules::refusals::PLAYER_COUNT);
    assert_eq!(err.param("fewest"), Some(&Param::Number(3)));
    let mut with_difficulty = new_setup(5, SecretMode::AppKept, false);
    with_difficulty.difficulty = Some(Difficulty::Easy);
    assert_refused!(
        Game::start(with_difficulty, 1),
        seance_rules::refusals::NO_DIFFICULTY
    );
    let mut no_deal = new_setup(5, SecretMode::AppKept, false);
    no_deal.deal = None;
    assert_refused!(Game::start(no_deal, 1), seance_rules::refusals::DEAL);
    let mut empty = new_setup(5, SecretMode::AppKept, false);
    empty.card_box = Some(CardBox::default());
    assert_refused!(Game::start(empty, 1), seance_rules::refusals::NO_SETS);
    // Without a box the new edition has no cards to lay out: not classic's 1–54.
    let mut no_box = new_setup(5, SecretMode::AppKept, false);
    no_box.card_box = None;
    assert_refused!(Game::start(no_box, 1), seance_rules::refusals::CARD_BOX);
    let mut classic_with_sets = common::setup(5, Difficulty::Easy, SecretMode::AppKept);
    classic_with_sets.card_box = Some(two_set_box());
    assert_refused!(Game::start(classic_with_sets, 1), "sets_are_new_edition");
}

#[test]
fn the_three_player_variant_plays_as_four_mediums() {
    let t = Table::new(new_setup(3, SecretMode::AppKept, false), 2);
    let game = t.game();
    assert_eq!(game.psychics.len(), 4);
    assert_eq!(game.setup.players[0].colours.len(), 2);
    assert_eq!(
        (game.psychics[1].name.as_str(), game.psychics[1].colour),
        ("Stephanie", Colour::Yellow)
    );
    assert_eq!(game.setup.tokens_per_psychic(), 0);
    assert!(!game.has_majority_vote(), "two players agree or do not");
}

#[test]
fn three_candles_for_the_whole_game_and_no_clairvoyancy() {
    let mut t = Table::new(new_setup(5, SecretMode::AppKept, false), 4);
    let view = t.game().view(Role::Table);
    assert_eq!((view.crows_left, view.crow_rule), (3, CrowRule::Game(3)));
    assert_eq!((view.track_side, view.tokens_per_psychic), (None, 0));
    t.play(Command::UseCrow);
    t.turn(&[]);
    assert_eq!(
        t.game().crows_left(),
        2,
        "candles do not come back each round"
    );
    t.play(Command::UseCrow);
    t.play(Command::UseCrow);
    assert_refused!(
        t.try_do(Command::UseCrow),
        seance_rules::refusals::NO_CROWS_LEFT
    );
    assert_refused!(
        t.try_do(Command::PlaceToken {
            by: 0,
            on: 1,
            face: Face::Agree,
        }),
        seance_rules::refusals::NO_CLAIRVOYANCY
    );
}

#[test]
fn no_sand_timer_unless_the_table_adds_one() {
    let mut t = Table::new(new_setup(4, SecretMode::AppKept, false), 5);
    assert_eq!(t.game().view(Role::Table).sand_timer, None);
    assert_refused!(
        t.try_do(Command::StartTimer),
        seance_timeline::refusals::NO_TIMER
    );
    // The mediums' turn ends when all are convinced, which the table says.
    for p in 0..3 {
        t.play(Command::GiveVision { psychic: p });
    }
    assert_eq!(t.game().phase, Phase::Interpretation);
    t.play(Command::EndInterpretation);
    assert_eq!(t.game().phase, Phase::Manifestation);

    let mut house = new_setup(4, SecretMode::AppKept, false);
    house.sand_timer = Some(90);
    let mut t = Table::new(house, 5);
    assert_eq!(t.game().view(Role::Table).sand_timer, Some(90));
    t.play(Command::StartTimer);
    let classic = Table::new(common::setup(4, Difficulty::Easy, SecretMode::AppKept), 5);
    assert_eq!(classic.game().view(Role::Table).sand_timer, Some(120));
}

#[test]
fn a_failed_vision_is_completed_next_round_and_finished_mediums_get_none() {
    let mut t = Table::new(new_setup(4, SecretMode::AppKept, false), 6);
    // Round 1: Stephanie right, Alex and Carl wrong.
    t.turn(&[0]);
    let view = t.game().view(Role::Table);
    assert_eq!(t.game().hour, 2, "the pocket watch moves one hour");
    assert!(!view.psychics[0].completing);
    assert!(view.psychics[1].completing && view.psychics[2].completing);
    assert_eq!(view.psychics[0].seeking, Some(Category::Location));
    assert_eq!(view.psychics[1].seeking, Some(Category::Character));
    // Stephanie finds her location and object; then she receives no vision.
    t.turn(&[0]);
    t.turn(&[0]);
    assert_eq!(t.game().psychics[0].found.len(), 3);
    assert_eq!(t.game().psychics[0].track, 0, "no track, so no bonus");
    assert_refused!(
        t.try_do(Command::GiveVision { psychic: 0 }),
        seance_rules::refusals::FINISHED_NO_VISION
    );
}

#[test]
fn the_ghost_knocks_once_for_yes_twice_for_no_medium_by_medium() {
    let mut t = Table::new(new_setup(4, SecretMode::Paper, false), 7);
    for p in 0..3 {
        t.play(Command::GiveVision { psychic: p });
    }
    t.play(Command::PlaceIntuition {
        psychic: 1,
        card: t.game().layout.characters[2],
    });
    t.play(Command::EndInterpretation);
    // Any order: Alex first.
    t.play(Command::Manifest {
        psychic: 1,
        right: Some(true),
    });
    assert_eq!(t.game().psychics[1].found.len(), 1);
    t.play(Command::Manifest {
        psychic: 2,
        right: Some(false),
    });
    assert_eq!(t.game().phase, Phase::Manifestation, "Stephanie still asks");
    let mut kept = Table::new(new_setup(4, SecretMode::AppKept, false), 7);
    kept.play(Command::GiveEveryVision);
    kept.play(Command::EndInterpretation);
    // Each medium hears their own knock.
    assert_refused!(
        kept.try_do(Command::ManifestEvery),
        seance_rules::refusals::MEDIUMS_ASK_IN_TURN
    );
    t.play(Command::Manifest {
        psychic: 0,
        right: Some(false),
    });
    assert_eq!((t.game().phase, t.game().hour), (Phase::Visions, 2));
}

#[test]
fn the_pocket_watch_has_seven_hours() {
    let mut t = Table::new(new_setup(4, SecretMode::AppKept, false), 8);
    for _ in 0..6 {
        t.turn(&[]);
    }
    assert_eq!(t.game().hour, 7);
    let events = t.turn(&[]);
    assert!(events.contains(&Event::LostOnTime));
    assert_eq!(t.game().outcome, Some(Outcome::LostOnTime));

    // Found in the seventh hour: the revelation, not a loss.
    let mut t = Table::new(new_setup(4, SecretMode::AppKept, false), 8);
    for _ in 0..4 {
        t.turn(&[]);
    }
    t.find_everything();
    assert_eq!(t.game().hour, 7);
    assert_eq!(t.game().phase, Phase::Revelation);
}

/// Plays to the revelation and returns the drawn culprit's trace.
fn to_revelation(players: usize, seed: u64) -> (Table, u8) {
    let mut t = Table::new(new_setup(players, SecretMode::AppKept, false), seed);
    t.find_everything();
    let culprit = t.game().culprit.expect("drawn at the revelation");
    (t, culprit)
}

#[test]
fn the_culprit_is_drawn_at_random_secret_until_the_end_and_reproducible() {
    let mut culprits = std::collections::HashSet::new();
    for seed in 0..24 {
        let (t, culprit) = to_revelation(5, seed);
        let game = t.game();
        // Each trace is its medium's three cards, numbered in seating order.
        for (i, g) in game.groups.iter().enumerate() {
            assert_eq!(g.number as usize, i + 1);
            assert_eq!(g.cards.to_vec(), game.psychics[i].found);
        }
        assert!(
            t.timeline
                .events()
                .any(|e| *e == Event::CulpritDrawn { group: culprit })
        );
        for role in [Role::Table, Role::Psychic(0), Role::Psychic(3)] {
            let view = game.view(role);
            assert_eq!(view.culprit, None, "{role:?} saw the culprit");
            assert!(view.culprit_sealed);
            let text = serde_json::to_string(&view).unwrap();
            assert!(!text.contains("culprit_drawn"), "{role:?}");
        }
        assert_eq!(game.view(Role::Ghost).culprit, Some(culprit));
        let (_, again) = to_revelation(5, seed);
        assert_eq!(again, culprit, "the same seed and history draw the same");
        culprits.insert(culprit);
    }
    assert_eq!(
        culprits.len(),
        4,
        "every trace is drawn sometimes: {culprits:?}"
    );
}

#[test]
fn a_consensus_after_the_shared_vision_wins_or_loses() {
    let (mut t, culprit) = to_revelation(4, 11);
    assert_refused!(
        t.try_do(Command::ChooseCulprit { group: 1 }),
        seance_rules::refusals::CULPRIT_DRAWN
    );
    assert_refused!(
        t.try_do(Command::PickGroup { group: culprit }),
        seance_rules::refusals::SHARED_VISION_FIRST
    );
    assert_refused!(t.try_do(Command::RevealVisionCard), "shared_vision_at_once");
    t.play(Command::UseCrow); // a candle, in the final round too
    t.play(Command::ShareVision);
    assert_refused!(t.try_do(Command::ShareVision), "shared_vision_given");
    assert!(
        t.game()
            .allowed(&table())
            .iter()
            .any(|a| matches!(a, Action::PickGroup { groups } if groups.contains(&culprit)))
    );
    t.play(Command::PickGroup { group: culprit });
    assert_eq!(t.game().outcome, Some(Outcome::Won));
    assert_eq!(
        t.game().view(Role::Table).culprit,
        Some(culprit),
        "shown at the end"
    );

    let (mut t, culprit) = to_revelation(4, 11);
    t.play(Command::ShareVision);
    let wrong = culprit % 3 + 1;
    t.play(Command::PickGroup { group: wrong });
    assert_eq!(t.game().outcome, Some(Outcome::LostWrongGroup));
}

#[test]
fn without_consensus_the_majority_decides_and_a_tie_votes_again() {
    let (mut t, culprit) = to_revelation(5, 12);
    let other = culprit % 4 + 1;
    assert_refused!(
        t.try_do(Command::Vote {
            psychic: 0,
            group: culprit,
        }),
        seance_rules::refusals::SHARED_VISION_FIRST
    );
    t.play(Command::ShareVision);
    // Two against two: no majority, the votes are taken back.
    for (psychic, group) in [(0, culprit), (1, other), (2, culprit), (3, other)] {
        t.play(Command::Vote { psychic, group });
    }
    // The tie is read out at the table before anyone votes again.
    assert!(t.game().counting());
    assert_refused!(
        t.try_do(Command::PickGroup { group: culprit }),
        "count_first"
    );
    t.read_count();
    assert_eq!(t.game().phase, Phase::Revelation);
    assert!(t.game().psychics.iter().all(|p| p.vote.is_none()));
    let tie = t.game().count.clone().unwrap();
    assert_eq!(tie.chosen, None);
    assert!(matches!(tie.steps.last(), Some(CountStep::Tie { .. })));
    // A vote is sealed from the table and the others until the count.
    t.play(Command::Vote {
        psychic: 1,
        group: culprit,
    });
    assert!(t.game().view(Role::Table).psychics[1].voted);
    assert_eq!(t.game().view(Role::Psychic(2)).my_vote, None);
    assert_eq!(t.game().view(Role::Psychic(1)).my_vote, Some(culprit));
    for (psychic, group) in [(0, culprit), (2, other), (3, other)] {
        t.play(Command::Vote { psychic, group });
    }
    t.read_count();
    assert_eq!(
        t.game().phase,
        Phase::Revelation,
        "2–2 again: talk, then vote again"
    );
    for (psychic, group) in [(0, culprit), (1, culprit), (2, culprit), (3, other)] {
        t.play(Command::Vote { psychic, group });
    }
    t.read_count();
    assert_eq!(t.game().outcome, Some(Outcome::Won));
    assert_eq!(t.game().count.as_ref().unwrap().chosen, Some(culprit));
}

#[test]
fn two_medium_players_decide_by_consensus_only() {
    let (mut t, culprit) = to_revelation(3, 13);
    t.play(Command::ShareVision);
    assert_refused!(
        t.try_do(Command::Vote {
            psychic: 0,
            group: culprit,
        }),
        seance_rules::refusals::CONSENSUS
    );
    t.play(Command::PickGroup { group: culprit });
    assert_eq!(t.game().outcome, Some(Outcome::Won));
}

#[test]
fn in_paper_mode_the_ghost_draws_the_real_token_and_seals_it() {
    // 004 p.8: the ghost shuffles the medium tokens and draws one. With the real tokens
    // drawn at the table, Séance draws nothing and the ghost seals the drawn trace.
    let mut t = Table::new(new_setup(4, SecretMode::Paper, false), 5);
    while t.game().phase != Phase::Revelation {
        let searching = t.searching();
        for &psychic in &searching {
            t.play(Command::GiveVision { psychic });
        }
        for (k, &psychic) in searching.iter().enumerate() {
            let seeking = t.game().psychics[psychic].seeking().unwrap();
            let card = t.game().uncollected(seeking)[k];
            t.play(Command::PlaceIntuition { psychic, card });
        }
        t.play(Command::EndInterpretation);
        for &psychic in &searching {
            t.play(Command::Manifest {
                psychic,
                right: Some(true),
            });
        }
    }
    assert_eq!(t.game().culprit, None, "nothing drawn by the app");
    assert!(
        !t.timeline
            .events()
            .any(|e| matches!(e, Event::CulpritDrawn { .. }))
    );
    assert_refused!(
        t.try_do(Command::ShareVision),
        seance_rules::refusals::CULPRIT_FIRST
    );
    assert_refused!(t.try_do(Command::PickGroup { group: 2 }), "culprit_first");
    t.play(Command::ChooseCulprit { group: 2 });
    assert_refused!(
        t.try_do(Command::ChooseCulprit { group: 3 }),
        "culprit_sealed"
    );
    assert_eq!(t.game().view(Role::Ghost).culprit, Some(2));
    assert_eq!(t.game().view(Role::Table).culprit, None);
    assert!(t.game().view(Role::Table).culprit_sealed);
    t.play(Command::ShareVision);
    t.play(Command::PickGroup { group: 2 });
    assert_eq!(t.game().outcome, Some(Outcome::Won));
}

/// What the new edition has not (004: no sand timer, no clairvoyancy tokens) is never told:
/// over seven hours, no role's log says a sand timer turned or tokens came back; a table
/// that adds a sand timer as a house rule hears it turn. Classic's 3-player game has no
/// tokens either.
#[test]
fn no_log_tells_of_a_sand_timer_or_tokens_the_game_has_not() {
    let said = |t: &Table| -> Vec<String> {
        let game = t.game();
        [Role::Table, Role::Ghost, Role::Psychic(0)]
            .into_iter()
            .flat_map(|role| {
                t.timeline
                    .events()
                    .filter_map(|e| game.told(e, role))
                    .map(|told| serde_json::to_value(told).unwrap()["type"].to_string())
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let mut new = Table::new(new_setup(4, SecretMode::AppKept, false), 8);
    for _ in 0..7 {
        new.turn(&[]);
    }
    let told = said(&new);
    assert!(told.iter().any(|t| t == "\"hour_struck\""), "{told:?}");
    for never in ["\"timer_started\"", "\"tokens_recovered\""] {
        assert!(!told.iter().any(|t| t == never), "{never} in {told:?}");
    }
    let mut house = new_setup(4, SecretMode::AppKept, false);
    house.sand_timer = Some(90);
    let mut timed = Table::new(house, 8);
    timed.turn(&[]);
    assert!(said(&timed).iter().any(|t| t == "\"timer_started\""));
    let mut three = Table::new(common::setup(3, Difficulty::Easy, SecretMode::AppKept), 8);
    for _ in 0..4 {
        three.turn(&[]);
    }
    assert!(!said(&three).iter().any(|t| t == "\"tokens_recovered\""));
}

#[test]
fn each_edition_and_size_decides_the_culprits_group_as_its_rulebook_says() {
    let classic = |n| Table::new(setup(n, Difficulty::Easy, SecretMode::AppKept), 1);
    assert_eq!(
        classic(2).game().decision(),
        Decision::Agree(GroupPick::Alone)
    );
    assert_eq!(
        classic(3).game().decision(),
        Decision::Agree(GroupPick::Together)
    );
    for n in 4..=7 {
        assert_eq!(classic(n).game().decision(), Decision::StrawPoll, "{n}");
    }
    for n in 3..=7 {
        let t = Table::new(new_setup(n, SecretMode::AppKept, false), 1);
        assert_eq!(t.game().decision(), Decision::SharedVision, "{n}");
    }
}

#[test]
fn the_new_editions_answers_knock_as_they_are_recorded_so_nobody_has_a_knock_of_their_own() {
    let paper = Table::new(new_setup(4, SecretMode::Paper, false), 1);
    assert_refused!(
        paper.game().may(&table(), Extra::Knock),
        refusals::ANSWERS_KNOCK
    );
    for secrets in [SecretMode::Paper, SecretMode::AppKept] {
        let game = Table::new(new_setup(4, secrets, false), 1);
        // Nor the ghost's phone: a knock of its own could contradict an answer's.
        assert_refused!(
            game.game().may(&Who::Seat(Seat::Ghost), Extra::Knock),
            refusals::ANSWERS_KNOCK
        );
        assert!(game.game().view(Role::Table).answers_knock);
    }
    // A classic ghost's phone knocks, where Séance keeps the secrets too; a classic table in
    // paper mode knocks for its ghost.
    let classic_phone = Table::new(setup(4, Difficulty::Easy, SecretMode::AppKept), 1);
    assert!(
        classic_phone
            .game()
            .may(&Who::Seat(Seat::Ghost), Extra::Knock)
            .is_ok()
    );
    let classic = Table::new(setup(4, Difficulty::Easy, SecretMode::Paper), 1);
    assert!(classic.game().may(&table(), Extra::Knock).is_ok());
    assert!(!classic.game().view(Role::Table).answers_knock);
}
