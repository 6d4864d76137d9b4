//! Properties over random legal games of Mystery Rummy: whatever the players enter, the
//! scores add up line by line, Jack is the leader the Alibi does not clear, the votes stay
//! sealed until the round ends, the game ends exactly when the rulebook says, and the
//! history replays to the same game.

use proptest::prelude::*;
use seance_rummy::*;
use seance_timeline::{Entry, Rules};

fn tally(players: usize) -> impl Strategy<Value = RoundTally> {
    let player = (
        prop::array::uniform6(0u8..4),
        prop::array::uniform6(prop::bool::weighted(0.1)),
        prop::array::uniform6(prop::sample::select(vec![0u32, 0, 0, 5])),
        0u8..2,
        0u32..30,
        0u32..15,
        prop::bool::weighted(0.1),
    )
        .prop_map(
            |(evidence, suspect_cards, jokers, letters, vs, hand, re)| PlayerTally {
                evidence,
                suspect_cards,
                jokers,
                letters,
                victims_and_scenes: vs,
                hand,
                holds_ripper_escapes: re,
            },
        );
    (
        prop::collection::vec(player, players),
        0usize..6,
        prop::option::weighted(0.3, 0usize..6),
        0u8..=5,
    )
        .prop_map(move |(players_cards, how, alibi, victims)| RoundTally {
            ending: match how {
                0 | 1 => Ending::LastCard,
                2 => Ending::PoliceChiefResigns,
                3 => Ending::DrawPileOutTwice,
                _ => Ending::RipperEscapes { by: how % players },
            },
            alibi,
            victims_in_play: if how >= 4 { 5 } else { victims },
            players: players_cards,
        })
}

#[derive(Debug, Clone)]
enum Move {
    Call(usize),
    Vote(usize, usize),
    End(RoundTally),
    Correct(usize, RoundTally),
    Undo,
}

fn moves(players: usize) -> impl Strategy<Value = Vec<Move>> {
    let one = prop_oneof![
        2 => (0..players).prop_map(Move::Call),
        4 => (0..players, 0usize..6).prop_map(|(p, s)| Move::Vote(p, s)),
        4 => tally(players).prop_map(Move::End),
        1 => (0usize..4, tally(players)).prop_map(|(r, t)| Move::Correct(r, t)),
        1 => Just(Move::Undo),
    ];
    prop::collection::vec(one, 1..40)
}

fn command(m: &Move) -> Option<Command> {
    Some(match m.clone() {
        Move::Call(by) => Command::CallVote { by },
        Move::Vote(player, suspect) => Command::Vote { player, suspect },
        Move::End(tally) => Command::EndRound { tally },
        Move::Correct(round, tally) => Command::CorrectRound { round, tally },
        Move::Undo => return None,
    })
}

fn check(pad: &Scorepad) {
    let table = pad.view(Role::Table);
    let mut totals = vec![0; pad.players.len()];
    for round in &table.rounds {
        let scored = &round.scored;
        for (p, score) in scored.players.iter().enumerate() {
            let lines: i32 = score.lines.iter().map(line_points).sum();
            assert_eq!(lines, score.points, "a score is the sum of its lines");
            totals[p] += score.points;
        }
        assert_eq!(round.totals, totals);
        if let Some(jack) = scored.verdict.jack {
            assert_ne!(
                Some(jack),
                round.tally.alibi,
                "an alibied suspect is never Jack"
            );
            let on = |s: usize| -> u32 {
                round
                    .tally
                    .round(&pad.printed, &[])
                    .players
                    .iter()
                    .map(|p| p.on_suspects[s])
                    .sum()
            };
            for s in (0..6).filter(|&s| Some(s) != round.tally.alibi) {
                assert!(
                    on(s) <= on(jack),
                    "Jack has the most points of those who can be"
                );
            }
        }
    }
    assert_eq!(table.totals, totals);
    let best = totals.iter().copied().max().unwrap();
    let leaders = totals.iter().filter(|&&t| t == best).count();
    assert_eq!(table.winner.is_some(), best >= 100 && leaders == 1);
    assert_eq!(table.another_round, best >= 100 && leaders > 1);
    if let Some(vote) = &pad.vote {
        assert_eq!(
            table.vote.as_ref().unwrap().mine,
            None,
            "the table sees no vote"
        );
        for p in 0..pad.players.len() {
            let mine = pad.view(Role::Player(p)).vote.unwrap().mine;
            assert_eq!(mine, vote.votes[p], "a phone sees its own vote only");
        }
    }
}

fn line_points(line: &Line) -> i32 {
    serde_json::to_value(line).unwrap()["points"]
        .as_i64()
        .unwrap() as i32
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn random_games_add_up_keep_votes_sealed_and_replay(players in 2usize..=4, seed: u64, plan in (2usize..=4).prop_flat_map(moves)) {
        let names: Vec<String> = ["Ann", "Ben", "Cleo", "Dan"][..players].iter().map(|s| s.to_string()).collect();
        let (mut timeline, start) = begin(Setup { players: names, printed: Printed::default() }, seed).unwrap();
        let mut entries = Vec::new();
        for m in &plan {
            let entry = match command(m) {
                // Moves planned for another player count are simply refused.
                Some(c) => match timeline.decide(c) {
                    Ok(entry) => entry,
                    Err(_) => continue,
                },
                None if timeline.can_undo() => Entry::Undo,
                None => continue,
            };
            timeline.push(entry.clone()).unwrap();
            entries.push(entry);
            check(timeline.game());
        }
        let replayed = Timeline::resume(start, entries).unwrap();
        prop_assert_eq!(replayed.game(), timeline.game());
        prop_assert_eq!(replayed.game().status(), timeline.game().status());
    }
}
