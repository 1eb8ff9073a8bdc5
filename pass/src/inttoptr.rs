//! Capability inference for `inttoptr` (the spec's abstract interpreter).
//!
//! `inttoptr` yields a pointer with the null capability, unless the integer
//! came from exactly one pointer through `ptrtoint` and integer arithmetic,
//! as in `p = (T *)(((uintptr_t)p & MASK) + (c ? off : 0))`. The abstract
//! domain maps each integer instruction to an inferred capability:
//! `Bottom` (none known), `Definite(origin)`, or `Top` (several, so none).
//!
//! - `ptrtoint x` starts at `Definite(x)`, and so does a constant
//!   `ptrtoint` of a pointer constant used as an operand.
//! - A non-atomic `load i64` starts at `Definite(Loaded(itself))`: the
//!   capability at rest in the word it read (null unless a pointer is
//!   stored there, and for an address that is not 8-aligned). The spec
//!   makes loading a stored pointer as an integer a `ptrtoint`; and the
//!   optimiser turns 8-byte `memcpy`s (a union or a one-pointer struct
//!   assigned, Lua's `TValue` copies) into `load i64` / `store i64` pairs,
//!   which must carry the pointer's capability as the `memcpy` would. The
//!   translation reads that capability only for the loads in
//!   [`CapInference::needed_loads`].
//! - Storing an `i64` with a `Definite` capability stores the capability
//!   with it (the translation's `store_word`). The spec leaves the
//!   capability at rest on an integer store, but the optimiser makes
//!   integer stores out of pointer stores: the `memcpy` lowering above,
//!   and SROA, which rewrites a union slot it cannot promote as an `i64`
//!   alloca holding `ptrtoint p` (SQLite's index iterator). Only a
//!   capability that flowed into the integer is ever stored, so this
//!   stays memory safe; it also lets a `uintptr_t` written to memory and
//!   read back as a pointer keep its capability. A constant `ptrtoint` of
//!   a pointer constant stored as an `i64` (the optimiser's form of a
//!   local initialised from a constant image holding one pointer) stores
//!   that constant's capability (the translation's `const_ptrtoint`).
//! - A 64-bit parameter, a call's 64-bit result and a 64-bit field
//!   extracted from a call's result start at `Definite(Boundary(itself))`:
//!   64-bit integers cross calls with a capability word ("Calls" below).
//! - Other calls, other loads, atomics, comparisons, `va_arg`, extracts,
//!   landing pads and float-to-int casts start at `Bottom` and are not
//!   interpreted.
//! - The other integer instructions (arithmetic, bitwise, shifts, integer
//!   casts, `freeze`, `phi`, `select`) are interpreted until a fixpoint:
//!   each merges the capabilities of its instruction operands
//!   (`Bottom ⊔ x = x`, `x ⊔ x = x`, `Definite(a) ⊔ Definite(b) = Top`).
//!   A `phi` or `select` with any non-`Bottom` input instead becomes
//!   `Definite(Merge(itself))`: the rewrite puts a capability `phi`/`select`
//!   next to it, whose inputs are each operand's own capability. So `phi`
//!   and `select` never go to `Top`.
//! - Two merges that produce the same capability on every path (phis of
//!   one block whose inputs on each edge have the same capability, selects
//!   on one condition likewise) count as one origin, so combining them is
//!   not `Top`. SROA makes such pairs when it splits a union holding a
//!   pointer into integer pieces (a truncated low half and a masked high
//!   half, each merged by its own phi) and `or`s them back together: the
//!   spec's rule would drop the capability of a pointer the program merely
//!   stored in a union (SQLite's index iterator does this). Any capability
//!   that really flowed into the integer is a sound choice; this picks the
//!   one the spec would if the optimiser had not split the value. An
//!   edge where only one of the two brings a capability (a path that sets
//!   one half of the union) does not make them different.
//! - A `Boundary` origin, or a merge of only such origins and constants,
//!   is *weak*: usually a number's null capability. Merged with a strong
//!   origin (a pointer's own, a loaded word's) the strong one wins instead
//!   of `Top`, so `(T *)((uintptr_t)p + get_offset())` keeps `p`'s as the
//!   spec intends, although the call's result now brings one too.
//!
//! ## Calls
//!
//! clang's x86-64 convention passes a union or small struct holding a
//! pointer as integers: `union { int32_t; double; void *; }` with a tag
//! (QuickJS's `JSValue`) is two `i64`s. So every 64-bit integer crosses a
//! call of compiled code with a capability word, as a pointer does (direct
//! entries get a capability parameter after it, CC buffers a capability
//! slot, aggregate results an `i64` field's capability as an integer); C
//! library wrappers return integers with the null capability. A
//! capability still only goes where it flowed: an integer made from a
//! pointer keeps that pointer's capability across calls, an integer made
//! from text or arithmetic on numbers has none.
//!
//! The analysis is linear in the function's size times the (small) height
//! of the lattice.

