//! Locals whose address escapes keep their contents after their function
//! returns.
//!
//! Under gimso an `alloca` whose address escapes is an object like any
//! other: it lives until nothing reaches it, so a pointer to a local of a
//! function that has returned still reads what the function last stored
//! there (the `-O0` behaviour). LLVM's optimiser treats an `alloca` as dead
//! at `ret` and at `llvm.lifetime.end`: dead-store elimination deletes the
//! stores nothing in the function reads again, and the pointer then reads
//! zero. Before the optimiser runs, each local whose address may outlive
//! the call (stored to memory, returned, turned into an integer, passed to
//! a function that may keep it) gets:
//!
//! - a read of its bytes just before every `ret` and `resume` (a call of
//!   [`KEEP`], declared to read its argument's memory and no other memory
//!   of the program), so its stores are live to the end;
//! - no `llvm.lifetime.end`, whose dead memory would have the same effect
//!   (its `llvm.lifetime.start` stays, so the inliner adds no end of its
//!   own);
//! - and its function is not inlined: inlined into a loop, one `alloca`
//!   would stand for the locals of every call, where the call each gives
//!   a new object.
//!
//! The reads go before the translation ([`remove`]). A local whose address
//! only reaches loads, stores through it, address arithmetic, memory
//! intrinsics and functions of the module that keep no copy (looked
//! through, parameter by parameter) is left to the optimiser: nothing can
//! read it after the return.

use std::collections::{HashMap, HashSet};

use inkwell::module::Module;

use crate::llvm::{AttrAt, Func, Ll, Opcode, Value};

/// The function whose calls read a kept local at a return.
pub const KEEP: &str = "gimso.keep_local";

/// How deep the capture walk follows address arithmetic, local variables
/// and their loads within one function (each value is looked at once per
/// walk; this bounds the recursion).
const MAX_DEPTH: u32 = 64;

/// How deep the walk follows parameters of called functions.
const MAX_CALLS: u32 = 16;

/// What [`insert`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeptStats {
    /// Locals kept.
    pub locals: usize,
    /// Functions that keep one's address and are no longer inlined.
    pub functions: usize,
}

/// Keeps the escaping locals of every function of `module` (see the
/// module documentation).
pub fn insert(module: &Module<'_>) -> KeptStats {
    let mut stats = KeptStats::default();
    let ll = Ll::new(module);
    let mut captures = Captures::default();
    for f in module.get_functions() {
        if f.count_basic_blocks() == 0 {
            continue;
        }
        let f = Func::of(f);
        let mut kept = Vec::new();
        let mut worst = Escape::No;
        for a in allocas(f) {
            let e = captures.local(a);
            if e != Escape::No {
                kept.push(a);
                worst = worst.max(e);
            }
        }
        if kept.is_empty() {
            continue;
        }
        keep(&ll, f, &kept, worst == Escape::Kept);
        stats.locals += kept.len();
        stats.functions += usize::from(worst == Escape::Kept);
    }
    stats
}

/// Removes the reads [`insert`] placed (the translation has no use for
/// them); returns how many went.
pub fn remove(module: &Module<'_>) -> usize {
    let Some(f) = module.get_function(KEEP) else {
        return 0;
    };
    let decl = Func::of(f);
    let mut n = 0;
    while let Some(u) = decl.first_use() {
        // SAFETY: every use of the declaration is one of the calls `insert`
        // made (it is the callee, nothing else refers to it), unused; each
        // is erased once and its handle dropped here.
        unsafe { u.user().erase() };
        n += 1;
    }
    // SAFETY: the declaration has no uses left and `decl` is not used again.
    unsafe { decl.delete() };
    n
}

/// The `alloca`s of `f`'s entry block: the fixed locals, defined before
/// every return. (A VLA or `alloca()` made later does not dominate every
/// return, so it cannot be read there; it is left to the optimiser.)
fn allocas(f: Func<'_>) -> Vec<Value<'_>> {
    f.entry_block()
        .map(|b| b.instructions())
        .unwrap_or_default()
        .into_iter()
        .filter(|i| i.opcode() == Opcode::LLVMAlloca)
        .collect()
}

/// How far a local's address may get beyond its function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Escape {
    /// Nowhere: only used, never kept.
    No,
    /// To code not seen here (a declared function, a call through a
    /// pointer, inline asm), which may or may not keep it.
    Unknown,
    /// Kept: stored into memory other than a local variable, returned,
    /// turned into an integer.
    Kept,
}

