//! Who is Jack at the end of a round (002, "Décompte quand Jack l'Éventreur est attrapé"):
//! the suspect with the most points on the table (evidence, jokers played on them, their
//! Suspect card) — whether or not that Suspect card is in play; a tie goes to the lowest
//! suspicion number; a suspect with the Alibi in play cannot be Jack, so the next one is.
//! When no suspect can be Jack (the Alibi covers the only one, or the only set is the
//! Letters), the Ripper escapes.

use serde::Serialize;

use crate::suspects::Suspicion;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum JackStep {
    /// Points on the table per suspect with any (suspect index, points), most first.
    Totals {
        points: Vec<(usize, u32)>,
    },
    /// The Alibi in play clears this suspect.
    Alibi {
        suspect: usize,
    },
    /// These suspects tie on the most points; the lowest suspicion number is Jack.
    Tie {
        suspects: Vec<usize>,
    },
    Jack {
        suspect: usize,
        points: u32,
    },
    /// Nobody on the table can be Jack.
    NoSuspect,
    /// The round ended in an escape (Ripper Escapes played, or the draw pile out twice):
    /// nobody is Jack.
    Escaped,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub jack: Option<usize>,
    pub steps: Vec<JackStep>,
}

/// `on_table[s]` is the points on suspect `s` summed over every player.
pub fn who_is_jack(on_table: [u32; 6], alibi: Option<usize>, suspicion: &Suspicion) -> Verdict {
    let mut points: Vec<(usize, u32)> = (0..6)
        .map(|s| (s, on_table[s]))
        .filter(|&(_, p)| p > 0)
        .collect();
    points.sort_by_key(|&(s, p)| (std::cmp::Reverse(p), suspicion.0[s]));
    let mut steps = vec![JackStep::Totals {
        points: points.clone(),
    }];
    if let Some(cleared) = alibi.filter(|a| points.iter().any(|&(s, _)| s == *a)) {
        steps.push(JackStep::Alibi { suspect: cleared });
        points.retain(|&(s, _)| s != cleared);
    }
    let Some(&(first, most)) = points.first() else {
        steps.push(JackStep::NoSuspect);
        return Verdict { jack: None, steps };
    };
    let tied: Vec<usize> = points
        .iter()
        .filter(|&&(_, p)| p == most)
        .map(|&(s, _)| s)
        .collect();
    if tied.len() > 1 {
        steps.push(JackStep::Tie { suspects: tied });
    }
    steps.push(JackStep::Jack {
        suspect: first,
        points: most,
    });
    Verdict {
        jack: Some(first),
        steps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DRUITT: usize = 0;
    const CHAPMAN: usize = 4;
    const JILL: usize = 5;

    #[test]
    fn the_rulebook_tie_goes_to_druitt_on_suspicion() {
        // 002: 5 Druitt evidence = 10; 3 Jill evidence + her Suspect card = 10.
        let mut table = [0; 6];
        table[DRUITT] = 5 * 2;
        table[JILL] = 3 * 2 + 4;
        let verdict = who_is_jack(table, None, &Suspicion::default());
        assert_eq!(verdict.jack, Some(DRUITT));
        assert!(verdict.steps.contains(&JackStep::Tie {
            suspects: vec![DRUITT, JILL]
        }));
    }

    #[test]
    fn the_alibi_on_the_leader_makes_the_next_one_jack() {
        // 002 vote example: Chapman 14 (5 evidence + Suspect), Jill 6; Chapman's Alibi is played.
        let mut table = [0; 6];
        table[CHAPMAN] = 5 * 2 + 4;
        table[JILL] = 3 * 2;
        assert_eq!(
            who_is_jack(table, None, &Suspicion::default()).jack,
            Some(CHAPMAN)
        );
        let verdict = who_is_jack(table, Some(CHAPMAN), &Suspicion::default());
        assert_eq!(verdict.jack, Some(JILL));
        assert_eq!(verdict.steps[1], JackStep::Alibi { suspect: CHAPMAN });
    }

    #[test]
    fn an_alibi_on_the_only_suspect_lets_the_ripper_escape() {
        let mut table = [0; 6];
        table[JILL] = 6;
        assert_eq!(
            who_is_jack(table, Some(JILL), &Suspicion::default()).jack,
            None
        );
        assert_eq!(
            who_is_jack([0; 6], None, &Suspicion::default()).jack,
            None,
            "only Letters on the table"
        );
    }

    #[test]
    fn corrected_suspicion_numbers_break_ties_their_way() {
        let mut table = [0; 6];
        table[1] = 6;
        table[2] = 6;
        assert_eq!(
            who_is_jack(table, None, &Suspicion::default()).jack,
            Some(1)
        );
        let swapped = Suspicion([1, 3, 2, 4, 5, 6]);
        assert_eq!(who_is_jack(table, None, &swapped).jack, Some(2));
    }
}
