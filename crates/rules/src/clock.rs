//! The clock of Phase 1: seven hours, a turn each (000 p.6, 003 p.6). Below every other
//! module: the turns, the finishing bonus and the views all count by it.

/// The clock's hours: Phase 1 ends at the end of the seventh.
pub const HOURS: u8 = 7;