/// What one walk has looked at: addresses (a cycle of phis adds nothing
/// new) and local variables holding one.
#[derive(Default)]
struct Seen<'m> {
    addresses: HashSet<Value<'m>>,
    variables: HashSet<Value<'m>>,
}

/// Whether addresses escape, remembered per parameter of the module's
/// functions.
#[derive(Default)]
struct Captures<'m> {
    /// Parameter → how far a pointer passed there may get (for one being
    /// looked at, the current guess).
    params: HashMap<Value<'m>, Escape>,
    /// Parameters in `params`, in the order they were settled.
    settled: Vec<Value<'m>>,
    /// Parameters being looked at (recursion reached them again).
    open: HashSet<Value<'m>>,
    /// Whether a guess of an open parameter was used since this was last
    /// cleared.
    guessed: bool,
    /// How many parameters are being looked at, one inside the other.
    calls: u32,
}

impl<'m> Captures<'m> {
    /// How far the address of `alloca` may get.
    fn local(&mut self, alloca: Value<'m>) -> Escape {
        self.escapes(alloca, 0, &mut Seen::default())
    }

    /// How far the address `v` (or one computed from it) may get beyond
    /// the function it is in. `seen` holds the values and variables this
    /// walk has already looked at.
    fn escapes(&mut self, v: Value<'m>, depth: u32, seen: &mut Seen<'m>) -> Escape {
        if depth > MAX_DEPTH {
            return Escape::Kept;
        }
        if !seen.addresses.insert(v) {
            return Escape::No;
        }
        let mut worst = Escape::No;
        for user in v.distinct_users() {
            let e = match user.inst_opcode() {
                Some(Opcode::LLVMLoad | Opcode::LLVMICmp) => Escape::No,
                // Stored through: fine; stored as the value: into a
                // local variable, it goes where that variable's loads
                // go.
                Some(Opcode::LLVMStore) if user.operand(0) != v => Escape::No,
                Some(Opcode::LLVMStore) => self.variable(user.operand(1), depth + 1, seen),
                Some(
                    Opcode::LLVMGetElementPtr
                    | Opcode::LLVMBitCast
                    | Opcode::LLVMAddrSpaceCast
                    | Opcode::LLVMPHI
                    | Opcode::LLVMSelect,
                ) => self.escapes(user, depth + 1, seen),
                Some(Opcode::LLVMCall) if crate::guards::is_launder(user, v) => {
                    self.escapes(user, depth + 1, seen)
                }
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => self.call_keeps(user, v),
                // `ret`, `ptrtoint`, cmpxchg and atomicrmw operands,
                // aggregates and vectors built with it: kept.
                _ => Escape::Kept,
            };
            worst = worst.max(e);
            if worst == Escape::Kept {
                break;
            }
        }
        worst
    }

    /// How far an address stored at `dest` may get: if `dest` is a local
    /// variable (an `alloca` only loaded from and stored to, as every
    /// parameter and pointer variable is before promotion), as far as its
    /// loads; otherwise it is kept.
    fn variable(&mut self, dest: Value<'m>, depth: u32, seen: &mut Seen<'m>) -> Escape {
        if !dest.is_alloca() {
            return Escape::Kept;
        }
        if !seen.variables.insert(dest) {
            return Escape::No;
        }
        let mut worst = Escape::No;
        for user in dest.distinct_users() {
            let e = match user.inst_opcode() {
                Some(Opcode::LLVMLoad) => self.escapes(user, depth + 1, seen),
                Some(Opcode::LLVMStore) if user.operand(0) != dest => Escape::No,
                Some(Opcode::LLVMCall) if marker(user) => Escape::No,
                _ => Escape::Kept,
            };
            worst = worst.max(e);
            if worst == Escape::Kept {
                break;
            }
        }
        worst
    }

    /// How far a pointer passed to parameter `p` may get. Recursive
    /// functions reach a parameter again while it is being looked at: that
    /// use takes a guess (first "nowhere"), and when the answer differs from
    /// a guess that was used, everything settled since is forgotten and the
    /// parameter is looked at again with the answer as its guess. Guesses
    /// only grow, so this ends after at most three rounds.
    fn param(&mut self, p: Value<'m>) -> Escape {
        if let Some(&e) = self.params.get(&p) {
            self.guessed |= self.open.contains(&p);
            return e;
        }
        if self.calls == MAX_CALLS {
            return Escape::Kept;
        }
        self.calls += 1;
        let outer_guessed = core::mem::replace(&mut self.guessed, false);
        let mark = self.settled.len();
        let mut guess = Escape::No;
        let e = loop {
            self.params.insert(p, guess);
            self.open.insert(p);
            self.guessed = false;
            let e = self.escapes(p, 0, &mut Seen::default());
            self.open.remove(&p);
            if e == guess || !self.guessed {
                break e;
            }
            for q in self.settled.drain(mark..) {
                self.params.remove(&q);
            }
            guess = e;
        };
        self.params.insert(p, e);
        self.settled.push(p);
        self.guessed |= outer_guessed;
        self.calls -= 1;
        e
    }

