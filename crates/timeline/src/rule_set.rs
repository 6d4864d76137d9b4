//! Séance's rule sets, each named once. The journal, the history, the API's paths, the
//! socket and the UI's routes all name a rule set by what is written here.

use std::fmt;
use std::str::FromStr;

/// One of the rule sets Séance keeps the books for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Mysterium, both editions.
    Mysterium,
    /// Mystery Rummy: Jack the Ripper.
    MysteryRummy,
    /// A third rule set for the registries' test alone (`seance-played`'s `fake`).
    #[cfg(feature = "fake-rule-set")]
    Straws,
}

impl RuleSet {
    #[cfg(not(feature = "fake-rule-set"))]
    pub const ALL: [RuleSet; 2] = [RuleSet::Mysterium, RuleSet::MysteryRummy];
    #[cfg(feature = "fake-rule-set")]
    pub const ALL: [RuleSet; 3] = [RuleSet::Mysterium, RuleSet::MysteryRummy, RuleSet::Straws];

    /// Its name in the journal and the history, kept as first written (`mysterium-classic`
    /// holds both of Mysterium's editions): renaming it would orphan every game kept.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Mysterium => "mysterium-classic",
            RuleSet::MysteryRummy => "mystery-rummy",
            #[cfg(feature = "fake-rule-set")]
            RuleSet::Straws => "straws",
        }
    }

    /// Its key in the API's paths (`/api/mysterium/3`), in the socket's and the QR code's
    /// query (`?mysterium=3`), and the UI's name for it (a game's `kind`).
    pub fn key(self) -> &'static str {
        match self {
            RuleSet::Mysterium => "mysterium",
            RuleSet::MysteryRummy => "rummy",
            #[cfg(feature = "fake-rule-set")]
            RuleSet::Straws => "straws",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is none of the rule sets' (a journal from a newer build, say).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoSuchRuleSet;

impl FromStr for RuleSet {
    type Err = NoSuchRuleSet;

    /// Reads [`RuleSet::name`].
    fn from_str(name: &str) -> Result<RuleSet, NoSuchRuleSet> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or(NoSuchRuleSet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for rule_set in RuleSet::ALL {
            assert_eq!(rule_set.to_string().parse(), Ok(rule_set));
        }
        assert_eq!("mysterium".parse::<RuleSet>(), Err(NoSuchRuleSet));
    }

    #[test]
    fn names_and_keys_differ() {
        for (i, a) in RuleSet::ALL.iter().enumerate() {
            for b in &RuleSet::ALL[i + 1..] {
                assert_ne!(a.name(), b.name());
                assert_ne!(a.key(), b.key());
            }
        }
    }
}
