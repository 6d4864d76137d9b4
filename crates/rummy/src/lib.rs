//! The scorepad of Mystery Rummy: Jack the Ripper (Mystérami: Jack l'Éventreur, 002),
//! replacing the pen and paper its rulebook asks for. The players read the points off the
//! cards; this works out who is Jack, each player's score and how it was reached, and when
//! the game is over. Pure functions: a corrected round simply scores again.

mod jack;
mod round;
mod standings;
mod suspects;

pub use jack::{JackStep, Verdict, who_is_jack};
pub use round::{Ending, Line, PlayerCards, PlayerScore, Round, ScoreError, Scored, score};
pub use standings::{Standings, standings};
pub use suspects::{SUSPECTS, Suspect, Suspicion};
