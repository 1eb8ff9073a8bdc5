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

use inkwell::context::AsContextRef;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMContextRef, LLVMModuleRef, LLVMValueRef};
use inkwell::llvm_sys::{LLVMAttributeFunctionIndex, LLVMOpcode};
use inkwell::module::Module;
use inkwell::values::AsValueRef;

use crate::ir::users;

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
    let ctx = module.get_context().as_ctx_ref();
    let m = module.as_mut_ptr();
    let mut captures = Captures::default();
    for f in module.get_functions() {
        if f.count_basic_blocks() == 0 {
            continue;
        }
        let f = f.as_value_ref();
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
        // SAFETY: `f` is a live function of `m` with a body; `kept` are
        // its allocas.
        unsafe { keep(ctx, m, f, &kept, worst == Escape::Kept) };
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
    let mut n = 0;
    // SAFETY: every use of the declaration is one of the calls `insert`
    // made (it is the callee, nothing else refers to it); each is erased
    // once, then the unused declaration.
    unsafe {
        let decl = f.as_value_ref();
        loop {
            let u = LLVMGetFirstUse(decl);
            if u.is_null() {
                break;
            }
            LLVMInstructionEraseFromParent(LLVMGetUser(u));
            n += 1;
        }
        LLVMDeleteFunction(decl);
    }
    n
}

/// The `alloca`s of `f`'s entry block: the fixed locals, defined before
/// every return. (A VLA or `alloca()` made later does not dominate every
/// return, so it cannot be read there; it is left to the optimiser.)
fn allocas(f: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    // SAFETY: `f` has a body; its entry block is walked with the C API's
    // iterators while nothing changes.
    unsafe {
        let mut i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f));
        while !i.is_null() {
            if LLVMGetInstructionOpcode(i) == LLVMOpcode::LLVMAlloca {
                out.push(i);
            }
            i = LLVMGetNextInstruction(i);
        }
    }
    out
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
struct Seen {
    addresses: HashSet<LLVMValueRef>,
    variables: HashSet<LLVMValueRef>,
}

/// Whether addresses escape, remembered per parameter of the module's
/// functions.
#[derive(Default)]
struct Captures {
    /// Parameter → how far a pointer passed there may get (for one being
    /// looked at, the current guess).
    params: HashMap<LLVMValueRef, Escape>,
    /// Parameters in `params`, in the order they were settled.
    settled: Vec<LLVMValueRef>,
    /// Parameters being looked at (recursion reached them again).
    open: HashSet<LLVMValueRef>,
    /// Whether a guess of an open parameter was used since this was last
    /// cleared.
    guessed: bool,
    /// How many parameters are being looked at, one inside the other.
    calls: u32,
}

impl Captures {
    /// How far the address of `alloca` may get.
    fn local(&mut self, alloca: LLVMValueRef) -> Escape {
        self.escapes(alloca, 0, &mut Seen::default())
    }

    /// How far the address `v` (or one computed from it) may get beyond
    /// the function it is in. `seen` holds the values and variables this
    /// walk has already looked at.
    fn escapes(&mut self, v: LLVMValueRef, depth: u32, seen: &mut Seen) -> Escape {
        if depth > MAX_DEPTH {
            return Escape::Kept;
        }
        if !seen.addresses.insert(v) {
            return Escape::No;
        }
        let mut worst = Escape::No;
        // SAFETY: `v` is a live value; its users are live instructions
        // whose operands are read as their opcodes define them.
        unsafe {
            for user in users(v) {
                let e = match LLVMGetInstructionOpcode(user) {
                    LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMICmp => Escape::No,
                    // Stored through: fine; stored as the value: into a
                    // local variable, it goes where that variable's loads
                    // go.
                    LLVMOpcode::LLVMStore if LLVMGetOperand(user, 0) != v => Escape::No,
                    LLVMOpcode::LLVMStore => {
                        self.variable(LLVMGetOperand(user, 1), depth + 1, seen)
                    }
                    LLVMOpcode::LLVMGetElementPtr
                    | LLVMOpcode::LLVMBitCast
                    | LLVMOpcode::LLVMAddrSpaceCast
                    | LLVMOpcode::LLVMPHI
                    | LLVMOpcode::LLVMSelect => self.escapes(user, depth + 1, seen),
                    LLVMOpcode::LLVMCall if crate::guards::is_launder(user, v) => {
                        self.escapes(user, depth + 1, seen)
                    }
                    LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke => self.call_keeps(user, v),
                    // `ret`, `ptrtoint`, cmpxchg and atomicrmw operands,
                    // aggregates and vectors built with it: kept.
                    _ => Escape::Kept,
                };
                worst = worst.max(e);
                if worst == Escape::Kept {
                    break;
                }
            }
        }
        worst
    }

