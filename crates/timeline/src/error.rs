//! Why a command was refused: which rule, and what would be allowed instead; and the bound
//! every rule set puts on a name.

use std::fmt;

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleError {
    /// A stable name for the rule, for programs (`"one_vision_per_turn"`).
    pub rule: &'static str,
    /// The explanation for people, saying what is allowed.
    pub message: String,
}

impl RuleError {
    pub fn new(rule: &'static str, message: impl Into<String>) -> RuleError {
        RuleError {
            rule,
            message: message.into(),
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuleError {}

/// The longest name a player may have, in characters: room on every screen, and a bound
/// on what one request can make every view carry.
pub const NAME_CHARS: usize = 40;

/// Refuses a name longer than [`NAME_CHARS`].
pub fn check_name(name: &str) -> Result<(), RuleError> {
    let chars = name.trim().chars().count();
    ensure(chars <= NAME_CHARS, "name_too_long", || {
        format!("a name has at most {NAME_CHARS} characters; this one has {chars}: shorten it")
    })
}

/// `Err(RuleError)` unless `condition` holds.
pub fn ensure(
    condition: bool,
    rule: &'static str,
    message: impl FnOnce() -> String,
) -> Result<(), RuleError> {
    if condition {
        Ok(())
    } else {
        Err(RuleError::new(rule, message()))
    }
}