use std::collections::{HashMap, HashSet};

use crate::llvm::{Func, Opcode, Ordering, Value, ValueKind};

/// Where an inferred capability comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin<'m> {
    /// The capability of this pointer (the operand of a `ptrtoint`).
    Pointer(Value<'m>),
    /// A capability `phi`/`select` to be placed beside this instruction.
    Merge(Value<'m>),
    /// The capability at rest in the word this `load i64` read.
    Loaded(Value<'m>),
    /// The capability that came with this `i64` across a call: a
    /// parameter, a call's result, or a field extracted from a call's
    /// result (see "Calls" in the module documentation).
    Boundary(Value<'m>),
}

/// An inferred capability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap<'m> {
    /// Nothing known: the null capability.
    Bottom,
    /// Exactly this capability.
    Definite(Origin<'m>),
    /// More than one candidate: the null capability.
    Top,
}

/// How many pairs of merges one structural comparison may visit before it
/// gives up (answering "different", the spec's own answer): keeps the
/// analysis linear on huge functions.
const COMPARE_BUDGET: usize = 64;

/// What one function's capability uses reach ([`CapInference::demands`]).
#[derive(Debug, Default)]
pub struct Demands<'m> {
    /// The `load i64`s whose capability must be read.
    pub loads: HashSet<Value<'m>>,
    /// The 64-bit parameters (by index) whose capability the body uses.
    pub params: HashSet<u32>,
}

/// For each of `bodies` (functions with their inferences), the 64-bit
/// parameters whose capabilities its body consumes, through the calls it
/// makes too: the least fixpoint over the call graph, starting from none.
/// `callee(call)` names the function of `bodies` a call surely runs with
/// its own type (a direct call of a definition no other module can
/// replace); any other call consumes every capability it is passed.
///
/// A caller of such a function need not read the capabilities of the
/// arguments it passes for parameters outside the set: the callee never
/// looks at them. QuickJS passes each `JSValue` as two words, the tag
/// with a capability word too; most callees only test the tag.
pub fn param_cap_demands<'m>(
    bodies: &HashMap<Func<'m>, CapInference<'m>>,
    callee: &dyn Fn(Value<'m>) -> Option<Func<'m>>,
) -> HashMap<Func<'m>, HashSet<u32>> {
    let mut used: HashMap<Func<'m>, HashSet<u32>> =
        bodies.keys().map(|&f| (f, HashSet::new())).collect();
    let mut callers: HashMap<Func<'m>, Vec<Func<'m>>> = HashMap::new();
    for &f in bodies.keys() {
        for block in f.blocks() {
            for inst in block.instructions() {
                if let Some(g) = callee(inst).filter(|g| bodies.contains_key(g)) {
                    callers.entry(g).or_default().push(f);
                }
            }
        }
    }
    let mut work: Vec<Func<'m>> = bodies.keys().copied().collect();
    let mut queued: HashSet<Func<'m>> = work.iter().copied().collect();
    while let Some(f) = work.pop() {
        queued.remove(&f);
        let demands = bodies[&f].demands(f, &|call, k| match callee(call) {
            Some(g) => used.get(&g).is_none_or(|u| u.contains(&k)),
            None => true,
        });
        if demands.params.len() > used[&f].len() {
            used.insert(f, demands.params);
            for &c in callers.get(&f).into_iter().flatten() {
                if queued.insert(c) {
                    work.push(c);
                }
            }
        }
    }
    used
}

/// The inferred capabilities of one function's integer instructions.
#[derive(Debug, Default)]
pub struct CapInference<'m> {
    caps: HashMap<Value<'m>, Cap<'m>>,
}

