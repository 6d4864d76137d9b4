//! The HTTP modules: the routers and their handlers, the WebSocket's sessions, the
//! history's endpoints, the phones' seats and knocks, the journal's trouble. They are the
//! top: nothing below them imports them (`tests/layers.rs`); what they share lives below,
//! in `shared`, `games`, `callers` and `rulesets`.

pub mod history;
pub mod phones;
pub mod routes;
pub mod socket;
pub mod trouble;
