//! Translation of one function body, instruction by instruction.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::llvm::{IntPredicate, Linkage, Opcode, Ordering, TypeKind, ValueKind};

use gimso_abi::{
    ACCESS_ALIGNED, ACCESS_READ, ACCESS_WRITE, FLAG_READONLY, FLAG_STACK, HEADER_SIZE,
    THREAD_REQUEST_MASK, THREAD_UNWIND_FRAMES_OFFSET,
};

use super::ModTx;
use super::cfg::Cfg;
use super::consts::{GlobalTx, Tx};
use super::layout::{
    CcLayout, aggregate_carries, cc_carries, cc_layout, has_ptr, is_word_int, required_align,
    ret_bytes,
};
use super::ll::{B, M, T, V};
use super::runtime::{call, entry_type};
use super::{buffers, direct};
use crate::escape::{AllocaHome, classify_allocas};
use crate::intrinsics::{IntrinsicClass, Lowering, classify};
use crate::inttoptr::{Cap, CapInference, Origin, infer};
use crate::location::Location;

mod calls;
mod check;
mod checked;
mod control;
mod index_range;
mod instructions;
mod int_caps;
mod intrinsics;
mod lazy_alloca;
mod masked;
mod memory;
mod memory_ops;
mod plan;
mod prologue;
pub mod unwinding;
mod widen;

use checked::{Bounds, Checked};
use lazy_alloca::{LazyAllocas, alloc_stack_fn, alloca_bytes, stack_align};
use masked::Masked;

/// Largest constant `memset` done inline ([`FnTx::inline_memset`]).
const INLINE_MEMSET_MAX: u64 = 128;

/// No object lies below this address: objects live in the runtime's heap
/// (mappings the kernel places, top-down from the stack; the `mmap` wrapper
/// refuses `MAP_FIXED`), in the program image (linked at 4 MiB or above) or
/// on thread stacks. `upper - size` cannot wrap for smaller sizes, so a
/// bounds check compares `addr` with `lower` and with `upper - size`.
const MIN_OBJECT_ADDRESS: u64 = 1 << 16;

/// Per-function translation state.
struct FnTx<'a, 'm> {
    m: &'a mut ModTx<'m>,
    old: V<'m>,
    new: V<'m>,
    thread: V<'m>,
    /// The generic entry's argument size; `None` in a direct body, whose
    /// arguments are its parameters ([`super::direct`]).
    arg_bytes: Option<V<'m>>,
    vals: HashMap<V<'m>, Tx<'m>>,
    block_map: HashMap<B<'m>, B<'m>>,
    /// (new predecessor, old predecessor, old successor) of every new edge.
    edges: Vec<(B<'m>, B<'m>, B<'m>)>,
    /// The analyses of the old function, made before anything is emitted.
    plan: Rc<plan::Plan<'m>>,
    /// The block polling the safepoint on each retreating edge, once made.
    poll_blocks: HashMap<(B<'m>, B<'m>), B<'m>>,
    /// Old phi → its new int and cap phis.
    phis: Vec<(V<'m>, Tx<'m>)>,
    /// Old integer phi → its capability phi (inttoptr inference).
    int_cap_phis: Vec<(V<'m>, V<'m>)>,
    intcaps: HashMap<V<'m>, V<'m>>,
    /// Capabilities of the plan's `needed_loads`, once read.
    load_caps: HashMap<V<'m>, V<'m>>,
    /// Old 64-bit integer that crossed a call (parameter, call result,
    /// field extracted from one) → the capability it came with, as a
    /// pointer (made where the value arrived: [`FnTx::int_cap`] must not
    /// emit code, it also runs while phis are filled in after the body).
    boundary_caps: HashMap<V<'m>, V<'m>>,
    /// Capability read from a pointer slot → where and how it was read: a
    /// store of it back to the same slot with nothing written in between
    /// is in place ([`FnTx::store_ptr_in_place`]).
    slot_caps: HashMap<V<'m>, SlotRead<'m>>,
    /// New addresses of stack slots (and constant GEPs of them) that need
    /// no checks.
    trusted_ints: HashSet<V<'m>>,
    /// Private stack slots holding pointers: value slot -> its capability
    /// slot and heap copy ([`escape`](crate::escape)'s `StackCaps`).
    stack_caps: HashMap<V<'m>, StackCaps<'m>>,
    /// Frame-object allocas made lazily → their storage in the frame.
    frame_storage: HashMap<V<'m>, V<'m>>,
    /// Heap copies of private slots a call just got, to copy back after it.
    copied_for_call: Vec<(V<'m>, V<'m>)>,
    /// Escaping allocas created where first needed.
    /// Lazily made allocas (the plan's) → their frame slots, made by the
    /// prologue.
    lazy_slots: HashMap<V<'m>, V<'m>>,
    /// Zeroing memsets translated with their alloca's creation.
    lazy_done: HashSet<V<'m>>,
    va_obj: Option<Tx<'m>>,
    fixed_bytes: u64,
    sp: Option<M<'m>>,
    /// The original instruction being translated (the function before
    /// the first).
    cur_old: V<'m>,
    cur_old_block: B<'m>,
    /// This function's frame record (native stack) when it has a
    /// personality.
    frame: Option<V<'m>>,
    /// Shared block returning with the exception flag.
    unwind_exit: Option<B<'m>>,
    /// Shared block for an exception arriving where none may.
    unwind_fatal: Option<B<'m>>,
    /// New constant-offset GEP → (the address it is computed from, with
    /// constant GEPs stripped; its byte offset from there).
    const_gep: HashMap<V<'m>, (V<'m>, i64)>,
    /// Accesses checked on every path to the current point.
    checked: Checked<V<'m>>,
    /// `&base[i]` per (original block, base, index, element type): the
    /// shared root of the fields of one element ([`FnTx::indexed_gep`]).
    indexed_roots: HashMap<(B<'m>, V<'m>, V<'m>, T<'m>), V<'m>>,
    /// What held at the end of each translated old block.
    end_checked: HashMap<B<'m>, Checked<V<'m>>>,
    /// Capabilities of escaping allocas of constant size → their payload
    /// bytes: a stack object is never freed or resized (the collector
    /// reclaims it), so its bounds are `lower + size` for good.
    sized_caps: HashMap<V<'m>, u64>,
    /// Capabilities of frame objects → the distance to their inline shadow
    /// words (the payload rounded to words), fixed for good: a pointer
    /// load or store through one needs no header load for it.
    frame_shadows: HashMap<V<'m>, u64>,
    /// New GEP with one non-negative variable index → (root, offset) such
    /// that the address is at or above `root + offset` ([`index_range`]).
    var_gep: HashMap<V<'m>, (V<'m>, i64)>,
}

