//! Translation of one function body, instruction by instruction.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use inkwell::llvm_sys::core::{LLVMIsAFunction, LLVMIsAInlineAsm, LLVMIsAInstruction};
use inkwell::llvm_sys::{
    LLVMAtomicOrdering, LLVMIntPredicate, LLVMLinkage, LLVMOpcode, LLVMTypeKind, LLVMValueKind,
};
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};

use gimso_abi::{
    ACCESS_ALIGNED, ACCESS_READ, ACCESS_WRITE, FLAG_READONLY, FLAG_STACK, HEADER_SIZE,
    THREAD_REQUEST_MASK, THREAD_UNWIND_FRAMES_OFFSET,
};

use super::ModTx;
use super::consts::{GlobalTx, Tx};
use super::layout::{
    CcLayout, aggregate_carries, cc_carries, cc_layout, has_ptr, is_word_int, required_align,
    ret_bytes,
};
use super::ll::{B, Ll, M, T, V};
use super::runtime::{call, entry_type};
use super::{buffers, direct};
use crate::escape::{AllocaHome, classify_allocas};
use crate::intrinsics::{IntrinsicClass, classify};
use crate::inttoptr::{Cap, CapInference, Origin, infer};
use crate::location::Location;

mod checked;
mod index_range;
mod lazy_alloca;
mod masked;
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
struct FnTx<'a, 'b, 'ctx> {
    m: &'a mut ModTx<'b, 'ctx>,
    old: V,
    new: V,
    thread: V,
    /// The generic entry's argument size; `None` in a direct body, whose
    /// arguments are its parameters ([`super::direct`]).
    arg_bytes: Option<V>,
    vals: HashMap<V, Tx>,
    block_map: HashMap<B, B>,
    /// (new predecessor, old predecessor, old successor) of every new edge.
    edges: Vec<(B, B, B)>,
    /// Retreating edges (old source, old target) in reverse post-order,
    /// and the block polling the safepoint on each, once made.
    back_edges: HashMap<(B, B), Option<B>>,
    /// Old block → the blocks of the innermost natural loop holding it.
    innermost_loop: HashMap<B, LoopBody>,
    /// Old phi → its new int and cap phis.
    phis: Vec<(V, Tx)>,
    /// Old integer phi → its capability phi (inttoptr inference).
    int_cap_phis: Vec<(V, V)>,
    intcaps: HashMap<V, V>,
    /// `load i64`s whose word's capability is read (inttoptr inference).
    needed_loads: HashSet<V>,
    /// Their capabilities, once read.
    load_caps: HashMap<V, V>,
    /// Old 64-bit integer that crossed a call (parameter, call result,
    /// field extracted from one) → the capability it came with, as a
    /// pointer (made where the value arrived: [`FnTx::int_cap`] must not
    /// emit code, it also runs while phis are filled in after the body).
    boundary_caps: HashMap<V, V>,
    /// Capability read from a pointer slot → where and how it was read: a
    /// store of it back to the same slot with nothing written in between
    /// is in place ([`FnTx::store_ptr_in_place`]).
    slot_caps: HashMap<V, SlotRead>,
    /// New addresses of stack slots (and constant GEPs of them) that need
    /// no checks.
    trusted_ints: HashSet<V>,
    homes: HashMap<V, AllocaHome>,
    /// Private stack slots holding pointers: value slot -> its capability
    /// slot and heap copy ([`escape`](crate::escape)'s `StackCaps`).
    stack_caps: HashMap<V, StackCaps>,
    /// Frame-object allocas made lazily → their storage in the frame.
    frame_storage: HashMap<V, V>,
    /// The old function's blocks, which of them never return.
    cfg: crate::escape::Cfg,
    /// Heap copies of private slots a call just got, to copy back after it.
    copied_for_call: Vec<(V, V)>,
    /// Escaping allocas created where first needed.
    lazy: LazyAllocas,
    inference: CapInference<'ctx>,
    va_obj: Option<Tx>,
    fixed_bytes: u64,
    sp: M,
    cur_old: V,
    cur_old_block: B,
    /// This function's frame record (native stack) when it has a
    /// personality.
    frame: Option<V>,
    /// Shared block returning with the exception flag.
    unwind_exit: Option<B>,
    /// Shared block for an exception arriving where none may.
    unwind_fatal: Option<B>,
    /// New constant-offset GEP → (the address it is computed from, with
    /// constant GEPs stripped; its byte offset from there).
    const_gep: HashMap<V, (V, i64)>,
    /// Accesses checked on every path to the current point.
    checked: Checked,
    /// Loads and stores whose check covers later accesses ([`widen`]).
    widened: HashMap<V, widen::Covered>,
    /// `&base[i]` per (original block, base, index, element type): the
    /// shared root of the fields of one element ([`FnTx::indexed_gep`]).
    indexed_roots: HashMap<(B, V, V, T), V>,
    /// What held at the end of each translated old block.
    end_checked: HashMap<B, Checked>,
    /// Capabilities of escaping allocas of constant size → their payload
    /// bytes: a stack object is never freed or resized (the collector
    /// reclaims it), so its bounds are `lower + size` for good.
    sized_caps: HashMap<V, u64>,
    /// Capabilities of frame objects → the distance to their inline shadow
    /// words (the payload rounded to words), fixed for good: a pointer
    /// load or store through one needs no header load for it.
    frame_shadows: HashMap<V, u64>,
    /// New GEP with one non-negative variable index → (root, offset) such
    /// that the address is at or above `root + offset` ([`index_range`]).
    var_gep: HashMap<V, (V, i64)>,
}

/// A capability read from a pointer slot.
#[derive(Clone, Copy)]
struct SlotRead {
    /// The slot's address and the capability it was read through.
    addr: V,
    cap: V,
    /// The old instruction the read was made for.
    at: V,
    /// `i1`: the slot was in atomic mode (its value in a box).
    boxed: V,
}

/// The frame slots beside a private stack slot that holds pointers.
#[derive(Clone, Copy)]
struct StackCaps {
    /// One capability per word of the slot (null where no pointer is).
    caps: V,
    /// The heap copy made for calls on never-returning paths (null until
    /// then), if any such call takes the address.
    copy: Option<V>,
    /// Bytes of the slot.
    size: u64,
    /// Its alignment.
    align: u64,
}

/// Translates the body of `old` into its new generic entry.
/// The blocks of one natural loop: its header and those that reach its
/// latch without passing the header.
type LoopBody = Rc<HashSet<B>>;

pub fn translate_function<'ctx>(m: &mut ModTx<'_, 'ctx>, old: V) {
    let (generic, _) = m.fn_map[&old];
    let direct = m.direct.get(&old).map(|d| d.body);
    let new = direct.unwrap_or(generic);
    // SAFETY: `old` is a live function of the module being translated.
    let fv: Option<FunctionValue<'ctx>> = unsafe { FunctionValue::new(old) };
    let Some(fv) = fv else { return };
    let homes = classify_allocas(m.module, fv)
        .into_iter()
        .map(|(k, v)| (k.as_value_ref(), v))
        .collect();
    let inference = m.inferences.remove(&old).unwrap_or_else(|| infer(fv));
    // An argument for a parameter whose capability the callee never
    // consumes needs none read.
    let arg_needed = |call: InstructionValue<'_>, k: u32| match m.known_callee(call.as_value_ref())
    {
        Some(g) => m.param_caps.get(&g).is_none_or(|u| u.contains(&k)),
        None => true,
    };
    let needed_loads = inference
        .demands(fv, &arg_needed)
        .loads
        .into_iter()
        .map(|i| i.as_value_ref())
        .collect();
    let sp = m.ll.subprogram(old);
    if !sp.is_null() {
        m.ll.set_subprogram(old, std::ptr::null_mut());
        m.ll.set_subprogram(new, sp);
    }
    let thread = m.ll.param(new, 0);
    let arg_bytes = direct.is_none().then(|| m.ll.param(new, 2));
    let mut t = FnTx {
        m,
        old,
        new,
        thread,
        arg_bytes,
        vals: HashMap::new(),
        block_map: HashMap::new(),
        edges: Vec::new(),
        back_edges: HashMap::new(),
        innermost_loop: HashMap::new(),
        phis: Vec::new(),
        int_cap_phis: Vec::new(),
        intcaps: HashMap::new(),
        needed_loads,
        load_caps: HashMap::new(),
        boundary_caps: HashMap::new(),
        slot_caps: HashMap::new(),
        trusted_ints: HashSet::new(),
        stack_caps: HashMap::new(),
        frame_storage: HashMap::new(),
        cfg: crate::escape::Cfg::new(fv),
        copied_for_call: Vec::new(),
        homes,
        lazy: LazyAllocas::default(),
        inference,
        va_obj: None,
        fixed_bytes: 0,
        sp,
        cur_old: std::ptr::null_mut(),
        cur_old_block: std::ptr::null_mut(),
        frame: None,
        unwind_exit: None,
        unwind_fatal: None,
        const_gep: HashMap::new(),
        checked: Checked::default(),
        widened: HashMap::new(),
        indexed_roots: HashMap::new(),
        end_checked: HashMap::new(),
        sized_caps: HashMap::new(),
        frame_shadows: HashMap::new(),
        var_gep: HashMap::new(),
    };
    t.widened = widen::plan(&t.m.ll, old);
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

fn is_a(m: &ModTx<'_, '_>, v: V, f: unsafe extern "C" fn(V) -> V) -> bool {
    m.ll.is_a(v, f)
}

