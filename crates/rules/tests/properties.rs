//! Properties over random legal games of both editions: whatever the table does within
//! the rules, the books stay consistent, and what each device is offered (`allowed`) is
//! exactly what the rules accept from it. Legal moves are found by asking the rules about
//! every candidate command; undo and redo are mixed in. The invariants the editions share
//! (visions, progress, the clock, secrets, votes, replay, an ending always within reach)
//! are checked on both.

mod common;

use common::{Table, every_expansion, new_setup, setup};
use proptest::prelude::*;
use seance_played::{check_at_once, worded};
use seance_rules::*;

/// The command space a game's size allows, grouped by kind (the right intuition is a
/// group of its own, so games often reach the end), and with numbers one past each end
/// (psychics, groups, cards), which the rules must refuse.
fn command_space(game: &Game) -> Vec<Vec<Command>> {
    let n = game.psychics.len();
    let psychics = 0..=n;
    let groups = 0..=game.groups.len() as u8 + 1;
    let mut space: Vec<Vec<Command>> = Vec::new();
    // Each one-tap batch beside the single commands it stands for.
    space.push(
        psychics
            .clone()
            .map(|psychic| Command::GiveVision { psychic })
            .chain([Command::GiveEveryVision])
            .collect(),
    );
    space.push(vec![
        Command::StartTimer,
        Command::UseCrow,
        Command::EndInterpretation,
        Command::RevealVisionCard,
        Command::ShareVision,
    ]);
    let mut intuitions = Vec::new();
    let mut right_ones = Vec::new();
    for (i, p) in game.psychics.iter().enumerate() {
        let Some(c) = p.seeking() else { continue };
        let off_table = Category::ALL
            .iter()
            .flat_map(|&k| game.layout.of(k).iter().copied())
            .find(|card| !game.uncollected(c).contains(card));
        for card in game.uncollected(c).into_iter().chain(off_table) {
            let right = game
                .assignments
                .as_ref()
                .is_some_and(|a| a[i][c.index()] == card);
            let cmd = Command::PlaceIntuition { psychic: i, card };
            if right {
                right_ones.push(cmd)
            } else {
                intuitions.push(cmd)
            }
        }
    }
    space.push(intuitions);
    space.push(right_ones);
    let mut tokens = Vec::new();
    for by in psychics.clone() {
        for on in psychics.clone() {
            tokens.push(Command::WithdrawToken { by, on });
            for face in [Face::Agree, Face::Disagree] {
                tokens.push(Command::PlaceToken { by, on, face });
            }
        }
    }
    space.push(tokens);
    space.push(
        psychics
            .clone()
            .flat_map(|psychic| {
                [None, Some(true), Some(false)].map(|right| Command::Manifest { psychic, right })
            })
            .chain([Command::ManifestEvery])
            .collect(),
    );
    space.push(
        psychics
            .clone()
            .flat_map(|psychic| {
                [Level::Low, Level::Intermediate, Level::High]
                    .map(|level| Command::StateLevel { psychic, level })
            })
            .collect(),
    );
    space.push(
        groups
            .clone()
            .map(|group| Command::ChooseCulprit { group })
            .collect(),
    );
    space.push(
        psychics
            .clone()
            .flat_map(|psychic| {
                groups
                    .clone()
                    .map(move |group| Command::Vote { psychic, group })
            })
            .collect(),
    );
    space.push(
        psychics
            .clone()
            .map(|psychic| Command::DeclareEldest { psychic })
            .collect(),
    );
    space.push(groups.map(|group| Command::PickGroup { group }).collect());
    let lines = game.count.as_ref().map_or(0, Count::lines);
    space.push(
        (0..=lines + 1)
            .map(|lines| Command::ShowCount { lines })
            .collect(),
    );
    space
}

/// Every command the rules accept now, grouped by kind.
fn legal_moves(t: &Table) -> Vec<Vec<Command>> {
    let game = t.game();
    command_space(game)
        .into_iter()
        .map(|kind| {
            kind.into_iter()
                .filter(|c| game.decide(c, 1).is_ok())
                .collect::<Vec<_>>()
        })
        .filter(|kind| !kind.is_empty())
        .collect()
}

/// The devices that may ask: the table (with no phone, or with phones on the seats
/// `phones` picks), the ghost's phone, each psychic's, a watcher.
fn devices(game: &Game, phones: u16) -> Vec<Who<Role>> {
    let seats = game.seats();
    let held = seats
        .iter()
        .enumerate()
        .filter(|(i, _)| phones & (1 << i) != 0)
        .map(|(_, &s)| s)
        .collect();
    [
        Who::Table { phones: Vec::new() },
        Who::Table { phones: held },
        Who::Watcher,
    ]
    .into_iter()
    .chain(seats.into_iter().map(Who::Seat))
    .collect()
}

