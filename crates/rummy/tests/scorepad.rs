//! A Mystery Rummy game kept on the scorepad, command by command: the rulebook's worked
//! examples (002), each way a round ends, the secret vote, corrections, and the end of the
//! game with its tie.

use seance_played::assert_refused;
use seance_rummy::*;
use seance_timeline::{Listed, Status};

const DRUITT: usize = 0;
const PEDACHENKO: usize = 3;
const CHAPMAN: usize = 4;
const JILL: usize = 5;

fn game(players: &[&str]) -> Timeline {
    let setup = Setup {
        players: players.iter().map(|p| p.to_string()).collect(),
        printed: Printed::default(),
    };
    begin(setup, 7).unwrap().0
}

fn run(t: &mut Timeline, command: Command) {
    let entry = t.decide(command).expect("a legal command");
    t.push(entry).unwrap();
}

use seance_timeline::Param;

fn caught(players: Vec<PlayerTally>) -> RoundTally {
    RoundTally {
        ending: Ending::LastCard,
        alibi: None,
        victims_in_play: 3,
        players,
    }
}

/// 002's scoring example: 5 Druitt Evidence (10) against 3 Jill Evidence and her Suspect
/// card (10); the other player holds 3 Pedachenko Evidence and his Alibi (9) with no
/// Pedachenko set in play.
fn scoring_example() -> RoundTally {
    let mut ann = PlayerTally::default();
    ann.evidence[DRUITT] = 5;
    let mut ben = PlayerTally {
        hand: 9,
        ..Default::default()
    };
    ben.evidence[JILL] = 3;
    ben.suspect_cards[JILL] = true;
    caught(vec![ann, ben])
}

#[test]
fn the_rulebook_tie_makes_druitt_jack_on_his_suspicion_number() {
    let mut t = game(&["Ann", "Ben"]);
    run(
        &mut t,
        Command::EndRound {
            tally: scoring_example(),
        },
    );
    let view = t.game().view(Role::Table);
    let round = &view.rounds[0];
    assert_eq!(round.scored.verdict.jack, Some(DRUITT));
    assert!(round.scored.verdict.steps.contains(&JackStep::Tie {
        suspects: vec![DRUITT, JILL]
    }));
    // Ann's Druitt cards are doubled; Ben's Jill cards are not, and he loses the 9 in hand.
    assert_eq!(view.totals, [20, 10 - 9]);
}

#[test]
fn the_vote_example_an_alibi_on_chapman_makes_jill_jack_and_her_voter_scores_ten() {
    let mut t = game(&["Ann", "Ben", "Cleo"]);
    run(&mut t, Command::CallVote { by: 0 });
    run(
        &mut t,
        Command::Vote {
            player: 0,
            suspect: CHAPMAN,
        },
    );
    run(
        &mut t,
        Command::Vote {
            player: 1,
            suspect: JILL,
        },
    );
    run(
        &mut t,
        Command::Vote {
            player: 2,
            suspect: CHAPMAN,
        },
    );
    let mut ann = PlayerTally::default();
    ann.evidence[CHAPMAN] = 5;
    ann.suspect_cards[CHAPMAN] = true;
    // Ben plays Chapman's Alibi, which lies in front of him (its points as printed: 3).
    let mut ben = PlayerTally {
        alibi: 3,
        ..Default::default()
    };
    ben.evidence[JILL] = 3;
    let mut tally = caught(vec![ann, ben, PlayerTally::default()]);
    tally.alibi = Some(CHAPMAN);
    run(&mut t, Command::EndRound { tally });
    let view = t.game().view(Role::Table);
    let scored = &view.rounds[0].scored;
    assert_eq!(scored.verdict.jack, Some(JILL), "{:?}", scored.verdict);
    assert_eq!(
        scored.verdict.steps[1],
        JackStep::Alibi { suspect: CHAPMAN }
    );
    assert_eq!(
        view.rounds[0].votes,
        [Some(CHAPMAN), Some(JILL), Some(CHAPMAN)]
    );
    // Ann's 14 on Chapman are not doubled; Ben's 6 on Jill are, his vote earns 10, and
    // the Alibi in front of him scores its 3, never doubled (002: an Alibi is among the
    // cards that score, and its suspect cannot be Jack).
    assert_eq!(view.totals, [14, 12 + 10 + 3, 0]);
    assert!(scored.players[1].lines.contains(&Line::Alibi {
        suspect: CHAPMAN,
        points: 3
    }));
    assert!(
        !scored.players[0]
            .lines
            .iter()
            .any(|l| matches!(l, Line::Alibi { .. }))
    );
}

