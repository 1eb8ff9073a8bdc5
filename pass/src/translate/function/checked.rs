//! Accesses already checked on every path to the current point, so that a
//! later access through the same capability near the same address checks
//! only what they do not imply (check merging).
//!
//! Accesses are keyed by capability and *root*: the address with its
//! constant-offset GEPs stripped (`p->a`, `p->b` and `p[1]` share the root
//! `p`). Once checks of `[root + a, root + b)` and `[root + c, root + d)`
//! through capability `cap` have passed, the whole span between them lies
//! in `cap`'s object, which is contiguous: a later access inside the span
//! needs no bounds check, one sticking out at one end needs only the
//! comparison with that end.
//!
//! What stays true: an object's bounds shrink and it becomes read-only
//! only through calls into the program or the C library (`free`,
//! `realloc`, `mprotect`); the collector never changes the header of an
//! object a thread can still reach, and `llvm.*` intrinsics do not free.
//! So every call that is not an intrinsic forgets the spans' upper ends and
//! writability. It cannot move a lower end: `lower` is the capability's own
//! value, so `root + a >= lower` is a fact about two SSA values, true
//! wherever the check that established it dominates (after calls, around
//! loops), like non-nullness and alignment; a later access at or above
//! `root + a` compares with `upper` only, which also catches a free in
//! between (it leaves `upper` at or below `lower`). A race with
//! a `free` in another thread is a use-after-free the program raced on:
//! its memory is still the object's (the collector keeps it while this
//! thread holds the capability). For the same reason a natural loop whose
//! blocks call nothing keeps, at its header, what held on entry to it: no
//! round can free or protect anything, so its back edges bring at least
//! those facts (`plan::call_free_loop_headers`). A signal handler run at
//! the loop's safepoint could call `free`, but `free` is not
//! async-signal-safe, and the memory stays the object's as with a racing
//! `free`.
//!
//! Address arithmetic: a passing check puts `root + a` at `lower + k`
//! with `0 <= k`, a real address. Offsets used here are limited to
//! [`MAX_SPAN`], far below the lowest address an object can have (the
//! kernel maps nothing under 64 KiB), so `root + c` for a nearby `c` is
//! that address plus `c - a` without wrapping, and the one-sided
//! comparisons emitted for the other end are exact.

use std::collections::{HashMap, HashSet};

/// Largest constant offset (either sign) and access size merged.
const MAX_SPAN: i64 = 4096;

/// What a new access at `root + off` still has to check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bounds {
    /// Implied by earlier checks.
    Known,
    /// Only `addr + size <= upper` (the lower end is implied).
    Upper,
    /// Only `addr >= lower` (the upper end is implied).
    Lower,
    /// The full check.
    Both,
}

impl Bounds {
    /// What is left once the lower end is known to hold.
    pub fn without_lower(self) -> Bounds {
        match self {
            Bounds::Both => Bounds::Upper,
            Bounds::Lower => Bounds::Known,
            b => b,
        }
    }
}

/// The parts of a check an access still needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Need {
    pub bounds: Bounds,
    /// The alignment test.
    pub align: bool,
    /// The read-only test of a write.
    pub readonly: bool,
    /// The capability passed a check before, so it is not null (its
    /// header can be read without testing it first).
    pub nonnull: bool,
}

impl Need {
    /// Whether nothing is left to check.
    pub fn nothing(&self) -> bool {
        self.bounds == Bounds::Known && !self.align && !self.readonly
    }
}

/// A span of `root + [lo, hi)` known to be inside `cap`'s object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    lo: i64,
    hi: i64,
    /// `root + off` is a multiple of `align` (the widest alignment seen).
    aligned: Option<(i64, u64)>,
}