    /// How far an address stored at `dest` may get: if `dest` is a local
    /// variable (an `alloca` only loaded from and stored to, as every
    /// parameter and pointer variable is before promotion), as far as its
    /// loads; otherwise it is kept.
    fn variable(&mut self, dest: LLVMValueRef, depth: u32, seen: &mut Seen) -> Escape {
        // SAFETY: `dest` is a live value; its users are live instructions
        // whose operands are read as their opcodes define them.
        unsafe {
            if LLVMIsAAllocaInst(dest).is_null() {
                return Escape::Kept;
            }
            if !seen.variables.insert(dest) {
                return Escape::No;
            }
            let mut worst = Escape::No;
            for user in users(dest) {
                let e = match LLVMGetInstructionOpcode(user) {
                    LLVMOpcode::LLVMLoad => self.escapes(user, depth + 1, seen),
                    LLVMOpcode::LLVMStore if LLVMGetOperand(user, 0) != dest => Escape::No,
                    LLVMOpcode::LLVMCall if marker(user) => Escape::No,
                    _ => Escape::Kept,
                };
                worst = worst.max(e);
                if worst == Escape::Kept {
                    break;
                }
            }
            worst
        }
    }

    /// How far a pointer passed to parameter `p` may get. Recursive
    /// functions reach a parameter again while it is being looked at: that
    /// use takes a guess (first "nowhere"), and when the answer differs from
    /// a guess that was used, everything settled since is forgotten and the
    /// parameter is looked at again with the answer as its guess. Guesses
    /// only grow, so this ends after at most three rounds.
    fn param(&mut self, p: LLVMValueRef) -> Escape {
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

    /// How far `call` may take the address `v` it is passed.
    ///
    /// # Safety
    /// `call` is a live call or invoke using `v`.
    unsafe fn call_keeps(&mut self, call: LLVMValueRef, v: LLVMValueRef) -> Escape {
        // SAFETY: as the caller promises.
        unsafe {
            let callee = LLVMGetCalledValue(call);
            if callee == v {
                return Escape::Kept;
            }
            if LLVMIsAFunction(callee).is_null() {
                return Escape::Unknown;
            }
            let name = crate::llvm::Value::from_llvm(callee)
                .map_or_else(String::new, crate::llvm::Value::name);
            if name.starts_with("llvm.") {
                // Memory intrinsics and markers read or write through it.
                let through = ["llvm.memcpy.", "llvm.memmove.", "llvm.memset."];
                return if marker(call) || through.iter().any(|p| name.starts_with(p)) {
                    Escape::No
                } else {
                    Escape::Unknown
                };
            }
            if LLVMCountBasicBlocks(callee) == 0 {
                return Escape::Unknown;
            }
            let n = LLVMGetNumArgOperands(call);
            let params = LLVMCountParams(callee);
            let mut worst = Escape::No;
            for i in 0..n {
                if LLVMGetOperand(call, i) != v {
                    continue;
                }
                if i >= params {
                    // Variadic: `va_arg` may make anything of it.
                    return Escape::Kept;
                }
                let p = LLVMGetParam(callee, i);
                worst = worst.max(self.param(p));
            }
            worst
        }
    }
}

/// Whether `call` is a lifetime or debug marker, which neither reads nor
/// keeps the address it names.
///
/// # Safety
/// `call` is a live call.
pub(crate) unsafe fn marker(call: LLVMValueRef) -> bool {
    // SAFETY: as the caller promises.
    unsafe {
        let callee = LLVMGetCalledValue(call);
        if LLVMIsAFunction(callee).is_null() {
            return false;
        }
        let name = crate::llvm::Value::from_llvm(callee)
            .map_or_else(String::new, crate::llvm::Value::name);
        name.starts_with("llvm.lifetime.") || name.starts_with("llvm.dbg.")
    }
}

/// Places the reads of `kept` before `f`'s returns and drops their
/// lifetime ends; with `no_inline`, stops `f` being inlined.
///
/// # Safety
/// `f` is a live function of `m` (context `ctx`) with a body; `kept` are
/// allocas of `f`.
unsafe fn keep(
    ctx: LLVMContextRef,
    m: LLVMModuleRef,
    f: LLVMValueRef,
    kept: &[LLVMValueRef],
    no_inline: bool,
) {
    // SAFETY: as the caller promises; the builder is disposed at the end;
    // instructions erased are lifetime ends, whose results are unused.
    unsafe {
        let keep_fn = keep_function(ctx, m);
        let fn_ty = LLVMGlobalGetValueType(keep_fn);
        let b = LLVMCreateBuilderInContext(ctx);
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let term = LLVMGetBasicBlockTerminator(bb);
            if !term.is_null()
                && matches!(
                    LLVMGetInstructionOpcode(term),
                    LLVMOpcode::LLVMRet | LLVMOpcode::LLVMResume
                )
            {
                LLVMPositionBuilderBefore(b, term);
                for &a in kept {
                    let mut args = [a];
                    LLVMBuildCall2(b, fn_ty, keep_fn, args.as_mut_ptr(), 1, c"".as_ptr());
                }
            }
            bb = LLVMGetNextBasicBlock(bb);
        }
        LLVMDisposeBuilder(b);
        for &a in kept {
            drop_lifetime_ends(a, 0);
        }
        if !no_inline {
            return;
        }
        let kind = LLVMGetEnumAttributeKindForName(c"noinline".as_ptr(), 8);
        let always = LLVMGetEnumAttributeKindForName(c"alwaysinline".as_ptr(), 12);
        let fn_index = LLVMAttributeFunctionIndex;
        LLVMRemoveEnumAttributeAtIndex(f, fn_index, always);
        LLVMAddAttributeAtIndex(f, fn_index, LLVMCreateEnumAttribute(ctx, kind, 0));
    }
}

