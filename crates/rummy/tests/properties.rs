//! Properties over random legal games of Mystery Rummy: whatever the players enter, the
//! scores add up line by line, Jack is the leader the Alibi does not clear (and nobody in
//! an escape), the Alibi in play scores undoubled for its holder, the votes stay sealed
//! until the round ends, the game ends exactly when the rulebook says and can always be
//! played to its end, and the history replays to the same game; two moves sent at once land
//! as the rules say (`check_at_once`); any numbers at all are
//! refused or scored, never a panic.

use proptest::prelude::*;
use seance_played::{check_at_once, worded};
use seance_rummy::*;
use seance_timeline::{Entry, Listed, Who};

/// A small generator for tallies built from a seed, so that every one is a table the
/// deck allows: sets of three or more (Jokers included), at most five Evidence cards of a
/// suspect, two Jokers, four Letters in a set of three or more, Suspect and Alibi cards only
/// on a suspect with a set, one Alibi in play in front of one player, a Victim in play
/// wherever Evidence is, and a set in front of whoever called the vote.
struct Cards(u64);

impl Cards {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// What [`Scorepad::allowed`] answers to: when a command may be sent, whatever it holds.
const TIMING: [&str; 6] = [
    "rummy_game_over",
    "one_vote_per_round",
    "no_vote_called",
    "vote_sealed",
    "no_such_round",
    "votes_missing",
];

fn legal_tally(players: usize, seed: u64, called_by: Option<usize>) -> RoundTally {
    let mut r = Cards(seed);
    let mut cards = vec![PlayerTally::default(); players];
    let mut jokers_left = 2;
    let mut sets = Vec::new();
    for s in 0..6 {
        if r.below(3) == 0 {
            continue;
        }
        let jokers = r.below(jokers_left + 1);
        jokers_left -= jokers;
        let evidence = (3u64.saturating_sub(jokers)).max(r.below(6));
        // One player lays the set of three (Jokers first); the rest go to anyone, as
        // cards added to it.
        let setter = r.below(players as u64) as usize;
        cards[setter].joker_cards[s] += jokers as u8;
        for n in 0..evidence {
            let to = if n + jokers < 3 {
                setter
            } else {
                r.below(players as u64) as usize
            };
            cards[to].evidence[s] += 1;
        }
        if r.below(3) == 0 {
            cards[r.below(players as u64) as usize].suspect_cards[s] = true;
        }
        sets.push(s);
    }
    // Now and then a Suspect card nobody played, left in a hand.
    for s in 0..6 {
        if cards.iter().all(|p| !p.suspect_cards[s]) && r.below(4) == 0 {
            cards[r.below(players as u64) as usize].suspect_cards_in_hand[s] = true;
        }
    }
    // The caller of the vote with no set of a suspect lays the Letters'.
    let setless =
        called_by.filter(|&c| (0..6).all(|s| cards[c].evidence[s] + cards[c].joker_cards[s] < 3));
    let letters = match setless {
        Some(_) => [3, 4][r.below(2) as usize],
        None => [0, 0, 3, 4][r.below(4) as usize],
    };
    let setter = setless.unwrap_or_else(|| r.below(players as u64) as usize);
    for n in 0..letters {
        let to = if n < 3 {
            setter
        } else {
            r.below(players as u64) as usize
        };
        cards[to].letters += 1;
    }
    let alibi = (!sets.is_empty() && r.below(3) == 0).then(|| {
        cards[r.below(players as u64) as usize].alibi = 1 + r.below(5) as u32;
        sets[r.below(sets.len() as u64) as usize]
    });
    for p in &mut cards {
        p.victims_and_scenes = r.below(30) as u32;
        // Unplayable Evidence, Scenes and Victims, and now and then an Alibi kept in hand.
        p.hand = r.below(15) as u32 + [0, 0, 0, 3][r.below(4) as usize];
    }
    let how = r.below(6);
    // The one Ripper Escapes card, now and then in a hand, unless it was played.
    if how < 4 && r.below(4) == 0 {
        cards[r.below(players as u64) as usize].holds_ripper_escapes = true;
    }
    RoundTally {
        ending: match how {
            0 | 1 => Ending::LastCard,
            2 => Ending::PoliceChiefResigns,
            3 => Ending::DrawPileOutTwice,
            _ => Ending::RipperEscapes {
                by: r.below(players as u64) as usize,
            },
        },
        alibi,
        victims_in_play: match how {
            4.. => 5,
            _ if letters > 0 || !sets.is_empty() => 1 + r.below(5) as u8,
            _ => r.below(6) as u8,
        },
        players: cards,
    }
}

/// Any tally at all, most of which no deck allows.
fn any_tally(players: usize) -> impl Strategy<Value = RoundTally> {
    let player = (
        prop::array::uniform6(any::<u8>()),
        prop::array::uniform6(any::<u8>()),
        prop::array::uniform6(any::<bool>()),
        any::<u8>(),
        any::<u32>(),
        any::<u32>(),
        any::<u32>(),
    )
        .prop_map(
            |(evidence, joker_cards, suspect_cards, letters, alibi, vs, hand)| PlayerTally {
                evidence,
                joker_cards,
                suspect_cards,
                letters,
                alibi,
                victims_and_scenes: vs,
                hand,
                ..Default::default()
            },
        );
    (
        prop::collection::vec(player, players),
        prop::option::of(0usize..8),
        any::<u8>(),
    )
        .prop_map(|(players, alibi, victims)| RoundTally {
            ending: Ending::LastCard,
            alibi,
            victims_in_play: victims,
            players,
        })
}

#[derive(Debug, Clone)]
enum Move {
    Call(usize),
    Vote(usize, usize),
    End(u64),
    Correct(usize, u64),
    Undo,
}

fn moves(players: usize) -> impl Strategy<Value = Vec<Move>> {
    let one = prop_oneof![
        2 => (0..players).prop_map(Move::Call),
        4 => (0..players, 0usize..6).prop_map(|(p, s)| Move::Vote(p, s)),
        4 => any::<u64>().prop_map(Move::End),
        1 => (0usize..4, any::<u64>()).prop_map(|(r, t)| Move::Correct(r, t)),
        1 => Just(Move::Undo),
    ];
    prop::collection::vec(one, 1..40)
}

fn command(m: &Move, pad: &Scorepad) -> Option<Command> {
    let players = pad.players.len();
    Some(match m.clone() {
        Move::Call(by) => Command::CallVote { by },
        Move::Vote(player, suspect) => Command::Vote { player, suspect },
        Move::End(seed) => Command::EndRound {
            tally: legal_tally(players, seed, pad.vote.as_ref().map(|v| v.by)),
        },
        Move::Correct(round, seed) => Command::CorrectRound {
            round,
            tally: legal_tally(
                players,
                seed,
                pad.rounds.get(round).and_then(|r| r.called_by),
            ),
        },
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
        if !round.tally.ending.catches() {
            assert_eq!(scored.verdict.jack, None, "an escape names no Jack");
        }
        for (p, score) in scored.players.iter().enumerate() {
            let alibi = score.lines.iter().find_map(|l| match *l {
                Line::Alibi { suspect, points } => Some((suspect, points)),
                _ => None,
            });
            let held = round.tally.players[p].alibi;
            let expected = (scored.verdict.jack.is_some() && held > 0)
                .then(|| (round.tally.alibi.unwrap(), held as i32));
            assert_eq!(
                alibi, expected,
                "the Alibi scores for whom it lies in front of, undoubled"
            );
        }
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
        for (k, m) in plan.iter().enumerate() {
            let entry = match command(m, timeline.game()) {
                // Moves planned for another player count are simply refused.
                Some(c) => match timeline.decide(c) {
                    Ok(entry) => entry,
                    Err(_) => continue,
                },
                None if timeline.can_undo() => Entry::Undo,
                None => continue,
            };
            // The next move, had it been sent on this same version by another device.
            if let Entry::Command { command: first, .. } = &entry
                && let Some(second) = plan.get(k + 1).and_then(|m| command(m, timeline.game()))
                && first != &second
                && timeline.decide(second.clone()).is_ok()
            {
                check_at_once(&timeline, first, &second, Role::Table);
            }
            timeline.push(entry.clone()).unwrap();
            entries.push(entry);
            check(timeline.game());
            check_allowed(timeline.game(), seed.wrapping_add(k as u64));
            if k % 4 == 0 {
                assert_an_ending_is_reachable(timeline.game());
            }
        }
        let replayed = Timeline::resume(start, entries).unwrap();
        prop_assert_eq!(replayed.game(), timeline.game());
        prop_assert_eq!(replayed.game().status(), timeline.game().status());
    }
}

/// Whether `action` is in what `who` is allowed now, for a command of Mystery Rummy.
fn offered(allowed: &[Action], command: &Command) -> bool {
    allowed.iter().any(|a| match (a, command) {
        (Action::CallVote { players }, Command::CallVote { by }) => players.contains(by),
        (Action::Vote { player, suspects }, Command::Vote { player: p, suspect }) => {
            player == p && suspects.contains(suspect)
        }
        (Action::EndRound, Command::EndRound { .. }) => true,
        (Action::CorrectRound { rounds }, Command::CorrectRound { round, .. }) => {
            rounds.contains(round)
        }
        (Action::SetPrinted, Command::SetPrinted { .. }) => true,
        _ => false,
    })
}

/// For every device, `allowed` is what the rules accept from it: a vote or a call exactly;
/// a round's tally, a correction or the printed numbers whenever they may be sent, the
/// content alone (a tally the deck refuses, a correction that would end the game early)
/// refusing one that is offered.
fn check_allowed(pad: &Scorepad, seed: u64) {
    let n = pad.players.len();
    let phones: Vec<Seat> = (0..n)
        .filter(|p| seed >> p & 1 == 1)
        .map(Seat::Player)
        .collect();
    let devices = [
        Who::Table { phones: Vec::new() },
        Who::Table { phones },
        Who::Watcher,
    ]
    .into_iter()
    .chain((0..n).map(|p| Who::Seat(Seat::Player(p))));
    let space: Vec<Command> = (0..=n)
        .map(|by| Command::CallVote { by })
        .chain(
            (0..=n)
                .flat_map(|player| (0..=6).map(move |suspect| Command::Vote { player, suspect })),
        )
        .chain([
            Command::EndRound {
                tally: legal_tally(n, seed, pad.vote.as_ref().map(|v| v.by)),
            },
            Command::SetPrinted {
                printed: pad.printed,
            },
        ])
        .chain((0..=pad.rounds.len()).map(|round| Command::CorrectRound {
            round,
            tally: legal_tally(
                n,
                seed ^ round as u64,
                pad.rounds.get(round).and_then(|r| r.called_by),
            ),
        }))
        .collect();
    for who in devices {
        let allowed = pad.allowed(&who);
        for command in &space {
            let verdict = pad
                .permit(&who, command)
                .and_then(|()| pad.decide(command).map(|_| ()));
            if let Err(refusal) = &verdict {
                worded(refusal);
            }
            let content = matches!(
                command,
                Command::EndRound { .. }
                    | Command::CorrectRound { .. }
                    | Command::SetPrinted { .. }
            );
            match (offered(&allowed, command), verdict) {
                (true, Ok(())) | (false, Err(_)) => {}
                // What `allowed` leaves to `decide`: a round's or the cards' content.
                (true, Err(e)) if content => assert!(
                    !TIMING.contains(&e.code),
                    "{who:?}: {command:?} is offered, yet refused for {e:?}"
                ),
                (offered, verdict) => {
                    panic!("{who:?}: {command:?} offered: {offered}, but {verdict:?}")
                }
            }
        }
    }
}

/// From any state, the players can play on to a winner: the votes called are cast, and
/// rounds are scored until someone leads alone past 100.
fn assert_an_ending_is_reachable(pad: &Scorepad) {
    let mut pad = pad.clone();
    let mut druitt = PlayerTally {
        victims_and_scenes: 30,
        ..Default::default()
    };
    druitt.evidence[0] = 5;
    druitt.suspect_cards[0] = true;
    let mut others = vec![PlayerTally::default(); pad.players.len()];
    others[0] = druitt;
    let tally = RoundTally {
        ending: Ending::LastCard,
        alibi: None,
        victims_in_play: 2,
        players: others,
    };
    for _ in 0..40 {
        if pad.standings().winner.is_some() {
            return;
        }
        let unvoted = pad
            .vote
            .as_ref()
            .and_then(|v| v.votes.iter().position(Option::is_none));
        let command = match unvoted {
            Some(player) => Command::Vote { player, suspect: 0 },
            // Whoever called the vote laid the Letters.
            None => Command::EndRound {
                tally: {
                    let mut tally = tally.clone();
                    if let Some(vote) = &pad.vote {
                        tally.players[vote.by].letters = 3;
                    }
                    tally
                },
            },
        };
        let events = pad
            .decide(&command)
            .unwrap_or_else(|e| panic!("stuck: {command:?} refused ({e}) in {pad:?}"));
        for e in &events {
            pad.apply(e).unwrap();
        }
    }
    panic!("no winner within 40 moves");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// Whatever numbers arrive, a tally is accepted or refused, never a panic or an
    /// overflow, and what is accepted keeps to the deck.
    #[test]
    fn any_tally_is_scored_or_refused_without_overflow(players in 2usize..=4, tally in (2usize..=4).prop_flat_map(any_tally)) {
        let names: Vec<String> = ["Ann", "Ben", "Cleo", "Dan"][..players].iter().map(|s| s.to_string()).collect();
        let (timeline, _) = begin(Setup { players: names, printed: Printed::default() }, 1).unwrap();
        match timeline.decide(Command::EndRound { tally: tally.clone() }) {
            Ok(seance_timeline::Entry::Command { events, .. }) => {
                prop_assert_eq!(tally.players.len(), players);
                prop_assert!(tally.check().is_ok());
                prop_assert_eq!(events.len(), 1);
            }
            Ok(entry) => panic!("a command decides a command, not {entry:?}"),
            Err(refusal) => worded(&refusal),
        }
    }
}

proptest! {
    /// The generator above deals only tables play can leave: the properties' "legal" games
    /// are legal by the rules' own check, a set in front of the vote's caller included.
    #[test]
    fn legal_tallies_are_what_the_rules_accept(players in 2usize..=4, seed: u64, caller in prop::option::of(0usize..4)) {
        let caller = caller.filter(|&c| c < players);
        let tally = legal_tally(players, seed, caller);
        prop_assert!(tally.check().is_ok(), "{:?} refused: {:?}", tally, tally.check());
        prop_assert!(caller.is_none_or(|c| tally.has_set(c)));
    }
}
