//! Pacing: when the collector is woken, when an allocating thread must wait
//! for a cycle, and the trigger a cycle leaves for the next one.
//!
//! The arithmetic is pure functions; the state the allocating threads and
//! the collector share is a [`Pacer`], built on [`crate::primitive`] so that
//! `tests/loom_pacing.rs` model-checks the code the collector runs.

use crate::primitive::{AtomicBool, AtomicUsize, Ordering};

/// How much a program may allocate since the last cycle started before an
/// allocating thread waits for a collection, from the trigger the last
/// cycle set.
#[inline]
pub fn budget(next_trigger: usize, cycle_running: bool) -> usize {
    // While a cycle runs, what the program allocates is black and floats
    // until the next sweep: past one trigger's worth the program is
    // outrunning the collector, and with a large live set (trigger above
    // the floor) the heap would reach live + 2.75 triggers. Pacing there
    // bounds it at live + 2 triggers (2.5x live at the default multiplier).
    // Between cycles the count includes what the last cycle allocated, and
    // the collector may not have woken yet: a wider margin.
    if cycle_running {
        next_trigger
    } else {
        next_trigger * 7 / 4
    }
}

/// Whether a thread whose allocation brought the count to `allocated` must
/// wait for a collection at its next safepoint.
#[inline]
pub fn over_pace(allocated: usize, threshold: usize, budget: usize) -> bool {
    // Twice the threshold: small-heap programs allocating fast (Lua) are
    // never paced, while a live set above the threshold is paced by its
    // trigger.
    let floor = threshold.max(1).saturating_mul(2);
    allocated > floor.max(budget)
}

/// The allocation volume that starts the next cycle, after a sweep found
/// `live_bytes` live of which `allocated_during` were allocated (black)
/// while the cycle ran.
pub fn next_trigger(
    live_bytes: usize,
    allocated_during: usize,
    multiplier: f64,
    threshold: usize,
) -> usize {
    // Everything allocated since the cycle began was allocated black and
    // counts as live in this sweep, though much of it is already garbage
    // (floating, freed next cycle). Pacing the next cycle off that figure
    // lets a fast allocator inflate its own budget: the trigger grew with
    // the floating garbage, and the heap crept up cycle after cycle (a
    // 32 MiB live set reached 3.06x its size in RSS). The trigger follows
    // what was reachable when the cycle began.
    let snapshot_live = live_bytes.saturating_sub(allocated_during);
    let next = ((snapshot_live as f64) * (multiplier - 1.0)) as usize;
    next.max(threshold)
}

/// What allocating threads and the collector share for pacing.
pub struct Pacer {
    /// A pressure asked for a cycle the collector has not taken yet: later
    /// pressures need not ask again.
    wake_sent: AtomicBool,
    /// A cycle is between its start (allocation count reset) and its
    /// trigger update: the heap's allocation count is what was allocated
    /// during it.
    cycle_running: AtomicBool,
    /// The trigger the last cycle set.
    next_trigger: AtomicUsize,
}

impl Pacer {
    /// No cycle asked for or running, no trigger yet.
    #[cfg(not(loom))]
    pub const fn new() -> Pacer {
        Pacer {
            wake_sent: AtomicBool::new(false),
            cycle_running: AtomicBool::new(false),
            next_trigger: AtomicUsize::new(0),
        }
    }

    /// No cycle asked for or running, no trigger yet.
    #[cfg(loom)]
    pub fn new() -> Pacer {
        Pacer {
            wake_sent: AtomicBool::new(false),
            cycle_running: AtomicBool::new(false),
            next_trigger: AtomicUsize::new(0),
        }
    }

    /// Allocation crossed the trigger: whether the caller is the first to
    /// since the collector last took a request, and must ask for a cycle.
    #[inline]
    pub fn pressure(&self) -> bool {
        !self.wake_sent.swap(true, Ordering::AcqRel)
    }

    /// The collector took a request: the next pressure asks again. Only
    /// after the request is consumed: a pressure in between would leave the
    /// flag set for a request already taken, and silence every later
    /// pressure with no cycle coming.
    #[inline]
    pub fn woken(&self) {
        // A swap where a store would do: loom lets a plain store land
        // between the read and the write of a racing swap, which no machine
        // does, and reports a flag left set that cannot be. Once a cycle,
        // the locked instruction costs nothing measurable.
        self.wake_sent.swap(false, Ordering::Release);
    }