impl<'m> CapInference<'m> {
    /// `other` merged into `current` (the spec's merge rule, with merges
    /// that produce the same capability counted as one origin).
    fn merge(&self, current: Cap<'m>, other: Cap<'m>) -> Cap<'m> {
        match (current, other) {
            (_, Cap::Bottom) => current,
            (a, b) if a == b => a,
            (Cap::Bottom, b) => b,
            (Cap::Definite(a), Cap::Definite(b)) => {
                let mut seen = Vec::new();
                if self.same_origin(a, b, &mut seen) {
                    current
                } else {
                    match (self.weak(a, &mut 0), self.weak(b, &mut 0)) {
                        (true, false) => other,
                        (false, true) | (true, true) => current,
                        (false, false) => Cap::Top,
                    }
                }
            }
            _ => Cap::Top,
        }
    }

    /// The capability of operand `v` (a constant or argument has none).
    fn operand_cap(&self, v: Value<'m>) -> Cap<'m> {
        if !v.is_instruction() {
            argument_cap(v)
        } else if result_is_int(v) {
            self.cap(v)
        } else {
            Cap::Bottom
        }
    }

    /// Whether `o` only brings what integers brought across calls
    /// (parameters, results), possibly merged with constants: usually the
    /// null capability, as most such integers are numbers. Combined with a
    /// pointer's own capability (`p + get_offset()`, the spec's example),
    /// the pointer's wins; the spec would give the null one, since the
    /// call's result had none. Two weak ones (halves of one union result
    /// merged on different paths) keep the first. Any choice is sound:
    /// each flowed into the value.
    fn weak(&self, o: Origin<'m>, visited: &mut usize) -> bool {
        match o {
            Origin::Boundary(_) => true,
            Origin::Merge(m) => {
                *visited += 1;
                if *visited > COMPARE_BUDGET {
                    return false;
                }
                data_operands(m)
                    .into_iter()
                    .all(|v| match self.operand_cap(v) {
                        Cap::Bottom => true,
                        Cap::Definite(Origin::Merge(n)) if n == m => true,
                        Cap::Definite(x) => self.weak(x, visited),
                        Cap::Top => false,
                    })
            }
            _ => false,
        }
    }

    /// Whether two operand capabilities are the same at run time.
    fn same_cap(&self, a: Cap<'m>, b: Cap<'m>, seen: &mut Vec<(Value<'m>, Value<'m>)>) -> bool {
        match (a, b) {
            (Cap::Definite(x), Cap::Definite(y)) => self.same_origin(x, y, seen),
            (Cap::Top, Cap::Definite(_)) | (Cap::Definite(_), Cap::Top) => false,
            // On this path at most one of them brings a capability, so it
            // is the only one that can flow into their combination: the
            // first merge's (that one, or null) stays sound. (SROA splits
            // a union returned by value into a low `i32` and a masked high
            // half; on a path returning a number only one half is set.)
            _ => true,
        }
    }

    /// Whether two origins give the same capability on every path; pairs
    /// already being compared are assumed equal (loops), within
    /// [`COMPARE_BUDGET`].
    fn same_origin(
        &self,
        a: Origin<'m>,
        b: Origin<'m>,
        seen: &mut Vec<(Value<'m>, Value<'m>)>,
    ) -> bool {
        let (x, y) = match (a, b) {
            (Origin::Pointer(p), Origin::Pointer(q)) => return p == q,
            (Origin::Loaded(p), Origin::Loaded(q)) => return p == q,
            (Origin::Boundary(p), Origin::Boundary(q)) => return p == q,
            (Origin::Merge(x), Origin::Merge(y)) => (x, y),
            _ => return false,
        };
        if x == y || seen.contains(&(x, y)) {
            return true;
        }
        if seen.len() >= COMPARE_BUDGET || x.opcode() != y.opcode() {
            return false;
        }
        seen.push((x, y));
        match x.opcode() {
            Opcode::LLVMPHI => {
                let (ix, iy) = (x.incoming(), y.incoming());
                if x.parent_block() != y.parent_block() || ix.len() != iy.len() {
                    return false;
                }
                ix.iter().all(|&(vx, bx)| {
                    let vy = iy.iter().find(|(_, by)| *by == bx).map(|&(v, _)| v);
                    vy.is_some_and(|vy| {
                        self.same_cap(self.operand_cap(vx), self.operand_cap(vy), seen)
                    })
                })
            }
            Opcode::LLVMSelect => {
                let operand = |i: Value<'m>, k| value_operand(i, k);
                let (Some(cx), Some(cy)) = (operand(x, 0), operand(y, 0)) else {
                    return false;
                };
                cx == cy
                    && (1..3).all(|k| match (operand(x, k), operand(y, k)) {
                        (Some(a), Some(b)) => {
                            self.same_cap(self.operand_cap(a), self.operand_cap(b), seen)
                        }
                        _ => false,
                    })
            }
            _ => false,
        }
    }

    /// The `load i64`s whose capability the translation must read: those
    /// an `inttoptr` or an integer store takes its capability from,
    /// directly or through capability phis and selects.
    pub fn needed_loads(&self, function: Func<'m>) -> HashSet<Value<'m>> {
        self.demands(function, &|_, _| true).loads
    }

    /// What the capabilities `function` hands on or uses come from: the
    /// `load i64`s the translation must read them from, and the 64-bit
    /// parameters whose capabilities the body consumes. Roots are an
    /// `inttoptr`, an integer store, a returned or inserted word, and
    /// argument `k` of a call of compiled code when `arg_needed(call, k)`
    /// (a callee known not to consume that parameter's capability needs
    /// none: [`param_cap_demands`]).
    pub fn demands(
        &self,
        function: Func<'m>,
        arg_needed: &dyn Fn(Value<'m>, u32) -> bool,
    ) -> Demands<'m> {
        let mut out = Demands::default();
        let mut seen_merges = HashSet::new();
        let mut work: Vec<Cap<'m>> = Vec::new();
        let word_operand = |inst: Value<'m>, i: u32| {
            if !inst.operand_is_value(i) {
                return None;
            }
            let v = value_operand(inst, i)?;
            is_word(v).then_some(v)
        };
        for block in function.blocks() {
            for inst in block.instructions() {
                let root = match inst.opcode() {
                    Opcode::LLVMIntToPtr => word_operand(inst, 0),
                    Opcode::LLVMStore if !self.rewrites_in_place(inst) => word_operand(inst, 0),
                    // Integers passed on to compiled code or returned
                    // travel with their capabilities.
                    Opcode::LLVMCall | Opcode::LLVMInvoke if passes_int_caps(inst) => {
                        let args = inst.num_arg_operands();
                        for k in 0..args {
                            if let Some(a) = word_operand(inst, k) {
                                if arg_needed(inst, k) {
                                    work.push(self.operand_cap(a));
                                }
                            }
                        }
                        None
                    }
                    Opcode::LLVMRet => word_operand(inst, 0),
                    Opcode::LLVMInsertValue => word_operand(inst, 1),
                    _ => None,
                };
                if let Some(r) = root {
                    work.push(self.operand_cap(r));
                }
            }
        }
        let params: HashMap<Value<'m>, u32> = function
            .params()
            .into_iter()
            .enumerate()
            .map(|(i, p)| (p, i as u32))
            .collect();
        while let Some(c) = work.pop() {
            match c {
                Cap::Definite(Origin::Loaded(l)) => {
                    out.loads.insert(l);
                }
                Cap::Definite(Origin::Boundary(v)) => {
                    if let Some(&i) = params.get(&v) {
                        out.params.insert(i);
                    }
                }
                Cap::Definite(Origin::Merge(m)) if seen_merges.insert(m) => {
                    for input in data_operands(m) {
                        work.push(self.operand_cap(input));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Whether `store` writes back to the word it loaded its value's
    /// capability from (`x->n = x->n - k`): the capability at rest there is
    /// the one it would store, so the store can leave it alone (an integer
    /// store does), and the load need not read it for this store. If
    /// another thread stored a pointer in between, the word keeps that
    /// pointer's capability with this integer: a capability never flows
    /// anywhere it was not, so this stays memory safe.
    pub fn rewrites_in_place(&self, store: Value<'m>) -> bool {
        let Some(v) = operand_instruction(store, 0) else {
            return false;
        };
        let Cap::Definite(Origin::Loaded(l)) = self.cap(v) else {
            return false;
        };
        let addr = |i: Value<'m>, n: u32| value_operand(i, n);
        addr(l, 0).is_some() && addr(l, 0) == addr(store, 1)
    }

    /// The inferred capability of an integer instruction (`Bottom` for
    /// anything the analysis does not track).
    pub fn cap(&self, inst: Value<'m>) -> Cap<'m> {
        self.caps.get(&inst).copied().unwrap_or(Cap::Bottom)
    }

    /// The capability an `inttoptr` instruction's result gets.
    pub fn inttoptr_cap(&self, inttoptr: Value<'m>) -> Cap<'m> {
        match value_operand(inttoptr, 0) {
            Some(v) => self.operand_cap(v),
            None => Cap::Bottom,
        }
    }
}

fn result_is_int(inst: Value<'_>) -> bool {
    inst.type_of().is_int()
}

/// Operand `i` of `inst` unless it is a block (a branch's destination).
fn value_operand<'m>(inst: Value<'m>, i: u32) -> Option<Value<'m>> {
    inst.get_operand(i).filter(|v| !v.is_basic_block())
}

/// Operand `i` of `inst` if it is an instruction.
fn operand_instruction<'m>(inst: Value<'m>, i: u32) -> Option<Value<'m>> {
    if !inst.operand_is_value(i) {
        return None;
    }
    value_operand(inst, i).filter(|v| v.is_instruction())
}

/// Whether the interpreter runs this integer instruction (rather than
/// leaving it at `Bottom`).
fn interpreted(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        LLVMAdd
            | LLVMSub
            | LLVMMul
            | LLVMUDiv
            | LLVMSDiv
            | LLVMURem
            | LLVMSRem
            | LLVMShl
            | LLVMLShr
            | LLVMAShr
            | LLVMAnd
            | LLVMOr
            | LLVMXor
            | LLVMTrunc
            | LLVMZExt
            | LLVMSExt
            | LLVMFreeze
            | LLVMPHI
            | LLVMSelect
    )
}

/// The operands whose capabilities an interpreted instruction merges: a
/// `select`'s condition is not data.
fn data_operands<'m>(inst: Value<'m>) -> Vec<Value<'m>> {
    let first = if inst.opcode() == Opcode::LLVMSelect {
        1
    } else {
        0
    };
    (first..inst.num_operands())
        .filter(|&i| inst.operand_is_value(i))
        .filter_map(|i| value_operand(inst, i))
        .collect()
}

