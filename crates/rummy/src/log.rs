//! What each role's log tells of the scorepad's events: calls and rounds as they happened,
//! a vote sealed to all but its voter until the round's scores show it. The screens word
//! each line in their language (`log.<type>`).

use serde::Serialize;

use crate::event::Event;
use crate::role::Role;

/// An event as a log tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Told {
    VoteCalled {
        by: usize,
    },
    /// `suspect` only in the voter's own log.
    Voted {
        player: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        suspect: Option<usize>,
    },
    RoundEnded,
    RoundCorrected {
        round: usize,
    },
    PrintedSet,
}

/// `event` as `role`'s log tells it; nothing for the start.
pub fn told(event: &Event, role: Role) -> Option<Told> {
    Some(match *event {
        Event::Started { .. } => return None,
        Event::VoteCalled { by } => Told::VoteCalled { by },
        Event::Voted { player, suspect } => Told::Voted {
            player,
            suspect: (role == Role::Player(player)).then_some(suspect),
        },
        Event::RoundEnded { .. } => Told::RoundEnded,
        Event::RoundCorrected { round, .. } => Told::RoundCorrected { round },
        Event::PrintedSet { .. } => Told::PrintedSet,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vote_is_told_in_full_to_its_voter_only() {
        let vote = Event::Voted {
            player: 2,
            suspect: 4,
        };
        let full = Told::Voted {
            player: 2,
            suspect: Some(4),
        };
        assert_eq!(told(&vote, Role::Player(2)), Some(full));
        for role in [Role::Table, Role::Player(0)] {
            let line = told(&vote, role).unwrap();
            assert_eq!(
                serde_json::to_string(&line).unwrap(),
                r#"{"type":"voted","player":2}"#
            );
        }
    }
}