#[test]
fn each_way_a_round_ends_scores_as_the_rulebook_says() {
    let two = |ending: Ending, victims: u8| {
        let mut t = game(&["Ann", "Ben"]);
        let mut tally = scoring_example();
        tally.ending = ending;
        tally.victims_in_play = victims;
        tally.players[0].victims_and_scenes = 5;
        tally.players[1].victims_and_scenes = 4;
        tally.players[1].holds_ripper_escapes = ending == Ending::LastCard;
        run(&mut t, Command::EndRound { tally });
        let view = t.game().view(Role::Table);
        let scored = &view.rounds[0].scored;
        assert_eq!(
            scored.escaped,
            scored.verdict.jack.is_none(),
            "an escape names no Jack: {:?}",
            scored.verdict
        );
        (scored.escaped, view.totals)
    };
    // Caught: cards in front (Jack's doubled), the hand and Ripper Escapes held cost points.
    assert_eq!(
        two(Ending::LastCard, 3),
        (false, vec![20 + 5, 10 + 4 - 9 - 2 * 3])
    );
    assert_eq!(
        two(Ending::PoliceChiefResigns, 3),
        (false, vec![25, 10 + 4 - 9])
    );
    // Escaped: 35 to whoever played it, Victims and Scenes, nothing else.
    assert_eq!(
        two(Ending::RipperEscapes { by: 0 }, 5),
        (true, vec![35 + 5, 4])
    );
    assert_eq!(two(Ending::DrawPileOutTwice, 3), (true, vec![5, 4]));
    let t = game(&["Ann", "Ben"]);
    let mut early = scoring_example();
    early.ending = Ending::RipperEscapes { by: 1 };
    let why = assert_refused!(
        t.decide(Command::EndRound { tally: early }),
        seance_rummy::refusals::ESCAPE_BEFORE_VICTIMS
    );
    assert_eq!(why.param("victims"), Some(&Param::Number(5)));
}

#[test]
fn an_alibi_on_the_only_suspect_or_only_letters_lets_the_ripper_escape() {
    let mut t = game(&["Ann", "Ben"]);
    let mut ann = PlayerTally {
        letters: 3,
        victims_and_scenes: 2,
        ..Default::default()
    };
    ann.evidence[PEDACHENKO] = 3;
    let ben = PlayerTally {
        alibi: 3,
        ..Default::default()
    };
    let mut tally = caught(vec![ann, ben]);
    tally.alibi = Some(PEDACHENKO);
    run(
        &mut t,
        Command::EndRound {
            tally: tally.clone(),
        },
    );
    tally.players[0].evidence[PEDACHENKO] = 0;
    tally.players[1].alibi = 0;
    tally.alibi = None;
    run(&mut t, Command::EndRound { tally });
    let view = t.game().view(Role::Table);
    for round in &view.rounds {
        assert!(round.scored.escaped);
        assert_eq!(round.scored.verdict.jack, None);
        assert_eq!(
            round.scored.players[0].points, 2,
            "only Victims and Scenes count"
        );
        assert_eq!(round.scored.players[1].points, 0, "nor the Alibi");
    }
}

#[test]
fn the_vote_is_called_once_sealed_and_revealed_only_at_the_end_of_the_round() {
    let mut t = game(&["Ann", "Ben"]);
    assert_refused!(
        t.decide(Command::Vote {
            player: 0,
            suspect: 1,
        }),
        seance_rummy::refusals::NO_VOTE_CALLED
    );
    run(&mut t, Command::CallVote { by: 1 });
    assert_refused!(t.decide(Command::CallVote { by: 0 }), "one_vote_per_round");
    run(
        &mut t,
        Command::Vote {
            player: 0,
            suspect: 2,
        },
    );
    assert_refused!(
        t.decide(Command::Vote {
            player: 0,
            suspect: 3
        }),
        "vote_sealed"
    );
    assert_refused!(
        t.decide(Command::Vote {
            player: 1,
            suspect: 6
        }),
        "no_such_suspect"
    );
    let table = serde_json::to_value(t.game().view(Role::Table)).unwrap();
    assert_eq!(table["vote"]["voted"], serde_json::json!([true, false]));
    assert_eq!(table["vote"]["mine"], serde_json::Value::Null);
    let ben = t.game().view(Role::Player(1));
    assert_eq!(
        ben.vote.as_ref().unwrap().mine,
        None,
        "Ben does not see Ann's vote"
    );
    assert_eq!(t.game().view(Role::Player(0)).vote.unwrap().mine, Some(2));
    let missing = assert_refused!(
        t.decide(Command::EndRound {
            tally: scoring_example(),
        }),
        seance_rummy::refusals::VOTES_MISSING
    );
    assert_eq!(
        missing.param("names"),
        Some(&Param::List(vec!["Ben".into()]))
    );
    run(
        &mut t,
        Command::Vote {
            player: 1,
            suspect: DRUITT,
        },
    );
    run(
        &mut t,
        Command::EndRound {
            tally: scoring_example(),
        },
    );
    let view = t.game().view(Role::Table);
    assert!(view.vote.is_none(), "a new round has no vote yet");
    assert_eq!(view.rounds[0].votes, [Some(2), Some(DRUITT)]);
    assert_eq!(view.totals, [20, 1 + 10]);
    // The next round may have its own vote.
    run(&mut t, Command::CallVote { by: 0 });
}