/// The capability of a non-instruction operand: a 64-bit parameter brings
/// the one its caller passed; a constant `ptrtoint` of a pointer constant
/// (a function's address in a C++ member-function pointer) that
/// pointer's; other constants none.
fn argument_cap(v: Value<'_>) -> Cap<'_> {
    let is_arg = is_word(v) && is_argument(v);
    if is_arg {
        return Cap::Definite(Origin::Boundary(v));
    }
    match const_ptrtoint_operand(v) {
        Some(p) => Cap::Definite(Origin::Pointer(p)),
        None => Cap::Bottom,
    }
}

/// The pointer constant `v` is `ptrtoint` of, if it is one.
fn const_ptrtoint_operand(v: Value<'_>) -> Option<Value<'_>> {
    (v.value_kind() == ValueKind::LLVMConstantExprValueKind
        && v.const_opcode() == Some(Opcode::LLVMPtrToInt))
    .then(|| v.operand(0))
    .filter(|p| p.type_of().is_ptr())
}

/// Whether `v` is a function parameter.
fn is_argument(v: Value<'_>) -> bool {
    v.is_argument()
}

/// Whether `call` passes its integer arguments on with their capabilities:
/// a call of compiled code (direct or through a pointer), not of an
/// intrinsic or a C library wrapper (which read no capability of an
/// integer).
fn passes_int_caps(call: Value<'_>) -> bool {
    let n = call.num_operands();
    let Some(callee) = n.checked_sub(1).and_then(|k| value_operand(call, k)) else {
        return false;
    };
    if !callee.type_of().is_ptr() {
        return true;
    }
    // The name up to its first NUL, and only if that is UTF-8: no C
    // library function or intrinsic has any other.
    let bytes = callee.name_bytes();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let name = std::str::from_utf8(&bytes[..end]).unwrap_or_default();
    if name.is_empty() {
        return true;
    }
    let defined_here = callee.as_func().is_some_and(|f| !f.is_declaration());
    // A function defined here is compiled code even if a C library
    // function has its name (a `static` helper called `dup`).
    defined_here || (!name.starts_with("llvm.") && !crate::libc_names::is_libc(name))
}

/// Whether `v` is an `i64` (a pointer-sized integer).
fn is_word(v: Value<'_>) -> bool {
    let ty = v.type_of();
    ty.is_int() && ty.int_width() == 64
}

/// A non-atomic `load i64` (the only loads that can carry a capability).
fn is_plain_word_load(inst: Value<'_>) -> bool {
    is_word(inst)
        && inst.opcode() == Opcode::LLVMLoad
        && inst.ordering() == Ordering::LLVMAtomicOrderingNotAtomic
}

/// Runs the interpreter over `function`.
pub fn infer<'m>(function: Func<'m>) -> CapInference<'m> {
    let mut result = CapInference::default();
    let mut work: Vec<Value<'m>> = Vec::new();
    for block in function.blocks() {
        for inst in block.instructions() {
            if !result_is_int(inst) {
                continue;
            }
            let op = inst.opcode();
            if op == Opcode::LLVMLoad && is_plain_word_load(inst) {
                result
                    .caps
                    .insert(inst, Cap::Definite(Origin::Loaded(inst)));
            } else if op == Opcode::LLVMPtrToInt {
                if let Some(p) = value_operand(inst, 0).filter(|p| p.type_of().is_ptr()) {
                    result.caps.insert(inst, Cap::Definite(Origin::Pointer(p)));
                }
            } else if is_word(inst)
                && matches!(
                    op,
                    Opcode::LLVMCall | Opcode::LLVMInvoke | Opcode::LLVMExtractValue
                )
            {
                // A call's result (or a field of it) comes with the
                // capability the callee returned with it.
                result
                    .caps
                    .insert(inst, Cap::Definite(Origin::Boundary(inst)));
            } else if interpreted(op) {
                work.push(inst);
            }
        }
    }
    // Round-robin to a fixpoint: every change moves a value up a lattice of
    // height 3, so this ends after O(height × instructions) rounds at worst
    // and in a few rounds in practice.
    loop {
        let mut changed = false;
        for &inst in &work {
            let current = result.cap(inst);
            let merge_node = matches!(inst.opcode(), Opcode::LLVMPHI | Opcode::LLVMSelect);
            let mut next = current;
            for input in data_operands(inst) {
                let x = result.operand_cap(input);
                if merge_node {
                    if x != Cap::Bottom {
                        next = Cap::Definite(Origin::Merge(inst));
                        break;
                    }
                } else {
                    next = result.merge(next, x);
                }
            }
            if next != current {
                result.caps.insert(inst, next);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    result
}