/// The facts holding at one point of the function.
/// Generic over the identity of values (`K`: an IR value in the
/// translation, a number in the tests), so the planning is pure.
#[derive(Debug, Clone)]
pub(super) struct Checked<K> {
    spans: HashMap<(K, K), Span>,
    /// Capabilities whose object passed a write check (not read-only).
    writable: HashSet<K>,
    /// Capabilities that passed a check: not null, whatever calls do.
    nonnull: HashSet<K>,
    /// Root → `(off, align)`: `root + off` passed an alignment test, so it
    /// is a multiple of `align`, whatever calls do (a property of the
    /// address value alone).
    aligned: HashMap<K, (i64, u64)>,
    /// `(cap, root)` → `lo`: `root + lo >= lower` of `cap`, whatever calls
    /// do (two SSA values compared), so accesses at offsets from `lo` up
    /// need only their upper end checked.
    above: HashMap<(K, K), i64>,
}

fn mergeable(off: i64, size: u64) -> bool {
    off.abs() < MAX_SPAN && size < MAX_SPAN as u64
}

impl<K> Default for Checked<K> {
    fn default() -> Self {
        Checked {
            spans: HashMap::new(),
            writable: HashSet::new(),
            nonnull: HashSet::new(),
            aligned: HashMap::new(),
            above: HashMap::new(),
        }
    }
}

impl<K: Copy + Eq + std::hash::Hash> Checked<K> {
    /// What an access of `size` bytes at `root + off` through `cap`, with
    /// alignment `align` (1: none), still has to check.
    pub fn need(&self, cap: K, root: K, off: i64, size: u64, align: u64, write: bool) -> Need {
        let readonly = write && !self.writable.contains(&cap);
        let nonnull = self.nonnull.contains(&cap);
        let full = Need {
            bounds: Bounds::Both,
            align: align > 1 && !self.root_aligned(root, off, align),
            readonly,
            nonnull,
        };
        if !mergeable(off, size) {
            return full;
        }
        let lower_known = self.above.get(&(cap, root)).is_some_and(|&lo| off >= lo);
        let Some(s) = self.spans.get(&(cap, root)) else {
            return Need {
                bounds: if lower_known {
                    Bounds::Upper
                } else {
                    Bounds::Both
                },
                nonnull: nonnull || lower_known,
                ..full
            };
        };
        let end = off + size as i64;
        let bounds = match (off >= s.lo || lower_known, end <= s.hi) {
            (true, true) => Bounds::Known,
            (true, false) => Bounds::Upper,
            (false, true) => Bounds::Lower,
            (false, false) => Bounds::Both,
        };
        let align = align > 1
            && !s.aligned.is_some_and(|a| multiple(a, off, align))
            && !self.root_aligned(root, off, align);
        Need {
            bounds,
            align,
            readonly,
            nonnull: true,
        }
    }

    /// Records that the access [`Checked::need`] was asked about passed.
    pub fn passed(&mut self, cap: K, root: K, off: i64, size: u64, align: u64, write: bool) {
        self.nonnull.insert(cap);
        if write {
            self.writable.insert(cap);
        }
        if align > 1 && self.aligned.get(&root).is_none_or(|&(_, a)| a < align) {
            self.aligned.insert(root, (off, align));
        }
        if !mergeable(off, size) {
            return;
        }
        let end = off + size as i64;
        let lo = self.above.entry((cap, root)).or_insert(off);
        *lo = (*lo).min(off);
        let s = self.spans.entry((cap, root)).or_insert(Span {
            lo: off,
            hi: end,
            aligned: None,
        });
        s.lo = s.lo.min(off);
        s.hi = s.hi.max(end);
        if align > 1 && s.aligned.is_none_or(|(_, a)| a < align) {
            s.aligned = Some((off, align));
        }
    }

    /// Whether `root + off` is known to be at or above `cap`'s lower end.
    pub fn lower_known(&self, cap: K, root: K, off: i64) -> bool {
        self.above.get(&(cap, root)).is_some_and(|&lo| off >= lo)
    }

    /// Whether `root + off` is known to be a multiple of `align`.
    fn root_aligned(&self, root: K, off: i64, align: u64) -> bool {
        self.aligned
            .get(&root)
            .is_some_and(|&a| multiple(a, off, align))
    }

