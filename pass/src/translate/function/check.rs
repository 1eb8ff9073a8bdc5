//! The check before every access through a pointer: bounds, alignment,
//! liveness and write permission, merged with the checks that dominate it.

use super::checked::Need;
use super::*;
use crate::translate::consts::StaticBounds;

/// What an access check must still test after merging ([`FnTx::plan_check`]).
struct CheckPlan<'m> {
    need: checked::Need,
    /// The access's constant offset from its root.
    off: i64,
    /// The bytes to check, `root + [span.0, span.0 + span.1)`: the access's
    /// own unless widened to cover later ones.
    span: (i64, u64),
    covered: Option<widen::Covered<'m>>,
    /// A global defined here: its bounds are constants.
    fixed: Option<StaticBounds<'m>>,
    /// The object's size, when a constant (a global, a stack object).
    size_known: Option<u64>,
}

/// What is known of an access's capability and span besides the checks
/// that passed ([`refine`]).
#[derive(Clone, Copy, Debug, Default)]
struct Known {
    /// Below the span, a check through the same root passed (so the
    /// capability is not null either).
    lower_checked: bool,
    /// The span starts at a non-negative distance from `lower` itself
    /// (which says nothing about null).
    from_lower: bool,
    /// The capability is a global's payload: a constant the link defines.
    global: bool,
    /// A global defined here, with its read-only flag: its bounds are
    /// constants.
    fixed_readonly: Option<bool>,
    /// A stack object of this frame: never null, never read-only.
    stack: bool,
}

/// `need` less what `known` implies, for a span starting `span_lo` bytes
/// from the access's root. Pure: the planning decisions, testable without
/// LLVM.
fn refine(mut need: Need, span_lo: i64, known: Known) -> Need {
    // An address at or above a point already known to be at or above
    // `lower` (a non-negative index from a checked root) needs no lower
    // compare.
    if matches!(need.bounds, Bounds::Both | Bounds::Lower) && span_lo >= 0 {
        if known.lower_checked || known.from_lower {
            need.bounds = need.bounds.without_lower();
        }
        need.nonnull |= known.lower_checked;
    }
    if known.global {
        need.nonnull = true;
    }
    if let Some(readonly) = known.fixed_readonly {
        need.nonnull = true;
        need.readonly &= readonly;
    }
    if known.stack {
        need.nonnull = true;
        need.readonly = false;
    }
    need
}

/// The values the bounds compare of one check is built from.
#[derive(Clone, Copy)]
struct BoundsTest<'m> {
    addr: V<'m>,
    lower: V<'m>,
    cap: V<'m>,
    off: i64,
    span: (i64, u64),
    fixed: Option<StaticBounds<'m>>,
    size_known: Option<u64>,
    /// Whether the null test before it is one the code generator may fold
    /// into the header load.
    implicit: bool,
}