    /// A cycle starts (the heap's allocation count was just reset).
    #[inline]
    pub fn cycle_started(&self) {
        self.cycle_running.store(true, Ordering::Relaxed);
    }

    /// A cycle ends, leaving `next_trigger` for the next one.
    #[inline]
    pub fn cycle_ended(&self, next_trigger: usize) {
        self.next_trigger.store(next_trigger, Ordering::Relaxed);
        self.cycle_running.store(false, Ordering::Relaxed);
    }

    /// The current [`budget`].
    #[inline]
    pub fn budget(&self) -> usize {
        let running = self.cycle_running.load(Ordering::Relaxed);
        budget(self.next_trigger.load(Ordering::Relaxed), running)
    }
}

impl Default for Pacer {
    fn default() -> Pacer {
        Pacer::new()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;

    #[test]
    fn budget_is_one_trigger_while_a_cycle_runs_and_wider_between() {
        assert_eq!(budget(40 * MIB, true), 40 * MIB);
        assert_eq!(budget(40 * MIB, false), 70 * MIB);
        assert_eq!(budget(0, false), 0);
    }

    #[test]
    fn small_heaps_are_never_paced_below_twice_the_threshold() {
        let threshold = 8 * MIB;
        // No trigger set yet, or a small one: the floor decides.
        assert!(!over_pace(16 * MIB, threshold, 0));
        assert!(over_pace(16 * MIB + 1, threshold, 0));
        assert!(!over_pace(16 * MIB, threshold, budget(8 * MIB, true)));
        // A threshold of 0 still leaves a floor of 2 bytes.
        assert!(!over_pace(2, 0, 0));
        assert!(over_pace(3, 0, 0));
        // A floor that would overflow saturates instead.
        assert!(!over_pace(usize::MAX, usize::MAX, 0));
    }

    #[test]
    fn large_live_sets_are_paced_by_their_trigger() {
        let threshold = 8 * MIB;
        let next = 48 * MIB;
        assert!(!over_pace(48 * MIB, threshold, budget(next, true)));
        assert!(over_pace(48 * MIB + 1, threshold, budget(next, true)));
        // Between cycles the same count is within the wider margin.
        assert!(!over_pace(48 * MIB + 1, threshold, budget(next, false)));
        assert!(over_pace(84 * MIB + 1, threshold, budget(next, false)));
    }

    #[test]
    fn next_trigger_follows_the_live_set_at_the_start_of_the_cycle() {
        let threshold = 8 * MIB;
        // 100 MiB live, 0.75 growth.
        assert_eq!(next_trigger(100 * MIB, 0, 1.75, threshold), 75 * MIB);
        // What was allocated during the cycle (black, floating) is left out.
        assert_eq!(next_trigger(100 * MIB, 60 * MIB, 1.75, threshold), 30 * MIB);
        assert_eq!(next_trigger(100 * MIB, 0, 2.0, threshold), 100 * MIB);
    }

    #[test]
    fn next_trigger_is_at_least_the_threshold() {
        let threshold = 8 * MIB;
        assert_eq!(next_trigger(MIB, 0, 1.75, threshold), threshold);
        assert_eq!(next_trigger(0, 0, 1.75, threshold), threshold);
        // More allocated during the cycle than found live (the count runs
        // ahead of the program by the allocation caches): no underflow.
        assert_eq!(next_trigger(MIB, 5 * MIB, 1.75, threshold), threshold);
    }

    #[test]
    fn one_pressure_asks_until_the_collector_wakes() {
        let p = Pacer::new();
        assert!(p.pressure());
        assert!(!p.pressure());
        assert!(!p.pressure());
        p.woken();
        assert!(p.pressure());
        assert!(!p.pressure());
    }

    #[test]
    fn pacer_budget_follows_the_cycle() {
        let p = Pacer::new();
        assert_eq!(p.budget(), 0);
        p.cycle_ended(40 * MIB);
        assert_eq!(p.budget(), 70 * MIB);
        p.cycle_started();
        assert_eq!(p.budget(), 40 * MIB);
        p.cycle_ended(8 * MIB);
        assert_eq!(p.budget(), 14 * MIB);
    }
}
