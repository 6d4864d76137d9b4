//! Every game this crate plays reaches its end.

use seance_played::{mysterium, new_edition, rummy};
use seance_rules::{Difficulty, Phase};
use seance_timeline::Listed;

#[test]
fn classic_games_end_at_every_size() {
    for psychics in [
        &["Ana"][..],
        &["Ana", "Bo"],
        &["Ana", "Bo", "Cy", "Dee"],
        &["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"],
    ] {
        for (right_from, right_vote) in [(1, true), (8, true), (2, false)] {
            let g = mysterium(
                "Laura",
                psychics,
                Difficulty::Medium,
                right_from,
                right_vote,
            );
            assert_eq!(g.timeline.game().phase, Phase::Ended);
        }
    }
}

#[test]
fn new_edition_games_end() {
    for mediums in [&["Ana", "Bo"][..], &["Ana", "Bo", "Cy", "Dee"]] {
        for (right_from, right_pick) in [(1, true), (8, true), (1, false)] {
            let g = new_edition("Laura", mediums, right_from, right_pick);
            assert_eq!(g.timeline.game().phase, Phase::Ended);
        }
    }
}

#[test]
fn rummy_games_end() {
    for players in [
        &["Ana", "Bo"][..],
        &["Ana", "Bo", "Cy"],
        &["Ana", "Bo", "Cy", "Dee"],
    ] {
        let pad = rummy(players);
        assert_eq!(pad.game().record().unwrap().winner, 0);
    }
}