impl<'m> FnTx<'_, 'm> {
    /// The inline access check of `size` bytes at `p`: the parts earlier
    /// checks on every path here do not imply ([`checked`]).
    pub(super) fn check(&mut self, p: Tx<'m>, size: u64, align: u64, write: bool) {
        if let Some(plan) = self.plan_check(p, size, align, write) {
            self.emit_check(p, size, align, write, plan);
        }
    }

    /// What the check of `size` bytes at `p` must still test, or `None`
    /// when nothing (trusted, proven statically, or implied by the checks
    /// that dominate it). Records this check as passed for later ones.
    fn plan_check(
        &mut self,
        p: Tx<'m>,
        size: u64,
        align: u64,
        write: bool,
    ) -> Option<CheckPlan<'m>> {
        if self.trusted_ptr(p) {
            return None;
        }
        if let Some(cap) = p.cap {
            if self.m.passes_statically(p.int, cap, size, align, write) {
                self.m.stats.static_checks += 1;
                return None;
            }
        }
        let (root, off) = self.const_gep.get(&p.int).copied().unwrap_or((p.int, 0));
        // The bounds to check: `root + [span.0, span.0 + span.1)`, this
        // access's own unless widened to the later ones ([`widen`]).
        let mut span = (off, size);
        let mut covered = None;
        let mut need = match p.cap {
            Some(cap) => {
                let mut need = self.checked.need(cap, root, off, size, align, write);
                if need.bounds != Bounds::Known {
                    if let Some(w) = self.widening(root, off) {
                        let wsize = (w.hi - w.lo) as u64;
                        let wide = self.checked.need(cap, root, w.lo, wsize, 1, false);
                        need.bounds = wide.bounds;
                        self.checked.passed(cap, root, w.lo, wsize, 1, false);
                        span = (w.lo, wsize);
                        covered = Some(w);
                        self.m.stats.widened_checks += 1;
                    }
                }
                self.checked.passed(cap, root, off, size, align, write);
                need
            }
            None => checked::Need {
                bounds: Bounds::Both,
                align: align > 1,
                readonly: write,
                nonnull: false,
            },
        };
        let mut known = Known::default();
        if let Some(cap) = p.cap {
            let var = self.var_gep.get(&root).copied();
            // Below the span, a check through the same root passed ...
            known.lower_checked =
                var.is_some_and(|(vroot, min)| self.checked.lower_known(cap, vroot, min));
            // ... or the span lies at a non-negative distance from the
            // capability's own value, `lower` itself (a global indexed
            // from its start, `table[i & 255]`).
            known.from_lower = match var {
                Some((vroot, min)) => vroot == cap && min >= 0,
                None => root == cap || self.m.const_at_or_above(root, cap),
            };
            known.global = self.m.global_payload(cap);
        }
        let fixed = p.cap.and_then(|c| self.m.static_upper(c));
        known.fixed_readonly = fixed.map(|f| f.readonly);
        let stack_size = p.cap.and_then(|c| self.sized_caps.get(&c).copied());
        known.stack = stack_size.is_some();
        need = refine(need, span.0, known);
        let size_known = fixed.map(|f| f.size).or(stack_size);
        if need.nothing() {
            self.m.stats.merged_checks += 1;
            return None;
        }
        Some(CheckPlan {
            need,
            off,
            span,
            covered,
            fixed,
            size_known,
        })
    }

    /// Emits the tests `plan` leaves for the access of `size` bytes at `p`:
    /// the guards before the bounds (alignment, null, read-only), the
    /// bounds compare, and the failure block.
    fn emit_check(&mut self, p: Tx<'m>, size: u64, align: u64, write: bool, plan: CheckPlan<'m>) {
        let CheckPlan {
            need,
            off,
            span,
            covered,
            fixed,
            size_known,
        } = plan;
        if need.bounds == Bounds::Both {
            self.m.stats.checks += 1;
        } else {
            self.m.stats.narrowed_checks += 1;
        }
        let ll = &self.m.ll;
        let i64 = ll.i64();
        let cap = p.cap.unwrap_or_else(|| ll.null_ptr());
        let addr = ll.ptrtoint(p.int, i64);
        let lower = ll.ptrtoint(cap, i64);
        let site = self.site();
        let bits = access_bits(size, align, write);
        let (pi, pc) = (p.int, cap);
        // A capability not known to be non-null is tested first, on its own
        // branch, so its header can then be read directly. The bounds are
        // `addr >= lower` as a signed compare, so an address at or above
        // 2^63 fails there and `addr + size` cannot wrap in the unsigned
        // compare with `upper` (objects lie far below 2^63). All failure
        // edges meet in one block that ends the path (a failed check never
        // passes later: upper only shrinks, READONLY is never cleared), so
        // nothing joins back and the optimiser sees straight-line code.
        // The null test is one the code generator may fold into the first
        // header load after it (LLVM's implicit null checks, see
        // `Ll::make_implicit`): a null capability's header lies in the
        // top page of the address space, so the load faults and the
        // runtime's fault handler (`gimso_libc_wrappers::null_faults`)
        // resumes at the failure block. Three shapes let the fold happen:
        // the alignment test fails into a block of its own (sharing the
        // null test's would make `simplifycfg` merge both tests into one
        // branch, which drops the mark); `upper` is compared first; and it
        // is compared as `addr < upper - (size - 1)`, so the header load
        // depends on nothing computed from the address (LLVM does not fold
        // a null test past an instruction that reads a register the
        // failure block uses).
        let implicit = !need.nonnull && self.m.options.implicit_null_checks;
        // The report of this access; it ends the program (the runtime
        // never returns from it).
        let fail = |ll: &super::super::ll::Ll<'m>| {
            call(
                ll,
                "gimso_access_failed",
                &[pi, pc, ll.i64c(size), ll.i32c(u64::from(bits)), site],
            );
            ll.unreachable();
        };
        let ll = &self.m.ll;
        let bad = ll.append_block(self.new, "");
        // Alignment and the read-only flag get a branch each: a masked
        // zero test is one `test` only as the first condition of a chain
        // (LLVM merges consecutive cheap branches into one `and` chain and
        // computes the later masks in the first block, a copy and an `and`
        // each), and two zero tests in one chain become an `or` of both
        // masks. So alignment comes first, even before the null test (which
        // needs no mask), and the read-only flag is a byte of the header
        // tested in a block of its own (its load keeps it out of the
        // chain).
        if need.align {
            let mis = ll.and(addr, ll.i64c(align - 1));
            let aligned = ll.icmp(IntPredicate::LLVMIntEQ, mis, ll.i64c(0));
            let go = ll.append_block(self.new, "");
            if implicit {
                let misaligned = ll.append_block(self.new, "");
                ll.cond_br(aligned, go, misaligned);
                ll.position_at_end(misaligned);
                fail(ll);
            } else {
                ll.cond_br(aligned, go, bad);
            }
            ll.position_at_end(go);
        }
        if !need.nonnull {
            let nonnull = ll.icmp(IntPredicate::LLVMIntNE, lower, ll.i64c(0));
            let go = ll.append_block(self.new, "");
            let br = ll.cond_br(nonnull, go, bad);
            if implicit {
                ll.make_implicit(br);
            }
            ll.position_at_end(go);
        }
        if need.readonly {
            let ll = &self.m.ll;
            let flags = ll.load_header_byte(ll.gep_i8c(cap, READONLY_BYTE as u64));
            let ro = ll.and(flags, ll.const_int(ll.i8(), READONLY_BIT));
            let writable = ll.icmp(IntPredicate::LLVMIntEQ, ro, ll.const_int(ll.i8(), 0));
            let go = ll.append_block(self.new, "");
            ll.cond_br(writable, go, bad);
            ll.position_at_end(go);
        }
        let bounds = BoundsTest {
            addr,
            lower,
            cap,
            off,
            span,
            fixed,
            size_known,
            implicit,
        };
        let ok = self.bounds_test(need.bounds, &bounds);
        let ll = &self.m.ll;
        let cont = ll.append_block(self.new, "");
        ll.cond_br(ok, cont, bad);
        let ll = &self.m.ll;
        ll.position_at_end(bad);
        if let Some(w) = covered {
            // Which covered access fails, in program order: this one, then
            // each later one at its own address, size and location.
            call(
                ll,
                "gimso_access_recheck",
                &[pi, pc, ll.i64c(size), ll.i32c(u64::from(bits)), site],
            );
            for a in &w.later {
                let at = self.m.ll.gep_i8(pi, self.m.ll.i64c((a.off - off) as u64));
                let site = self.site_of(a.inst);
                let ll = &self.m.ll;
                let bits = access_bits(a.size, a.align, a.write);
                call(
                    ll,
                    "gimso_access_recheck",
                    &[at, pc, ll.i64c(a.size), ll.i32c(u64::from(bits)), site],
                );
            }
        }
        let ll = &self.m.ll;
        fail(ll);
        ll.position_at_end(cont);
    }

    /// The `i1` that says whether the access's span passes `bounds`
    /// (`Known`: always).
    fn bounds_test(&self, which: Bounds, t: &BoundsTest<'m>) -> V<'m> {
        let ll = &self.m.ll;
        let BoundsTest {
            addr,
            lower,
            cap,
            off,
            span,
            fixed,
            size_known,
            implicit,
        } = *t;
        let hdr = ll.gep_i8(cap, ll.const_int(ll.i64(), (-16i64) as u64));
        let (baddr, bsize) = if span.0 == off {
            (addr, span.1)
        } else {
            (ll.add_i64(addr, ll.i64c((span.0 - off) as u64)), span.1)
        };
        let upper =
            |ll: &super::super::ll::Ll<'m>| fixed.map_or_else(|| ll.load_header(hdr), |f| f.upper);
        // `baddr + bsize <= upper`, or as `baddr < upper - (bsize - 1)`
        // (`upper` is a real address, at least 64 KiB, and `bsize` below
        // that: no wrap): the same for one byte; after a foldable null test
        // (the header load then depends on nothing computed from the
        // address, which the fold needs); and where the base is the same
        // on every iteration of a loop (the subtraction is then made once,
        // before it). Elsewhere it would be one more value live per
        // capability (in Lua's interpreter loop, 1% more instructions).
        let last_form = bsize == 1 || implicit || self.base_invariant_in_loop();
        let below = |ll: &super::super::ll::Ll<'m>| {
            if bsize > 0 && bsize < MIN_OBJECT_ADDRESS && last_form {
                let last = ll.sub(upper(ll), ll.i64c(bsize - 1));
                ll.icmp(IntPredicate::LLVMIntULT, baddr, last)
            } else {
                let end = ll.add_i64(baddr, ll.i64c(bsize));
                ll.icmp(IntPredicate::LLVMIntULE, end, upper(ll))
            }
        };
        match which {
            Bounds::Known => ll.const_int(ll.i1_ty(), 1),
            // A global's or a stack object's size is a constant: one
            // unsigned compare of the offset (an address below `lower`
            // wraps to a huge offset), no header load. The offset of a GEP
            // on a global folds to its index arithmetic, so a table lookup
            // compares the index with a constant.
            Bounds::Both | Bounds::Upper if let Some(size) = size_known => {
                match size.checked_sub(bsize) {
                    Some(room) => {
                        let off = ll.sub(baddr, lower);
                        ll.icmp(IntPredicate::LLVMIntULE, off, ll.i64c(room))
                    }
                    None => ll.const_int(ll.i1_ty(), 0),
                }
            }
            // The other end passed through the same root at a nearby
            // offset: the address is near the object, nothing wraps.
            Bounds::Lower => ll.icmp(IntPredicate::LLVMIntUGE, baddr, lower),
            Bounds::Upper => below(ll),
            Bounds::Both if bsize < MIN_OBJECT_ADDRESS => {
                // `upper` first: its header load is the one a null test
                // folds into.
                let below = below(ll);
                let above = ll.icmp(IntPredicate::LLVMIntSGE, baddr, lower);
                ll.and(below, above)
            }
            Bounds::Both => {
                // A huge access: the offset is compared with the object's
                // size less the access's, neither of which may wrap.
                let span = ll.sub(upper(ll), lower);
                let off = ll.sub(baddr, lower);
                let room = ll.sub(span, ll.i64c(bsize));
                let fits = ll.icmp(IntPredicate::LLVMIntULE, off, room);
                let wide = ll.icmp(IntPredicate::LLVMIntUGE, span, ll.i64c(bsize));
                ll.and(wide, fits)
            }
        }
    }

    pub(super) fn trusted_ptr(&self, p: Tx<'m>) -> bool {
        self.trusted_ints.contains(&p.int)
    }
}