/// `allowed` is exactly what the rules accept: for the device, every command in the
/// command space is in its `allowed` if and only if it is permitted to that device and
/// `decide` accepts it.
fn check_allowed(game: &Game, who: &Who<Role>) {
    let allowed: Vec<Command> = game
        .allowed(who)
        .iter()
        .flat_map(Action::commands)
        .collect();
    for command in command_space(game).into_iter().flatten() {
        let verdict = game
            .permit(who, &command)
            .and_then(|()| game.decide(&command, 1).map(|_| ()));
        if let Err(refusal) = &verdict {
            worded(refusal);
        }
        let accepted = verdict.is_ok();
        assert_eq!(
            allowed.contains(&command),
            accepted,
            "{who:?}: {command:?} is {} allowed but {} accepted",
            if allowed.contains(&command) {
                ""
            } else {
                "not"
            },
            if accepted { "" } else { "not" },
        );
    }
    for command in &allowed {
        assert!(
            game.permit(who, command).is_ok() && game.decide(command, 1).is_ok(),
            "{who:?}: {command:?} is allowed but refused"
        );
    }
}

/// What must hold between two states linked by one accepted command.
fn check_step(before: &Game, after: &Game) {
    // Every move on the track is one the view's record of the ghost's answers accounts for.
    let turn_ended = before.phase == Phase::Manifestation && after.phase != Phase::Manifestation;
    let said = if turn_ended {
        &after.last_turn
    } else {
        &after.manifestations
    };
    assert!(
        said.starts_with(&before.manifestations),
        "the record of answers was rewritten"
    );
    let new = &said[before.manifestations.len()..];
    for (i, (b, a)) in before.psychics.iter().zip(&after.psychics).enumerate() {
        let gained: u8 = new
            .iter()
            .map(|m| {
                m.moved.iter().filter(|&&x| x == i).count() as u8
                    + if m.psychic == i { m.bonus } else { 0 }
            })
            .sum();
        assert_eq!(
            a.track.saturating_sub(b.track),
            gained,
            "a track moved without an answer to show for it"
        );
    }
    for (b, a) in before.psychics.iter().zip(&after.psychics) {
        assert!(a.track >= b.track, "a track position went down");
        assert!(a.found.starts_with(&b.found), "progress went backwards");
    }
    if let Some(c) = before.culprit {
        assert_eq!(after.culprit, Some(c), "the culprit changed once sealed");
    }
    assert!(after.hour >= before.hour && after.hour <= 7);
}

