//! What both fuzz targets do: the input is lines of text, as a device would send them. The
//! first is a setup (JSON); every other line is a command (JSON), `undo` or `redo`, sent by
//! the table (a line starting `@N ` is sent from seat N's phone instead). Each is asked of
//! the rules exactly as the server asks: who may send it, then decide, then push; after
//! each change every role's view, what each may do, and what each log tells are built. The
//! rules must refuse what is wrong, never panic nor overflow.

use seance_timeline::{Entry, RoleName, RuleBook, Timeline, Who};

/// Drives a game of `G` by `data`, its whole face as the shells use it.
pub fn drive<G: RuleBook>(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.lines();
    let Some(Ok(setup)) = lines.next().map(serde_json::from_str::<G::Setup>) else {
        return;
    };
    let seed = data
        .iter()
        .fold(0u64, |h, &b| h.rotate_left(5) ^ u64::from(b));
    let Ok(start) = G::start(setup, seed) else {
        return;
    };
    let Ok((mut timeline, start)) = Timeline::<G>::begin(start) else {
        return;
    };
    let mut entries = Vec::new();
    look_all(&timeline);
    for line in lines.take(400) {
        let (who, line) = match line.strip_prefix('@').and_then(|l| l.split_once(' ')) {
            Some((n, rest)) => match (n.parse().ok())
                .and_then(|n: usize| timeline.game().seats().get(n).copied())
            {
                Some(role) => (Who::Seat(role), rest),
                None => continue,
            },
            None => (Who::Table { phones: Vec::new() }, line),
        };
        let entry = match line {
            "undo" if timeline.can_undo() => Entry::Undo,
            "redo" if timeline.can_redo() => Entry::Redo,
            _ => {
                let Ok(command) = serde_json::from_str::<G::Command>(line) else {
                    continue;
                };
                if timeline.game().permit(&who, &command).is_err() {
                    continue;
                }
                match timeline.decide(command) {
                    Ok(entry) => entry,
                    Err(_) => continue,
                }
            }
        };
        if timeline.push(entry.clone()).is_ok() {
            entries.push(entry);
            look_all(&timeline);
        }
    }
    // The history replays to the same game, as after a restart.
    let replayed = Timeline::<G>::resume(start, entries);
    assert!(replayed.is_ok_and(|r| r.game() == timeline.game()));
}

fn look_all<G: RuleBook>(timeline: &Timeline<G>) {
    let game = timeline.game();
    let _ = game.allowed(&Who::Table { phones: Vec::new() });
    let _ = game.allowed(&Who::Watcher);
    let seats = game.seats();
    for &seat in &seats {
        let _ = game.allowed(&Who::Seat(seat));
    }
    let roles = seats.into_iter().map(Into::into);
    for role in std::iter::once(G::Role::TABLE).chain(roles) {
        let _ = game.view(role);
        for change in timeline.recent() {
            for event in &change.events {
                let _ = game.told(event, role);
            }
        }
    }
}