    /// How far `call` (a call or invoke using `v`) may take the address
    /// `v` it is passed.
    fn call_keeps(&mut self, call: Value<'m>, v: Value<'m>) -> Escape {
        let callee = call.called_value();
        if callee == v {
            return Escape::Kept;
        }
        let Some(callee) = callee.as_func() else {
            return Escape::Unknown;
        };
        let name = callee.name();
        if name.starts_with("llvm.") {
            // Memory intrinsics and markers read or write through it.
            let through = ["llvm.memcpy.", "llvm.memmove.", "llvm.memset."];
            return if marker(call) || through.iter().any(|p| name.starts_with(p)) {
                Escape::No
            } else {
                Escape::Unknown
            };
        }
        if callee.count_blocks() == 0 {
            return Escape::Unknown;
        }
        let n = call.num_arg_operands();
        let params = callee.params();
        let mut worst = Escape::No;
        for i in 0..n {
            if call.operand(i) != v {
                continue;
            }
            let Some(&p) = params.get(i as usize) else {
                // Variadic: `va_arg` may make anything of it.
                return Escape::Kept;
            };
            worst = worst.max(self.param(p));
        }
        worst
    }
}

/// Whether `call` (a call) is a lifetime or debug marker, which neither
/// reads nor keeps the address it names.
pub(crate) fn marker(call: Value<'_>) -> bool {
    let Some(callee) = call.called_value().as_func() else {
        return false;
    };
    let name = callee.name();
    name.starts_with("llvm.lifetime.") || name.starts_with("llvm.dbg.")
}

/// Places the reads of `kept` (allocas of `f`, which has a body) before
/// `f`'s returns and drops their lifetime ends; with `no_inline`, stops
/// `f` being inlined.
fn keep<'m>(ll: &Ll<'m>, f: Func<'m>, kept: &[Value<'m>], no_inline: bool) {
    let keep_fn = keep_function(ll);
    let fn_ty = keep_fn.fn_type();
    for bb in f.blocks() {
        let Some(term) = bb.terminator() else {
            continue;
        };
        if matches!(term.opcode(), Opcode::LLVMRet | Opcode::LLVMResume) {
            ll.position_before(term);
            for &a in kept {
                ll.call(fn_ty, keep_fn.as_value(), &[a]);
            }
        }
    }
    for &a in kept {
        drop_lifetime_ends(a, 0);
    }
    if !no_inline {
        return;
    }
    f.remove_enum_attr(AttrAt::Function, "alwaysinline");
    f.add_enum_attr(AttrAt::Function, "noinline", 0);
}

/// Erases the `llvm.lifetime.end` markers of the address `v` and of the
/// addresses computed from it.
fn drop_lifetime_ends(v: Value<'_>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    for user in v.distinct_users() {
        match user.inst_opcode() {
            Some(Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast) => {
                drop_lifetime_ends(user, depth + 1)
            }
            Some(Opcode::LLVMCall)
                if user.called_value().name().starts_with("llvm.lifetime.end") =>
            {
                // SAFETY: a marker has no users, and `user` is listed once
                // and not used after this.
                unsafe { user.erase() };
            }
            _ => {}
        }
    }
}

/// The declaration of [`KEEP`]: `void (ptr)`, reading its argument's
/// memory and touching no other memory of the program, returning, not
/// unwinding.
fn keep_function<'m>(ll: &Ll<'m>) -> Func<'m> {
    if let Some(existing) = ll.get_function(KEEP) {
        return existing;
    }
    let ty = ll.fn_ty(ll.void(), &[ll.ptr()], false);
    let f = ll.add_function(KEEP, ty);
    for attr in ["nounwind", "willreturn", "nosync", "nofree"] {
        f.add_enum_attr(AttrAt::Function, attr, 0);
    }
    // memory(argmem: read, inaccessiblemem: readwrite): two bits per
    // location (argument memory, then inaccessible memory), 1 read, 3
    // read and write. Without an effect of its own a call that only
    // reads would be deleted as dead.
    let effects = 1 | (3 << 2);
    f.add_enum_attr(AttrAt::Function, "memory", effects);
    f
}