/// What must hold in every state.
fn check_state(game: &Game) {
    if game.setup.edition == Edition::New {
        assert!(
            game.psychics
                .iter()
                .all(|p| p.track == 0 && p.held.total() == 0),
            "the new edition has no clairvoyancy"
        );
    }
    if game.draws_culprit() {
        let lined_up =
            matches!(game.phase, Phase::Revelation | Phase::Ended) && !game.groups.is_empty();
        assert_eq!(
            game.culprit.is_some(),
            lined_up,
            "the culprit is drawn at the line-up"
        );
    }
    let start = game.setup.starting_faces();
    for (i, p) in game.psychics.iter().enumerate() {
        let on_pawns = |face| {
            game.placements
                .iter()
                .filter(|x| x.by == i && x.face == face)
                .count() as u8
        };
        assert!(
            p.held.agree + on_pawns(Face::Agree) <= start.agree,
            "✓ tokens appeared from nowhere"
        );
        assert!(
            p.held.disagree + on_pawns(Face::Disagree) <= start.disagree,
            "✗ tokens appeared from nowhere"
        );
    }
    if game.hour == 4
        && game.phase == Phase::Visions
        && game.placements.is_empty()
        && game.psychics.iter().all(|p| !p.vision)
    {
        assert!(
            game.psychics.iter().all(|p| p.held == start),
            "all tokens are back at the start of turn 4"
        );
    }
    if let Some(outcome) = game.outcome
        && outcome != Outcome::LostOnTime
    {
        let (chosen, culprit) = (
            game.chosen.unwrap(),
            game.culprit.expect("exactly one culprit"),
        );
        assert_eq!(outcome == Outcome::Won, chosen == culprit);
    }
    // Nothing is told before its time: while the table reads the count out, every view
    // (the ghost's too) holds what it has shown, and neither the choice nor the outcome.
    if game.counting() {
        assert_eq!(game.phase, Phase::Revelation);
        let roles = [Role::Table, Role::Ghost].into_iter();
        for role in roles.chain((0..game.psychics.len()).map(Role::Psychic)) {
            let view = game.view(role);
            let count = view.count.as_ref().expect("a count being read");
            assert!(view.counting);
            assert_eq!(count.lines(), game.shown, "{role:?} saw unshown lines");
            assert_eq!(
                (count.chosen, view.chosen, view.outcome),
                (None, None, None)
            );
            assert_eq!(
                view.culprit, None,
                "{role:?} told the culprit during the count"
            );
        }
    }
    // From the first count to the end, not even the ghost's screen holds the culprit.
    if game.count.is_some() && game.phase != Phase::Ended {
        assert_eq!(
            game.view(Role::Ghost).culprit,
            None,
            "the ghost's culprit after the votes"
        );
    }
    for role in std::iter::once(Role::Table).chain((0..game.psychics.len()).map(Role::Psychic)) {
        let view = game.view(role);
        if game.phase != Phase::Ended {
            assert_eq!(view.assignments, None, "{role:?} saw the secrets");
            assert_eq!(view.culprit, None, "{role:?} saw the culprit");
        }
        // Sealed until a count decides (a tied count takes the votes back).
        if game.count.as_ref().and_then(|c| c.chosen).is_none() {
            let own = match role {
                Role::Psychic(i) => game.psychics[i].vote,
                _ => None,
            };
            assert_eq!(view.my_vote, own, "{role:?} saw a vote not theirs");
            let text = serde_json::to_string(&view).unwrap();
            assert!(
                !text.contains("\"vote\""),
                "{role:?}: a vote in the payload"
            );
        }
    }
}

/// Plays on from `game` with moves that only ever bring the end nearer, and fails unless
/// an ending is reached: no reachable state may leave the table stuck. Pawns and tokens
/// are left alone (a wrong answer ends the game on time as surely as a right one ends it
/// in the revelation); a level is stated only where it is unknown.
fn assert_an_ending_is_reachable(game: &Game) {
    let mut game = game.clone();
    let n = game.psychics.len();
    for step in 0u64..400 {
        if game.phase == Phase::Ended {
            return;
        }
        let groups = game.groups.len() as u8;
        let unknown = (0..n).filter(|&i| game.level_of(i).is_none());
        let candidates = (0..n)
            .map(|psychic| Command::GiveVision { psychic })
            .chain([
                Command::StartTimer,
                Command::EndInterpretation,
                Command::GiveEveryVision,
                Command::ManifestEvery,
            ])
            .chain((0..n).flat_map(|psychic| {
                [None, Some(false)].map(|right| Command::Manifest { psychic, right })
            }))
            .chain(unknown.flat_map(|psychic| {
                [Level::Low, Level::Intermediate, Level::High]
                    .map(|level| Command::StateLevel { psychic, level })
            }))
            .chain([
                Command::ChooseCulprit { group: 1 },
                Command::ShareVision,
                Command::RevealVisionCard,
                Command::PickGroup { group: 1 },
            ])
            .chain((0..n).map(|psychic| Command::Vote { psychic, group: 1 }))
            .chain((0..n).map(|psychic| Command::DeclareEldest { psychic }))
            .chain([Command::ShowCount {
                lines: game.shown + 1,
            }])
            .chain(
                (2..=groups)
                    .flat_map(|group| (0..n).map(move |psychic| Command::Vote { psychic, group })),
            );
        let events = candidates
            .filter_map(|c| game.decide(&c, step).ok())
            .next()
            .unwrap_or_else(|| panic!("stuck: no legal move brings the end nearer in {game:#?}"));
        for e in &events {
            game.apply(e).unwrap();
        }
    }
    panic!("no ending within 400 moves");
}

/// A few pairs of this step's legal moves, `pick` choosing which, sent on one version as
/// two devices tap at once: [`check_at_once`] holds for each.
fn check_pairs(t: &Table, pick: usize) {
    let moves: Vec<Command> = legal_moves(t).into_iter().flatten().collect();
    for k in 0..4 {
        let first = &moves[(pick + 7 * k) % moves.len()];
        let second = &moves[(pick / 5 + 11 * k + 1) % moves.len()];
        if first != second {
            check_at_once(&t.timeline, first, second, Role::Table);
        }
    }
}

