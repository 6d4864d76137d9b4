//! What each role's log tells of the events: everything on the table as it happened, and
//! of a secret only what its role sees (the ghost's culprit, a psychic's own vote), and
//! nothing of the count but what the table has shown (the ghost's culprit too is sealed
//! from the count to the end, so no screen tells the end before the table). The screens word
//! each line in their language (`log.<type>`).

use serde::Serialize;

use crate::event::Event;
use crate::game::Game;
use crate::role::Role;
use seance_timeline::Timed;

/// An event as a log tells it: as it happened, or sealed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Told {
    Open(Event),
    Sealed(Sealed),
}

/// What is told of a secret to a role that does not see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Sealed {
    /// A psychic voted; for which group is sealed until the count.
    Voted { psychic: usize },
    /// The ghost sealed the culprit (or Séance drew it for the ghost).
    CulpritSealed,
    /// The groups are laid out: whose group is whose stays the ghost's until the end.
    LinedUp { groups: usize },
    /// Every vote is in; the count is told line by line as the table shows it.
    Counted,
}

/// `event` as `role`'s log tells it in `game` as it stands; nothing for the start and the
/// drawn secrets, which are no news to anyone, nor for what the game has not: the
/// interpretation beginning where no sand timer is turned (the new edition's, without a
/// house rule's), tokens coming back where there are none (as journals before this build
/// say they did).
pub fn told(game: &Game, event: &Event, role: Role) -> Option<Told> {
    let ghost_sees = role == Role::Ghost && game.ghost_sees_culprit();
    let sealed = match *event {
        Event::Started { .. } | Event::SecretsDrawn { .. } => return None,
        Event::TimerStarted if game.sand_timer().is_none() => return None,
        Event::TokensRecovered if game.setup.tokens_per_psychic() == 0 => return None,
        Event::Voted { psychic, .. } if role != Role::Psychic(psychic) => Sealed::Voted { psychic },
        Event::CulpritChosen { .. } | Event::CulpritDrawn { .. } if !ghost_sees => {
            Sealed::CulpritSealed
        }
        Event::LinedUp { ref groups } if role != Role::Ghost => Sealed::LinedUp {
            groups: groups.len(),
        },
        Event::Counted { .. } => Sealed::Counted,
        _ => return Some(Told::Open(event.clone())),
    };
    Some(Told::Sealed(sealed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{Difficulty, SecretMode, Setup};

    fn game() -> Game {
        let setup = Setup::with_dealt_colours(
            "Laura",
            &["Stephanie", "Alex", "Carl", "Paul"],
            Difficulty::Easy,
            SecretMode::AppKept,
        );
        <Game as seance_timeline::Rules>::replay(&Game::start(setup, 1).unwrap()).unwrap()
    }

    #[test]
    fn a_vote_is_told_in_full_to_its_psychic_only_and_the_culprit_to_the_ghost_only() {
        let game = game();
        let vote = Event::Voted {
            psychic: 1,
            group: 3,
        };
        assert_eq!(
            told(&game, &vote, Role::Psychic(1)),
            Some(Told::Open(vote.clone()))
        );
        for role in [Role::Table, Role::Ghost, Role::Psychic(0)] {
            assert_eq!(
                told(&game, &vote, role),
                Some(Told::Sealed(Sealed::Voted { psychic: 1 }))
            );
        }
        let culprit = Event::CulpritChosen { group: 2 };
        assert_eq!(
            told(&game, &culprit, Role::Ghost),
            Some(Told::Open(culprit.clone()))
        );
        let table = serde_json::to_string(&told(&game, &culprit, Role::Table)).unwrap();
        assert!(!table.contains('2'), "{table}");
    }
}