/// A capability read from a pointer slot.
#[derive(Clone, Copy)]
struct SlotRead<'m> {
    /// The slot's address and the capability it was read through.
    addr: V<'m>,
    cap: V<'m>,
    /// The old instruction the read was made for.
    at: V<'m>,
    /// `i1`: the slot was in atomic mode (its value in a box).
    boxed: V<'m>,
}

/// The frame slots beside a private stack slot that holds pointers.
#[derive(Clone, Copy)]
struct StackCaps<'m> {
    /// One capability per word of the slot (null where no pointer is).
    caps: V<'m>,
    /// The heap copy made for calls on never-returning paths (null until
    /// then), if any such call takes the address.
    copy: Option<V<'m>>,
    /// Bytes of the slot.
    size: u64,
    /// Its alignment.
    align: u64,
}

/// Translates the body of `old` into its new generic entry.
/// The blocks of one natural loop: its header and those that reach its
/// latch without passing the header.
type LoopBody<'m> = Rc<HashSet<B<'m>>>;

pub fn translate_function<'m>(m: &mut ModTx<'m>, old: V<'m>) {
    let (generic, _) = m.fn_map[&old];
    let direct = m.direct.get(&old).map(|d| d.body);
    let new = direct.unwrap_or(generic);
    let Some(func) = old.as_func() else { return };
    let inference = m.inferences.remove(&old).unwrap_or_else(|| infer(func));
    // An argument for a parameter whose capability the callee never
    // consumes needs none read.
    let arg_needed = |call: V<'m>, k: u32| match m.known_callee(call) {
        Some(g) => m.param_caps.get(&g).is_none_or(|u| u.contains(&k)),
        None => true,
    };
    let needed_loads = inference.demands(func, &arg_needed).loads;
    let plan = Rc::new(plan::Plan::new(&m.ll, func, inference, needed_loads));
    let sp = func.subprogram();
    if sp.is_some() {
        func.set_subprogram(None);
        new.func().set_subprogram(sp);
    }
    let thread = new.func().param(0);
    let arg_bytes = direct.is_none().then(|| new.func().param(2));
    let mut t = FnTx {
        m,
        old,
        new,
        thread,
        arg_bytes,
        vals: HashMap::new(),
        block_map: HashMap::new(),
        edges: Vec::new(),
        plan,
        poll_blocks: HashMap::new(),
        phis: Vec::new(),
        int_cap_phis: Vec::new(),
        intcaps: HashMap::new(),
        load_caps: HashMap::new(),
        boundary_caps: HashMap::new(),
        slot_caps: HashMap::new(),
        trusted_ints: HashSet::new(),
        stack_caps: HashMap::new(),
        frame_storage: HashMap::new(),
        copied_for_call: Vec::new(),
        lazy_slots: HashMap::new(),
        lazy_done: HashSet::new(),
        va_obj: None,
        fixed_bytes: 0,
        sp,
        cur_old: old,
        cur_old_block: func.entry_block().expect("a function with a body"),
        frame: None,
        unwind_exit: None,
        unwind_fatal: None,
        const_gep: HashMap::new(),
        checked: Checked::default(),
        indexed_roots: HashMap::new(),
        end_checked: HashMap::new(),
        sized_caps: HashMap::new(),
        frame_shadows: HashMap::new(),
        var_gep: HashMap::new(),
    };
    t.run();
    if direct.is_some() {
        t.emit_generic_entry(generic);
        t.m.stats.direct_bodies += 1;
    }
}

