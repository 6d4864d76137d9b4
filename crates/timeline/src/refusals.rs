//! Every refusal the timeline and its shared checks send, and those every rule set and the
//! server send alike (the table's own, a watcher's, no sand timer), each code written once:
//! the compiler checks every use, and `ALL` lists them for the words test (each has its words
//! in every language, `refusal.<code>`).

/// Constants for a crate's refusal codes, each `NAME = "code"` (the name the code in
/// capitals, which the compiler checks), and `ALL` of them.
#[macro_export]
macro_rules! refusals {
    ($($name:ident = $code:literal,)*) => {
        $(
            pub const $name: &str = $code;
            const _: () = assert!(
                $crate::refusals::named_as(stringify!($name), $code),
                "a refusal's constant is named as its code, in capitals"
            );
        )*
        /// Every code above.
        pub const ALL: &[&str] = &[$($name),*];
    };
}

/// Whether `name` is `code` in capitals (`NOT_OVER` for `not_over`).
#[doc(hidden)]
pub const fn named_as(name: &str, code: &str) -> bool {
    let (name, code) = (name.as_bytes(), code.as_bytes());
    if name.len() != code.len() {
        return false;
    }
    let mut i = 0;
    while i < name.len() {
        if name[i] != code[i].to_ascii_uppercase() {
            return false;
        }
        i += 1;
    }
    true
}

crate::refusals! {
    KNOCK_TIMES = "knock_times",
    NAME_TOO_LONG = "name_too_long",
    NO_TIMER = "no_timer",
    REMATCH_IN_PLAY = "rematch_in_play",
    STALE = "stale",
    TABLE_ONLY = "table_only",
    TOO_FAST = "too_fast",
    UNDONE_MEANWHILE = "undone_meanwhile",
    VOTE_ON_PHONE = "vote_on_phone",
    WATCHER = "watcher",
}