    /// The facts that hold wherever the point they were established
    /// dominates, whatever runs in between (calls, loop back edges): which
    /// capabilities are not null, which addresses are aligned and which
    /// are at or above their capability's lower bound.
    pub fn lasting(&self) -> Checked<K> {
        Checked {
            nonnull: self.nonnull.clone(),
            aligned: self.aligned.clone(),
            above: self.above.clone(),
            ..Checked::default()
        }
    }

    /// Adds the [`Checked::lasting`] facts of a dominating point.
    pub fn add_lasting(&mut self, from: &Checked<K>) {
        self.nonnull.extend(from.nonnull.iter().copied());
        for (&root, &a) in &from.aligned {
            if self.aligned.get(&root).is_none_or(|&(_, b)| b < a.1) {
                self.aligned.insert(root, a);
            }
        }
        for (&key, &lo) in &from.above {
            let mine = self.above.entry(key).or_insert(lo);
            *mine = (*mine).min(lo);
        }
    }

    /// Forgets what a call may change (it may free or protect memory);
    /// a capability that passed a check stays non-null, an aligned address
    /// aligned and an address above its lower bound above it.
    pub fn clear(&mut self) {
        self.spans.clear();
        self.writable.clear();
    }

    /// The facts holding where control arrives from every one of `preds`
    /// (all already translated): what holds on each of them.
    pub fn meet(preds: &[&Checked<K>]) -> Checked<K> {
        let Some((first, rest)) = preds.split_first() else {
            return Checked::default();
        };
        let mut out = (*first).clone();
        for other in rest {
            out.writable.retain(|c| other.writable.contains(c));
            out.nonnull.retain(|c| other.nonnull.contains(c));
            out.aligned.retain(|r, a| other.aligned.get(r) == Some(a));
            out.above.retain(|k, lo| match other.above.get(k) {
                Some(&o) => {
                    *lo = (*lo).max(o);
                    true
                }
                None => false,
            });
            out.spans.retain(|k, s| {
                let Some(o) = other.spans.get(k) else {
                    return false;
                };
                s.lo = s.lo.max(o.lo);
                s.hi = s.hi.min(o.hi);
                if s.aligned != o.aligned {
                    s.aligned = None;
                }
                s.lo < s.hi
            });
        }
        out
    }
}