#[test]
fn a_tie_at_the_top_plays_another_round_then_the_highest_total_wins() {
    let mut t = game(&["Ann", "Ben"]);
    let fifty = |a: u32, b: u32| {
        caught(vec![
            PlayerTally {
                victims_and_scenes: a,
                ..Default::default()
            },
            PlayerTally {
                victims_and_scenes: b,
                ..Default::default()
            },
        ])
    };
    // Victims and Scenes only: nobody can be Jack, the Ripper escapes, their points count.
    run(
        &mut t,
        Command::EndRound {
            tally: fifty(60, 40),
        },
    );
    run(
        &mut t,
        Command::EndRound {
            tally: fifty(45, 65),
        },
    );
    let view = t.game().view(Role::Table);
    assert_eq!(view.totals, [105, 105]);
    assert_eq!((view.winner, view.another_round), (None, true));
    assert_eq!(t.game().status(), Status::Playing);
    run(&mut t, Command::EndRound { tally: fifty(3, 7) });
    let view = t.game().view(Role::Table);
    assert_eq!((view.winner, view.another_round), (Some(1), false));
    assert_eq!(t.game().status(), Status::Over);
    let over = assert_refused!(
        t.decide(Command::CallVote { by: 0 }),
        seance_rummy::refusals::RUMMY_GAME_OVER
    );
    assert_eq!(over.param("winner"), Some(&Param::Text("Ben".into())));
    // A correction after the end scores everything again.
    run(
        &mut t,
        Command::CorrectRound {
            round: 2,
            tally: fifty(9, 7),
        },
    );
    assert_eq!(t.game().view(Role::Table).winner, Some(0));
}

#[test]
fn a_corrected_round_rescores_everything_after_it_but_may_not_end_the_game_early() {
    let mut t = game(&["Ann", "Ben", "Cleo"]);
    let points = |a: u32| {
        let mut tally = caught(vec![PlayerTally::default(); 3]);
        tally.players[0].victims_and_scenes = a;
        tally
    };
    run(&mut t, Command::EndRound { tally: points(40) });
    run(&mut t, Command::EndRound { tally: points(40) });
    assert_eq!(t.game().view(Role::Table).rounds[1].totals[0], 80);
    run(
        &mut t,
        Command::CorrectRound {
            round: 0,
            tally: points(30),
        },
    );
    let view = t.game().view(Role::Table);
    assert_eq!(
        (view.rounds[0].totals[0], view.rounds[1].totals[0]),
        (30, 70)
    );
    assert_refused!(
        t.decide(Command::CorrectRound {
            round: 0,
            tally: points(120),
        }),
        seance_rummy::refusals::ENDS_EARLY
    );
    assert_refused!(
        t.decide(Command::CorrectRound {
            round: 5,
            tally: points(1)
        }),
        "no_such_round"
    );
    // Undo takes the correction back.
    t.push(seance_timeline::Entry::Undo).unwrap();
    assert_eq!(t.game().view(Role::Table).totals[0], 80);
}

#[test]
fn corrected_card_values_score_every_round_again() {
    let mut t = game(&["Ann", "Ben"]);
    run(
        &mut t,
        Command::EndRound {
            tally: scoring_example(),
        },
    );
    let mut printed = Printed::default();
    printed.evidence[DRUITT] = 3;
    run(&mut t, Command::SetPrinted { printed });
    // Druitt 15 now leads outright and is doubled.
    assert_eq!(t.game().view(Role::Table).totals, [30, 1]);
    printed.suspicion = Suspicion([2, 1, 3, 4, 5, 2]);
    assert_refused!(
        t.decide(Command::SetPrinted { printed }),
        "suspicion_numbers"
    );
}