/// Erases the `llvm.lifetime.end` markers of the address `v` and of the
/// addresses computed from it.
///
/// # Safety
/// `v` is a live pointer value.
unsafe fn drop_lifetime_ends(v: LLVMValueRef, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    // SAFETY: as the caller promises; a marker has no users, so erasing it
    // leaves nothing dangling.
    unsafe {
        for user in users(v) {
            match LLVMGetInstructionOpcode(user) {
                LLVMOpcode::LLVMGetElementPtr
                | LLVMOpcode::LLVMBitCast
                | LLVMOpcode::LLVMAddrSpaceCast => drop_lifetime_ends(user, depth + 1),
                LLVMOpcode::LLVMCall => {
                    let callee = LLVMGetCalledValue(user);
                    if crate::llvm::Value::from_llvm(callee)
                        .map_or_else(String::new, crate::llvm::Value::name)
                        .starts_with("llvm.lifetime.end")
                    {
                        LLVMInstructionEraseFromParent(user);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The declaration of [`KEEP`]: `void (ptr)`, reading its argument's
/// memory and touching no other memory of the program, returning, not
/// unwinding.
///
/// # Safety
/// `m` is a live module of context `ctx`.
unsafe fn keep_function(ctx: LLVMContextRef, m: LLVMModuleRef) -> LLVMValueRef {
    // SAFETY: as the caller promises; the name is NUL-terminated.
    unsafe {
        let name = c"gimso.keep_local";
        let existing = LLVMGetNamedFunction(m, name.as_ptr());
        if !existing.is_null() {
            return existing;
        }
        let mut params = [LLVMPointerTypeInContext(ctx, 0)];
        let ty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), params.as_mut_ptr(), 1, 0);
        let f = LLVMAddFunction(m, name.as_ptr(), ty);
        let fn_index = LLVMAttributeFunctionIndex;
        for attr in ["nounwind", "willreturn", "nosync", "nofree"] {
            let kind = LLVMGetEnumAttributeKindForName(attr.as_ptr().cast(), attr.len());
            LLVMAddAttributeAtIndex(f, fn_index, LLVMCreateEnumAttribute(ctx, kind, 0));
        }
        // memory(argmem: read, inaccessiblemem: readwrite): two bits per
        // location (argument memory, then inaccessible memory), 1 read, 3
        // read and write. Without an effect of its own a call that only
        // reads would be deleted as dead.
        let memory = LLVMGetEnumAttributeKindForName(c"memory".as_ptr(), 6);
        let effects = 1 | (3 << 2);
        LLVMAddAttributeAtIndex(f, fn_index, LLVMCreateEnumAttribute(ctx, memory, effects));
        f
    }
}
