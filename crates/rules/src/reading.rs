//! The count read out at the table: nothing is told before its time. A count is made the
//! moment the last vote is in, and sealed; the table shows it a line at a time (each
//! ballot, then each step of the reasoning) or all at once, and no view or log holds more
//! of it than the table has shown. Its last line brings what the count decides: the end of
//! the game, the eldest asked for, or (new edition) the votes taken back.

use crate::straw_poll::Count;

impl Count {
    /// The lines the table shows: each ballot, then each step.
    pub fn lines(&self) -> u8 {
        // At most six ballots and a handful of steps: far below the bound.
        u8::try_from(self.ballots.len() + self.steps.len()).unwrap_or(u8::MAX)
    }

    /// The count as far as its first `lines` lines; what it chose only once all are shown.
    pub fn shown(&self, lines: u8) -> Count {
        let lines = usize::from(lines);
        let ballots = self.ballots.len().min(lines);
        let steps = self.steps.len().min(lines - ballots);
        Count {
            ballots: self.ballots[..ballots].to_vec(),
            steps: self.steps[..steps].to_vec(),
            chosen: self.chosen.filter(|_| steps == self.steps.len()),
        }
    }

    /// How many lines `self` and `other` share from the start: a count made again once the
    /// eldest is named keeps on screen what the table has shown of the first.
    pub fn common(&self, other: &Count) -> u8 {
        if self.ballots != other.ballots {
            return 0;
        }
        let steps = self
            .steps
            .iter()
            .zip(&other.steps)
            .take_while(|(a, b)| a == b)
            .count();
        u8::try_from(self.ballots.len() + steps).unwrap_or(u8::MAX)
    }
}

#[cfg(test)]
mod tests {
    use crate::straw_poll::{Ballot, Count, CountStep};

    fn count() -> Count {
        let ballots = [(0, 2), (1, 3), (2, 2)].map(|(psychic, group)| Ballot { psychic, group });
        crate::majority::majority(&ballots)
    }

    #[test]
    fn a_count_is_shown_line_by_line_and_chooses_only_at_its_last() {
        let count = count();
        assert_eq!(count.lines(), 5);
        assert_eq!(count.chosen, Some(2));
        for lines in 0..5 {
            let shown = count.shown(lines);
            assert_eq!(shown.lines(), lines);
            assert_eq!(shown.chosen, None, "chosen after {lines} lines");
        }
        assert_eq!(count.shown(2).ballots.len(), 2);
        assert!(count.shown(3).steps.is_empty());
        assert!(matches!(
            count.shown(4).steps[..],
            [CountStep::Tally { .. }]
        ));
        assert_eq!(count.shown(5), count);
    }

    #[test]
    fn counts_share_their_lines_up_to_the_first_difference() {
        let count = count();
        assert_eq!(count.common(&count), 5);
        let mut other = count.clone();
        other.steps.pop();
        assert_eq!(count.common(&other), 4);
        other.ballots[2].group = 3;
        assert_eq!(count.common(&other), 0);
    }
}