/// Whether the pointer `gep` (an address computed from a loaded pointer)
/// is only compared, directly or through at most `depth` more constant or
/// variable offsets (`o != &G(L)->nilvalue`): its capability is never used.
fn only_compared(ll: &Ll, gep: V, depth: u32) -> bool {
    let users = ll.users(gep);
    !users.is_empty()
        && users.iter().all(|&u| match ll.opcode(u) {
            LLVMOpcode::LLVMICmp => true,
            LLVMOpcode::LLVMGetElementPtr => {
                depth > 0 && ll.operand(u, 0) == gep && only_compared(ll, u, depth - 1)
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

impl FnTx<'_, '_, '_> {
    fn run(&mut self) {
        let old_blocks = self.m.ll.blocks(self.old);
        let Some(&first) = old_blocks.first() else {
            return;
        };
        let order = self.rpo(first);
        let mut rpo_index = HashMap::new();
        for (i, &b) in order.iter().enumerate() {
            rpo_index.insert(b, i);
        }
        let entry = self.m.ll.append_block(self.new, "gimso.entry");
        for &b in &order {
            let nb = self.m.ll.append_block(self.new, "");
            self.block_map.insert(b, nb);
        }
        self.plan_lazy_allocas(&order);
        self.m.ll.position_at_end(entry);
        self.set_loc_line0();
        self.prologue();
        self.m.ll.br(self.block_map[&first]);
        // Retreating edges: a loop polls the safepoint on its back edges
        // (`branch_target`), after the iteration's work, not at the top of
        // its header: the loop-invariant parts of the checks at the top of
        // the body are then the first thing an iteration does, and the
        // latch's exit test stays one branch.
        let mut latches = HashSet::new();
        let mut preds: HashMap<B, Vec<B>> = HashMap::new();
        for &b in &order {
            if let Some(term) = self.m.ll.terminator(b) {
                for s in self.m.ll.successors(term) {
                    let ps = preds.entry(s).or_default();
                    if !ps.contains(&b) {
                        ps.push(b);
                    }
                    if let (Some(&is), Some(&ib)) = (rpo_index.get(&s), rpo_index.get(&b)) {
                        if is <= ib {
                            latches.insert(b);
                            self.back_edges.insert((b, s), None);
                        }
                    }
                }
            }
        }
        let idom = immediate_dominators(&order, &preds, &rpo_index);
        let loops = self.find_loops(&preds, &rpo_index);
        let call_free_headers = self.call_free_loop_headers(loops, &idom);
        for &b in &order {
            self.m.ll.position_at_end(self.block_map[&b]);
            self.cur_old_block = b;
            // What was checked on every path here (nothing past a back edge,
            // whose source is not translated yet), and what lasts from the
            // end of the block that dominates this one (also into loops).
            let ps = preds.get(&b).map(Vec::as_slice).unwrap_or(&[]);
            // At the header of a loop with no calls, what held on entry
            // holds on every iteration: nothing in the loop can shrink an
            // object, so the back edges bring at least as much.
            let ps: Vec<B> = if call_free_headers.contains(&b) {
                ps.iter()
                    .copied()
                    .filter(|&p| !self.back_edges.contains_key(&(p, b)))
                    .collect()
            } else {
                ps.to_vec()
            };
            let facts: Option<Vec<&Checked>> = ps.iter().map(|p| self.end_checked.get(p)).collect();
            self.checked = facts.map_or_else(Checked::default, |f| Checked::meet(&f));
            if let Some(dom) = idom.get(&b).and_then(|d| self.end_checked.get(d)) {
                self.checked.add_lasting(&dom.lasting());
            }
            let insts = self.m.ll.instructions(b);
            let term = self.m.ll.terminator(b);
            for inst in insts {
                // Branches and switches poll on their back edges; any other
                // terminator of a latch polls before it.
                if Some(inst) == term
                    && latches.contains(&b)
                    && !matches!(
                        self.m.ll.opcode(inst),
                        LLVMOpcode::LLVMBr | LLVMOpcode::LLVMSwitch
                    )
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

    /// The natural loop of every back edge (its header and the blocks that
    /// reach its latch without passing the header); each block gets the
    /// smallest one holding it. Returns every back edge with its loop.
    fn find_loops(
        &mut self,
        preds: &HashMap<B, Vec<B>>,
        rpo_index: &HashMap<B, usize>,
    ) -> Vec<((B, B), LoopBody)> {
        // In block order, not hash order: of two loops of one size holding
        // a block, the first found is kept.
        let mut edges: Vec<(B, B)> = self.back_edges.keys().copied().collect();
        edges.sort_by_key(|&(latch, header)| (rpo_index.get(&latch), rpo_index.get(&header)));
        let mut loops = Vec::new();
        for (latch, header) in edges {
            let mut body = HashSet::from([header]);
            let mut work = vec![latch];
            while let Some(b) = work.pop() {
                if body.insert(b) {
                    work.extend(preds.get(&b).into_iter().flatten().copied());
                }
            }
            let body = Rc::new(body);
            for &b in body.iter() {
                let smaller = self
                    .innermost_loop
                    .get(&b)
                    .is_none_or(|l| l.len() > body.len());
                if smaller {
                    self.innermost_loop.insert(b, Rc::clone(&body));
                }
            }
            loops.push(((latch, header), body));
        }
        loops
    }

    /// Headers of loops (`loops` as [`Self::find_loops`] gives them) whose
    /// back edges all come from blocks the header dominates (natural loops)
    /// and whose blocks make no call that forgets checks: the checks passed
    /// on entry to such a loop hold on every iteration ([`checked`]).
    fn call_free_loop_headers(
        &self,
        loops: Vec<((B, B), LoopBody)>,
        idom: &HashMap<B, B>,
    ) -> HashSet<B> {
        let dominates = |a: B, mut b: B| loop {
            if a == b {
                return true;
            }
            match idom.get(&b) {
                Some(&d) if d != b => b = d,
                _ => return false,
            }
        };
        let ll = &self.m.ll;
        let calls = |b: B| {
            ll.instructions(b).into_iter().any(|i| {
                matches!(
                    ll.opcode(i),
                    LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke | LLVMOpcode::LLVMCallBr
                ) && self.call_forgets_checks(i)
            })
        };
        let mut good = HashSet::new();
        let mut bad = HashSet::new();
        for ((latch, header), body) in loops {
            if dominates(header, latch) && !body.iter().any(|&b| calls(b)) {
                good.insert(header);
            } else {
                bad.insert(header);
            }
        }
        good.retain(|h| !bad.contains(h));
        good
    }

    /// Whether call `inst` may free, shrink or protect an object, so that
    /// what was checked before it no longer holds after it: anything but
    /// an `llvm.*` intrinsic.
    fn call_forgets_checks(&self, inst: V) -> bool {
        let callee = self.m.ll.called_value(inst);
        !(is_a(self.m, callee, LLVMIsAFunction) && self.m.ll.name(callee).starts_with("llvm."))
    }

    /// Whether the access being translated (a load or store) is in a loop
    /// and its address is based on a value from outside the innermost one
    /// (an argument, a global, or an instruction of a block outside it): its
    /// capability, and the header reads of its checks, are then the same on
    /// every iteration.
    fn base_invariant_in_loop(&self) -> bool {
        let ll = &self.m.ll;
        let inst = self.cur_old;
        let ptr = match ll.opcode(inst) {
            LLVMOpcode::LLVMLoad => ll.operand(inst, 0),
            LLVMOpcode::LLVMStore => ll.operand(inst, 1),
            _ => return false,
        };
        let Some(lp) = self.innermost_loop.get(&self.cur_old_block) else {
            return false;
        };
        let mut base = ptr;
        while is_a(self.m, base, LLVMIsAInstruction)
            && ll.opcode(base) == LLVMOpcode::LLVMGetElementPtr
        {
            base = ll.operand(base, 0);
        }
        !is_a(self.m, base, LLVMIsAInstruction) || !lp.contains(&ll.instructions_parent(base))
    }

    fn rpo(&self, first: B) -> Vec<B> {
        let mut seen = HashSet::new();
        let mut post = Vec::new();
        let mut stack: Vec<(B, Vec<B>, usize)> = Vec::new();
        seen.insert(first);
        let succ = |b: B| -> Vec<B> {
            self.m
                .ll
                .terminator(b)
                .map(|t| self.m.ll.successors(t))
                .unwrap_or_default()
        };
        stack.push((first, succ(first), 0));
        while let Some((b, ss, i)) = stack.last_mut() {
            if *i < ss.len() {
                let s = ss[*i];
                *i += 1;
                if seen.insert(s) {
                    let n = succ(s);
                    stack.push((s, n, 0));
                }
            } else {
                post.push(*b);
                stack.pop();
            }
        }
        post.reverse();
        post
    }

    // ---- debug locations and sites ------------------------------------------

    fn set_loc(&self, inst: V) {
        let dl = self.m.ll.debug_loc(inst);
        if dl.is_null() {
            self.set_loc_line0();
        } else {
            self.m.ll.set_debug_loc(dl);
        }
    }

    fn set_loc_line0(&self) {
        if self.sp.is_null() {
            self.m.ll.set_debug_loc(std::ptr::null_mut());
        } else {
            self.m.ll.set_debug_loc(self.m.ll.line_loc(0, self.sp));
        }
    }

    /// The source-location record of the instruction being translated.
    fn site(&mut self) -> V {
        self.site_of(self.cur_old)
    }

    /// The location record of original instruction `inst` (null: none).
    fn site_of(&mut self, inst: V) -> V {
        if inst.is_null() {
            return self.m.ll.null_ptr();
        }
        // SAFETY: `inst` is a live instruction of the module.
        let inst = unsafe { InstructionValue::new(inst) };
        let rec = self.m.sites.record_for(self.m.module, inst);
        rec.as_value_ref()
    }

    /// The location of `indirectbr` `inst`: its own; or (clang gives it
    /// none) that of the closest instruction before it in its block, the
    /// computation of the target, once the optimiser has merged clang's
    /// shared `indirectgoto` block into the `goto`'s; or that of the `goto`
    /// branching to that block when every branch there is on one line.
    fn goto_site(&mut self, inst: V) -> V {
        // SAFETY: instructions of the old function are live.
        let own = |v: V| Location::own_source(unsafe { InstructionValue::new(v) });
        if own(inst).is_some() {
            return self.site_of(inst);
        }
        let ll = &self.m.ll;
        let home = ll.inst_block(inst);
        let before = ll
            .instructions(home)
            .into_iter()
            .take_while(|&i| i != inst)
            .filter(|&i| {
                // Debug records carry their variable's scope, not a line of
                // code.
                let dbg = ll.opcode(i) == LLVMOpcode::LLVMCall
                    && ll.name(ll.called_value(i)).starts_with("llvm.dbg.");
                !dbg && own(i).is_some()
            })
            .last();
        if let Some(i) = before {
            return self.site_of(i);
        }
        let preds: Vec<V> = ll
            .blocks(self.old)
            .into_iter()
            .filter_map(|b| ll.terminator(b))
            .filter(|&t| ll.successors(t).contains(&home))
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
    fn widening(&mut self, root: V, off: i64) -> Option<widen::Covered> {
        let w = self.widened.get(&self.cur_old)?.clone();
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
        let loc = if self.cur_old.is_null() {
            Location::module()
        } else {
            // SAFETY: `cur_old` is a live instruction of the module.
            Location::of_instruction(unsafe { InstructionValue::new(self.cur_old) })
        };
        self.m.error(loc, construct, why);
    }

    // ---- values --------------------------------------------------------------

    fn tx(&mut self, v: V) -> Tx {
        if let Some(&t) = self.vals.get(&v) {
            return t;
        }
        let ty = self.m.ll.type_of(v);
        match self.m.ll.value_kind(v) {
            LLVMValueKind::LLVMInstructionValueKind | LLVMValueKind::LLVMArgumentValueKind => {
                // Defined in unreachable code only.
                self.zero(ty)
            }
            LLVMValueKind::LLVMMetadataAsValueValueKind | LLVMValueKind::LLVMInlineAsmValueKind => {
                Tx::plain(v)
            }
            LLVMValueKind::LLVMBasicBlockValueKind => Tx::plain(v),
            _ => match self.m.tx_const(v) {
                Ok(t) => t,
                Err(why) => {
                    self.error("this constant", &why);
                    self.zero(ty)
                }
            },
        }
    }

    fn zero(&self, ty: T) -> Tx {
        let z = self.m.ll.zero(ty);
        Tx {
            int: z,
            cap: has_ptr(&self.m.ll, ty).then_some(z),
        }
    }

    fn cap(&mut self, v: V) -> V {
        let t = self.tx(v);
        t.cap
            .unwrap_or_else(|| self.m.ll.zero(self.m.ll.type_of(t.int)))
    }

    fn set(&mut self, old: V, t: Tx) {
        self.vals.insert(old, t);
    }

    // ---- prologue ---------------------------------------------------------------

    fn prologue(&mut self) {
        // A function that calls nothing cannot be on a cycle of calls, and
        // its loops poll on their back edges: it runs for a bounded time
        // between polls without one at its entry.
        if self.makes_calls() {
            self.pollcheck();
        }
        let ll = &self.m.ll;
        let fnty = ll.function_type_of(self.old);
        let params = ll.params(self.old);
        let mut types = Vec::new();
        for (i, &p) in params.iter().enumerate() {
            types.push(ll.param_byval(self.old, i as u32).unwrap_or(ll.type_of(p)));
        }
        let layout = cc_layout(ll, &types);
        self.fixed_bytes = layout.bytes;
        if let Some(arg_bytes) = self.arg_bytes {
            self.buffer_params(&layout, arg_bytes);
        } else {
            // A direct body: (value, capability?) per parameter.
            let values = direct::direct_params(ll, self.new, fnty);
            for (&p, t) in params.iter().zip(values) {
                let t = self.boundary_in(p, t);
                self.set(p, t);
            }
        }
        if self.uses_va_start() {
            let bytes = self.arg_bytes.unwrap_or_else(|| self.m.ll.i64c(0));
            let skip = self.m.ll.i64c(self.fixed_bytes / 8 * 8);
            let r = call(&self.m.ll, "gimso_va_start", &[self.thread, bytes, skip]);
            self.va_obj = Some(self.pair(r));
        }
        self.stack_slots();
        self.lazy_alloca_slots();
        self.push_frame();
    }

    /// The generic entry's arguments: `arg_bytes` checked against what the
    /// parameters need, then each read from the CC buffers.
    fn buffer_params(&mut self, layout: &CcLayout, arg_bytes: V) {
        let ll = &self.m.ll;
        if layout.bytes > 0 {
            let ok = ll.icmp(
                LLVMIntPredicate::LLVMIntUGE,
                arg_bytes,
                ll.i64c(layout.bytes),
            );
            let site = self.site_for_function();
            let needed = self.m.ll.i64c(layout.bytes);
            self.guard(ok, |s| {
                call(&s.m.ll, "gimso_arg_size_failed", &[needed, arg_bytes, site]);
                s.m.ll.unreachable();
                true
            });
        }
        let (payload, caps) = self.arg_buffers(arg_bytes);
        let params = self.m.ll.params(self.old);
        for (i, &p) in params.iter().enumerate() {
            let off = layout.offsets[i];
            let t = if let Some(bt) = self.m.ll.param_byval(self.old, i as u32) {
                let ll = &self.m.ll;
                let size = ll.size_of(bt);
                let align = ll.align_of(bt).max(16);
                let pp = ll.gep_i8c(payload, off);
                let cp = ll.gep_i8c(caps, off);
                let r = call(
                    ll,
                    "gimso_cc_copy_out",
                    &[pp, cp, ll.i64c(size), ll.i64c(align)],
                );
                self.pair(r)
            } else {
                let ty = self.m.ll.type_of(p);
                let t = self.read_buf(ty, payload, caps, off);
                if self.m.options.exposed_provenance && self.m.ll.is_ptr(ty) {
                    // Passed as an integer by a caller of another type.
                    self.recover_exposed(t)
                } else {
                    t
                }
            };
            let t = self.boundary_in(p, t);
            self.set(p, t);
        }
    }

    /// Private stack slots: zeroed allocas in the entry block; those that
    /// hold pointers get a zeroed capability slot beside them, and those
    /// whose address escapes to calls a frame slot for the heap copy made
    /// on never-returning paths (not in functions that call `setjmp`,
    /// where a `longjmp` back skips copies back and revives such paths).
    /// `vals` (instructions of the function being translated) in the
    /// order they appear in it: what the translation emits for a set of
    /// them must not depend on hash order, or the same source would
    /// compile to different code from run to run.
    fn in_old_order(&self, vals: HashSet<V>) -> Vec<V> {
        let ll = &self.m.ll;
        let mut out = Vec::with_capacity(vals.len());
        for b in ll.blocks(self.old) {
            out.extend(ll.instructions(b).into_iter().filter(|i| vals.contains(i)));
            if out.len() == vals.len() {
                break;
            }
        }
        out
    }

    fn stack_slots(&mut self) {
        if self.calls_setjmp() {
            for h in self.homes.values_mut() {
                if *h == (AllocaHome::StackCaps { escapes: true }) {
                    *h = AllocaHome::Heap("its address escapes in a function calling setjmp");
                }
            }
        }
        let allocas = self.in_old_order(self.homes.keys().copied().collect());
        for a in allocas {
            let home = self.homes[&a].clone();
            let escapes = match home {
                AllocaHome::Stack => None,
                AllocaHome::StackCaps { escapes } => Some(escapes),
                AllocaHome::Frame => {
                    self.frame_object(a);
                    continue;
                }
                AllocaHome::Heap(_) => continue,
            };
            let ll = &self.m.ll;
            let ty = ll.allocated_type(a);
            let count = ll.const_int_value(ll.operand(a, 0)).unwrap_or(1);
            let size = ll.size_of(ty) * count;
            let mut align = ll.alignment(a).max(1);
            let slot = if escapes.is_some() {
                // Whole words, word-aligned: copied out a word at a time.
                align = align.max(8);
                ll.entry_alloca(self.new, ll.array_ty(ll.i64(), size.div_ceil(8)))
            } else if count == 1 {
                ll.entry_alloca(self.new, ty)
            } else {
                ll.entry_alloca(self.new, ll.array_ty(ty, count))
            };
            ll.set_alignment(slot, align);
            ll.memset(slot, ll.const_int(ll.i8(), 0), ll.i64c(size), align);
            if let Some(escapes) = escapes {
                let words = size.div_ceil(8);
                let caps = ll.entry_alloca(self.new, ll.array_ty(ll.ptr(), words));
                ll.set_alignment(caps, 8);
                ll.memset(caps, ll.const_int(ll.i8(), 0), ll.i64c(words * 8), 8);
                let copy = escapes.then(|| {
                    let c = ll.entry_alloca(self.new, ll.ptr());
                    ll.store(ll.null_ptr(), c, 8);
                    c
                });
                self.stack_caps.insert(
                    slot,
                    StackCaps {
                        caps,
                        copy,
                        size,
                        align: u64::from(align),
                    },
                );
                self.m.stats.stack_cap_allocas += 1;
            }
            self.trusted_ints.insert(slot);
            self.set(
                a,
                Tx {
                    int: slot,
                    cap: Some(self.m.ll.null_ptr()),
                },
            );
            self.m.stats.stack_allocas += 1;
        }
    }

    /// An [`AllocaHome::Frame`] alloca: `[header][payload][shadow]` in the
    /// frame, 16-aligned. Made an object here (in the prologue), or where
    /// first needed when lazy allocas planned a point for it.
    fn frame_object(&mut self, a: V) {
        let ll = &self.m.ll;
        let size = alloca_bytes(ll, a);
        let words = 2 + 2 * size.div_ceil(8);
        let storage = ll.entry_alloca(self.new, ll.array_ty(ll.i64(), words));
        ll.set_alignment(storage, 16);
        if self.lazy.slots.contains_key(&a) {
            self.frame_storage.insert(a, storage);
            return;
        }
        let lower = self.init_frame_object(storage, size);
        let t = Tx {
            int: lower,
            cap: Some(lower),
        };
        self.note_stack_object(t.cap, size);
        self.m.stats.frame_objects += 1;
        self.set(a, t);
    }

    /// Makes `storage` an object of `size` bytes: the payload (whole
    /// words) and its inline shadow zeroed, the header naming the exact
    /// bounds and the shadow (as the runtime's small objects do) and
    /// flagging it a stack object (`free` refuses it). Returns its
    /// `lower`. The collector takes the capability for a non-heap one and
    /// finds the heap objects the shadow refers to with the stack scan.
    fn init_frame_object(&mut self, storage: V, size: u64) -> V {
        let ll = &self.m.ll;
        let payload = super::globals::shadow_distance(size);
        let lower = ll.gep_i8c(storage, HEADER_SIZE as u64);
        let upper = ll.gep_i8c(storage, HEADER_SIZE as u64 + size);
        ll.memset(lower, ll.const_int(ll.i8(), 0), ll.i64c(2 * payload), 16);
        ll.store(ll.ptrtoint(upper, ll.i64()), storage, 16);
        // The shadow is inline, right after the payload.
        let aux = gimso_abi::aux_with_delta(FLAG_STACK, payload as isize);
        ll.store(ll.i64c(aux), ll.gep_i8c(storage, 8), 8);
        self.note_frame_shadow(lower, size);
        lower
    }

    /// Records that `cap` is a frame object of `size` bytes, whose inline
    /// shadow words lie at the distance its size fixes.
    fn note_frame_shadow(&mut self, cap: V, size: u64) {
        self.frame_shadows
            .insert(cap, super::globals::shadow_distance(size));
    }

    fn site_for_function(&mut self) -> V {
        // The first instruction with a location stands for the function.
        for b in self.m.ll.blocks(self.old) {
            for i in self.m.ll.instructions(b) {
                if !self.m.ll.debug_loc(i).is_null() {
                    let saved = self.cur_old;
                    self.cur_old = i;
                    let s = self.site();
                    self.cur_old = saved;
                    return s;
                }
            }
        }
        self.m.ll.null_ptr()
    }

    /// Whether the function calls anything but LLVM intrinsics (which never
    /// run program code); inline assembly counts as a call.
    fn makes_calls(&self) -> bool {
        self.m.ll.blocks(self.old).into_iter().any(|b| {
            self.m.ll.instructions(b).into_iter().any(|i| {
                matches!(
                    self.m.ll.opcode(i),
                    LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke | LLVMOpcode::LLVMCallBr
                ) && {
                    let c = self.m.ll.called_value(i);
                    !(is_a(self.m, c, LLVMIsAFunction) && self.m.ll.name(c).starts_with("llvm."))
                }
            })
        })
    }

    fn uses_va_start(&self) -> bool {
        for b in self.m.ll.blocks(self.old) {
            for i in self.m.ll.instructions(b) {
                if self.m.ll.opcode(i) == LLVMOpcode::LLVMCall {
                    let c = self.m.ll.called_value(i);
                    if is_a(self.m, c, LLVMIsAFunction) && self.m.ll.name(c) == "llvm.va_start" {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The CC buffers holding `bytes` of arguments or return value.
    fn arg_buffers(&mut self, bytes: V) -> (V, V) {
        buffers::arg_buffers(&self.m.ll, self.thread, bytes)
    }

    /// Buffers for writing `bytes` (known statically): the outline ones
    /// are grown first when needed.
    fn write_buffers(&mut self, bytes: u64) -> (V, V) {
        buffers::write_buffers(&self.m.ll, self.thread, bytes)
    }

    fn pair(&self, r: V) -> Tx {
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
    fn guard(&mut self, ok: V, fail: impl FnOnce(&mut Self) -> bool) {
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
        ll.set_volatile(state, true);
        let req = ll.and(state, ll.i64c(THREAD_REQUEST_MASK));
        let quiet = ll.icmp(LLVMIntPredicate::LLVMIntEQ, req, ll.i64c(0));
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

    /// The inline access check of `size` bytes at `p`: the parts earlier
    /// checks on every path here do not imply ([`checked`]).
    fn check(&mut self, p: Tx, size: u64, align: u64, write: bool) {
        if self.trusted_ptr(p) {
            return;
        }
        if let Some(cap) = p.cap {
            if self.m.passes_statically(p.int, cap, size, align, write) {
                self.m.stats.static_checks += 1;
                return;
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
        // An address at or above a point already known to be at or above
        // `lower` (a non-negative index from a checked root) needs no lower
        // compare.
        if matches!(need.bounds, Bounds::Both | Bounds::Lower) && span.0 >= 0 {
            if let Some(cap) = p.cap {
                let var = self.var_gep.get(&root).copied();
                // Below it, a check through the same root passed (so the
                // capability is not null either) ...
                let checked_below =
                    var.is_some_and(|(vroot, min)| self.checked.lower_known(cap, vroot, min));
                // ... or it lies at a non-negative distance from the
                // capability's own value, `lower` itself (a global indexed
                // from its start, `table[i & 255]`), which says nothing
                // about null.
                let from_lower = match var {
                    Some((vroot, min)) => vroot == cap && min >= 0,
                    None => root == cap || self.m.const_at_or_above(root, cap),
                };
                if checked_below || from_lower {
                    need.bounds = need.bounds.without_lower();
                }
                need.nonnull |= checked_below;
            }
        }
        // A global's payload address is a constant the link defines.
        if p.cap.is_some_and(|c| self.m.global_payload(c)) {
            need.nonnull = true;
        }
        // A global defined here: its bounds and read-only flag are constants.
        let fixed = p.cap.and_then(|c| self.m.static_upper(c));
        if let Some(f) = fixed {
            need.nonnull = true;
            need.readonly &= f.readonly;
        }
        let stack_size = p.cap.and_then(|c| self.sized_caps.get(&c).copied());
        if stack_size.is_some() {
            // A stack object of this frame: never read-only.
            need.readonly = false;
        }
        let size_known = fixed.map(|f| f.size).or(stack_size);
        if size_known.is_some() {
            need.nonnull = true;
        }
        if need.nothing() {
            self.m.stats.merged_checks += 1;
            return;
        }
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
        let fail = |ll: &super::ll::Ll| {
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
            let aligned = ll.icmp(LLVMIntPredicate::LLVMIntEQ, mis, ll.i64c(0));
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
            let nonnull = ll.icmp(LLVMIntPredicate::LLVMIntNE, lower, ll.i64c(0));
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
            let writable = ll.icmp(LLVMIntPredicate::LLVMIntEQ, ro, ll.const_int(ll.i8(), 0));
            let go = ll.append_block(self.new, "");
            ll.cond_br(writable, go, bad);
            ll.position_at_end(go);
        }
        let hdr = ll.gep_i8(cap, ll.const_int(i64, (-16i64) as u64));
        let (baddr, bsize) = if span.0 == off {
            (addr, span.1)
        } else {
            (ll.add_i64(addr, ll.i64c((span.0 - off) as u64)), span.1)
        };
        let upper = |ll: &super::ll::Ll| fixed.map_or_else(|| ll.load_header(hdr), |f| f.upper);
        // `baddr + bsize <= upper`, or as `baddr < upper - (bsize - 1)`
        // (`upper` is a real address, at least 64 KiB, and `bsize` below
        // that: no wrap): the same for one byte; after a foldable null test
        // (the header load then depends on nothing computed from the
        // address, which the fold needs); and where the base is the same
        // on every iteration of a loop (the subtraction is then made once,
        // before it). Elsewhere it would be one more value live per
        // capability (in Lua's interpreter loop, 1% more instructions).
        let last_form = bsize == 1 || implicit || self.base_invariant_in_loop();
        let below = |ll: &super::ll::Ll| {
            if bsize > 0 && bsize < MIN_OBJECT_ADDRESS && last_form {
                let last = ll.sub(upper(ll), ll.i64c(bsize - 1));
                ll.icmp(LLVMIntPredicate::LLVMIntULT, baddr, last)
            } else {
                let end = ll.add_i64(baddr, ll.i64c(bsize));
                ll.icmp(LLVMIntPredicate::LLVMIntULE, end, upper(ll))
            }
        };
        let ok = match need.bounds {
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
                        ll.icmp(LLVMIntPredicate::LLVMIntULE, off, ll.i64c(room))
                    }
                    None => ll.const_int(ll.i1_ty(), 0),
                }
            }
            // The other end passed through the same root at a nearby
            // offset: the address is near the object, nothing wraps.
            Bounds::Lower => ll.icmp(LLVMIntPredicate::LLVMIntUGE, baddr, lower),
            Bounds::Upper => below(ll),
            Bounds::Both if bsize < MIN_OBJECT_ADDRESS => {
                // `upper` first: its header load is the one a null test
                // folds into.
                let below = below(ll);
                let above = ll.icmp(LLVMIntPredicate::LLVMIntSGE, baddr, lower);
                ll.and(below, above)
            }
            Bounds::Both => {
                // A huge access: the offset is compared with the object's
                // size less the access's, neither of which may wrap.
                let span = ll.sub(upper(ll), lower);
                let off = ll.sub(baddr, lower);
                let room = ll.sub(span, ll.i64c(bsize));
                let fits = ll.icmp(LLVMIntPredicate::LLVMIntULE, off, room);
                let wide = ll.icmp(LLVMIntPredicate::LLVMIntUGE, span, ll.i64c(bsize));
                ll.and(wide, fits)
            }
        };
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

    fn trusted_ptr(&self, p: Tx) -> bool {
        self.trusted_ints.contains(&p.int)
    }
}

/// Whether `GIMSO_EXPLAIN_INTTOPTR` is set (see
/// [`FnTx::explain_null_inttoptr`]).
fn explain_inttoptr() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("GIMSO_EXPLAIN_INTTOPTR").is_some_and(|v| !v.is_empty()))
}

/// One `GIMSO_EXPLAIN_INTTOPTR` note on stderr, at `inst`'s source line.
fn explain_note(inst: InstructionValue<'_>, what: &str) {
    let at = match Location::of_instruction(inst).source {
        Some(l) => format!("{}:{}:{}", l.file, l.line, l.column),
        None => "(no location)".to_string(),
    };
    eprintln!("gimso-cc: note: {at}: {what}");
}

// ---- memory: values of any type at a checked address ----------------------------

impl FnTx<'_, '_, '_> {
    /// Loads a value of `ty` at `p` (already checked); pointers come with
    /// their capabilities from shadow storage or atomic boxes.
    fn load_value(&mut self, ty: T, p: Tx, atomic: bool) -> Tx {
        let ll = &self.m.ll;
        if let Some(cap) = p.cap.filter(|_| !atomic && is_word_int(ll, ty)) {
            // A 64-bit field of an aggregate that carries capability
            // words: the capability at rest in its word, as an integer.
            let v = ll.load(ty, p.int, 1);
            ll.not_header(v);
            let c = self.word_cap(p.int, cap);
            let ll = &self.m.ll;
            return Tx {
                int: v,
                cap: Some(ll.ptrtoint(c, ll.i64())),
            };
        }
        if !has_ptr(ll, ty) && (atomic || !aggregate_carries(ll, ty)) {
            let v = ll.load(ty, p.int, 1);
            ll.not_header(v);
            return Tx::plain(v);
        }
        let cap = p.cap.unwrap_or_else(|| ll.null_ptr());
        match ll.kind(ty) {
            LLVMTypeKind::LLVMPointerTypeKind => {
                if !atomic {
                    return self.inline_load_ptr(p.int, cap);
                }
                let r = call(ll, "gimso_atomic_load_ptr", &[p.int, cap]);
                self.pair(r)
            }
            LLVMTypeKind::LLVMStructTypeKind => {
                let fields = ll.struct_fields(ty);
                let mut int = ll.zero(ty);
                let mut capv = ll.zero(ty);
                for (i, f) in fields.into_iter().enumerate() {
                    let off = self.m.ll.field_offset(ty, i as u32);
                    let at = Tx {
                        int: self.m.ll.gep_i8c(p.int, off),
                        cap: p.cap,
                    };
                    let e = self.load_value(f, at, false);
                    let ll = &self.m.ll;
                    int = ll.insert_value(int, e.int, i as u32);
                    if let Some(c) = e.cap {
                        capv = ll.insert_value(capv, c, i as u32);
                    }
                }
                Tx {
                    int,
                    cap: Some(capv),
                }
            }
            LLVMTypeKind::LLVMArrayTypeKind => {
                let e_ty = ll.elem_ty(ty);
                let n = ll.array_len(ty);
                let stride = ll.size_of(e_ty);
                let mut int = ll.zero(ty);
                let mut capv = ll.zero(ty);
                for i in 0..n {
                    let at = Tx {
                        int: self.m.ll.gep_i8c(p.int, i * stride),
                        cap: p.cap,
                    };
                    let e = self.load_value(e_ty, at, false);
                    let ll = &self.m.ll;
                    int = ll.insert_value(int, e.int, i as u32);
                    if let Some(c) = e.cap {
                        capv = ll.insert_value(capv, c, i as u32);
                    }
                }
                Tx {
                    int,
                    cap: Some(capv),
                }
            }
            _ => {
                // A vector of pointers, lane by lane.
                let n = ll.vector_len(ty);
                let mut int = ll.zero(ty);
                let mut capv = ll.zero(ty);
                for i in 0..u64::from(n) {
                    let at = Tx {
                        int: self.m.ll.gep_i8c(p.int, i * 8),
                        cap: p.cap,
                    };
                    let e = self.load_value(self.m.ll.ptr(), at, false);
                    let ll = &self.m.ll;
                    int = ll.insert_element(int, e.int, ll.i32c(i));
                    capv = ll.insert_element(capv, e.cap.unwrap_or(ll.null_ptr()), ll.i32c(i));
                }
                Tx {
                    int,
                    cap: Some(capv),
                }
            }
        }
    }

    /// Stores `v` (of `ty`) at `p` (already checked).
    fn store_value(&mut self, ty: T, v: Tx, p: Tx, atomic: bool) {
        let ll = &self.m.ll;
        if !atomic && is_word_int(ll, ty) {
            // A 64-bit field of an aggregate carrying capability words.
            match v.cap {
                Some(c) if !ll.is_null_constant(c) => {
                    let pcap = p.cap.unwrap_or_else(|| ll.null_ptr());
                    let vcap = ll.inttoptr(c, ll.ptr());
                    self.store_word(p.int, pcap, v.int, vcap);
                }
                _ => {
                    let s = ll.store(v.int, p.int, 1);
                    ll.not_header(s);
                }
            }
            return;
        }
        let carried = v.cap.is_some() && aggregate_carries(ll, ty);
        if !has_ptr(ll, ty) && (atomic || !carried) {
            let s = ll.store(v.int, p.int, 1);
            ll.not_header(s);
            return;
        }
        let pcap = p.cap.unwrap_or_else(|| ll.null_ptr());
        let vcap = v.cap.unwrap_or_else(|| ll.zero(ty));
        match ll.kind(ty) {
            LLVMTypeKind::LLVMPointerTypeKind => {
                if atomic {
                    call(ll, "gimso_atomic_store_ptr", &[p.int, pcap, v.int, vcap]);
                } else {
                    self.inline_store_ptr(p.int, pcap, v.int, vcap);
                }
            }
            LLVMTypeKind::LLVMStructTypeKind | LLVMTypeKind::LLVMArrayTypeKind => {
                let parts: Vec<(T, u64)> = if ll.kind(ty) == LLVMTypeKind::LLVMStructTypeKind {
                    ll.struct_fields(ty)
                        .into_iter()
                        .enumerate()
                        .map(|(i, f)| (f, ll.field_offset(ty, i as u32)))
                        .collect()
                } else {
                    let e = ll.elem_ty(ty);
                    let stride = ll.size_of(e);
                    (0..ll.array_len(ty)).map(|i| (e, i * stride)).collect()
                };
                for (i, (f, off)) in parts.into_iter().enumerate() {
                    let ll = &self.m.ll;
                    let e = Tx {
                        int: ll.extract_value(v.int, i as u32),
                        cap: cc_carries(ll, f).then(|| ll.extract_value(vcap, i as u32)),
                    };
                    let at = Tx {
                        int: ll.gep_i8c(p.int, off),
                        cap: p.cap,
                    };
                    self.store_value(f, e, at, false);
                }
            }
            _ => {
                let n = ll.vector_len(ty);
                for i in 0..u64::from(n) {
                    let ll = &self.m.ll;
                    let idx = ll.i32c(i);
                    let e = Tx {
                        int: ll.extract_element(v.int, idx),
                        cap: Some(ll.extract_element(vcap, idx)),
                    };
                    let at = Tx {
                        int: ll.gep_i8c(p.int, i * 8),
                        cap: p.cap,
                    };
                    self.store_value(ll.ptr(), e, at, false);
                }
            }
        }
    }

    /// The shadow word address of the (checked, aligned) pointer slot
    /// `addr` of the object `cap`, and whether the object has shadow words
    /// (a pointer store may write the word): `addr + (aux >> 16)`, the
    /// header recording the signed distance from the payload to its
    /// shadow, or to the runtime's zero region when `FLAG_SHADOW` is clear
    /// (no shadow words yet: the word reads as a null capability but must
    /// not be written).
    fn shadow_word(&mut self, addr: V, cap: V) -> (V, V) {
        let (word, aux) = self.shadow_address(addr, cap);
        let ll = &self.m.ll;
        let has = match aux {
            Some(aux) => {
                let flag = ll.and(aux, ll.i64c(gimso_abi::FLAG_SHADOW));
                ll.icmp(LLVMIntPredicate::LLVMIntNE, flag, ll.i64c(0))
            }
            None => ll.const_int(ll.i1_ty(), 1),
        };
        (word, has)
    }

    /// The address a pointer load reads the capability of the slot `addr`
    /// of the object `cap` from, with no test (see [`FnTx::shadow_word`]),
    /// and the aux word it came from: none for a frame object or a global
    /// defined here, born with inline shadow words at a distance their
    /// size fixes ([`FnTx::init_frame_object`], `globals::shadow_distance`).
    /// The address is made with `inttoptr`, not as a GEP of `addr`: the
    /// shadow is usually another object, which a pointer based on `addr`
    /// may not reach.
    fn shadow_address(&mut self, addr: V, cap: V) -> (V, Option<V>) {
        let fixed = self.frame_shadows.get(&cap).copied().or_else(|| {
            self.m
                .static_upper(cap)
                .map(|b| super::globals::shadow_distance(b.size))
        });
        let ll = &self.m.ll;
        let i64 = ll.i64();
        let (delta, aux) = match fixed {
            Some(distance) => (ll.i64c(distance), None),
            None => {
                let aux_p = ll.gep_i8(cap, ll.const_int(i64, (-8i64) as u64));
                let aux = ll.load_header(aux_p);
                let shift = ll.i64c(u64::from(gimso_abi::AUX_DELTA_SHIFT));
                (ll.ashr(aux, shift), Some(aux))
            }
        };
        let word = ll.inttoptr(ll.add_i64(ll.ptrtoint(addr, i64), delta), ll.ptr());
        (word, aux)
    }

    /// Non-atomic pointer load, inline (gimso-atomics `plain_load`): the
    /// capability from the shadow word (the runtime reads atomic boxes),
    /// the intval from the payload.
    fn inline_load_ptr(&mut self, addr: V, cap: V) -> Tx {
        let ll = &self.m.ll;
        let intval = ll.load_relaxed(ll.ptr(), addr, 8);
        let (lower, boxed) = self.shadow_lower(addr, cap);
        let at = self.cur_old;
        self.slot_caps.insert(
            lower,
            SlotRead {
                addr,
                cap,
                at,
                boxed,
            },
        );
        Tx {
            int: intval,
            cap: Some(lower),
        }
    }

    /// The capability at rest in the pointer-aligned word at `addr` (null
    /// if the object has no shadow words yet: its aux word leads to the
    /// zero region, so the word is read without a test; the runtime reads
    /// atomic boxes).
    /// With it, an `i1`: whether the word held an atomic box.
    fn shadow_lower(&mut self, addr: V, cap: V) -> (V, V) {
        let (word, _) = self.shadow_address(addr, cap);
        let ll = &self.m.ll;
        let plain = ll.append_block(self.new, "");
        let boxed = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        let w = ll.load(ll.i64(), word, 8);
        ll.set_ordering(w, LLVMAtomicOrdering::LLVMAtomicOrderingAcquire);
        let tag = ll.and(w, ll.i64c(gimso_abi::SHADOW_BOX_TAG as u64));
        let is_box = ll.icmp(LLVMIntPredicate::LLVMIntNE, tag, ll.i64c(0));
        ll.cond_br_unlikely(is_box, boxed, plain);
        ll.position_at_end(plain);
        let lower_plain = ll.inttoptr(w, ll.ptr());
        ll.br(join);
        ll.position_at_end(boxed);
        let r = call(ll, "gimso_load_ptr", &[addr, cap]);
        ll.not_header(r);
        let lower_boxed = ll.extract_value(r, 1);
        ll.br(join);
        ll.position_at_end(join);
        let lower = ll.phi(ll.ptr());
        ll.add_incoming(lower, lower_plain, plain);
        ll.add_incoming(lower, lower_boxed, boxed);
        let was_box = ll.phi(ll.i1_ty());
        let (no, yes) = (ll.const_int(ll.i1_ty(), 0), ll.const_int(ll.i1_ty(), 1));
        ll.add_incoming(was_box, no, plain);
        ll.add_incoming(was_box, yes, boxed);
        (lower, was_box)
    }

    /// The collector's marking flag (`gimso_gc_marking`: 0 or the epoch
    /// of the cycle marking).
    fn marking_flag(&self) -> V {
        let ll = &self.m.ll;
        ll.get_global(gimso_abi::MARKING_FLAG_SYMBOL)
            .unwrap_or_else(|| {
                let g = ll.add_global(ll.i8(), gimso_abi::MARKING_FLAG_SYMBOL);
                // gimso-cc links the runtime statically: the flag is in the
                // same executable, read PC-relative (one `movzbl`) rather than
                // through its GOT entry.
                ll.set_visibility(g, inkwell::llvm_sys::LLVMVisibility::LLVMHiddenVisibility);
                g
            })
    }

    /// Non-atomic pointer store, inline (gimso-atomics `plain_store`); the
    /// runtime takes over when the object needs its shadow words created
    /// and, while the collector marks, when the stored capability's header
    /// does not carry the current marking epoch (store barrier; see
    /// `gimso_shadow::barrier`).
    fn inline_store_ptr(&mut self, addr: V, cap: V, vint: V, vcap: V) {
        if let Some(&read) = self.slot_caps.get(&vcap) {
            if (read.addr, read.cap) == (addr, cap)
                && self.nothing_written_between(read.at, self.cur_old)
            {
                return self.store_ptr_in_place(read, vint, vcap);
            }
        }
        self.store_ptr_full(addr, cap, vint, vcap);
    }

    /// [`FnTx::inline_store_ptr`] for a capability of any origin.
    fn store_ptr_full(&mut self, addr: V, cap: V, vint: V, vcap: V) {
        let (word, has) = self.shadow_word(addr, cap);
        let ll = &self.m.ll;
        if ll.is_null_constant(vcap) {
            // A constant null capability (`p->next = NULL`, an integer
            // constant): no barrier, so no look at the collector's state;
            // the shadow word is cleared if the object has shadow words.
            let shadowed = ll.append_block(self.new, "");
            let join = ll.append_block(self.new, "");
            let st = ll.store(vint, addr, 8);
            ll.not_header(st);
            ll.set_ordering(st, LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic);
            ll.cond_br_likely(has, shadowed, join);
            ll.position_at_end(shadowed);
            let sw = ll.store(vcap, word, 8);
            ll.set_ordering(sw, LLVMAtomicOrdering::LLVMAtomicOrderingRelease);
            ll.not_header(sw);
            ll.br(join);
            ll.position_at_end(join);
            return;
        }
        let i8t = ll.i8();
        let flag = self.marking_flag();
        let ll = &self.m.ll;
        let vnull = ll.icmp(
            LLVMIntPredicate::LLVMIntEQ,
            ll.ptrtoint(vcap, ll.i64()),
            ll.i64c(0),
        );
        let shadowed = ll.append_block(self.new, "");
        let no_shadow = ll.append_block(self.new, "");
        let plain = ll.append_block(self.new, "");
        let fast = ll.append_block(self.new, "");
        let marking = ll.append_block(self.new, "");
        let stamped = ll.append_block(self.new, "");
        let slow = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        // The usual case first, two branches: the object has shadow words
        // and the collector is not marking.
        ll.cond_br_likely(has, shadowed, no_shadow);
        ll.position_at_end(shadowed);
        let epoch = ll.load_relaxed(i8t, flag, 1);
        let idle = ll.icmp(LLVMIntPredicate::LLVMIntEQ, epoch, ll.const_int(i8t, 0));
        ll.cond_br_likely(idle, fast, marking);
        // Marking: a null capability or one whose object was already seen
        // in this cycle needs no barrier.
        ll.position_at_end(marking);
        ll.cond_br(vnull, fast, stamped);
        ll.position_at_end(stamped);
        // An atomic load: a plain one could be hoisted out of a loop and
        // compared with a later cycle's epoch.
        let aux_p = ll.gep_i8(vcap, ll.const_int(ll.i64(), (-8i64) as u64));
        let aux = ll.load_relaxed(ll.i64(), aux_p, 8);
        let target_epoch = ll.int_cast(
            ll.and(
                ll.lshr(aux, ll.i64c(u64::from(gimso_abi::BARRIER_EPOCH_SHIFT))),
                ll.i64c(u64::from(gimso_abi::MAX_BARRIER_EPOCH)),
            ),
            i8t,
        );
        let marked = ll.icmp(LLVMIntPredicate::LLVMIntEQ, target_epoch, epoch);
        ll.cond_br_likely(marked, fast, slow);
        ll.position_at_end(fast);
        let st = ll.store(vint, addr, 8);
        ll.not_header(st);
        ll.set_ordering(st, LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic);
        let sw = ll.store(vcap, word, 8);
        ll.set_ordering(sw, LLVMAtomicOrdering::LLVMAtomicOrderingRelease);
        ll.not_header(sw);
        ll.br(join);
        // No shadow words yet: a null capability needs none (and no
        // barrier); any other makes the runtime create them.
        ll.position_at_end(no_shadow);
        ll.cond_br(vnull, plain, slow);
        ll.position_at_end(plain);
        let st = ll.store(vint, addr, 8);
        ll.not_header(st);
        ll.set_ordering(st, LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic);
        ll.br(join);
        ll.position_at_end(slow);
        call(ll, "gimso_store_ptr", &[addr, cap, vint, vcap]);
        ll.br(join);
        ll.position_at_end(join);
    }

    /// A pointer store of a capability read from the same slot
    /// (`L->top++`; `p->next = p->next->next` is not one) with nothing
    /// written in between: the intval alone. The slot's shadow word already
    /// holds that capability (or what a racing store put there since,
    /// which a racy plain store may leave as well), so no capability is
    /// written, no reference is made and the collector needs no barrier
    /// (a Dijkstra barrier is about references stored, and none is).
    /// Unless the read found the slot in atomic mode: atomic loads take the
    /// value from its box, so the full store puts it back in plain mode.
    fn store_ptr_in_place(&mut self, read: SlotRead, vint: V, vcap: V) {
        self.m.stats.in_place_stores += 1;
        let ll = &self.m.ll;
        let plain = ll.append_block(self.new, "");
        let full = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        ll.cond_br_unlikely(read.boxed, full, plain);
        ll.position_at_end(plain);
        let st = ll.store(vint, read.addr, 8);
        ll.not_header(st);
        ll.set_ordering(st, LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic);
        ll.br(join);
        ll.position_at_end(full);
        self.store_ptr_full(read.addr, read.cap, vint, vcap);
        let ll = &self.m.ll;
        ll.br(join);
        ll.position_at_end(join);
    }

    /// Whether old instructions `load` and `store` are in one block, in
    /// that order, with nothing between them that may write memory (the
    /// program's stores and calls; a racing thread's stores are races the
    /// program has, which may tear a pointer anyway).
    fn nothing_written_between(&self, load: V, store: V) -> bool {
        use LLVMOpcode::*;
        let ll = &self.m.ll;
        let mut i = ll.next_instruction(load);
        while let Some(inst) = i {
            if inst == store {
                return true;
            }
            let harmless = match ll.opcode(inst) {
                LLVMGetElementPtr | LLVMLoad | LLVMBitCast | LLVMPtrToInt | LLVMIntToPtr
                | LLVMTrunc | LLVMZExt | LLVMSExt | LLVMAdd | LLVMSub | LLVMMul | LLVMShl
                | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor | LLVMICmp | LLVMSelect
                | LLVMExtractValue | LLVMFreeze => true,
                LLVMCall => ll.name(ll.called_value(inst)).starts_with("llvm.dbg."),
                _ => false,
            };
            if !harmless {
                return false;
            }
            i = ll.next_instruction(inst);
        }
        // The end of the load's block: the store is elsewhere.
        false
    }

    /// `memset(d, val, n)` of a constant whole number of words, inline:
    /// the access check, the fill, and the capabilities of the `n / 8`
    /// words nulled (when the object has shadow words). An address that is
    /// not 8-aligned touches one word more and goes to the runtime.
    /// (clang's `-ftrivial-auto-var-init=zero` clears every escaping local
    /// this way at its declaration: SQLite's 56-byte `Mem`s in each
    /// `sqlite3VdbeExec` opcode.)
    fn inline_memset(&mut self, d: Tx, val: V, n: u64, site: V) {
        let aligned = self.word_aligned(d.int);
        let ll = &self.m.ll;
        let cap = d.cap.unwrap_or_else(|| ll.null_ptr());
        let fast = ll.append_block(self.new, "");
        let slow = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        ll.cond_br(aligned, fast, slow);
        ll.position_at_end(slow);
        let val32 = ll.int_cast(val, ll.i32());
        call(
            ll,
            "gimso_memset_at",
            &[d.int, cap, val32, ll.i64c(n), site],
        );
        ll.br(join);
        ll.position_at_end(fast);
        self.check(d, n, 1, true);
        let ll = &self.m.ll;
        let val8 = ll.int_cast(val, ll.i8());
        let fill = ll.memset(d.int, val8, ll.i64c(n), 8);
        ll.not_header(fill);
        let (word, has) = self.shadow_word(d.int, cap);
        let ll = &self.m.ll;
        let clear = ll.append_block(self.new, "");
        ll.cond_br(has, clear, join);
        ll.position_at_end(clear);
        for k in 0..n / 8 {
            let st = ll.store(ll.i64c(0), ll.gep_i8c(word, k * 8), 8);
            ll.set_ordering(st, LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic);
            ll.not_header(st);
        }
        ll.br(join);
        ll.position_at_end(join);
    }

    /// Whether storing integer value `v` stores a capability with it: an
    /// `i64` the inference gave exactly one capability (a pointer copied
    /// as an integer, as the optimiser's `memcpy` lowering and SROA do;
    /// see the `inttoptr` module).
    fn carries_cap(&self, v: V) -> bool {
        let ll = &self.m.ll;
        let ty = ll.type_of(v);
        if ll.kind(ty) != LLVMTypeKind::LLVMIntegerTypeKind || ll.int_width(ty) != 64 {
            return false;
        }
        if self.const_ptrtoint(v).is_some() {
            return true;
        }
        if ll.value_kind(v) != LLVMValueKind::LLVMInstructionValueKind {
            return self.boundary_caps.contains_key(&v);
        }
        // SAFETY: `v` is a live instruction of the module.
        let iv = unsafe { InstructionValue::new(v) };
        matches!(self.inference.cap(iv), Cap::Definite(_))
    }

    /// Whether `addr` is 8-aligned (only such words hold capabilities).
    fn word_aligned(&self, addr: V) -> V {
        let ll = &self.m.ll;
        let low = ll.and(ll.ptrtoint(addr, ll.i64()), ll.i64c(7));
        ll.icmp(LLVMIntPredicate::LLVMIntEQ, low, ll.i64c(0))
    }

    /// The capability at rest in the word at `addr` (already checked for
    /// an 8-byte read through `cap`): null when `addr` is not 8-aligned,
    /// since only aligned words hold capabilities.
    fn word_cap(&mut self, addr: V, cap: V) -> V {
        let aligned = self.word_aligned(addr);
        let ll = &self.m.ll;
        let from = ll.insert_block();
        let read = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        ll.cond_br(aligned, read, join);
        ll.position_at_end(read);
        let (lower, was_box) = self.shadow_lower(addr, cap);
        let ll = &self.m.ll;
        let read_end = ll.insert_block();
        ll.br(join);
        ll.position_at_end(join);
        let phi = ll.phi(ll.ptr());
        ll.add_incoming(phi, ll.null_ptr(), from);
        ll.add_incoming(phi, lower, read_end);
        let boxed = ll.phi(ll.i1_ty());
        ll.add_incoming(boxed, ll.const_int(ll.i1_ty(), 0), from);
        ll.add_incoming(boxed, was_box, read_end);
        let at = self.cur_old;
        self.slot_caps.insert(
            phi,
            SlotRead {
                addr,
                cap,
                at,
                boxed,
            },
        );
        phi
    }

    /// Stores the word `vint` with capability `vcap` at `addr` (already
    /// checked for an 8-byte write through `cap`): as a pointer when
    /// `addr` is 8-aligned and `vcap` is not null, else as a plain integer,
    /// which leaves the capability at rest alone (the spec's integer store:
    /// a number that crossed a call, or was copied from a word without a
    /// capability, is stored as the number it is).
    fn store_word(&mut self, addr: V, cap: V, vint: V, vcap: V) {
        let ll = &self.m.ll;
        if ll.is_null_constant(vcap) {
            let s = ll.store(vint, addr, 1);
            ll.not_header(s);
            return;
        }
        let mut aligned = self.word_aligned(addr);
        let ll = &self.m.ll;
        if !ll.is_constant(vcap) {
            let has = ll.icmp(LLVMIntPredicate::LLVMIntNE, vcap, ll.null_ptr());
            aligned = ll.and(aligned, has);
        }
        let as_ptr = ll.append_block(self.new, "");
        let as_int = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        ll.cond_br(aligned, as_ptr, as_int);
        ll.position_at_end(as_ptr);
        let vptr = ll.inttoptr(vint, ll.ptr());
        self.inline_store_ptr(addr, cap, vptr, vcap);
        let ll = &self.m.ll;
        ll.br(join);
        ll.position_at_end(as_int);
        let s = ll.store(vint, addr, 1);
        ll.not_header(s);
        ll.br(join);
        ll.position_at_end(join);
    }

    // ---- CC buffers -------------------------------------------------------------

    /// Reads a value of `ty` from CC buffer offset `off`.
    fn read_buf(&mut self, ty: T, payload: V, caps: V, off: u64) -> Tx {
        buffers::read_value(&self.m.ll, ty, payload, caps, off)
    }

    /// Writes `v` of `ty` at CC buffer offset `off` (capability words of
    /// its span must already be zero).
    fn write_buf(&mut self, ty: T, v: Tx, payload: V, caps: V, off: u64) {
        buffers::write_value(&self.m.ll, ty, v, payload, caps, off);
    }

    fn zero_caps(&self, caps: V, bytes: u64) {
        buffers::zero_caps(&self.m.ll, caps, bytes);
    }
}

// ---- instructions ------------------------------------------------------------------

impl FnTx<'_, '_, '_> {
    fn translate(&mut self, inst: V) {
        use LLVMOpcode::*;
        let op = self.m.ll.opcode(inst);
        match op {
            LLVMPHI => self.tx_phi(inst),
            LLVMAlloca => self.tx_alloca(inst),
            LLVMLoad => self.tx_load(inst),
            LLVMStore => self.tx_store(inst),
            LLVMGetElementPtr => self.tx_gep(inst),
            LLVMPtrToInt => {
                let src = self.tx(self.m.ll.operand(inst, 0));
                if self.m.options.exposed_provenance {
                    self.expose(src);
                }
                let ty = self.m.ll.type_of(inst);
                let v = self.m.ll.ptrtoint(src.int, ty);
                self.set(inst, Tx::plain(v));
            }
            LLVMIntToPtr => self.tx_inttoptr(inst),
            LLVMBitCast | LLVMAddrSpaceCast if has_ptr(&self.m.ll, self.m.ll.type_of(inst)) => {
                let src = self.tx(self.m.ll.operand(inst, 0));
                self.set(inst, src);
            }
            LLVMFreeze => {
                let src = self.tx(self.m.ll.operand(inst, 0));
                self.set(inst, src);
            }
            LLVMSelect => self.tx_select(inst),
            LLVMExtractValue | LLVMInsertValue | LLVMExtractElement | LLVMInsertElement
            | LLVMShuffleVector => self.tx_aggregate_op(inst),
            LLVMCall | LLVMInvoke => self.tx_call(inst),
            LLVMRet => self.tx_ret(inst),
            LLVMBr | LLVMSwitch | LLVMIndirectBr => self.tx_branch(inst),
            LLVMUnreachable => {
                let site = self.site();
                call(&self.m.ll, "gimso_unreachable", &[site]);
                self.m.ll.unreachable();
            }
            LLVMAtomicCmpXchg => self.tx_cmpxchg(inst),
            LLVMAtomicRMW => self.tx_rmw(inst),
            LLVMLandingPad => self.tx_landingpad(inst),
            LLVMResume => {
                // The value is ignored (spec "Resume"): the exception in
                // flight is the runtime's.
                self.pop_frame();
                self.return_with(true, None);
            }
            LLVMVAArg => {
                self.error(
                    "va_arg",
                    "clang lowers va_arg itself on x86-64; this form is not supported yet",
                );
                let z = self.zero(self.m.ll.type_of(inst));
                self.set(inst, z);
            }
            _ => self.tx_generic(inst),
        }
    }

    /// Instructions with no pointer semantics: cloned with translated
    /// operands (pointer operands contribute their intval).
    fn tx_generic(&mut self, inst: V) {
        let mut n = self.m.ll.num_operands(inst);
        if matches!(
            self.m.ll.opcode(inst),
            LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke
        ) {
            n -= 1; // the callee (an intrinsic or inline asm) stays
        }
        let c = self.m.ll.clone_inst(inst);
        for i in 0..n {
            let o = self.m.ll.operand(inst, i);
            if self.m.ll.value_kind(o) == LLVMValueKind::LLVMMetadataAsValueValueKind {
                continue;
            }
            let t = self.tx(o);
            self.m.ll.set_operand(c, i, t.int);
        }
        self.m.ll.insert(c);
        let ty = self.m.ll.type_of(inst);
        let cap = has_ptr(&self.m.ll, ty).then(|| self.m.ll.zero(ty));
        self.set(inst, Tx { int: c, cap });
    }

    /// A call of (safe, [`crate::asm_safety`]) inline asm. A pointer
    /// result gets the capability of the first pointer input with the same
    /// address, else of the input tied to it, else none.
    fn tx_inline_asm(&mut self, inst: V, asm: V) {
        self.tx_generic(inst);
        let ll = &self.m.ll;
        let ty = ll.type_of(inst);
        if !has_ptr(ll, ty) {
            return;
        }
        // SAFETY: `asm` is a live `InlineAsm` value (checked by the caller).
        let (_, cons, _) = unsafe { crate::ir::inline_asm_parts(asm) };
        let tied = crate::asm_safety::tied_inputs(&crate::asm_safety::constraints(&cons));
        let nargs = ll.num_arg_operands(inst);
        let mut inputs = Vec::new();
        for i in 0..nargs {
            let a = self.m.ll.operand(inst, i);
            let t = self.tx(a);
            inputs.push(self.m.ll.is_ptr(self.m.ll.type_of(a)).then_some(t));
        }
        let int = self.vals[&inst].int;
        let ll = &self.m.ll;
        let cap_of = |v: V, out: usize| -> V {
            let ptr_input = |j: usize| inputs.get(j).copied().flatten();
            let mut cap = tied
                .get(out)
                .copied()
                .flatten()
                .and_then(ptr_input)
                .and_then(|t| t.cap)
                .unwrap_or_else(|| ll.null_ptr());
            for j in (0..inputs.len()).rev() {
                if let Some(Tx {
                    int: i,
                    cap: Some(c),
                }) = ptr_input(j)
                {
                    let same = ll.icmp(LLVMIntPredicate::LLVMIntEQ, v, i);
                    cap = ll.select(same, c, cap);
                }
            }
            cap
        };
        let cap = if ll.is_ptr(ty) {
            cap_of(int, 0)
        } else if ll.kind(ty) == LLVMTypeKind::LLVMStructTypeKind {
            let mut agg = ll.zero(ty);
            for (k, field) in ll.struct_fields(ty).into_iter().enumerate() {
                if ll.is_ptr(field) {
                    let v = ll.extract_value(int, k as u32);
                    agg = ll.insert_value(agg, cap_of(v, k), k as u32);
                }
            }
            agg
        } else {
            ll.zero(ty)
        };
        self.set(
            inst,
            Tx {
                int,
                cap: Some(cap),
            },
        );
    }

    fn tx_phi(&mut self, inst: V) {
        let ty = self.m.ll.type_of(inst);
        let int = self.m.ll.phi(ty);
        let carries = has_ptr(&self.m.ll, ty) || aggregate_carries(&self.m.ll, ty);
        let cap = carries.then(|| self.m.ll.phi(ty));
        let t = Tx { int, cap };
        self.phis.push((inst, t));
        self.set(inst, t);
        if self.merge_node(inst) {
            let cp = self.m.ll.phi(self.m.ll.ptr());
            self.int_cap_phis.push((inst, cp));
            self.intcaps.insert(inst, cp);
        }
    }

    /// Whether integer `inst` is a phi/select the inttoptr inference gave a
    /// capability of its own.
    fn merge_node(&self, inst: V) -> bool {
        // SAFETY: `inst` is a live instruction of the module.
        let iv = unsafe { InstructionValue::new(inst) };
        matches!(self.inference.cap(iv), Cap::Definite(Origin::Merge(x)) if x.as_value_ref() == inst)
    }

    /// The pointer constant `v` is `ptrtoint` of, if it is one: the
    /// optimiser stores a pointer constant as that integer (a local array
    /// initialised with string literals, its `memcpy` from a constant
    /// image folded to `store i64 ptrtoint (@.str)`), and the store must
    /// carry the pointer's capability as the `memcpy` would have.
    fn const_ptrtoint(&self, v: V) -> Option<V> {
        let ll = &self.m.ll;
        if ll.value_kind(v) != LLVMValueKind::LLVMConstantExprValueKind
            || ll.const_opcode(v) != LLVMOpcode::LLVMPtrToInt
        {
            return None;
        }
        let p = ll.operand(v, 0);
        ll.is_ptr(ll.type_of(p)).then_some(p)
    }

    /// The inferred capability of integer value `v` (null if none).
    fn int_cap(&mut self, v: V) -> V {
        if let Some(p) = self.const_ptrtoint(v) {
            return self.cap(p);
        }
        if self.m.ll.value_kind(v) != LLVMValueKind::LLVMInstructionValueKind {
            // A parameter: the capability its caller passed with it.
            return self.boundary_int_cap(v);
        }
        // SAFETY: `v` is a live instruction of the module.
        let iv = unsafe { InstructionValue::new(v) };
        match self.inference.cap(iv) {
            Cap::Definite(Origin::Pointer(p)) => {
                let pv = p.as_value_ref();
                if self.m.ll.is_ptr(self.m.ll.type_of(pv)) {
                    self.cap(pv)
                } else {
                    self.m.ll.null_ptr()
                }
            }
            Cap::Definite(Origin::Merge(x)) => self
                .intcaps
                .get(&x.as_value_ref())
                .copied()
                .unwrap_or_else(|| self.m.ll.null_ptr()),
            Cap::Definite(Origin::Loaded(l)) => self
                .load_caps
                .get(&l.as_value_ref())
                .copied()
                .unwrap_or_else(|| self.m.ll.null_ptr()),
            Cap::Definite(Origin::Boundary(x)) => self.boundary_int_cap(x.as_value_ref()),
            _ => self.m.ll.null_ptr(),
        }
    }

    /// The capability (as a pointer) that 64-bit integer `v` brought across
    /// a call, or null.
    fn boundary_int_cap(&self, v: V) -> V {
        self.boundary_caps
            .get(&v)
            .copied()
            .unwrap_or_else(|| self.m.ll.null_ptr())
    }

    /// Records `c`, the capability word (an `i64`) 64-bit integer `old`
    /// arrived with.
    fn note_boundary_int(&mut self, old: V, c: V) {
        let ll = &self.m.ll;
        let p = ll.inttoptr(c, ll.ptr());
        self.boundary_caps.insert(old, p);
    }

    /// A value that crossed a call (`old`: a parameter or a call) as read
    /// from the CC convention: the capability words of its 64-bit integers
    /// are kept aside for the inference's `Boundary` origins; a value
    /// without pointers goes on without a capability, as every such value.
    fn boundary_in(&mut self, old: V, t: Tx) -> Tx {
        let ll = &self.m.ll;
        let ty = ll.type_of(old);
        match t.cap {
            Some(c) if is_word_int(ll, ty) && ll.type_of(c) == ty => {
                self.note_boundary_int(old, c);
                Tx::plain(t.int)
            }
            _ => t,
        }
    }

    /// A value about to cross a call (an argument or the returned value)
    /// with the capability words of its 64-bit integers: a scalar's
    /// inferred capability; an aggregate carries its own (built by
    /// `insertvalue`, merged by phis and selects, or brought across a call).
    fn boundary_out(&mut self, old: V, t: Tx) -> Tx {
        let ll = &self.m.ll;
        let ty = ll.type_of(old);
        if !is_word_int(ll, ty) {
            return t;
        }
        let c = self.int_cap_word(old);
        Tx {
            int: t.int,
            cap: Some(c),
        }
    }

    /// [`FnTx::int_cap`] of 64-bit integer `v` as an integer (0 for none).
    fn int_cap_word(&mut self, v: V) -> V {
        let c = self.int_cap(v);
        let ll = &self.m.ll;
        if ll.is_null_constant(c) {
            ll.i64c(0)
        } else {
            ll.ptrtoint(c, ll.i64())
        }
    }

    /// After `extractvalue` `inst`: a 64-bit integer field of an aggregate
    /// that carries capabilities keeps that field's capability word.
    fn extract_boundary_cap(&mut self, inst: V) {
        let ll = &self.m.ll;
        if ll.opcode(inst) != LLVMOpcode::LLVMExtractValue
            || ll.indices(inst).len() != 1
            || !is_word_int(ll, ll.type_of(inst))
        {
            return;
        }
        let agg = ll.operand(inst, 0);
        let agg_ty = ll.type_of(agg);
        let Some(c) = self.tx(agg).cap else { return };
        let ll = &self.m.ll;
        if ll.type_of(c) != agg_ty || ll.kind(agg_ty) != LLVMTypeKind::LLVMStructTypeKind {
            return;
        }
        let i = ll.indices(inst)[0];
        let f = ll.extract_value(c, i);
        self.note_boundary_int(inst, f);
    }

    /// `ptrtoint` under exposed provenance: marks the object of `p` as
    /// exposed (a header flag test; the runtime call only the first time).
    fn expose(&mut self, p: Tx) {
        let Some(cap) = p.cap else { return };
        if self.m.ll.is_null_constant(cap) || self.m.ll.is_vector(self.m.ll.type_of(cap)) {
            return;
        }
        let ll = &self.m.ll;
        let null = ll.icmp(LLVMIntPredicate::LLVMIntEQ, cap, ll.null_ptr());
        self.guard(null, |s| {
            let ll = &s.m.ll;
            let aux = ll.load_header(ll.gep_i8c(cap, (-8i64) as u64));
            let flag = ll.and(aux, ll.i64c(gimso_abi::FLAG_EXPOSED));
            let set = ll.icmp(LLVMIntPredicate::LLVMIntNE, flag, ll.i64c(0));
            s.guard(set, |s| {
                call(&s.m.ll, "gimso_expose", &[cap]);
                false
            });
            false
        });
    }

    fn tx_inttoptr(&mut self, inst: V) {
        let src = self.m.ll.operand(inst, 0);
        let t = self.tx(src);
        let ty = self.m.ll.type_of(inst);
        let int = self.m.ll.inttoptr(t.int, ty);
        let cap = if self.m.ll.is_ptr(ty) {
            let inferred = self.int_cap(src);
            if self.m.ll.is_null_constant(inferred) && explain_inttoptr() {
                self.explain_null_inttoptr(inst, src);
            }
            if self.m.options.exposed_provenance {
                let ll = &self.m.ll;
                let addr = ll.int_cast(t.int, ll.i64());
                call(ll, "gimso_exposed_lower", &[inferred, addr])
            } else {
                inferred
            }
        } else {
            self.m.ll.zero(ty)
        };
        self.set(
            inst,
            Tx {
                int,
                cap: Some(cap),
            },
        );
    }

    /// `GIMSO_EXPLAIN_INTTOPTR`: says on stderr why an `inttoptr` of a
    /// non-constant gets the null capability (a debugging aid for programs
    /// that lose a pointer's capability through integers).
    fn explain_null_inttoptr(&self, inst: V, src: V) {
        let ll = &self.m.ll;
        if ll.is_constant(src) {
            return;
        }
        // SAFETY: `inst` is a live instruction of the module.
        let old = unsafe { InstructionValue::new(inst) };
        let why = match ll.value_kind(src) {
            LLVMValueKind::LLVMInstructionValueKind => {
                // SAFETY: `src` is a live instruction of the module.
                let s = unsafe { InstructionValue::new(src) };
                format!("{:?} ({:?})", self.inference.cap(s), s.get_opcode())
            }
            _ => "a parameter without a capability".to_string(),
        };
        explain_note(old, &format!("inttoptr gets the null capability: {why}"));
    }

    /// `GIMSO_EXPLAIN_INTTOPTR`: says on stderr that checked store `inst`
    /// stores 64-bit integer `v` with no capability, and why.
    fn explain_capless_store(&self, inst: V, v: V) {
        let ll = &self.m.ll;
        let ty = ll.type_of(v);
        if !is_word_int(ll, ty) || ll.value_kind(v) != LLVMValueKind::LLVMInstructionValueKind {
            return;
        }
        // SAFETY: live instructions of the module.
        let (s, v) = unsafe { (InstructionValue::new(inst), InstructionValue::new(v)) };
        let why = format!("{:?} ({:?})", self.inference.cap(v), v.get_opcode());
        explain_note(s, &format!("i64 stored without a capability: {why}"));
    }

    fn tx_select(&mut self, inst: V) {
        let ll = &self.m.ll;
        let (c, a, b) = (
            ll.operand(inst, 0),
            ll.operand(inst, 1),
            ll.operand(inst, 2),
        );
        let ty = ll.type_of(inst);
        let (tc, ta, tb) = (self.tx(c), self.tx(a), self.tx(b));
        let ll = &self.m.ll;
        let int = ll.select(tc.int, ta.int, tb.int);
        let cap = if has_ptr(ll, ty) || aggregate_carries(ll, ty) {
            let ca = self.cap(a);
            let cb = self.cap(b);
            Some(self.m.ll.select(tc.int, ca, cb))
        } else {
            None
        };
        self.set(inst, Tx { int, cap });
        if self.merge_node(inst) {
            let ca = self.int_cap(a);
            let cb = self.int_cap(b);
            let cond = self.m.ll.type_of(tc.int);
            let cs = if self.m.ll.is_vector(cond) {
                self.m.ll.null_ptr()
            } else {
                self.m.ll.select(tc.int, ca, cb)
            };
            self.intcaps.insert(inst, cs);
        }
    }

    fn tx_aggregate_op(&mut self, inst: V) {
        let ty = self.m.ll.type_of(inst);
        let n = self.m.ll.num_operands(inst);
        let int = self.m.ll.clone_inst(inst);
        let mut ops = Vec::new();
        for i in 0..n {
            let o = self.m.ll.operand(inst, i);
            let t = self.tx(o);
            self.m.ll.set_operand(int, i, t.int);
            ops.push((o, t));
        }
        self.m.ll.insert(int);
        let cap = if has_ptr(&self.m.ll, ty) || aggregate_carries(&self.m.ll, ty) {
            let c = self.m.ll.clone_inst(inst);
            use LLVMOpcode::*;
            let op = self.m.ll.opcode(inst);
            for (i, (o, t)) in ops.into_iter().enumerate() {
                let is_index = matches!((op, i), (LLVMExtractElement, 1) | (LLVMInsertElement, 2));
                let v = if is_index {
                    t.int
                } else if op == LLVMInsertValue
                    && i == 1
                    && is_word_int(&self.m.ll, self.m.ll.type_of(o))
                {
                    // A 64-bit integer field: its inferred capability.
                    self.int_cap_word(o)
                } else {
                    t.cap
                        .unwrap_or_else(|| self.m.ll.zero(self.m.ll.type_of(o)))
                };
                self.m.ll.set_operand(c, i as u32, v);
            }
            self.m.ll.insert(c);
            Some(c)
        } else {
            None
        };
        self.set(inst, Tx { int, cap });
        self.extract_boundary_cap(inst);
    }

    fn tx_alloca(&mut self, inst: V) {
        if self.vals.contains_key(&inst) {
            return; // a private stack slot, made in the prologue
        }
        let ll = &self.m.ll;
        let ty = ll.allocated_type(inst);
        let count = self.tx(self.m.ll.operand(inst, 0)).int;
        let ll = &self.m.ll;
        let count = ll.int_cast(count, ll.i64());
        let size = ll.mul(count, ll.i64c(ll.size_of(ty)));
        let align = stack_align(ll, inst);
        let r = call(ll, alloc_stack_fn(ll, inst), &[size, ll.i64c(align)]);
        let t = self.pair(r);
        if let Some(n) = ll.const_int_value(ll.operand(inst, 0)) {
            self.note_stack_object(t.cap, n.saturating_mul(ll.size_of(ty)));
        }
        self.m.stats.heap_allocas += 1;
        self.set(inst, t);
    }

    /// Records that `cap` is a stack object of `bytes` requested bytes,
    /// its exact bounds.
    fn note_stack_object(&mut self, cap: Option<V>, bytes: u64) {
        if let Some(cap) = cap {
            self.sized_caps.insert(cap, bytes);
        }
    }

    /// The private stack slot (with capabilities) `int` points into, and
    /// the offset.
    fn stack_root(&self, int: V) -> Option<(V, StackCaps, u64)> {
        let (root, off) = self.const_gep.get(&int).copied().unwrap_or((int, 0));
        let sc = *self.stack_caps.get(&root)?;
        Some((root, sc, u64::try_from(off).ok()?))
    }

    /// Where the capability of a `ptr` of type `ty` at `int` (inside a
    /// private stack slot with capabilities) is kept.
    fn stack_cap_word(&self, int: V, ty: T) -> Option<V> {
        let ll = &self.m.ll;
        let ptrs = ll.is_ptr(ty) || (ll.is_vector(ty) && ll.is_ptr(ll.elem_ty(ty)));
        if !ptrs {
            return None;
        }
        let (_, sc, off) = self.stack_root(int)?;
        Some(ll.gep_i8c(sc.caps, off))
    }

    /// Where the capability an `i64` at `int` may carry is kept, when `int`
    /// is a word of a private stack slot with capabilities.
    fn stack_int_word(&self, int: V, ty: T) -> Option<V> {
        let ll = &self.m.ll;
        if ll.kind(ty) != LLVMTypeKind::LLVMIntegerTypeKind || ll.int_width(ty) != 64 {
            return None;
        }
        let (_, sc, off) = self.stack_root(int)?;
        (off % 8 == 0).then(|| ll.gep_i8c(sc.caps, off))
    }

    /// An argument pointing into a private stack slot whose address
    /// escapes here: on a never-returning path the slot's one heap copy,
    /// made on first use from its values and capabilities; otherwise a
    /// fresh copy for this call, copied back when it returns.
    fn escaped_stack_arg(&mut self, t: Tx) -> Tx {
        if !self.trusted_ints.contains(&t.int) {
            return t;
        }
        let Some((root, sc, off)) = self.stack_root(t.int) else {
            return t;
        };
        if !self.cfg.is_doomed(self.cur_old_block) {
            // A call that returns: a fresh copy for it (one per slot, shared
            // by its arguments), copied back after it.
            let obj = match self.copied_for_call.iter().find(|(r, _)| *r == root) {
                Some(&(_, obj)) => obj,
                None => {
                    let ll = &self.m.ll;
                    let r = call(
                        ll,
                        "gimso_stack_copy_out",
                        &[root, sc.caps, ll.i64c(sc.size), ll.i64c(sc.align)],
                    );
                    let made = self.pair(r);
                    let obj = made.cap.unwrap_or(made.int);
                    self.copied_for_call.push((root, obj));
                    self.m.stats.escaped_stack_copies += 1;
                    obj
                }
            };
            return Tx {
                int: self.m.ll.gep_i8c(obj, off),
                cap: Some(obj),
            };
        }
        let Some(copy) = sc.copy else { return t };
        let ll = &self.m.ll;
        let from = ll.insert_block();
        let make = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        let cur = ll.load(ll.ptr(), copy, 8);
        let none = ll.icmp(
            LLVMIntPredicate::LLVMIntEQ,
            ll.ptrtoint(cur, ll.i64()),
            ll.i64c(0),
        );
        ll.cond_br(none, make, join);
        ll.position_at_end(make);
        let r = call(
            ll,
            "gimso_stack_copy_out",
            &[root, sc.caps, ll.i64c(sc.size), ll.i64c(sc.align)],
        );
        let made = self.pair(r);
        let ll = &self.m.ll;
        let made_cap = made.cap.unwrap_or(made.int);
        ll.store(made_cap, copy, 8);
        let made_at = ll.insert_block();
        ll.br(join);
        ll.position_at_end(join);
        let obj = ll.phi(ll.ptr());
        ll.add_incoming(obj, cur, from);
        ll.add_incoming(obj, made_cap, made_at);
        self.m.stats.escaped_stack_copies += 1;
        Tx {
            int: ll.gep_i8c(obj, off),
            cap: Some(obj),
        }
    }

    /// `llvm.memset` of a private stack slot (the escape analysis proved it
    /// constant and inside): done in place, clearing the capabilities of
    /// the words it touches.
    fn memset_private(&mut self, inst: V) -> bool {
        let d = self.arg(inst, 0);
        if !self.trusted_ints.contains(&d.int) {
            return false;
        }
        let v = self.arg(inst, 1);
        let len = self.arg(inst, 2);
        let ll = &self.m.ll;
        let Some(len) = ll.const_int_value(len.int) else {
            return false;
        };
        ll.memset(d.int, ll.int_cast(v.int, ll.i8()), ll.i64c(len), 1);
        if let Some((_, sc, off)) = self.stack_root(d.int) {
            let (first, end) = (off / 8, (off + len).div_ceil(8));
            if end > first {
                let ll = &self.m.ll;
                let at = ll.gep_i8c(sc.caps, first * 8);
                ll.memset(at, ll.const_int(ll.i8(), 0), ll.i64c((end - first) * 8), 8);
            }
        }
        true
    }

    fn tx_load(&mut self, inst: V) {
        let ll = &self.m.ll;
        let ty = ll.type_of(inst);
        let p = self.tx(ll.operand(inst, 0));
        let ll = &self.m.ll;
        let ordering = ll.ordering(inst);
        let atomic = ordering != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic;
        let volatile = ll.is_volatile(inst);
        let ir_align = ll.alignment(inst);
        let size = ll.store_size_of(ty);
        let mut align = required_align(ll, ty, ir_align);
        if atomic {
            align = align.max(u64::from(ir_align));
        }
        if self.trusted_ints.contains(&p.int) {
            let v = self.m.ll.load(ty, p.int, 1);
            if let Some(word) = self.stack_cap_word(p.int, ty) {
                let cap = self.m.ll.load(ty, word, 8);
                self.set(
                    inst,
                    Tx {
                        int: v,
                        cap: Some(cap),
                    },
                );
                return;
            }
            if self.needed_loads.contains(&inst) {
                if let Some(word) = self.stack_int_word(p.int, ty) {
                    let ll = &self.m.ll;
                    let cap = ll.load(ll.ptr(), word, 8);
                    self.load_caps.insert(inst, cap);
                }
            }
            self.set(inst, Tx::plain(v));
            return;
        }
        self.check(p, size, align, false);
        if !atomic && !volatile && self.capability_unused(inst) {
            // Compared or jumped to only: the value without its shadow word.
            let ll = &self.m.ll;
            let v = ll.load(ty, p.int, align as u32);
            ll.not_header(v);
            self.m.stats.capless_loads += 1;
            self.set(
                inst,
                Tx {
                    int: v,
                    cap: Some(ll.null_ptr()),
                },
            );
            return;
        }
        let carried = !atomic && !volatile && aggregate_carries(&self.m.ll, ty);
        if !has_ptr(&self.m.ll, ty) && !carried {
            let ll = &self.m.ll;
            let v = ll.load(ty, p.int, align as u32);
            ll.not_header(v);
            ll.set_volatile(v, volatile);
            if atomic {
                ll.set_ordering(v, ordering);
            }
            self.set(inst, Tx::plain(v));
            if self.needed_loads.contains(&inst) {
                let cap = p.cap.unwrap_or_else(|| self.m.ll.null_ptr());
                let c = self.word_cap(p.int, cap);
                self.load_caps.insert(inst, c);
            }
            return;
        }
        let mut t = self.load_value(ty, p, atomic);
        if self.m.options.exposed_provenance && self.m.ll.is_ptr(ty) {
            t = self.recover_exposed(t);
        }
        self.set(inst, t);
    }

    /// A pointer loaded from memory under exposed provenance: bytes stored
    /// as an integer (no capability at rest) and read back as a pointer are
    /// an integer-to-pointer conversion, so a non-null value without a
    /// capability takes that of the exposed object at its address.
    fn recover_exposed(&mut self, t: Tx) -> Tx {
        let Some(cap) = t.cap else { return t };
        let ll = &self.m.ll;
        let no_cap = ll.icmp(LLVMIntPredicate::LLVMIntEQ, cap, ll.null_ptr());
        let nonnull = ll.icmp(LLVMIntPredicate::LLVMIntNE, t.int, ll.null_ptr());
        let need = ll.and(no_cap, nonnull);
        let from = ll.insert_block();
        let slow = ll.append_block(self.new, "");
        let cont = ll.append_block(self.new, "");
        ll.cond_br_unlikely(need, slow, cont);
        ll.position_at_end(slow);
        let addr = ll.ptrtoint(t.int, ll.i64());
        let found = call(ll, "gimso_exposed_lower", &[cap, addr]);
        ll.br(cont);
        ll.position_at_end(cont);
        let phi = ll.phi(ll.ptr());
        ll.add_incoming(phi, cap, from);
        ll.add_incoming(phi, found, slow);
        Tx {
            int: t.int,
            cap: Some(phi),
        }
    }

    fn tx_store(&mut self, inst: V) {
        let ll = &self.m.ll;
        let (vo, po) = (ll.operand(inst, 0), ll.operand(inst, 1));
        let ty = ll.type_of(vo);
        let v = self.tx(vo);
        let p = self.tx(po);
        let ll = &self.m.ll;
        let ordering = ll.ordering(inst);
        let atomic = ordering != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic;
        let volatile = ll.is_volatile(inst);
        let ir_align = ll.alignment(inst);
        let size = ll.store_size_of(ty);
        let mut align = required_align(ll, ty, ir_align);
        if atomic {
            align = align.max(u64::from(ir_align));
        }
        if self.trusted_ints.contains(&p.int) {
            self.m.ll.store(v.int, p.int, 1);
            if let Some(word) = self.stack_cap_word(p.int, ty) {
                let ll = &self.m.ll;
                ll.store(v.cap.unwrap_or_else(|| ll.zero(ty)), word, 8);
            } else if let Some(word) = self.stack_int_word(p.int, ty) {
                // SAFETY: `inst` is a live store instruction of the module.
                let in_place = self
                    .inference
                    .rewrites_in_place(unsafe { InstructionValue::new(inst) });
                if self.carries_cap(vo) && !in_place {
                    let c = self.int_cap(vo);
                    self.m.ll.store(c, word, 8);
                }
            }
            return;
        }
        self.check(p, size, align, true);
        if explain_inttoptr() && !self.carries_cap(vo) {
            self.explain_capless_store(inst, vo);
        }
        // SAFETY: `inst` is a live store instruction of the module.
        let in_place = self
            .inference
            .rewrites_in_place(unsafe { InstructionValue::new(inst) });
        if !atomic && !volatile && self.carries_cap(vo) && !in_place {
            let pcap = p.cap.unwrap_or_else(|| self.m.ll.null_ptr());
            let vcap = self.int_cap(vo);
            self.store_word(p.int, pcap, v.int, vcap);
            return;
        }
        let carried = !atomic && !volatile && v.cap.is_some() && aggregate_carries(&self.m.ll, ty);
        if !has_ptr(&self.m.ll, ty) && !carried {
            let ll = &self.m.ll;
            let s = ll.store(v.int, p.int, align as u32);
            ll.not_header(s);
            ll.set_volatile(s, volatile);
            if atomic {
                ll.set_ordering(s, ordering);
            }
            return;
        }
        self.store_value(ty, v, p, atomic);
    }

    fn tx_gep(&mut self, inst: V) {
        let ll = &self.m.ll;
        let n = ll.num_operands(inst);
        let base_v = ll.operand(inst, 0);
        let base = self.tx(base_v);
        let mut idx = Vec::new();
        let mut all_const = true;
        for i in 1..n {
            let o = self.m.ll.operand(inst, i);
            if self.m.ll.const_int_value(o).is_none() {
                all_const = false;
            }
            idx.push(self.tx(o).int);
        }
        let ll = &self.m.ll;
        let src = ll.gep_source_type(inst);
        let ty = ll.type_of(inst);
        let int = match self.indexed_gep(inst, base.int, &idx) {
            Some(int) => int,
            None => self.m.ll.gep(src, base.int, &idx),
        };
        let ll = &self.m.ll;
        let mut cap = base.cap.unwrap_or_else(|| ll.null_ptr());
        if ll.is_vector(ty) && !ll.is_vector(ll.type_of(cap)) {
            let lanes = ll.vector_len(ty);
            let mut v = ll.zero(ty);
            for i in 0..u64::from(lanes) {
                v = ll.insert_element(v, cap, ll.i32c(i));
            }
            cap = v;
        }
        if all_const && self.trusted_ints.contains(&base.int) {
            self.trusted_ints.insert(int);
        }
        let vector = ll.is_vector(ty);
        if !all_const && !vector && !self.const_gep.contains_key(&int) {
            self.note_var_gep(inst, int, base.int, src, &idx);
        }
        let ll = &self.m.ll;
        if all_const && !ll.is_vector(ty) {
            if let Some(off) = self.m.ll.const_gep_offset(src, &idx) {
                let (root, at) = self
                    .const_gep
                    .get(&base.int)
                    .copied()
                    .unwrap_or((base.int, 0));
                if let Some(total) = at.checked_add(off) {
                    self.const_gep.insert(int, (root, total));
                }
            }
        }
        self.set(
            inst,
            Tx {
                int,
                cap: Some(cap),
            },
        );
    }

    /// Records `int` (the new GEP of old `inst` on `base`) as at or above
    /// a constant offset from its base's root when its one variable index
    /// is non-negative and small.
    fn note_var_gep(&mut self, inst: V, int: V, base: V, src: T, idx: &[V]) {
        let ll = &self.m.ll;
        let vars: Vec<usize> = (0..idx.len())
            .filter(|&i| ll.const_int_value(ll.operand(inst, i as u32 + 1)).is_none())
            .collect();
        let [at] = vars[..] else { return };
        if index_range::nonneg_bound(ll, ll.operand(inst, at as u32 + 1)).is_none() {
            return;
        }
        let Some(min) = index_range::min_offset(ll, src, idx, at) else {
            return;
        };
        let (root, off) = self.const_gep.get(&base).copied().unwrap_or((base, 0));
        if let Some(total) = off.checked_add(min) {
            self.var_gep.insert(int, (root, total));
        }
    }

    fn tx_cmpxchg(&mut self, inst: V) {
        let ll = &self.m.ll;
        let (po, eo, no) = (
            ll.operand(inst, 0),
            ll.operand(inst, 1),
            ll.operand(inst, 2),
        );
        let ty = ll.type_of(eo);
        let size = ll.store_size_of(ty);
        let weak = ll.cmpxchg_weak(inst);
        let p = self.tx(po);
        let e = self.tx(eo);
        let nv = self.tx(no);
        self.check(p, size, size.max(1), true);
        let ll = &self.m.ll;
        if ll.is_ptr(ty) {
            let rty = ll.struct_ty(&[ll.ptr(), ll.ptr(), ll.i64()]);
            let slot = self.entry_alloca(rty);
            let ll = &self.m.ll;
            let pcap = p.cap.unwrap_or_else(|| ll.null_ptr());
            let ncap = nv.cap.unwrap_or_else(|| ll.null_ptr());
            let exp = ll.ptrtoint(e.int, ll.i64());
            call(
                ll,
                "gimso_atomic_cmpxchg_ptr",
                &[
                    slot,
                    p.int,
                    pcap,
                    exp,
                    nv.int,
                    ncap,
                    ll.i32c(u64::from(weak)),
                ],
            );
            let r = ll.load(rty, slot, 8);
            let old_int = ll.extract_value(r, 0);
            let old_cap = ll.extract_value(r, 1);
            let ok = ll.extract_value(r, 2);
            let ok = ll.icmp(LLVMIntPredicate::LLVMIntNE, ok, ll.i64c(0));
            let res_ty = ll.type_of(inst);
            let int = ll.insert_value(ll.zero(res_ty), old_int, 0);
            let int = ll.insert_value(int, ok, 1);
            let cap = ll.insert_value(ll.zero(res_ty), old_cap, 0);
            self.set(
                inst,
                Tx {
                    int,
                    cap: Some(cap),
                },
            );
            return;
        }
        let c = ll.clone_inst(inst);
        ll.set_operand(c, 0, p.int);
        ll.set_operand(c, 1, e.int);
        ll.set_operand(c, 2, nv.int);
        ll.insert(c);
        self.set(inst, Tx::plain(c));
    }

    fn tx_rmw(&mut self, inst: V) {
        let ll = &self.m.ll;
        let (po, vo) = (ll.operand(inst, 0), ll.operand(inst, 1));
        let ty = ll.type_of(vo);
        let size = ll.store_size_of(ty);
        let p = self.tx(po);
        let v = self.tx(vo);
        self.check(p, size, size.max(1), true);
        let ll = &self.m.ll;
        if ll.is_ptr(ty) {
            // LLVM 16 only has xchg on pointers.
            let pcap = p.cap.unwrap_or_else(|| ll.null_ptr());
            let vcap = v.cap.unwrap_or_else(|| ll.null_ptr());
            let r = call(ll, "gimso_atomic_xchg_ptr", &[p.int, pcap, v.int, vcap]);
            let t = self.pair(r);
            self.set(inst, t);
            return;
        }
        let c = ll.clone_inst(inst);
        ll.set_operand(c, 0, p.int);
        ll.set_operand(c, 1, v.int);
        ll.insert(c);
        self.set(inst, Tx::plain(c));
    }

    /// `&base[i].f...` (a variable first index, constant field indices) as
    /// `&base[i]` plus a constant: `&base[i]` made once per original block
    /// and element type, so every field of one element shares a root (for
    /// check merging and widening; [`widen::root_of`] finds the same).
    fn indexed_gep(&mut self, inst: V, base: V, idx: &[V]) -> Option<V> {
        let ll = &self.m.ll;
        if ll.is_vector(ll.type_of(inst)) {
            return None;
        }
        let src = ll.gep_source_type(inst);
        let off = widen::element_offset(ll, src, idx)?;
        let (&first, rest) = idx.split_first()?;
        let key = (self.cur_old_block, base, first, src);
        let element = match self.indexed_roots.get(&key) {
            Some(&e) => e,
            None => {
                let e = ll.gep(src, base, &[first]);
                self.indexed_roots.insert(key, e);
                e
            }
        };
        if rest.is_empty() {
            return Some(element);
        }
        let ll = &self.m.ll;
        let int = ll.gep_i8(element, ll.i64c(off as u64));
        self.const_gep.insert(int, (element, off));
        Some(int)
    }

    /// Whether the pointer loaded by `inst` is only compared (`icmp`),
    /// jumped to (`indirectbr`, a computed goto's dispatch table) or
    /// subtracted from another pointer (`ptrtoint` feeding only compares and
    /// `sub`s with a second pointer's `ptrtoint`, as in `top - base`), or
    /// offset and then only compared (`o != &G(L)->nilvalue`): all
    /// use its address alone, so its capability need not be read. (A
    /// difference of two pointers carries no capability under `inttoptr`
    /// inference: the two origins differ.)
    fn capability_unused(&self, inst: V) -> bool {
        let ll = &self.m.ll;
        if ll.kind(ll.type_of(inst)) != LLVMTypeKind::LLVMPointerTypeKind {
            return false;
        }
        let other_pointer = |v: V| {
            // (`opcode` is 0 for arguments and constants.)
            ll.opcode(v) == LLVMOpcode::LLVMPtrToInt && ll.operand(v, 0) != inst
        };
        let address_only = |int: V| {
            let users = ll.users(int);
            !users.is_empty()
                && users.iter().all(|&u| match ll.opcode(u) {
                    LLVMOpcode::LLVMICmp => true,
                    LLVMOpcode::LLVMSub => {
                        let (a, b) = (ll.operand(u, 0), ll.operand(u, 1));
                        (a == int && other_pointer(b)) || (b == int && other_pointer(a))
                    }
                    _ => false,
                })
        };
        let users = ll.users(inst);
        !users.is_empty()
            && users.iter().all(|&u| match ll.opcode(u) {
                LLVMOpcode::LLVMICmp | LLVMOpcode::LLVMIndirectBr => true,
                LLVMOpcode::LLVMPtrToInt => address_only(u),
                LLVMOpcode::LLVMGetElementPtr => {
                    ll.operand(u, 0) == inst && only_compared(ll, u, 4)
                }
                _ => false,
            })
    }

    /// A scratch alloca in the entry block.
    fn entry_alloca(&mut self, ty: T) -> V {
        self.m.ll.entry_alloca(self.new, ty)
    }
}

// ---- calls ----------------------------------------------------------------------------

impl FnTx<'_, '_, '_> {
    /// A call; private stack slots whose address it gets (a copy each) are
    /// copied back when it returns.
    fn tx_call(&mut self, inst: V) {
        self.copied_for_call.clear();
        self.tx_call_inner(inst);
        let copies = std::mem::take(&mut self.copied_for_call);
        if copies.is_empty() {
            return;
        }
        let site = self.site();
        for (root, obj) in copies {
            // Back into the slot, values and capabilities: the copy-in of
            // byval arguments, from the copy into the frame's slot.
            let sc = self.stack_caps[&root];
            let ll = &self.m.ll;
            call(
                ll,
                "gimso_cc_copy_in",
                &[root, sc.caps, obj, obj, ll.i64c(sc.size), site],
            );
        }
    }

    fn tx_call_inner(&mut self, inst: V) {
        let callee = self.m.ll.called_value(inst);
        if self.call_forgets_checks(inst) {
            self.checked.clear();
        }
        if is_a(self.m, callee, LLVMIsAInlineAsm) {
            self.tx_inline_asm(inst, callee);
            return;
        }
        if is_a(self.m, callee, LLVMIsAFunction) && self.m.ll.name(callee).starts_with("llvm.") {
            self.tx_intrinsic(inst, callee);
            return;
        }
        if is_a(self.m, callee, LLVMIsAFunction)
            && unwinding::SETJMP_NAMES.contains(&self.m.ll.name(callee).as_str())
            && self.m.ll.opcode(inst) == LLVMOpcode::LLVMCall
        {
            self.tx_setjmp(inst);
            return;
        }
        let ll = &self.m.ll;
        let fnty = ll.called_fn_type(inst);
        let nargs = ll.num_arg_operands(inst);
        let mut types = Vec::new();
        let mut byval = Vec::new();
        for i in 0..nargs {
            let a = ll.operand(inst, i);
            let bv = ll.call_type_attr(inst, i, "byval");
            byval.push(bv);
            types.push(bv.unwrap_or(ll.type_of(a)));
        }
        let site = self.site();
        // Evaluate the callee and arguments before touching the buffers.
        let mut args = Vec::new();
        for i in 0..nargs {
            let a = self.m.ll.operand(inst, i);
            let t = self.tx(a);
            let t = self.escaped_stack_arg(t);
            args.push(self.boundary_out(a, t));
        }
        // A weak declaration may be null: called through its pointer, so
        // the call check reports a call of an undefined one.
        let weak = is_a(self.m, callee, LLVMIsAFunction)
            && self.m.ll.linkage(callee) == LLVMLinkage::LLVMExternalWeakLinkage;
        if !weak && !byval.iter().any(Option::is_some) && is_a(self.m, callee, LLVMIsAFunction) {
            if let Some(w) = self.m.wrapper_entry(callee, fnty) {
                self.wrapper_direct_call(inst, w, &args);
                return;
            }
            let target = self.m.direct_callee(callee, fnty);
            // Making a thunk moved the builder's location.
            self.set_loc(inst);
            if let Some(target) = target {
                self.direct_call(inst, target, fnty, &args);
                return;
            }
        }
        let (entry, lower, indirect) = if let Some(&(entry, obj)) = self
            .m
            .fn_map
            .get(&callee)
            .filter(|_| !weak && is_a(self.m, callee, LLVMIsAFunction))
        {
            (entry, self.m.ll.const_gep_i8(obj, 16), false)
        } else {
            let f = self.tx(callee);
            let cap = f.cap.unwrap_or_else(|| self.m.ll.null_ptr());
            self.check_call(f.int, cap, site);
            (f.int, cap, true)
        };
        let fast = indirect
            && self.m.options.direct_calls
            && self.m.ll.opcode(inst) == LLVMOpcode::LLVMCall
            && !byval.iter().any(Option::is_some)
            && direct::signature_ok(&self.m.ll, fnty);
        if !fast {
            let t = self.generic_call(inst, entry, lower, &types, &byval, args, site);
            self.finish_call(inst, t);
            return;
        }
        // A function pointer: the callee's object records its direct body
        // and the hash of its type; a call of that very type goes to the
        // body in registers, any other through the generic entry (which
        // checks sizes as before).
        self.m.stats.indirect_fast_paths += 1;
        let ll = &self.m.ll;
        let hash_at = gimso_abi::FUNCTION_TYPE_HASH_OFFSET as u64;
        let hash = ll.load(ll.i64(), ll.gep_i8c(lower, hash_at), 8);
        let same = ll.icmp(
            LLVMIntPredicate::LLVMIntEQ,
            hash,
            ll.i64c(direct::type_hash(ll, fnty)),
        );
        let (to_body, to_entry, join) = (
            ll.append_block(self.new, ""),
            ll.append_block(self.new, ""),
            ll.append_block(self.new, ""),
        );
        ll.cond_br_likely(same, to_body, to_entry);
        ll.position_at_end(to_body);
        let body_at = gimso_abi::FUNCTION_BODY_OFFSET as u64;
        let body = ll.load(ll.ptr(), ll.gep_i8c(lower, body_at), 8);
        let direct_t = self.call_body(inst, body, fnty, &args);
        let direct_end = self.m.ll.insert_block();
        self.m.ll.br(join);
        self.m.ll.position_at_end(to_entry);
        let generic_t = self.generic_call(inst, entry, lower, &types, &byval, args, site);
        let generic_end = self.m.ll.insert_block();
        let ll = &self.m.ll;
        ll.br(join);
        ll.position_at_end(join);
        if direct_t.is_none() && generic_t.is_none() {
            return;
        }
        let ty = ll.fn_ret(fnty);
        let merge = |a: Option<V>, b: Option<V>| {
            let phi = ll.phi(ty);
            ll.add_incoming(phi, a.unwrap_or_else(|| ll.zero(ty)), direct_end);
            ll.add_incoming(phi, b.unwrap_or_else(|| ll.zero(ty)), generic_end);
            phi
        };
        let int = merge(direct_t.map(|t| t.int), generic_t.map(|t| t.int));
        let (dc, gc) = (direct_t.and_then(|t| t.cap), generic_t.and_then(|t| t.cap));
        let cap = (dc.is_some() || gc.is_some()).then(|| merge(dc, gc));
        self.set(inst, Tx { int, cap });
    }

    /// A call through the generic entry `entry` of the function object
    /// `lower`: the arguments through the CC buffers, the result read back
    /// (after the size check). Returns the result; leaves invoke edges to
    /// the caller.
    #[allow(clippy::too_many_arguments)]
    fn generic_call(
        &mut self,
        inst: V,
        entry: V,
        lower: V,
        types: &[T],
        byval: &[Option<T>],
        args: Vec<Tx>,
        site: V,
    ) -> Option<Tx> {
        let layout = cc_layout(&self.m.ll, types);
        let fnty = self.m.ll.called_fn_type(inst);
        let (payload, caps) = self.write_buffers(layout.bytes);
        self.zero_caps(caps, layout.bytes);
        for (i, t) in args.into_iter().enumerate() {
            let off = layout.offsets[i];
            if let Some(bt) = byval[i] {
                let ll = &self.m.ll;
                let size = ll.size_of(bt);
                let pp = ll.gep_i8c(payload, off);
                let cp = ll.gep_i8c(caps, off);
                let cap = t.cap.unwrap_or_else(|| ll.null_ptr());
                call(
                    ll,
                    "gimso_cc_copy_in",
                    &[pp, cp, t.int, cap, ll.i64c(size), site],
                );
            } else {
                self.write_buf(types[i], t, payload, caps, off);
            }
        }
        self.set_frame_lsda(inst);
        let ll = &self.m.ll;
        let r = ll.call(
            entry_type(ll),
            entry,
            &[self.thread, lower, ll.i64c(layout.bytes)],
        );
        self.unwind_check(inst, r);
        let ll = &self.m.ll;
        let ret_ty = ll.fn_ret(fnty);
        let expected = ret_bytes(ll, ret_ty);
        if expected == 0 {
            return None;
        }
        let got = ll.extract_value(r, 1);
        let ok = ll.icmp(LLVMIntPredicate::LLVMIntUGE, got, ll.i64c(expected));
        let exp = ll.i64c(expected);
        self.guard(ok, |s| {
            call(&s.m.ll, "gimso_ret_size_failed", &[exp, got, site]);
            s.m.ll.unreachable();
            true
        });
        let (payload, caps) = self.arg_buffers(got);
        Some(self.read_buf(ret_ty, payload, caps, 0))
    }

    /// A call through a direct entry ([`super::direct`]): arguments and
    /// result in registers.
    fn direct_call(&mut self, inst: V, target: V, fnty: T, args: &[Tx]) {
        self.m.stats.direct_calls += 1;
        let t = self.call_body(inst, target, fnty, args);
        self.finish_call(inst, t);
    }

    /// A call of a C library wrapper through its register entry
    /// (`gimso.fn.NAME.direct`): the C prototype with each pointer, argument
    /// or result, as an (intval, capability) pair; no CC buffers, no
    /// exception word (wrappers never unwind).
    fn wrapper_direct_call(&mut self, inst: V, w: &gimso_abi::DirectWrapper, args: &[Tx]) {
        self.m.stats.wrapper_direct_calls += 1;
        let ll = &self.m.ll;
        let fnty = ll.called_fn_type(inst);
        let is_ptr = |t: T| ll.kind(t) == LLVMTypeKind::LLVMPointerTypeKind;
        let (mut params, mut values) = (Vec::new(), Vec::new());
        for (&ty, t) in ll.fn_params(fnty).iter().zip(args) {
            params.push(ty);
            values.push(t.int);
            if is_ptr(ty) {
                params.push(ty);
                values.push(t.cap.unwrap_or_else(|| ll.null_ptr()));
            }
        }
        let ret = ll.fn_ret(fnty);
        let rty = if is_ptr(ret) {
            ll.struct_ty(&[ret, ret])
        } else {
            ret
        };
        let entry_ty = ll.fn_ty(rty, &params, false);
        let f = ll
            .get_function(w.symbol)
            .unwrap_or_else(|| ll.runtime_fn(w.symbol, entry_ty));
        let r = ll.call(entry_ty, f, &values);
        let t = if ll.kind(ret) == LLVMTypeKind::LLVMVoidTypeKind {
            None
        } else if is_ptr(ret) {
            Some(Tx {
                int: ll.extract_value(r, 0),
                cap: Some(ll.extract_value(r, 1)),
            })
        } else {
            Some(Tx::plain(r))
        };
        self.finish_call(inst, t);
    }

    /// Calls direct body `target` (of original type `fnty`) for `inst`;
    /// returns its result. Leaves invoke edges to the caller.
    fn call_body(&mut self, inst: V, target: V, fnty: T, args: &[Tx]) -> Option<Tx> {
        self.set_frame_lsda(inst);
        let ll = &self.m.ll;
        let values = direct::direct_args(ll, fnty, self.thread, args);
        let r = ll.call(direct::direct_type(ll, fnty), target, &values);
        self.unwind_check(inst, r);
        direct::direct_value(&self.m.ll, fnty, r)
    }

    /// Gives call `inst` its result and, for an invoke, the edge to its
    /// normal destination.
    fn finish_call(&mut self, inst: V, t: Option<Tx>) {
        if let Some(t) = t {
            let t = self.boundary_in(inst, t);
            self.set(inst, t);
        }
        if self.m.ll.opcode(inst) == LLVMOpcode::LLVMInvoke {
            let normal = self.m.ll.successors(inst)[0];
            self.edge_to(normal);
        }
    }

    /// The generic entry of a function with a direct body: checks the
    /// argument size, reads the CC buffers, calls the body and writes its
    /// result back (or returns unwinding).
    fn emit_generic_entry(&mut self, generic: V) {
        let site = self.site_for_function();
        let body = self.new;
        self.new = generic;
        self.thread = self.m.ll.param(generic, 0);
        let arg_bytes = self.m.ll.param(generic, 2);
        let ll = &self.m.ll;
        let entry = ll.append_block(generic, "gimso.entry");
        ll.position_at_end(entry);
        ll.set_debug_loc(std::ptr::null_mut());
        let fnty = ll.function_type_of(self.old);
        let types = ll.fn_params(fnty);
        let layout = cc_layout(ll, &types);
        if layout.bytes > 0 {
            let ok = ll.icmp(
                LLVMIntPredicate::LLVMIntUGE,
                arg_bytes,
                ll.i64c(layout.bytes),
            );
            let needed = ll.i64c(layout.bytes);
            self.guard(ok, |s| {
                call(&s.m.ll, "gimso_arg_size_failed", &[needed, arg_bytes, site]);
                s.m.ll.unreachable();
                true
            });
        }
        let (payload, caps) = self.arg_buffers(arg_bytes);
        let mut args = Vec::new();
        for (i, &ty) in types.iter().enumerate() {
            let t = self.read_buf(ty, payload, caps, layout.offsets[i]);
            let t = if self.m.options.exposed_provenance && self.m.ll.is_ptr(ty) {
                // Passed as an integer by a caller of another type.
                self.recover_exposed(t)
            } else {
                t
            };
            args.push(t);
        }
        let ll = &self.m.ll;
        let values = direct::direct_args(ll, fnty, self.thread, &args);
        let r = ll.call(direct::direct_type(ll, fnty), body, &values);
        let threw = ll.icmp(
            LLVMIntPredicate::LLVMIntNE,
            ll.extract_value(r, 0),
            ll.i64c(0),
        );
        let (exc, cont) = (ll.append_block(generic, ""), ll.append_block(generic, ""));
        ll.cond_br(threw, exc, cont);
        ll.position_at_end(exc);
        ll.ret(ll.const_struct(&[ll.i64c(1), ll.i64c(0)]));
        ll.position_at_end(cont);
        let ret_ty = ll.fn_ret(fnty);
        let bytes = ret_bytes(ll, ret_ty);
        if let Some(t) = direct::direct_value(ll, fnty, r) {
            let (payload, caps) = self.write_buffers(bytes);
            self.zero_caps(caps, bytes);
            self.write_buf(ret_ty, t, payload, caps, 0);
        }
        let ll = &self.m.ll;
        ll.ret(ll.const_struct(&[ll.i64c(0), ll.i64c(bytes)]));
    }

    /// The inline call check: a function capability whose entry word is
    /// the intval; the runtime reports anything else.
    fn check_call(&mut self, int: V, cap: V, site: V) {
        let ll = &self.m.ll;
        let i64 = ll.i64();
        let nonnull = ll.icmp(
            LLVMIntPredicate::LLVMIntNE,
            ll.ptrtoint(cap, i64),
            ll.i64c(0),
        );
        let hdr = ll.append_block(self.new, "");
        let bad = ll.append_block(self.new, "");
        let cont = ll.append_block(self.new, "");
        ll.cond_br(nonnull, hdr, bad);
        ll.position_at_end(hdr);
        let aux = ll.load_header(ll.gep_i8(cap, ll.const_int(i64, (-8i64) as u64)));
        let kind = ll.and(aux, ll.i64c(gimso_abi::SPECIAL_MASK));
        let function = (gimso_abi::SpecialKind::Function as u64) << gimso_abi::SPECIAL_SHIFT;
        let is_fn = ll.icmp(LLVMIntPredicate::LLVMIntEQ, kind, ll.i64c(function));
        let entry = ll.load_header(cap);
        let same = ll.icmp(LLVMIntPredicate::LLVMIntEQ, entry, ll.ptrtoint(int, i64));
        ll.cond_br(ll.and(is_fn, same), cont, bad);
        ll.position_at_end(bad);
        call(ll, "gimso_check_call_at", &[int, cap, site]);
        ll.br(cont);
        ll.position_at_end(cont);
    }

    fn tx_ret(&mut self, inst: V) {
        if self.m.ll.num_operands(inst) == 0 {
            self.pop_frame();
            self.return_with(false, None);
            return;
        }
        let ll = &self.m.ll;
        let v = ll.operand(inst, 0);
        let ty = ll.type_of(v);
        let bytes = ret_bytes(ll, ty);
        let t = self.tx(v);
        let t = self.boundary_out(v, t);
        if self.arg_bytes.is_none() {
            self.pop_frame();
            self.return_with(false, Some(t));
            return;
        }
        let (payload, caps) = self.write_buffers(bytes);
        self.zero_caps(caps, bytes);
        self.write_buf(ty, t, payload, caps, 0);
        self.pop_frame();
        self.return_with(false, None);
    }

    /// Returns from the body: unwinding, or normally with nothing or with
    /// `value` (a direct body only; a generic entry has written its value
    /// to the CC buffers, and `bytes` is read from the function's type).
    pub(super) fn return_with(&mut self, exception: bool, value: Option<Tx>) {
        let ll = &self.m.ll;
        let fnty = ll.function_type_of(self.old);
        let r = if self.arg_bytes.is_none() {
            direct::direct_result(ll, fnty, exception, value)
        } else {
            let bytes = if exception {
                0
            } else {
                ret_bytes(ll, ll.fn_ret(fnty))
            };
            ll.const_struct(&[ll.i64c(u64::from(exception)), ll.i64c(bytes)])
        };
        ll.ret(r);
    }

    // ---- branches -------------------------------------------------------------------

    /// An unconditional branch to the translation of old block `to`.
    fn edge_to(&mut self, to: B) {
        let from = self.m.ll.insert_block();
        let target = self.branch_target(from, to);
        self.m.ll.br(target);
    }

    /// Where a branch from new block `from` to old block `to` goes: the
    /// translation of `to`, or on a back edge a block that polls the
    /// safepoint and then goes there (one per edge). Records the edge that
    /// reaches `to`'s phis.
    fn branch_target(&mut self, from: B, to: B) -> B {
        let edge = (self.cur_old_block, to);
        let Some(made) = self.back_edges.get(&edge).copied() else {
            self.edges.push((from, self.cur_old_block, to));
            return self.block_map[&to];
        };
        if let Some(poll) = made {
            return poll;
        }
        let poll = self.m.ll.append_block(self.new, "");
        self.back_edges.insert(edge, Some(poll));
        self.m.ll.position_at_end(poll);
        self.set_loc_line0();
        self.pollcheck();
        let last = self.m.ll.insert_block();
        self.m.ll.br(self.block_map[&to]);
        self.edges.push((last, self.cur_old_block, to));
        self.m.ll.position_at_end(from);
        poll
    }

    fn tx_branch(&mut self, inst: V) {
        let ll = &self.m.ll;
        let op = ll.opcode(inst);
        let from = ll.insert_block();
        let succ = ll.successors(inst);
        match op {
            LLVMOpcode::LLVMBr if succ.len() == 1 => {
                self.edge_to(succ[0]);
            }
            LLVMOpcode::LLVMBr => {
                let c = self.tx(self.m.ll.operand(inst, 0)).int;
                let (t, f) = (
                    self.branch_target(from, succ[0]),
                    self.branch_target(from, succ[1]),
                );
                self.m.ll.cond_br(c, t, f);
            }
            LLVMOpcode::LLVMSwitch => {
                let c = self.tx(ll.operand(inst, 0)).int;
                let n = self.m.ll.num_operands(inst);
                let mut cases = Vec::new();
                let mut i = 2;
                while i + 1 < n {
                    let ll = &self.m.ll;
                    let val = ll.operand(inst, i);
                    let dest = ll.value_as_block(ll.operand(inst, i + 1));
                    cases.push((val, self.branch_target(from, dest)));
                    i += 2;
                }
                let default = self.branch_target(from, succ[0]);
                self.m.ll.switch(c, default, &cases);
            }
            _ => {
                // indirectbr: the address is a block number
                // (`ModTx::block_id`); a valid one of a destination picks
                // the destination's code address from a table and jumps
                // through a real `indirectbr`, which the code generator can
                // copy into each predecessor (a computed-goto interpreter
                // keeps one indirect jump per handler). Anything else
                // reaches the failure block.
                let addr = self.tx(ll.operand(inst, 0)).int;
                let ll = &self.m.ll;
                let key = ll.ptrtoint(addr, ll.i64());
                let bad = ll.append_block(self.new, "");
                let mut dests: Vec<(u64, B)> = Vec::new();
                let mut seen = HashSet::new();
                for &s in &succ {
                    if seen.insert(s) {
                        let id = self.m.block_id(self.old, s);
                        dests.push((id, s));
                        self.edges.push((from, self.cur_old_block, s));
                    }
                }
                let lo = dests.iter().map(|d| d.0).min().unwrap_or(0);
                let hi = dests.iter().map(|d| d.0).max().unwrap_or(0);
                let span = hi.saturating_sub(lo) + 1;
                let target = match self.constant_dispatch(self.m.ll.operand(inst, 0), &dests, bad) {
                    Some(t) => Some(t),
                    None if !dests.is_empty() && span <= 4 * dests.len() as u64 + 16 => {
                        let mut codes = vec![bad; span as usize];
                        for &(id, s) in &dests {
                            codes[(id - lo) as usize] = self.block_map[&s];
                        }
                        let table = self.code_table(&codes);
                        let ll = &self.m.ll;
                        let index = ll.sub(key, ll.i64c(lo));
                        let valid = ll.icmp(LLVMIntPredicate::LLVMIntULT, index, ll.i64c(span));
                        let go = ll.append_block(self.new, "");
                        ll.cond_br(valid, go, bad);
                        ll.position_at_end(go);
                        let slot = ll.gep(ll.global_value_type(table), table, &[ll.i64c(0), index]);
                        Some(ll.load(ll.ptr(), slot, 8))
                    }
                    None => None,
                };
                let ll = &self.m.ll;
                match target {
                    Some(target) => {
                        let mut targets: Vec<B> =
                            dests.iter().map(|d| self.block_map[&d.1]).collect();
                        targets.push(bad);
                        ll.indirect_br(target, &targets);
                        // The destinations' phis see the jump's block as
                        // their predecessor.
                        let here = ll.insert_block();
                        for e in self.edges.iter_mut().rev().take(dests.len()) {
                            e.0 = here;
                        }
                    }
                    None => {
                        let cases: Vec<(V, B)> = dests
                            .iter()
                            .map(|&(id, s)| (ll.i64c(id), self.block_map[&s]))
                            .collect();
                        ll.switch(key, bad, &cases);
                    }
                }
                self.m.ll.position_at_end(bad);
                let site = self.goto_site(inst);
                let ll = &self.m.ll;
                call(ll, "gimso_indirectbr_failed", &[key, site]);
                ll.unreachable();
            }
        }
    }

    /// The code address for `indirectbr (load (gep @G, i...))` when `@G` is
    /// a constant array of this function's block addresses (a computed
    /// goto's `static const void *const` table): the same element of a
    /// parallel table of code addresses, so the jump needs no number
    /// lookup. The load of `@G` stays, with its bounds check; elements that
    /// are not destinations of this `indirectbr` lead to `bad`.
    fn constant_dispatch(&mut self, addr: V, dests: &[(u64, B)], bad: B) -> Option<V> {
        let ll = &self.m.ll;
        if ll.value_kind(addr) != LLVMValueKind::LLVMInstructionValueKind
            || ll.opcode(addr) != LLVMOpcode::LLVMLoad
            || ll.is_volatile(addr)
        {
            return None;
        }
        let gep = ll.operand(addr, 0);
        if ll.value_kind(gep) != LLVMValueKind::LLVMInstructionValueKind
            || ll.opcode(gep) != LLVMOpcode::LLVMGetElementPtr
        {
            return None;
        }
        let table = ll.operand(gep, 0);
        if ll.value_kind(table) != LLVMValueKind::LLVMGlobalVariableValueKind
            || !ll.is_constant_global(table)
        {
            return None;
        }
        let init = ll.initializer(table)?;
        if ll.value_kind(init) != LLVMValueKind::LLVMConstantArrayValueKind {
            return None;
        }
        let mut codes = Vec::new();
        for i in 0..ll.num_operands(init) {
            let e = ll.operand(init, i);
            if ll.value_kind(e) != LLVMValueKind::LLVMBlockAddressValueKind {
                return None;
            }
            let b = ll.block_of_blockaddress(e);
            let to = match dests.iter().find(|d| d.1 == b) {
                Some(d) if ll.block_parent(b) == self.old => self.block_map[&d.1],
                _ => bad,
            };
            codes.push(to);
        }
        let src = ll.gep_source_type(gep);
        let n = ll.num_operands(gep);
        let idx: Vec<V> = (1..n).map(|i| self.m.ll.operand(gep, i)).collect();
        let idx: Vec<V> = idx.into_iter().map(|v| self.tx(v).int).collect();
        let table = self.code_table(&codes);
        let ll = &self.m.ll;
        let slot = ll.gep(src, table, &idx);
        Some(ll.load(ll.ptr(), slot, 8))
    }

    /// A private constant table of the code addresses of `blocks` (of the
    /// new function), for an `indirectbr` to jump through.
    fn code_table(&self, blocks: &[B]) -> V {
        let ll = &self.m.ll;
        let codes: Vec<V> = blocks
            .iter()
            .map(|&b| ll.block_address(self.new, b))
            .collect();
        let init = ll.const_array(ll.ptr(), &codes);
        let g = ll.add_global(ll.type_of(init), "gimso.indirectbr");
        ll.set_initializer(g, init);
        ll.set_constant_global(g);
        ll.set_linkage(g, LLVMLinkage::LLVMPrivateLinkage);
        g
    }

    fn fill_phis(&mut self) {
        let phis = std::mem::take(&mut self.phis);
        let int_caps = std::mem::take(&mut self.int_cap_phis);
        let edges = std::mem::take(&mut self.edges);
        for (old, t) in phis {
            let home = self.m.ll.instructions_parent(old);
            let incoming = self.m.ll.incoming(old);
            for &(np, op, os) in &edges {
                if os != home {
                    continue;
                }
                let Some(&(v, _)) = incoming.iter().find(|(_, b)| *b == op) else {
                    continue;
                };
                let tv = self.tx(v);
                self.m.ll.add_incoming(t.int, tv.int, np);
                if let Some(cp) = t.cap {
                    let c = self.cap(v);
                    self.m.ll.add_incoming(cp, c, np);
                }
            }
        }
        for (old, cp) in int_caps {
            let home = self.m.ll.instructions_parent(old);
            let incoming = self.m.ll.incoming(old);
            for &(np, op, os) in &edges {
                if os != home {
                    continue;
                }
                let Some(&(v, _)) = incoming.iter().find(|(_, b)| *b == op) else {
                    continue;
                };
                let c = self.int_cap(v);
                self.m.ll.add_incoming(cp, c, np);
            }
        }
    }
}

// ---- intrinsics --------------------------------------------------------------------------

impl FnTx<'_, '_, '_> {
    fn arg(&mut self, inst: V, i: u32) -> Tx {
        let o = self.m.ll.operand(inst, i);
        self.tx(o)
    }

    /// A copy of `len` bytes (whole words, at most [`INLINE_COPY_MAX`]) from
    /// `s` to `d` as pointer-word loads and stores when both addresses are
    /// word-aligned (a struct assignment, SQLite's `Mem` copies): each word
    /// takes its capability along, as the runtime's copy would, without the
    /// call. All words are loaded before any is stored, so overlapping
    /// ranges copy as `memmove` does. Leaves the builder in the block that
    /// makes the runtime call for unaligned addresses, which must branch to
    /// the returned join block.
    fn inline_word_copy(&mut self, d: Tx, s: Tx, len: u64) -> B {
        let ll = &self.m.ll;
        let i64 = ll.i64();
        let both = ll.or(ll.ptrtoint(d.int, i64), ll.ptrtoint(s.int, i64));
        let mis = ll.and(both, ll.i64c(WORD_SIZE - 1));
        let aligned = ll.icmp(LLVMIntPredicate::LLVMIntEQ, mis, ll.i64c(0));
        let words = ll.append_block(self.new, "");
        let runtime = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        ll.cond_br(aligned, words, runtime);
        ll.position_at_end(words);
        // Alignment 1: the runtime path below takes unaligned copies, so
        // what holds after the join is the bounds (which the runtime also
        // checks before copying), never alignment.
        self.check(s, len, 1, false);
        self.check(d, len, 1, true);
        let ptr = self.m.ll.ptr();
        let mut loaded = Vec::new();
        for i in 0..len / WORD_SIZE {
            let at = Tx {
                int: self.m.ll.gep_i8c(s.int, i * WORD_SIZE),
                cap: s.cap,
            };
            loaded.push(self.load_value(ptr, at, false));
        }
        for (i, v) in loaded.into_iter().enumerate() {
            let at = Tx {
                int: self.m.ll.gep_i8c(d.int, i as u64 * WORD_SIZE),
                cap: d.cap,
            };
            self.store_value(ptr, v, at, false);
        }
        self.m.ll.br(join);
        self.m.ll.position_at_end(runtime);
        self.m.stats.inline_copies += 1;
        join
    }

    fn tx_intrinsic(&mut self, inst: V, callee: V) {
        let name = self.m.ll.name(callee);
        let site = self.site();
        let ty = self.m.ll.type_of(inst);
        let n = name.as_str();
        if n.starts_with("llvm.memcpy") || n.starts_with("llvm.memmove") {
            let (d, s, len) = (self.arg(inst, 0), self.arg(inst, 1), self.arg(inst, 2));
            let volatile = self.m.ll.const_int_value(self.m.ll.operand(inst, 3)) != Some(0);
            let words = self
                .m
                .ll
                .const_int_value(len.int)
                .filter(|&l| (WORD_SIZE..=INLINE_COPY_MAX).contains(&l) && l % WORD_SIZE == 0);
            let join = match words {
                Some(l) if !volatile && !self.trusted_ptr(d) && !self.trusted_ptr(s) => {
                    Some(self.inline_word_copy(d, s, l))
                }
                _ => None,
            };
            let ll = &self.m.ll;
            let len = ll.int_cast(len.int, ll.i64());
            let (dc, sc) = (
                d.cap.unwrap_or_else(|| ll.null_ptr()),
                s.cap.unwrap_or_else(|| ll.null_ptr()),
            );
            call(ll, "gimso_memmove_at", &[d.int, dc, s.int, sc, len, site]);
            if let Some(join) = join {
                ll.br(join);
                ll.position_at_end(join);
            }
        } else if n.starts_with("llvm.memset") && self.memset_private(inst) {
            self.m.stats.stack_memsets += 1;
        } else if n.starts_with("llvm.memset") && self.zeroes_fresh_alloca(inst) {
            self.m.stats.fresh_zeroings += 1;
        } else if n.starts_with("llvm.memset") {
            let (d, v, len) = (self.arg(inst, 0), self.arg(inst, 1), self.arg(inst, 2));
            let ll = &self.m.ll;
            let volatile = ll.const_int_value(ll.operand(inst, 3)) != Some(0);
            if let Some(n) = ll.const_int_value(len.int) {
                if !volatile && n > 0 && n <= INLINE_MEMSET_MAX && n % 8 == 0 {
                    self.inline_memset(d, v.int, n, site);
                    return;
                }
            }
            let ll = &self.m.ll;
            let len = ll.int_cast(len.int, ll.i64());
            let v = ll.int_cast(v.int, ll.i32());
            let dc = d.cap.unwrap_or_else(|| ll.null_ptr());
            call(ll, "gimso_memset_at", &[d.int, dc, v, len, site]);
        } else if n == "llvm.va_start" {
            self.tx_va_start(inst);
        } else if n == "llvm.va_copy" {
            let (d, s) = (self.arg(inst, 0), self.arg(inst, 1));
            let ll = &self.m.ll;
            let (dc, sc) = (
                d.cap.unwrap_or_else(|| ll.null_ptr()),
                s.cap.unwrap_or_else(|| ll.null_ptr()),
            );
            call(
                ll,
                "gimso_memmove_at",
                &[d.int, dc, s.int, sc, ll.i64c(24), site],
            );
        } else if n == "llvm.va_end"
            || n.starts_with("llvm.lifetime.")
            || n.starts_with("llvm.dbg.")
            || n == "llvm.assume"
            || n.starts_with("llvm.invariant.")
            || n.starts_with("llvm.experimental.noalias.scope.decl")
            || n.starts_with("llvm.var.annotation")
            || n.starts_with("llvm.stackrestore")
            || n == "llvm.sideeffect"
            || n == "llvm.donothing"
            || n.starts_with("llvm.prefetch")
        {
            // Hints and debug records: no effect under gimso.
        } else if n.starts_with("llvm.stacksave") {
            let z = self.zero(ty);
            self.set(inst, z);
        } else if n.starts_with("llvm.ptr.annotation")
            || n.starts_with("llvm.launder.invariant.group")
            || n.starts_with("llvm.strip.invariant.group")
        {
            let a = self.arg(inst, 0);
            self.set(inst, a);
        } else if n.starts_with("llvm.objectsize") {
            let min = self.m.ll.operand(inst, 1);
            let is_min = self.m.ll.const_int_value(min).unwrap_or(0) != 0;
            let v = if is_min { 0 } else { u64::MAX };
            let c = self.m.ll.const_int(ty, v);
            self.set(inst, Tx::plain(c));
        } else if n.starts_with("llvm.ptrmask") {
            let p = self.m.ll.operand(inst, 0);
            self.tx_generic(inst);
            let cap = self.cap(p);
            if let Some(t) = self.vals.get_mut(&inst) {
                t.cap = Some(cap);
            }
        } else if n.starts_with("llvm.threadlocal.address") {
            let g = self.m.ll.operand(inst, 0);
            match self.m.obj_map.get(&g).copied() {
                Some(GlobalTx::Data(obj)) if self.m.tls_objects.contains(&obj) => {
                    let ll = &self.m.ll;
                    let image = ll.const_gep_i8(obj, 16);
                    let r = call(ll, "gimso_tls_address", &[self.thread, image, image]);
                    let t = self.pair(r);
                    self.set(inst, t);
                }
                _ => {
                    self.error(
                        "llvm.threadlocal.address",
                        "its operand is not a thread-local variable",
                    );
                    let z = self.zero(ty);
                    self.set(inst, z);
                }
            }
        } else if n.starts_with("llvm.eh.typeid.for") {
            let t = self.m.ll.operand(inst, 0);
            let id = self.m.type_id(t);
            let c = self.m.ll.const_int(ty, id as u64);
            self.set(inst, Tx::plain(c));
        } else if let Some(kind) = Masked::of(n) {
            self.tx_masked(inst, kind);
        } else if n.starts_with("llvm.is.constant") {
            let c = self.m.ll.const_int(ty, 0);
            self.set(inst, Tx::plain(c));
        } else if n.starts_with("llvm.frameaddress")
            || n.starts_with("llvm.returnaddress")
            || n.starts_with("llvm.addressofreturnaddress")
        {
            // `__builtin_frame_address(0)` (interpreters' stack-depth
            // checks) and friends: the address as a number, with no
            // capability, so it compares and subtracts but never
            // dereferences. A deeper level walks the chain of saved frame
            // pointers, raw stack memory the compiled code does not keep.
            let deeper = !n.starts_with("llvm.addressofreturnaddress") && {
                let level = self.m.ll.operand(inst, 0);
                self.m.ll.const_int_value(level) != Some(0)
            };
            if deeper {
                let what = if n.starts_with("llvm.frameaddress") {
                    "`__builtin_frame_address` with a level other than 0"
                } else {
                    "`__builtin_return_address` with a level other than 0"
                };
                self.error(
                    what,
                    "it reads the frames of callers through saved frame pointers; only level 0 (this function's own frame) is supported",
                );
                let z = self.zero(ty);
                self.set(inst, z);
            } else {
                self.tx_generic(inst);
            }
        } else {
            // SAFETY: `callee` is a live function of the module.
            let f = unsafe { FunctionValue::new(callee) };
            match f.and_then(classify) {
                Some(IntrinsicClass::NoMemory) => self.tx_generic(inst),
                Some(IntrinsicClass::Handled(_)) if n.contains("trap") => self.tx_generic(inst),
                _ => {
                    self.error(
                        &format!("the intrinsic `{n}`"),
                        "it accesses memory and gimso has no checked form of it yet",
                    );
                    if self.m.ll.kind(ty) != LLVMTypeKind::LLVMVoidTypeKind {
                        let z = self.zero(ty);
                        self.set(inst, z);
                    }
                }
            }
        }
    }

    /// `va_start(ap)`: the x86-64 `va_list` is set up so clang's inline
    /// `va_arg` code always takes its memory path, reading the argument
    /// object (gp_offset 48, fp_offset 176, overflow_arg_area = the first
    /// variadic argument, reg_save_area null).
    fn tx_va_start(&mut self, inst: V) {
        let ap = self.arg(inst, 0);
        let Some(va) = self.va_obj else {
            self.error("va_start", "used outside a variadic function");
            return;
        };
        self.check(ap, 24, 8, true);
        let ll = &self.m.ll;
        ll.store(ll.i32c(48), ap.int, 1);
        ll.store(ll.i32c(176), ll.gep_i8c(ap.int, 4), 1);
        // The object starts at the word of the first variadic argument.
        let area = Tx {
            int: ll.gep_i8c(va.int, self.fixed_bytes % 8),
            cap: va.cap,
        };
        let slot = Tx {
            int: ll.gep_i8c(ap.int, 8),
            cap: ap.cap,
        };
        self.store_value(self.m.ll.ptr(), area, slot, false);
        let ll = &self.m.ll;
        let slot2 = Tx {
            int: ll.gep_i8c(ap.int, 16),
            cap: ap.cap,
        };
        let null = Tx {
            int: ll.null_ptr(),
            cap: Some(ll.null_ptr()),
        };
        self.store_value(self.m.ll.ptr(), null, slot2, false);
    }
}

/// The immediate dominator of every block but the entry (`order[0]`), from
/// blocks in reverse post-order and their predecessors (Cooper, Harvey and
/// Kennedy's iteration; unreachable predecessors are ignored).
fn immediate_dominators(
    order: &[B],
    preds: &HashMap<B, Vec<B>>,
    rpo_index: &HashMap<B, usize>,
) -> HashMap<B, B> {
    let n = order.len();
    let mut idom: Vec<Option<usize>> = vec![None; n];
    if n == 0 {
        return HashMap::new();
    }
    idom[0] = Some(0);
    let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| {
        while a != b {
            while a > b {
                a = idom[a].expect("processed");
            }
            while b > a {
                b = idom[b].expect("processed");
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for i in 1..n {
            let mut new = None;
            for p in preds.get(&order[i]).into_iter().flatten() {
                let Some(&pi) = rpo_index.get(p) else {
                    continue;
                };
                if idom[pi].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => pi,
                    Some(cur) => intersect(&idom, pi, cur),
                });
            }
            if new.is_some() && idom[i] != new {
                idom[i] = new;
                changed = true;
            }
        }
    }
    (1..n)
        .filter_map(|i| idom[i].map(|d| (order[i], order[d])))
        .collect()
}
