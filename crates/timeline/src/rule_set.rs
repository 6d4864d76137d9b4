//! Séance's rule sets, each named once. The journal, the history, the API's paths, the
//! socket and the UI's routes all name a rule set by what is written here.

use std::fmt;
use std::str::FromStr;

/// The rule sets from one list: each variant with its name and key, and [`RuleSet::ALL`]
/// made from the same list, so that no rule set is left out of it.
macro_rules! rule_sets {
    ($($(#[doc = $doc:literal])* $(#[cfg($cfg:meta)])? $variant:ident => $name:literal, $key:literal;)+) => {
        /// One of the rule sets Séance keeps the books for.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum RuleSet {
            $($(#[doc = $doc])* $(#[cfg($cfg)])? $variant,)+
        }

        /// Every rule set, in the order listed.
        const LISTED: &[RuleSet] = &[$($(#[cfg($cfg)])? RuleSet::$variant,)+];

        impl RuleSet {
            /// Its name in the journal and the history, kept as first written
            /// (`mysterium-classic` holds both of Mysterium's editions): renaming it would
            /// orphan every game kept.
            pub fn name(self) -> &'static str {
                match self {
                    $($(#[cfg($cfg)])? RuleSet::$variant => $name,)+
                }
            }

            /// Its key in the API's paths (`/api/mysterium/3`), in the socket's and the QR
            /// code's query (`?mysterium=3`), and the UI's name for it (a game's `kind`).
            pub fn key(self) -> &'static str {
                match self {
                    $($(#[cfg($cfg)])? RuleSet::$variant => $key,)+
                }
            }
        }
    };
}

rule_sets! {
    /// Mysterium, both editions.
    Mysterium => "mysterium-classic", "mysterium";
    /// Mystery Rummy: Jack the Ripper.
    MysteryRummy => "mystery-rummy", "rummy";
    /// A third rule set for the registries' test alone (`seance-played`'s `fake`).
    #[cfg(feature = "fake-rule-set")]
    Straws => "straws", "straws";
}

impl RuleSet {
    /// Every rule set, as listed above.
    pub const ALL: [RuleSet; LISTED.len()] = {
        let mut all = [LISTED[0]; LISTED.len()];
        let mut i = 0;
        while i < LISTED.len() {
            all[i] = LISTED[i];
            i += 1;
        }
        all
    };
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