/// Plays `choices` as moves from a fresh game and returns how it ended, if it did.
fn play(
    edition: Edition,
    players: usize,
    secrets: SecretMode,
    seed: u64,
    choices: &[u16],
) -> Option<Outcome> {
    let start = match edition {
        Edition::Classic => {
            let difficulty =
                [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard][seed as usize % 3];
            let mut start = setup(players, difficulty, secrets);
            // Half the classic games draw from every expansion, some with stories.
            if seed % 2 == 1 {
                start.collection = every_expansion();
                if seed % 4 == 3 {
                    start.third = Third::Stories;
                }
            }
            start
        }
        Edition::New => new_setup(players.max(3), secrets, seed.is_multiple_of(2)),
    };
    let mut t = Table::new(start, seed);
    for &choice in choices {
        if t.game().phase == Phase::Ended {
            break;
        }
        let before = t.game().clone();
        match choice % 40 {
            0 if t.timeline.can_undo() => {
                t.undo();
                let undone = t.game().clone();
                t.redo();
                assert_eq!(t.game(), &before, "undo then redo changed the game");
                t.undo();
                assert_eq!(t.game(), &undone);
            }
            1 if t.timeline.can_redo() => t.redo(),
            _ => {
                let moves = legal_moves(&t);
                assert!(
                    !moves.is_empty(),
                    "a game that is not over always has a legal move"
                );
                let group = &moves[choice as usize % moves.len()];
                let mut command = group[(choice as usize / 7) % group.len()].clone();
                // Pawns wait for their visions, so random play that ended an
                // interpretation as soon as it could would hardly find a card: a psychic
                // still without a pawn places it first.
                let pawnless = (0..t.game().psychics.len()).find_map(|psychic| {
                    let p = &t.game().psychics[psychic];
                    let card = *t.game().uncollected(p.seeking()?).first()?;
                    let place = Command::PlaceIntuition { psychic, card };
                    (p.intuition.is_none() && t.game().decide(&place, 1).is_ok()).then_some(place)
                });
                if command == Command::EndInterpretation
                    && let Some(place) = pawnless
                {
                    command = place;
                }
                t.play(command);
                check_step(&before, t.game());
            }
        }
        check_state(t.game());
        if choice % 2 == 1 {
            let devices = devices(t.game(), choice / 40);
            check_allowed(t.game(), &devices[choice as usize / 2 % devices.len()]);
        }
        if choice % 16 == 2 {
            assert_an_ending_is_reachable(t.game());
        }
        if choice % 3 == 0 && t.game().phase != Phase::Ended {
            check_pairs(&t, choice as usize);
        }
    }
    let replayed =
        Timeline::resume(t.start.clone(), t.entries.clone()).expect("the journal replays");
    assert_eq!(
        replayed.game(),
        t.game(),
        "replaying the journal gives the same game"
    );
    assert_eq!(replayed.version(), t.timeline.version());
    let folded = Game::replay(t.timeline.events()).unwrap();
    assert_eq!(&folded, t.game(), "the state is the fold of its events");
    t.game().outcome
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_games_keep_the_books(
        new_edition in any::<bool>(),
        players in 2usize..=7,
        paper in any::<bool>(),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 50..400),
    ) {
        let secrets = if paper { SecretMode::Paper } else { SecretMode::AppKept };
        let edition = if new_edition { Edition::New } else { Edition::Classic };
        play(edition, players, secrets, seed, &choices);
    }
}

/// Long games to their end, so the properties are seen to hold through revelations,
/// counts and both kinds of loss, not only in early turns.
#[test]
fn long_random_games_reach_every_ending() {
    for edition in [Edition::Classic, Edition::New] {
        long_games(edition);
    }
}

fn long_games(edition: Edition) {
    let mut endings = std::collections::HashMap::new();
    for seed in 0..36u64 {
        let players = 2 + (seed as usize % 6);
        let mut rng = seed ^ 0x9e37_79b9_7f4a_7c15;
        let choices: Vec<u16> = (0..1500)
            .map(|_| {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (rng >> 33) as u16
            })
            .collect();
        let secrets = if seed % 4 == 0 {
            SecretMode::Paper
        } else {
            SecretMode::AppKept
        };
        let outcome = play(edition, players, secrets, seed, &choices);
        *endings.entry(format!("{outcome:?}")).or_insert(0) += 1;
    }
    for ending in ["Some(Won)", "Some(LostOnTime)", "Some(LostWrongGroup)"] {
        assert!(
            endings.contains_key(ending),
            "no random {edition:?} game ended {ending}: {endings:?}"
        );
    }
}
