//! What each command depends on and each event changes, so a table acts at once: a
//! psychic's pawn and tokens do not depend on another psychic's, nor the ghost's vision to
//! one psychic on another's pawn; the end of the interpretation, a new turn or phase, or a
//! change to the very thing a command is about do. A command sent on a version the game has
//! moved past lands when none of the things it depends on changed since
//! (`Timeline::rebase`), and is refused in words naming what changed when one did.

use crate::command::Command;
use crate::event::Event;
use crate::game::Game;
use crate::refusals;
use seance_timeline::Refusal;

/// Something of a game a command may depend on and an event may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thing {
    /// Where the game stands: its phase, turn and hour, the line-up, its end. Every command
    /// depends on it.
    Stage,
    /// The sand timer turned: the visions' wait is over.
    Sand,
    /// The crows (the new edition's candles) used.
    Crows,
    /// Whether a psychic has had their vision this turn.
    Vision(usize),
    /// Where a psychic's intuition pawn stands.
    Pawn(usize),
    /// The clairvoyancy tokens a psychic holds and has placed.
    Tokens(usize),
    /// The ghost's answer to a psychic this turn, with what it moved and collected.
    Answer(usize),
    /// A psychic's level, as the table read it off the track.
    Level(usize),
    /// A psychic's sealed vote.
    Vote(usize),
    /// The culprit's group, sealed.
    Culprit,
    /// The shared vision: its cards turned over, or given at once.
    SharedVision,
    /// The count and what the table has shown of it.
    Count,
}

impl Game {
    /// Every psychic's `thing`.
    fn each(&self, thing: fn(usize) -> Thing) -> impl Iterator<Item = Thing> {
        (0..self.psychics.len()).map(thing)
    }

    /// What `command` depends on: what its checks read, and what its consequences read and
    /// reset (an answer may end the turn, so it depends on every answer, and on the crows
    /// the turn's end gives back).
    pub fn depends(&self, command: &Command) -> Vec<Thing> {
        use Thing::*;
        // Once the votes are counted, nothing but the count's reading may be done: every
        // command depends on it (a last vote counted turns a pick sent beside it away).
        let mut things = vec![Stage, Count];
        match *command {
            Command::GiveVision { psychic } => things.push(Vision(psychic)),
            Command::GiveEveryVision => things.extend(self.each(Vision)),
            Command::StartTimer => things.push(Sand),
            Command::UseCrow => things.push(Crows),
            Command::PlaceIntuition { psychic, .. } => {
                things.extend([Vision(psychic), Pawn(psychic)])
            }
            // A token agrees or disagrees with the pawn where it stood when it was placed.
            Command::PlaceToken { by, on, .. } => things.extend([Tokens(by), Pawn(on)]),
            Command::WithdrawToken { by, .. } => things.push(Tokens(by)),
            Command::EndInterpretation => {
                things.push(Sand);
                things.extend(self.each(Vision));
            }
            // The last answer ends the turn, which gives back the crows of an Easy game.
            Command::Manifest { psychic, .. } => {
                things.extend([Pawn(psychic), Crows]);
                things.extend(self.each(Answer).chain(self.each(Tokens)));
            }
            Command::ManifestEvery => {
                things.push(Crows);
                things.extend(self.each(Answer).chain(self.each(Tokens)));
                things.extend(self.each(Pawn));
            }
            Command::StateLevel { psychic, .. } => {
                things.extend([Level(psychic), Vote(psychic), SharedVision])
            }
            Command::ChooseCulprit { .. } => things.push(Culprit),
            Command::RevealVisionCard => {
                things.extend([Culprit, SharedVision]);
                things.extend(self.each(Level).chain(self.each(Vote)));
            }
            Command::ShareVision | Command::PickGroup { .. } => {
                things.extend([Culprit, SharedVision])
            }
            Command::Vote { psychic, .. } => {
                things.extend([Vote(psychic), Level(psychic), Culprit, SharedVision])
            }
            Command::DeclareEldest { .. } | Command::ShowCount { .. } => {}
        }
        things
    }

