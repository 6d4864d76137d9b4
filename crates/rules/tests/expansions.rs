//! Classic games with the expansions' cards: every card the table owns may be laid out and
//! drawn for a psychic, in its own category, and none it does not own; stories stand for
//! objects only with Secrets & Lies.

mod common;

use seance_played::assert_refused;
use std::collections::BTreeSet;

use common::{Table, every_expansion, setup};
use seance_rules::*;

/// Every card laid out, and every card drawn for a psychic, by category, over many games
/// of 7 players at Hard (the most cards laid out).
fn seen(collection: &Collection, third: Third) -> [(BTreeSet<Card>, BTreeSet<Card>); 3] {
    let mut seen: [(BTreeSet<Card>, BTreeSet<Card>); 3] = Default::default();
    for seed in 0..300 {
        let mut s = setup(7, Difficulty::Hard, SecretMode::AppKept);
        s.collection = collection.clone();
        s.third = third;
        let t = Table::new(s, seed);
        let game = t.game();
        for (k, c) in Category::ALL.into_iter().enumerate() {
            let laid = game.layout.of(c);
            assert!(
                laid.windows(2).all(|w| w[0] < w[1]),
                "distinct and in order"
            );
            seen[k].0.extend(laid.iter().copied());
            let drawn = game.assignments.as_ref().unwrap().iter().map(|a| a[k]);
            seen[k].1.extend(drawn);
        }
    }
    seen
}

fn codes(cards: &BTreeSet<Card>) -> BTreeSet<String> {
    cards.iter().map(Card::to_string).collect()
}

fn printed(prefix: &str, numbers: std::ops::RangeInclusive<u8>) -> BTreeSet<String> {
    numbers.map(|n| format!("{prefix}{n}")).collect()
}

#[test]
fn every_owned_card_may_be_drawn_in_its_own_category_and_none_other() {
    let all = |sets: &[BTreeSet<String>]| sets.iter().flatten().cloned().collect::<BTreeSet<_>>();
    let lists = [
        all(&[
            printed("", 1..=18),
            printed("HS", 1..=6),
            printed("SL", 1..=6),
            printed("P", 1..=1),
        ]),
        all(&[
            printed("", 19..=36),
            printed("HS", 7..=12),
            printed("SL", 7..=12),
            printed("P", 2..=2),
        ]),
        all(&[
            printed("", 37..=54),
            printed("HS", 13..=18),
            printed("SL", 13..=18),
            printed("P", 3..=4),
        ]),
    ];
    for (k, (laid, drawn)) in seen(&every_expansion(), Third::Objects).iter().enumerate() {
        assert_eq!(
            codes(laid),
            lists[k],
            "category {k}: every card possible, none outside"
        );
        assert_eq!(
            codes(drawn),
            lists[k],
            "category {k}: any card may be a psychic's"
        );
    }
    let [_, _, (stories, drawn)] = seen(&every_expansion(), Third::Stories);
    let expected = all(&[printed("SL", 19..=36), printed("P", 5..=5)]);
    assert_eq!(codes(&stories), expected);
    assert_eq!(codes(&drawn), expected);
}

#[test]
fn only_the_expansions_owned_join_the_draws() {
    let hidden_signs_and_p2 = Collection {
        expansions: vec![Expansion::HiddenSigns],
        promos: vec![2],
    };
    let [characters, locations, objects] = seen(&hidden_signs_and_p2, Third::Objects);
    let origins = |cards: &BTreeSet<Card>| cards.iter().map(|c| c.origin).collect::<BTreeSet<_>>();
    assert_eq!(
        origins(&characters.0),
        [Origin::Base, Origin::HiddenSigns].into()
    );
    assert_eq!(
        origins(&locations.0),
        [Origin::Base, Origin::HiddenSigns, Origin::Promo].into()
    );
    assert_eq!(
        origins(&objects.0),
        [Origin::Base, Origin::HiddenSigns].into()
    );
    // The base box alone: cards 1 to 54, numbers only.
    let [characters, ..] = seen(&Collection::default(), Third::Objects);
    assert_eq!(codes(&characters.0), printed("", 1..=18));
}

#[test]
fn stories_need_secrets_and_lies_and_the_new_edition_has_its_own_cards() {
    let mut s = setup(5, Difficulty::Easy, SecretMode::AppKept);
    s.third = Third::Stories;
    s.collection.expansions = vec![Expansion::HiddenSigns];
    assert_refused!(Game::start(s.clone(), 1), "stories_need_secrets_and_lies");
    s.collection.expansions.push(Expansion::SecretsAndLies);
    assert!(Game::start(s, 1).is_ok());

    let mut new = common::new_setup(5, SecretMode::AppKept, false);
    new.collection = every_expansion();
    assert_refused!(Game::start(new, 1), "expansions_are_classic");
}

#[test]
fn a_game_with_stories_is_played_and_judged_by_the_codes() {
    let mut s = setup(4, Difficulty::Easy, SecretMode::AppKept);
    s.collection = every_expansion();
    s.third = Third::Stories;
    let mut t = Table::new(s, 5);
    let view = t.game().view(Role::Table);
    assert_eq!(view.third, Third::Stories);
    let json = serde_json::to_value(&t.game().layout).unwrap();
    assert!(
        json["objects"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c.as_str().is_some_and(|s| s.starts_with("SL") || s == "P5"))
    );
    t.find_everything();
    let stories: Vec<Card> = t.game().psychics.iter().map(|p| p.found[2]).collect();
    assert!(stories.iter().all(|c| t.game().layout.objects.contains(c)));
    assert!(
        stories.iter().all(|c| c.origin != Origin::Base),
        "{stories:?}"
    );
    let lined_up = t
        .game()
        .groups
        .iter()
        .map(|g| g.cards[2])
        .collect::<BTreeSet<_>>();
    assert_eq!(lined_up, stories.into_iter().collect());
}