/// The access bits (`gimso_access_failed`) of an access.
fn access_bits(size: u64, align: u64, write: bool) -> u32 {
    (if write { ACCESS_WRITE } else { ACCESS_READ })
        | if align > 1 && align == size {
            ACCESS_ALIGNED
        } else {
            0
        }
}

/// Whether the pointer `gep` (an address computed from a loaded pointer)
/// is only compared, directly or through at most `depth` more constant or
/// variable offsets (`o != &G(L)->nilvalue`): its capability is never used.
fn only_compared<'m>(gep: V<'m>, depth: u32) -> bool {
    let users = gep.users();
    !users.is_empty()
        && users.iter().all(|&u| match u.opcode() {
            Opcode::LLVMICmp => true,
            Opcode::LLVMGetElementPtr => {
                depth > 0 && u.operand(0) == gep && only_compared(u, depth - 1)
            }
            _ => false,
        })
}

/// The header byte holding `FLAG_READONLY`, as an offset from `lower` (the
/// aux word is the eight bytes below it, little-endian), and the flag's bit
/// in that byte.
const READONLY_BYTE: i64 = -8 + (FLAG_READONLY.trailing_zeros() / 8) as i64;
const READONLY_BIT: u64 = FLAG_READONLY >> (FLAG_READONLY.trailing_zeros() / 8 * 8);

/// Bytes in a pointer word.
const WORD_SIZE: u64 = gimso_abi::WORD_SIZE as u64;

/// Longest constant `memcpy`/`memmove` done as word loads and stores.
const INLINE_COPY_MAX: u64 = 64;

