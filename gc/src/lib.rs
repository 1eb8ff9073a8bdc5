//! The collector: threads, safepoints, soft handshakes, concurrent marking
//! and sweeping. Filled by issue 3; the heap already keeps the mark bits and
//! `gimso-shadow` the store-barrier hook this crate will drive.