#[cfg(test)]
mod tests {
    use super::{Bounds, Known, Need, refine};

    fn full(write: bool) -> Need {
        Need {
            bounds: Bounds::Both,
            align: false,
            readonly: write,
            nonnull: false,
        }
    }

    #[test]
    fn a_checked_lower_end_drops_the_lower_compare_and_the_null_test() {
        let k = Known {
            lower_checked: true,
            ..Known::default()
        };
        let n = refine(full(false), 8, k);
        assert_eq!(n.bounds, Bounds::Upper);
        assert!(n.nonnull);
        // Below the known point nothing is implied.
        assert_eq!(refine(full(false), -8, k), full(false));
    }

    #[test]
    fn an_offset_from_lower_itself_says_nothing_about_null() {
        let k = Known {
            from_lower: true,
            ..Known::default()
        };
        let n = refine(full(false), 0, k);
        assert_eq!(n.bounds, Bounds::Upper);
        assert!(!n.nonnull);
    }

    #[test]
    fn globals_and_stack_objects() {
        let writable_global = Known {
            fixed_readonly: Some(false),
            ..Known::default()
        };
        let n = refine(full(true), 0, writable_global);
        assert!(n.nonnull && !n.readonly && n.bounds == Bounds::Both);
        let constant = Known {
            fixed_readonly: Some(true),
            ..Known::default()
        };
        assert!(refine(full(true), 0, constant).readonly);
        let stack = Known {
            stack: true,
            ..Known::default()
        };
        let n = refine(full(true), 0, stack);
        assert!(n.nonnull && !n.readonly);
        let global = Known {
            global: true,
            ..Known::default()
        };
        assert!(refine(full(false), 0, global).nonnull);
        assert_eq!(refine(full(false), 0, Known::default()), full(false));
    }
}
