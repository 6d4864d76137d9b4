//! The property both rule sets' tests hold their [`AtOnce`] to: two commands sent on one
//! version, as two devices tap in the same instant.

use seance_timeline::{AtOnce, Roles, Timeline};

/// `timeline` after `command`, or why it was refused.
fn after<G: Roles + AtOnce>(
    timeline: &Timeline<G>,
    command: &G::Command,
) -> Result<Timeline<G>, seance_timeline::Refusal> {
    let mut next = timeline.clone();
    let entry = next.decide(command.clone())?;
    next.push(entry).expect("a decided entry applies");
    Ok(next)
}

/// `first` and `second`, both legal now, sent on this version by two devices, `first`
/// landing first: where the rules find that `second` depends on nothing `first` changed
/// ([`Timeline::rebase`]), `second` still lands after it, and the game is the same as if
/// `second` had landed first, whenever `first` may follow it; a conflict is worded.
pub fn check_at_once<G: Roles + AtOnce + PartialEq + std::fmt::Debug>(
    timeline: &Timeline<G>,
    first: &G::Command,
    second: &G::Command,
    by: G::Role,
) {
    let seen = timeline.version();
    let one = after(timeline, first).expect("the first is legal");
    // Pushed with no sender, so `by` never finds it its own.
    if let Err(conflict) = one.rebase(second, seen, by) {
        crate::worded(&conflict);
        return;
    }
    let both = after(&one, second).unwrap_or_else(|r| {
        panic!("{second:?} depends on nothing {first:?} changed, yet is refused after it: {r:?}")
    });
    let two = after(timeline, second).expect("the second is legal");
    if let Ok(swapped) = after(&two, first) {
        assert_eq!(
            both.game(),
            swapped.game(),
            "{first:?} and {second:?}, independent, make another game in the other order"
        );
    }
}
