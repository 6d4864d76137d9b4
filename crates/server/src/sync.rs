//! Locks that a panic cannot leave poisoned. What they guard changes in whole steps (a game's
//! next state is built aside and recorded only once journaled; a seats file is
//! written before the seats change), so after a panic elsewhere it is sound as found, and
//! the next request is served instead of every one failing.

use std::sync::{Mutex, MutexGuard, PoisonError};

pub trait Hold<T> {
    /// The lock, taken even if a panic poisoned it.
    fn hold(&self) -> MutexGuard<'_, T>;
}

impl<T> Hold<T> for Mutex<T> {
    fn hold(&self) -> MutexGuard<'_, T> {
        self.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