#[test]
fn the_deal_and_the_first_dealer_follow_the_seed() {
    let deal = |n: usize| game(&["A", "B", "C", "D"][..n]).game().deal();
    assert_eq!([deal(2), deal(3), deal(4)], [10, 9, 8]);
    let dealers: Vec<usize> = (0..40)
        .map(|seed| {
            let setup = Setup {
                players: vec!["A".into(), "B".into(), "C".into()],
                printed: Printed::default(),
            };
            begin(setup, seed).unwrap().0.game().first_dealer
        })
        .collect();
    assert!((0..3).all(|p| dealers.contains(&p)), "{dealers:?}");
    let again = begin(
        Setup {
            players: vec!["A".into(), "B".into(), "C".into()],
            printed: Printed::default(),
        },
        5,
    )
    .unwrap()
    .0;
    assert_eq!(again.game().first_dealer, dealers[5]);
    let mut t = game(&["Ann", "Ben", "Cleo"]);
    let first = t.game().view(Role::Table).dealer;
    assert_eq!(t.game().view(Role::Table).dealt, Dealt::Drawn);
    run(
        &mut t,
        Command::EndRound {
            tally: caught(vec![PlayerTally::default(); 3]),
        },
    );
    assert_eq!(
        t.game().view(Role::Table).dealer,
        (first + 1) % 3,
        "the deal passes left"
    );
    assert_eq!(t.game().view(Role::Table).dealt, Dealt::Passed);
    let one = Setup {
        players: vec!["Solo".into()],
        printed: Printed::default(),
    };
    assert_refused!(begin(one, 1), seance_rummy::refusals::RUMMY_PLAYERS);
    let long = Setup {
        players: vec!["Ann".into(), "B".repeat(1_900_000)],
        printed: Printed::default(),
    };
    assert_refused!(begin(long, 1), seance_timeline::refusals::NAME_TOO_LONG);
}

/// "Pour demander un vote, vous devez avoir au moins une série (y compris une série de
/// lettres) devant vous" (002 l.200): a round whose caller has no set is entered again,
/// and a correction of it is held to the same.
#[test]
fn only_a_player_with_a_set_letters_included_may_have_called_the_vote() {
    let mut t = game(&["Ann", "Ben", "Cleo"]);
    run(&mut t, Command::CallVote { by: 2 });
    for player in 0..3 {
        run(
            &mut t,
            Command::Vote {
                player,
                suspect: DRUITT,
            },
        );
    }
    let mut tally = scoring_example();
    tally.players.push(PlayerTally {
        letters: 1,
        ..Default::default()
    });
    tally.players[1].letters = 3;
    // Cleo added a Letter to Ben's set: no set of her own.
    let why = assert_refused!(
        t.decide(Command::EndRound {
            tally: tally.clone(),
        }),
        seance_rummy::refusals::VOTE_CALLER_SET
    );
    assert_eq!(why.param("name"), Some(&Param::Text("Cleo".into())));
    assert_eq!(t.game().rounds.len(), 0, "nothing scored");
    // Her own set of Letters is one.
    tally.players[1].letters = 1;
    tally.players[2].letters = 3;
    run(
        &mut t,
        Command::EndRound {
            tally: tally.clone(),
        },
    );
    tally.players[2].letters = 1;
    tally.players[1].letters = 3;
    let correction = Command::CorrectRound { round: 0, tally };
    assert_refused!(
        t.decide(correction),
        seance_rummy::refusals::VOTE_CALLER_SET
    );
    // A round with no vote asks nobody for a set.
    run(
        &mut t,
        Command::EndRound {
            tally: scoring_example_for(3),
        },
    );
}

/// "personne ne peut jouer de cartes Preuve tant qu'il n'y a pas de carte Victime en jeu"
/// (002 l.216, and l.142: a Victim must be in play for sets to be laid); Letters are
/// Evidence too.
#[test]
fn no_evidence_letters_included_is_in_play_before_a_victim() {
    let mut t = game(&["Ann", "Ben"]);
    let mut none = scoring_example();
    none.victims_in_play = 0;
    let why = assert_refused!(
        t.decide(Command::EndRound {
            tally: none.clone(),
        }),
        seance_rummy::refusals::EVIDENCE_BEFORE_VICTIM
    );
    assert_eq!(why.param("n"), Some(&Param::Number(8)));
    let mut letters = caught(vec![
        PlayerTally {
            letters: 3,
            ..Default::default()
        },
        PlayerTally::default(),
    ]);
    letters.victims_in_play = 0;
    assert_refused!(
        t.decide(Command::EndRound { tally: letters }),
        seance_rummy::refusals::EVIDENCE_BEFORE_VICTIM
    );
    // A round ended before any Victim, with nothing laid, scores.
    let mut bare = caught(vec![PlayerTally::default(); 2]);
    bare.victims_in_play = 0;
    run(&mut t, Command::EndRound { tally: bare });
}

/// The scoring example's cards, with players past the second holding nothing.
fn scoring_example_for(players: usize) -> RoundTally {
    let mut tally = scoring_example();
    tally.players.resize(players, PlayerTally::default());
    tally
}
