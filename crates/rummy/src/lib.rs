//! The scorepad of Mystery Rummy: Jack the Ripper (Mystérami: Jack l'Éventreur, 002),
//! replacing the pen and paper its rulebook asks for. The players read the cards; this
//! keeps the secret votes, works out who is Jack, each player's score and how it was
//! reached, and when the game is over. A pure core like Mysterium's: commands in, events
//! out, the game a fold of its events.

mod allowed;
mod jack;
mod log;
mod record;
mod round;
mod scorepad;
mod standings;
mod suspects;
mod tally;
mod view;

pub use allowed::Action;
pub use jack::{JackStep, Verdict, who_is_jack};
pub use log::Told;
pub use record::{Record, Votes};
pub use round::{Ending, Line, PlayerCards, PlayerScore, Round, ScoreError, Scored, score};
pub use scorepad::{Command, Event, Played, Scorepad, Setup, Vote};
pub use standings::{Standings, standings};
pub use suspects::{
    JOKER, Known, LETTER, MOST_PRINTED, Printed, RIPPER_ESCAPES, SUSPECTS, Suspect, Suspicion,
};
pub use tally::{PlayerTally, RoundTally};
pub use view::{Role, RoundView, View, VoteView};

/// A Mystery Rummy game's history.
pub type Timeline = seance_timeline::Timeline<Scorepad>;
/// An entry of a Mystery Rummy game's history.
pub type Entry = seance_timeline::Entry<Command, Event>;

/// A new game: its timeline, and the events of its start for the journal.
pub fn begin(setup: Setup, seed: u64) -> Result<(Timeline, Vec<Event>), seance_timeline::Refusal> {
    let start = Scorepad::start(setup, seed)?;
    Ok(Timeline::begin(start).expect("a fresh start folds"))
}