    /// What `event` changes.
    pub fn changes(&self, event: &Event) -> Vec<Thing> {
        use Thing::*;
        match *event {
            Event::VisionGiven { psychic } => vec![Vision(psychic)],
            Event::TimerStarted => vec![Sand],
            Event::CrowUsed => vec![Crows],
            Event::IntuitionPlaced { psychic, .. } => vec![Pawn(psychic)],
            Event::TokenPlaced { by, .. } | Event::TokenWithdrawn { by, .. } => vec![Tokens(by)],
            Event::Manifested { psychic, .. } | Event::Finished { psychic, .. } => {
                vec![Answer(psychic)]
            }
            Event::TokensRecovered => self.each(Tokens).collect(),
            Event::LevelStated { psychic, .. } => vec![Level(psychic)],
            Event::CulpritChosen { .. } | Event::CulpritDrawn { .. } => vec![Culprit],
            Event::VisionShared | Event::VisionCardRevealed { .. } => vec![SharedVision],
            Event::Voted { psychic, .. } => vec![Vote(psychic)],
            Event::EldestAsked { .. }
            | Event::EldestDeclared { .. }
            | Event::Counted { .. }
            | Event::CountShown { .. } => vec![Count],
            Event::Started { .. }
            | Event::SecretsDrawn { .. }
            | Event::TimerEnded
            | Event::TurnEnded
            | Event::HourStruck { .. }
            | Event::LostOnTime
            | Event::LinedUp { .. }
            | Event::NoMajority { .. }
            | Event::GroupPicked { .. }
            | Event::Ended { .. } => vec![Stage],
        }
    }

    /// The refusal of a command whose `thing` changed meanwhile.
    pub fn changed(&self, thing: &Thing) -> Refusal {
        let named = |code, psychic| Refusal::new(code).with("name", self.who(psychic));
        match *thing {
            Thing::Stage => Refusal::new(refusals::PHASE_MEANWHILE),
            Thing::Sand => Refusal::new(refusals::SAND_MEANWHILE),
            Thing::Crows => Refusal::new(refusals::CROW_MEANWHILE),
            Thing::Vision(p) => named(refusals::VISION_MEANWHILE, p),
            Thing::Pawn(p) => named(refusals::PAWN_MEANWHILE, p),
            Thing::Tokens(p) => named(refusals::TOKENS_MEANWHILE, p),
            Thing::Answer(p) => named(refusals::ANSWER_MEANWHILE, p),
            Thing::Level(p) => named(refusals::LEVEL_MEANWHILE, p),
            Thing::Vote(p) => named(refusals::VOTE_MEANWHILE, p),
            Thing::Culprit => Refusal::new(refusals::CULPRIT_MEANWHILE),
            Thing::SharedVision => Refusal::new(refusals::SHARED_VISION_MEANWHILE),
            Thing::Count => Refusal::new(refusals::COUNT_MEANWHILE),
        }
    }
}

#[cfg(test)]
mod tests {
    //! Each pair a table meets at once, with what each command depends on, through
    //! `Timeline::rebase` itself.

    use super::*;
    use crate::cards::Card;
    use crate::clairvoyancy::Face;
    use crate::{Role, Timeline};

    fn table(players: usize) -> Timeline {
        let setup = crate::Setup::with_dealt_colours(
            "Ghost",
            &["Alex", "Bea", "Cy", "Di", "Ed", "Flo", "Gus"][..players - 1],
            crate::Difficulty::Easy,
            crate::SecretMode::AppKept,
        );
        crate::begin(setup, 7).unwrap().0
    }

    /// Plays `command`, legal now.
    fn play(t: &mut Timeline, command: &Command) {
        let entry = t.decide(command.clone()).expect("legal");
        t.push(entry).unwrap();
    }

    /// `psychic`'s pawn on a card of theirs, `on` telling which.
    fn pawn(t: &Timeline, psychic: usize, on: usize) -> Command {
        let g = t.game();
        let card: Card = g.uncollected(g.psychics[psychic].seeking().unwrap())[on];
        Command::PlaceIntuition { psychic, card }
    }

