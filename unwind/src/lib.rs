//! The Itanium two-phase unwinder on gimso's call ABI. Filled by issue 5.