impl<'m> FnTx<'_, 'm> {
    fn run(&mut self) {
        let plan = Rc::clone(&self.plan);
        let cfg = &plan.cfg;
        let Some(&first) = cfg.order.first() else {
            return;
        };
        let order = &cfg.order;
        let entry = self.m.ll.append_block(self.new, "gimso.entry");
        for &b in order {
            let nb = self.m.ll.append_block(self.new, "");
            self.block_map.insert(b, nb);
        }
        self.m.ll.position_at_end(entry);
        self.set_loc_line0();
        self.prologue();
        self.m.ll.br(self.block_map[&first]);
        for &b in order {
            self.m.ll.position_at_end(self.block_map[&b]);
            self.cur_old_block = b;
            // What was checked on every path here (nothing past a back edge,
            // whose source is not translated yet), and what lasts from the
            // end of the block that dominates this one (also into loops).
            let ps = cfg.preds_of(b);
            // At the header of a loop with no calls, what held on entry
            // holds on every iteration: nothing in the loop can shrink an
            // object, so the back edges bring at least as much.
            let ps: Vec<B<'m>> = if plan.call_free_headers.contains(&b) {
                ps.iter()
                    .copied()
                    .filter(|&p| !plan.back_edges.contains(&(p, b)))
                    .collect()
            } else {
                ps.to_vec()
            };
            let facts: Option<Vec<&Checked<V<'m>>>> =
                ps.iter().map(|p| self.end_checked.get(p)).collect();
            self.checked = facts.map_or_else(Checked::default, |f| Checked::meet(&f));
            if let Some(dom) = cfg.idom(b).and_then(|d| self.end_checked.get(&d)) {
                self.checked.add_lasting(&dom.lasting());
            }
            let insts = b.instructions();
            let term = b.terminator();
            for inst in insts {
                // Branches and switches poll on their back edges; any other
                // terminator of a latch polls before it.
                if Some(inst) == term
                    && plan.latches.contains(&b)
                    && !matches!(inst.opcode(), Opcode::LLVMBr | Opcode::LLVMSwitch)
                {
                    self.set_loc_line0();
                    self.pollcheck();
                }
                self.cur_old = inst;
                self.set_loc(inst);
                self.create_lazy_allocas(inst);
                if !self.made_elsewhere(inst) {
                    self.translate(inst);
                }
            }
            let facts = std::mem::take(&mut self.checked);
            self.end_checked.insert(b, facts);
        }
        self.fill_phis();
    }

    /// Whether the access being translated (a load or store) is in a loop
    /// and its address is based on a value from outside the innermost one
    /// (an argument, a global, or an instruction of a block outside it): its
    /// capability, and the header reads of its checks, are then the same on
    /// every iteration.
    fn base_invariant_in_loop(&self) -> bool {
        let inst = self.cur_old;
        let ptr = match inst.opcode() {
            Opcode::LLVMLoad => inst.operand(0),
            Opcode::LLVMStore => inst.operand(1),
            _ => return false,
        };
        let Some(lp) = self.plan.innermost_loop.get(&self.cur_old_block) else {
            return false;
        };
        let mut base = ptr;
        while base.is_instruction() && base.opcode() == Opcode::LLVMGetElementPtr {
            base = base.operand(0);
        }
        !base.is_instruction() || !lp.contains(&base.block())
    }

    // ---- debug locations and sites ------------------------------------------

    fn set_loc(&self, inst: V<'m>) {
        match inst.debug_loc() {
            Some(dl) => self.m.ll.set_debug_loc(Some(dl)),
            None => self.set_loc_line0(),
        }
    }

    fn set_loc_line0(&self) {
        let loc = self.sp.map(|sp| self.m.ll.line_loc(0, sp));
        self.m.ll.set_debug_loc(loc);
    }

    /// The source-location record of the instruction being translated.
    fn site(&mut self) -> V<'m> {
        self.site_of(self.cur_old)
    }

    /// The location record of original instruction `inst` (null when it
    /// is none).
    fn site_of(&mut self, inst: V<'m>) -> V<'m> {
        if !inst.is_instruction() {
            return self.m.ll.null_ptr();
        }
        self.m.sites.record_for(&self.m.ll, inst)
    }

    /// The location of `indirectbr` `inst`: its own; or (clang gives it
    /// none) that of the closest instruction before it in its block, the
    /// computation of the target, once the optimiser has merged clang's
    /// shared `indirectgoto` block into the `goto`'s; or that of the `goto`
    /// branching to that block when every branch there is on one line.
    fn goto_site(&mut self, inst: V<'m>) -> V<'m> {
        let own = Location::own_source;
        if own(inst).is_some() {
            return self.site_of(inst);
        }
        let home = inst.block();
        let before = home
            .instructions()
            .into_iter()
            .take_while(|&i| i != inst)
            .filter(|&i| {
                // Debug records carry their variable's scope, not a line of
                // code.
                let dbg = i.opcode() == Opcode::LLVMCall
                    && i.called_value().name().starts_with("llvm.dbg.");
                !dbg && own(i).is_some()
            })
            .last();
        if let Some(i) = before {
            return self.site_of(i);
        }
        let preds: Vec<V<'m>> = self
            .old
            .func()
            .blocks()
            .into_iter()
            .filter_map(|b| b.terminator())
            .filter(|&t| t.successors().contains(&home))
            .collect();
        let lines: HashSet<u32> = preds
            .iter()
            .filter_map(|&t| own(t))
            .map(|s| s.line)
            .collect();
        match (preds.first(), lines.len()) {
            (Some(&first), 1) => self.site_of(first),
            _ => self.site_of(inst),
        }
    }

    /// The widened check planned for the current access at `root + off`
    /// (translated), if the plan's root is that very root.
    fn widening(&mut self, root: V<'m>, off: i64) -> Option<widen::Covered<'m>> {
        let w = self.plan.widened.get(&self.cur_old)?.clone();
        if w.own_off != off {
            return None;
        }
        let translated = match w.root {
            widen::Root::Value(v) => self.tx(v).int,
            widen::Root::Indexed {
                block,
                base,
                index,
                ty,
            } => {
                let key = (block, self.tx(base).int, self.tx(index).int, ty);
                *self.indexed_roots.get(&key)?
            }
        };
        (translated == root).then_some(w)
    }

    fn error(&mut self, construct: &str, why: &str) {
        let loc = Location::of_instruction(self.cur_old);
        self.m.error(loc, construct, why);
    }

    // ---- values --------------------------------------------------------------

    fn tx(&mut self, v: V<'m>) -> Tx<'m> {
        if let Some(&t) = self.vals.get(&v) {
            return t;
        }
        let ty = v.type_of();
        match v.value_kind() {
            ValueKind::LLVMInstructionValueKind | ValueKind::LLVMArgumentValueKind => {
                // Defined in unreachable code only.
                self.zero(ty)
            }
            ValueKind::LLVMMetadataAsValueValueKind | ValueKind::LLVMInlineAsmValueKind => {
                Tx::plain(v)
            }
            ValueKind::LLVMBasicBlockValueKind => Tx::plain(v),
            _ => match self.m.tx_const(v) {
                Ok(t) => t,
                Err(why) => {
                    self.error("this constant", &why);
                    self.zero(ty)
                }
            },
        }
    }

    fn zero(&self, ty: T<'m>) -> Tx<'m> {
        let z = self.m.ll.zero(ty);
        Tx {
            int: z,
            cap: has_ptr(ty).then_some(z),
        }
    }

    fn cap(&mut self, v: V<'m>) -> V<'m> {
        let t = self.tx(v);
        t.cap.unwrap_or_else(|| self.m.ll.zero(t.int.type_of()))
    }

    fn set(&mut self, old: V<'m>, t: Tx<'m>) {
        self.vals.insert(old, t);
    }

    // ---- prologue ---------------------------------------------------------------

    /// The CC buffers holding `bytes` of arguments or return value.
    fn arg_buffers(&mut self, bytes: V<'m>) -> (V<'m>, V<'m>) {
        buffers::arg_buffers(&self.m.ll, self.thread, bytes)
    }

    /// Buffers for writing `bytes` (known statically): the outline ones
    /// are grown first when needed.
    fn write_buffers(&mut self, bytes: u64) -> (V<'m>, V<'m>) {
        buffers::write_buffers(&self.m.ll, self.thread, bytes)
    }

    fn pair(&self, r: V<'m>) -> Tx<'m> {
        Tx {
            int: self.m.ll.extract_value(r, 0),
            cap: Some(self.m.ll.extract_value(r, 1)),
        }
    }

    // ---- control helpers ----------------------------------------------------

    /// Continues in a new block when `ok` (the likely case: failures and
    /// safepoint requests are rare); otherwise runs `fail`, which returns
    /// whether it ended its block (else it falls through to the
    /// continuation).
    fn guard(&mut self, ok: V<'m>, fail: impl FnOnce(&mut Self) -> bool) {
        let ll = &self.m.ll;
        let cont = ll.append_block(self.new, "");
        let bad = ll.append_block(self.new, "");
        ll.cond_br_likely(ok, cont, bad);
        ll.position_at_end(bad);
        if !fail(self) {
            self.m.ll.br(cont);
        }
        self.m.ll.position_at_end(cont);
    }

    fn pollcheck(&mut self) {
        let ll = &self.m.ll;
        let state = ll.load(ll.i64(), self.thread, 8);
        state.set_volatile(true);
        let req = ll.and(state, ll.i64c(THREAD_REQUEST_MASK));
        let quiet = ll.icmp(IntPredicate::LLVMIntEQ, req, ll.i64c(0));
        let thread = self.thread;
        self.guard(quiet, |s| {
            // The safepoint may run signal handlers and collector work,
            // which may write any program memory, but headers only as a
            // racing `free` would (sweeping touches unreachable objects
            // only): header loads may move across it, out of loops.
            let c = call(&s.m.ll, "gimso_pollcheck_slow", &[thread]);
            s.m.ll.not_header(c);
            false
        });
    }

    // ---- checks ----------------------------------------------------------------
}

/// Whether `GIMSO_EXPLAIN_INTTOPTR` is set (see
/// [`FnTx::explain_null_inttoptr`]).
fn explain_inttoptr() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("GIMSO_EXPLAIN_INTTOPTR").is_some_and(|v| !v.is_empty()))
}

/// One `GIMSO_EXPLAIN_INTTOPTR` note on stderr, at `inst`'s source line.
fn explain_note(inst: V<'_>, what: &str) {
    let at = match Location::of_instruction(inst).source {
        Some(l) => format!("{}:{}:{}", l.file, l.line, l.column),
        None => "(no location)".to_string(),
    };
    eprintln!("gimso-cc: note: {at}: {what}");
}