/// Whether `off` is a multiple of `align` given that `at` is one of
/// `known.1` (`known = (at, alignment)`).
fn multiple(known: (i64, u64), off: i64, align: u64) -> bool {
    let (at, a) = known;
    a >= align && (off - at).rem_euclid(align as i64) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: usize) -> usize {
        n
    }

    #[test]
    fn spans_merge_and_one_sided_checks_remain() {
        let (cap, root) = (v(8), v(16));
        let mut c = Checked::default();
        assert_eq!(c.need(cap, root, 8, 4, 1, false).bounds, Bounds::Both);
        c.passed(cap, root, 8, 4, 1, false);
        assert!(c.need(cap, root, 8, 4, 1, false).nothing());
        assert!(c.need(cap, root, 9, 2, 1, false).nothing());
        assert_eq!(c.need(cap, root, 12, 8, 1, false).bounds, Bounds::Upper);
        assert_eq!(c.need(cap, root, 0, 8, 1, false).bounds, Bounds::Lower);
        assert_eq!(c.need(cap, root, 0, 16, 1, false).bounds, Bounds::Both);
        c.passed(cap, root, 16, 8, 8, false);
        // [8, 24) is now known: 12..16 lies between the two checks.
        assert!(c.need(cap, root, 12, 4, 1, false).nothing());
        // Another capability or root knows nothing.
        assert_eq!(c.need(v(24), root, 8, 4, 1, false).bounds, Bounds::Both);
        assert_eq!(c.need(cap, v(32), 8, 4, 1, false).bounds, Bounds::Both);
    }

    #[test]
    fn alignment_follows_from_an_aligned_offset() {
        let (cap, root) = (v(8), v(16));
        let mut c = Checked::default();
        c.passed(cap, root, 0, 8, 8, false);
        c.passed(cap, root, 8, 24, 1, false);
        assert!(!c.need(cap, root, 16, 8, 8, false).align);
        assert!(!c.need(cap, root, 8, 4, 4, false).align);
        assert!(c.need(cap, root, 4, 8, 8, false).align);
        assert!(c.need(cap, root, 0, 16, 16, false).align);
    }

    #[test]
    fn writes_need_the_readonly_test_once() {
        let (cap, root) = (v(8), v(16));
        let mut c = Checked::default();
        c.passed(cap, root, 0, 8, 1, false);
        assert!(c.need(cap, root, 0, 8, 1, true).readonly);
        c.passed(cap, root, 0, 8, 1, true);
        assert!(c.need(cap, root, 0, 8, 1, true).nothing());
        c.clear();
        let n = c.need(cap, root, 0, 8, 1, true);
        assert!(n.readonly && n.bounds == Bounds::Upper);
        // A call does not make the capability null again.
        assert!(n.nonnull);
        assert!(!Checked::default().need(cap, root, 0, 8, 1, false).nonnull);
    }

    #[test]
    fn a_call_keeps_lower_ends() {
        let (cap, root) = (v(8), v(16));
        let mut c = Checked::default();
        c.passed(cap, root, 8, 8, 8, false);
        c.clear();
        // At or above the checked offset only the upper end is compared
        // (a free in the call leaves upper at or below lower); below it,
        // the full check.
        assert_eq!(c.need(cap, root, 8, 8, 8, false).bounds, Bounds::Upper);
        assert_eq!(c.need(cap, root, 24, 4, 1, false).bounds, Bounds::Upper);
        assert_eq!(c.need(cap, root, 0, 8, 1, false).bounds, Bounds::Both);
        // The fact lasts where its check dominates and meets by the larger
        // lower end.
        let mut d = Checked::default();
        d.add_lasting(&c.lasting());
        assert_eq!(d.need(cap, root, 8, 8, 1, false).bounds, Bounds::Upper);
        let mut e = Checked::default();
        e.passed(cap, root, 16, 8, 1, false);
        e.clear();
        let m = Checked::meet(&[&d, &e]);
        assert_eq!(m.need(cap, root, 8, 8, 1, false).bounds, Bounds::Both);
        assert_eq!(m.need(cap, root, 16, 8, 1, false).bounds, Bounds::Upper);
        assert_eq!(
            Checked::meet(&[&d, &Checked::default()])
                .need(cap, root, 8, 8, 1, false)
                .bounds,
            Bounds::Both
        );
    }

    #[test]
    fn far_offsets_are_not_merged() {
        let (cap, root) = (v(8), v(16));
        let mut c = Checked::default();
        c.passed(cap, root, 0, 8, 1, false);
        assert_eq!(
            c.need(cap, root, MAX_SPAN, 8, 1, false).bounds,
            Bounds::Both
        );
        c.passed(cap, root, -MAX_SPAN, 8, 1, false);
        assert_eq!(c.need(cap, root, -8, 8, 1, false).bounds, Bounds::Lower);
    }

    #[test]
    fn meeting_paths_keeps_what_holds_on_each() {
        let (cap, root) = (v(8), v(16));
        let mut a = Checked::default();
        let mut b = Checked::default();
        a.passed(cap, root, 0, 16, 1, true);
        b.passed(cap, root, 8, 16, 1, false);
        let m = Checked::meet(&[&a, &b]);
        assert!(m.need(cap, root, 8, 8, 1, false).nothing());
        assert_eq!(m.need(cap, root, 0, 8, 1, false).bounds, Bounds::Lower);
        assert!(m.need(cap, root, 8, 8, 1, true).readonly);
        let none = Checked::meet(&[&a, &Checked::default()]);
        assert_eq!(none.need(cap, root, 0, 8, 1, false).bounds, Bounds::Both);
    }
}