    /// Whether `second`, sent on the game before `first`, is done after it. The first is
    /// pushed with no sender, so it is never the second's own.
    fn lands_after(t: &Timeline, first: &Command, second: &Command) -> Result<(), Refusal> {
        let mut after = t.clone();
        play(&mut after, first);
        after.rebase(second, t.version(), Role::Table)
    }

    /// The visions given to Alex and Bea, the sand still waiting for Cy's.
    fn with_visions() -> Timeline {
        let mut t = table(5);
        for psychic in [0, 1] {
            play(&mut t, &Command::GiveVision { psychic });
        }
        t
    }

    #[test]
    fn a_pawn_depends_on_its_own_psychic_alone() {
        let t = with_visions();
        let alex = pawn(&t, 0, 0);
        let bea = pawn(&t, 1, 1);
        // Alex's pawn: the stage, the count, Alex's vision and pawn; none of Bea's.
        assert_eq!(
            t.game().depends(&alex),
            vec![Thing::Stage, Thing::Count, Thing::Vision(0), Thing::Pawn(0)]
        );
        assert_eq!(lands_after(&t, &alex, &bea), Ok(()));
        assert_eq!(lands_after(&t, &bea, &alex), Ok(()));
        // The ghost's vision to Cy does not touch Alex's pawn, nor the pawn Cy's vision.
        let vision = Command::GiveVision { psychic: 2 };
        assert_eq!(lands_after(&t, &vision, &alex), Ok(()));
        assert_eq!(lands_after(&t, &alex, &vision), Ok(()));
    }

    #[test]
    fn the_same_pawn_moved_meanwhile_is_a_conflict() {
        let t = with_visions();
        let here = pawn(&t, 0, 0);
        let there = pawn(&t, 0, 1);
        let refused = lands_after(&t, &here, &there).unwrap_err();
        assert_eq!(refused.code, refusals::PAWN_MEANWHILE);
    }

    #[test]
    fn a_token_depends_on_the_pawn_it_judges_and_its_placers_hand() {
        let mut t = with_visions();
        let bea_pawn = pawn(&t, 1, 1);
        play(&mut t, &bea_pawn);
        let agree = Command::PlaceToken {
            by: 0,
            on: 1,
            face: Face::Agree,
        };
        assert_eq!(
            t.game().depends(&agree),
            vec![Thing::Stage, Thing::Count, Thing::Tokens(0), Thing::Pawn(1)]
        );
        // Bea moving her pawn meanwhile: Alex agreed with where it stood.
        let moved = pawn(&t, 1, 0);
        let refused = lands_after(&t, &moved, &agree).unwrap_err();
        assert_eq!(refused.code, refusals::PAWN_MEANWHILE);
        // Alex's own pawn, or Cy's vision, meanwhile: no conflict.
        let alex = pawn(&t, 0, 0);
        assert_eq!(lands_after(&t, &alex, &agree), Ok(()));
        assert_eq!(
            lands_after(&t, &Command::GiveVision { psychic: 2 }, &agree),
            Ok(())
        );
    }

    #[test]
    fn the_sand_running_out_stops_every_pawn() {
        let mut t = table(3);
        play(&mut t, &Command::GiveEveryVision);
        let alex = pawn(&t, 0, 0);
        let refused = lands_after(&t, &Command::EndInterpretation, &alex).unwrap_err();
        assert_eq!(refused.code, refusals::PHASE_MEANWHILE);
    }

    #[test]
    fn answers_depend_on_every_answer_for_the_last_ends_the_turn() {
        let mut t = table(3);
        play(&mut t, &Command::GiveEveryVision);
        for psychic in [0, 1] {
            let c = pawn(&t, psychic, psychic);
            play(&mut t, &c);
        }
        play(&mut t, &Command::EndInterpretation);
        let alex = Command::Manifest {
            psychic: 0,
            right: None,
        };
        let bea = Command::Manifest {
            psychic: 1,
            right: None,
        };
        let refused = lands_after(&t, &alex, &bea).unwrap_err();
        assert_eq!(refused.code, refusals::ANSWER_MEANWHILE);
        let params = serde_json::to_value(&refused.params).unwrap();
        assert_eq!(params["name"]["name"], "Alex");
    }
}
