//! Which `alloca`s may stay plain stack slots.
//!
//! Under gimso an `alloca` is a zero-initialised capability object on the
//! GC heap, because its address may be stored, passed, compared or indexed
//! out of bounds. An alloca whose address never leaves the function and
//! whose every access is provably inside it needs no capability: it stays a
//! (zeroed) stack slot and its accesses need no checks. That holds when
//! every use of the alloca is, directly or through `getelementptr` with
//! constant indices,
//!
//! - the address operand of a non-volatile, non-atomic `load` or `store` of
//!   a type without pointers, entirely inside the allocation, or
//! - an `llvm.lifetime.*` marker.
//!
//! Anything else (the address stored, passed to a call, cast, compared,
//! selected, indexed with a variable, a dynamic size) makes it a heap
//! object. At `-O2`, `mem2reg` and SROA have already removed most allocas of
//! the first kind; what remains is mostly the second.
//!
//! Two more shapes stay in the frame as [`AllocaHome::StackCaps`]: a slot
//! beside the alloca holds the capabilities of the pointers at rest in it.
//!
//! - `ptr` loads and stores at word-aligned offsets inside it, and constant
//!   `llvm.memset`s inside it (which clear the capabilities they cover);
//! - `i64` loads and stores at word-aligned offsets: the capability slot
//!   keeps what such a word may carry (a union, a `memcpy` turned into an
//!   integer copy), as shadow storage would;
//! - its address passed to calls in blocks that never return (every path
//!   from them ends in `unreachable`: an error raised with `longjmp`, an
//!   `abort`), with no other use reachable after such a call. There the
//!   translation copies the slot (values and capabilities) into a heap
//!   object the first time, and the calls get that object. Lua's
//!   `luaH_resize` keeps its 56-byte `Table newt` this way: it escapes only
//!   to `freehash` on the allocation-failure path before `luaD_throw`, and
//!   was a GC allocation on every table resize;
//! - its address passed to a call after which no other call can run on
//!   any path that returns (an out-parameter filled by the last call:
//!   Lua's `lua_tointegerx` passes `&res` to `luaV_tointeger` on its slow
//!   path only). That call gets a fresh heap copy and the slot gets the
//!   copy's contents back when it returns; the allocation is made on the
//!   path that needs it, not in the prologue. A pointer the callee keeps
//!   goes on referring to the copy, which outlives the frame as any heap
//!   object would; no later call of this frame can use it before the
//!   frame's own reads.
//!
//! Both are refused in functions that call `setjmp` (a `longjmp` back
//! would skip the copy back, or bring back a path that never returns).
//!
//! An alloca that fits none of these but whose address only goes to
//! accesses (any index: they are checked), the memory intrinsics and
//! arguments that LLVM proved `nocapture` (the callee keeps no copy of the
//! pointer beyond the call: `sqlite3GetVarint32`'s out-parameter, a
//! buffer handed to `snprintf`) is an [`AllocaHome::Frame`] object: a real
//! capability object, header and inline shadow included, in the frame.
//! Its capability can outlive the frame only in stale words nobody reads
//! as a live pointer (a dead stack slot, a CC buffer, which the collector
//! takes for non-heap and skips), never in memory the program can load
//! from, because no callee captured it; it costs no GC allocation.

use std::collections::{HashMap, HashSet};

use inkwell::llvm_sys::core::{
    LLVMGetAllocatedType, LLVMGetCalledValue, LLVMGetFirstInstruction, LLVMGetFirstUse,
    LLVMGetGEPSourceElementType, LLVMGetInstructionOpcode, LLVMGetInstructionParent,
    LLVMGetNextInstruction, LLVMGetNextUse, LLVMGetNumOperands, LLVMGetNumSuccessors,
    LLVMGetOperand, LLVMGetOrdering, LLVMGetSuccessor, LLVMGetUser, LLVMGetVolatile,
    LLVMIsAConstantInt, LLVMIsAFunction, LLVMIsAGetElementPtrInst, LLVMIsAInstruction, LLVMTypeOf,
};
use inkwell::llvm_sys::prelude::{LLVMBasicBlockRef, LLVMTypeRef, LLVMValueRef};
use inkwell::llvm_sys::target::{
    LLVMABISizeOfType, LLVMCreateTargetData, LLVMDisposeTargetData, LLVMOffsetOfElement,
    LLVMStoreSizeOfType, LLVMTargetDataRef,
};
use inkwell::llvm_sys::{LLVMAtomicOrdering, LLVMOpcode};
use inkwell::module::Module;
use inkwell::types::{AnyType, AnyTypeEnum, AsTypeRef};
use inkwell::values::{AsValueRef, FunctionValue, InstructionOpcode, InstructionValue};

/// Where an alloca lives after translation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AllocaHome {
    /// A plain zeroed stack slot: no capability, no checks.
    Stack,
    /// A zeroed stack slot with a capability slot beside it (pointers at
    /// rest); `escapes`: its address is passed to calls that get a heap
    /// copy (on never-returning paths, or copied back after the call).
    StackCaps {
        /// Whether some call takes its address.
        escapes: bool,
    },
    /// A capability object in the frame (header, payload, inline shadow):
    /// its address goes only to accesses and `nocapture` arguments.
    Frame,
    /// A capability object on the GC heap, and why.
    Heap(&'static str),
}

/// Largest alloca made a frame object (its shadow doubles it in the frame;
/// bigger ones stay on the heap so deep recursion keeps its stack use).
pub const FRAME_OBJECT_MAX: u64 = 1024;

/// Classifies every alloca of `function`.
pub fn classify_allocas<'ctx>(
    module: &Module<'ctx>,
    function: FunctionValue<'ctx>,
) -> HashMap<InstructionValue<'ctx>, AllocaHome> {
    let layout = Layout::new(module);
    let cfg = Cfg::new(function);
    let mut out = HashMap::new();
    for block in function.get_basic_block_iter() {
        for inst in block.get_instructions() {
            if inst.get_opcode() == InstructionOpcode::Alloca {
                out.insert(inst, layout.home(inst, &cfg));
            }
        }
    }
    out
}

/// The blocks of one function: successors, and which never return.
pub(crate) struct Cfg {
    succs: HashMap<LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>>,
    /// Blocks every path from which ends in `unreachable`.
    doomed: HashSet<LLVMBasicBlockRef>,
    /// Blocks holding a call (other than an `llvm.*` intrinsic) or invoke.
    calling: HashSet<LLVMBasicBlockRef>,
}

impl Cfg {
    pub(crate) fn new(function: FunctionValue<'_>) -> Cfg {
        let mut succs = HashMap::new();
        let mut dead_end = HashSet::new();
        let mut calling = HashSet::new();
        for block in function.get_basic_block_iter() {
            let raw = block.as_mut_ptr();
            if block
                .get_instructions()
                .any(|i| is_real_call(i.as_value_ref()))
            {
                calling.insert(raw);
            }
            let mut out = Vec::new();
            if let Some(term) = block.get_terminator() {
                let t = term.as_value_ref();
                // SAFETY: `t` is a live terminator; its successors are
                // blocks of the same function.
                unsafe {
                    if LLVMGetInstructionOpcode(t) == LLVMOpcode::LLVMUnreachable {
                        dead_end.insert(raw);
                    }
                    for i in 0..LLVMGetNumSuccessors(t) {
                        out.push(LLVMGetSuccessor(t, i));
                    }
                }
            }
            succs.insert(raw, out);
        }
        // Least fixpoint: a block is doomed when it ends in `unreachable`
        // or all its successors are doomed (a loop with no way out but
        // doomed blocks stays undoomed: that only costs an allocation).
        let mut doomed = dead_end;
        loop {
            let before = doomed.len();
            for (b, s) in &succs {
                if !s.is_empty() && s.iter().all(|x| doomed.contains(x)) {
                    doomed.insert(*b);
                }
            }
            if doomed.len() == before {
                break;
            }
        }
        Cfg {
            succs,
            doomed,
            calling,
        }
    }

    /// Whether every path from `block` ends in `unreachable`.
    pub(crate) fn is_doomed(&self, block: LLVMBasicBlockRef) -> bool {
        self.doomed.contains(&block)
    }

    /// Blocks reachable from the successors of `from`.
    fn reachable_after(&self, from: LLVMBasicBlockRef) -> HashSet<LLVMBasicBlockRef> {
        let mut seen = HashSet::new();
        let mut work: Vec<_> = self.succs.get(&from).cloned().unwrap_or_default();
        while let Some(b) = work.pop() {
            if seen.insert(b) {
                work.extend(self.succs.get(&b).into_iter().flatten().copied());
            }
        }
        seen
    }
}

/// What the uses of one alloca need, beyond plain accesses.
#[derive(Default)]
struct Needs {
    /// A `ptr` is loaded from or stored in it.
    caps: bool,
    /// Calls in doomed blocks that take its address.
    escapes: Vec<LLVMValueRef>,
    /// Other calls that take its address (copied in and out around them).
    syncs: Vec<LLVMValueRef>,
    /// Every other use (accesses, memsets).
    others: Vec<LLVMValueRef>,
}

/// The module's data layout, for sizes and offsets.
struct Layout {
    td: LLVMTargetDataRef,
}

impl Drop for Layout {
    fn drop(&mut self) {
        // SAFETY: created in `new`, disposed once.
        unsafe { LLVMDisposeTargetData(self.td) };
    }
}

impl Layout {
    fn new(module: &Module<'_>) -> Layout {
        let dl = module.get_data_layout();
        // SAFETY: `dl` is a NUL-terminated layout string owned by us for
        // the call; the target data is disposed in Drop.
        let td = unsafe { LLVMCreateTargetData(dl.as_ptr()) };
        Layout { td }
    }

    fn size(&self, ty: LLVMTypeRef) -> u64 {
        // SAFETY: `ty` is a sized type of the module's context.
        unsafe { LLVMABISizeOfType(self.td, ty) }
    }

    fn home(&self, alloca: InstructionValue<'_>, cfg: &Cfg) -> AllocaHome {
        let raw = alloca.as_value_ref();
        // SAFETY: `raw` is a live alloca; operand 0 is its element count.
        let (ty, count) = unsafe { (LLVMGetAllocatedType(raw), LLVMGetOperand(raw, 0)) };
        let Some(n) = const_int(count) else {
            return AllocaHome::Heap("its size is not a constant");
        };
        let size = self.size(ty).saturating_mul(n);
        let mut needs = Needs::default();
        if let Err(why) = self.uses_ok(raw, 0, size, cfg, &mut needs) {
            return frame_or_heap(alloca, size, why);
        }
        if let Err(why) = nothing_after_escapes(&needs, cfg) {
            return frame_or_heap(alloca, size, why);
        }
        if let Err(why) = no_call_after_syncs(&needs, cfg) {
            return frame_or_heap(alloca, size, why);
        }
        let escapes = !needs.escapes.is_empty() || !needs.syncs.is_empty();
        if !needs.syncs.is_empty() {
            // A frame object costs no allocation on any path; the copy
            // around a returning call costs one on its path. (Copies on
            // never-returning paths are not worth a checked frame object.)
            if can_be_frame(alloca, size) {
                return AllocaHome::Frame;
            }
        }
        if needs.caps || escapes {
            AllocaHome::StackCaps { escapes }
        } else {
            AllocaHome::Stack
        }
    }

    /// Whether every use of `value`, which points `offset` bytes into an
    /// allocation of `size` bytes, keeps the allocation private and in
    /// bounds (or lets it out only on doomed paths); what they need is
    /// added to `needs`.
    fn uses_ok(
        &self,
        value: LLVMValueRef,
        offset: u64,
        size: u64,
        cfg: &Cfg,
        needs: &mut Needs,
    ) -> Result<(), &'static str> {
        let users = users(value).ok_or("its address is used by a constant")?;
        // SAFETY: `value` is a live alloca or GEP; its users and their
        // operands are live instructions of the same function, and each
        // accessor is called only on the opcode it belongs to.
        unsafe {
            for user in users {
                match LLVMGetInstructionOpcode(user) {
                    LLVMOpcode::LLVMLoad => {
                        plain_access(user)?;
                        needs.caps |= self.access_ok(LLVMTypeOf(user), offset, size)?;
                        needs.caps |= self.int_word(LLVMTypeOf(user), offset)?;
                        needs.others.push(user);
                    }
                    LLVMOpcode::LLVMStore => {
                        let (stored, address) = (LLVMGetOperand(user, 0), LLVMGetOperand(user, 1));
                        if stored == value || address != value {
                            return Err("its address is stored to memory");
                        }
                        plain_access(user)?;
                        needs.caps |= self.access_ok(LLVMTypeOf(stored), offset, size)?;
                        needs.caps |= self.int_word(LLVMTypeOf(stored), offset)?;
                        needs.others.push(user);
                    }
                    LLVMOpcode::LLVMGetElementPtr => {
                        let extra = self
                            .gep_offset(user)
                            .ok_or("it is indexed with a variable")?;
                        let inner = offset.checked_add(extra).ok_or("an index overflows")?;
                        self.uses_ok(user, inner, size, cfg, needs)?;
                    }
                    LLVMOpcode::LLVMCall if is_lifetime_marker(user) => {}
                    LLVMOpcode::LLVMCall if is_memset_inside(user, value, offset, size) => {
                        needs.others.push(user);
                    }
                    LLVMOpcode::LLVMCall if escapes_to_doom(user, value, cfg) => {
                        needs.escapes.push(user);
                    }
                    LLVMOpcode::LLVMCall if direct_argument(user, value) => {
                        needs.syncs.push(user);
                    }
                    _ => return Err("its address escapes (passed, cast, compared or merged)"),
                }
            }
        }
        Ok(())
    }

    /// A load or store of `ty` at `offset` must fit, and hold no pointer
    /// unless it is one `ptr` at a word-aligned offset; returns whether it
    /// is one.
    fn access_ok(&self, ty: LLVMTypeRef, offset: u64, size: u64) -> Result<bool, &'static str> {
        // SAFETY: `ty` is a live type of the module's context.
        let any = unsafe { AnyTypeEnum::new(ty) };
        // One `ptr`, or a vector of them (the SLP vectoriser pairs
        // neighbouring pointer fields).
        let word = match any {
            AnyTypeEnum::PointerType(_) => true,
            AnyTypeEnum::VectorType(v) => v.get_element_type().is_pointer_type(),
            _ => false,
        };
        if word && offset % 8 != 0 {
            return Err("a pointer in it is not word-aligned");
        }
        if !word && has_pointer(any) {
            return Err("an aggregate with pointers is loaded or stored whole");
        }
        // SAFETY: as above.
        let bytes = unsafe { LLVMStoreSizeOfType(self.td, ty) };
        match offset.checked_add(bytes) {
            Some(end) if end <= size => Ok(word),
            _ => Err("an access may fall outside it"),
        }
    }

    /// An `i64` may be a pointer's `ptrtoint` carrying a capability (a
    /// union, a `memcpy` turned into an integer copy): at a word-aligned
    /// offset the capability slot keeps it, as shadow storage would
    /// (returns true); anywhere else it carries none, as in shadow storage.
    /// Wider integers, integer vectors and aggregates loaded whole are
    /// refused: the translation reads and writes capabilities one `i64`
    /// at a time.
    fn int_word(&self, ty: LLVMTypeRef, offset: u64) -> Result<bool, &'static str> {
        // SAFETY: `ty` is a live type of the module's context.
        match unsafe { AnyTypeEnum::new(ty) } {
            AnyTypeEnum::IntType(i) if i.get_bit_width() == 64 => Ok(offset % 8 == 0),
            AnyTypeEnum::IntType(i) if i.get_bit_width() > 64 => {
                Err("a wide integer is kept in it")
            }
            AnyTypeEnum::VectorType(v) if v.get_element_type().is_int_type() => {
                Err("an integer vector is kept in it")
            }
            AnyTypeEnum::ArrayType(_) | AnyTypeEnum::StructType(_) => {
                Err("an aggregate is loaded or stored whole")
            }
            _ => Ok(false),
        }
    }

    /// The constant byte offset a GEP adds, if all its indices are constant.
    fn gep_offset(&self, gep: LLVMValueRef) -> Option<u64> {
        // SAFETY: `gep` is a live getelementptr: operand 0 the base, then
        // the indices; the source element type describes the first index.
        unsafe {
            let mut ty = LLVMGetGEPSourceElementType(gep);
            let n = LLVMGetNumOperands(gep).max(0) as u32;
            let first = const_int(LLVMGetOperand(gep, 1))?;
            let mut offset = self.size(ty).checked_mul(first)?;
            for i in 2..n {
                let index = const_int(LLVMGetOperand(gep, i))?;
                match AnyTypeEnum::new(ty) {
                    AnyTypeEnum::StructType(s) => {
                        offset =
                            offset.checked_add(LLVMOffsetOfElement(self.td, ty, index as u32))?;
                        ty = s.get_field_type_at_index(index as u32)?.as_type_ref();
                    }
                    AnyTypeEnum::ArrayType(a) => {
                        ty = a.get_element_type().as_type_ref();
                        offset = offset.checked_add(self.size(ty).checked_mul(index)?)?;
                    }
                    _ => return None,
                }
            }
            Some(offset)
        }
    }
}

/// Loads and stores must be neither volatile nor atomic to stay unchecked.
///
/// # Safety
/// `inst` must be a live load or store.
unsafe fn plain_access(inst: LLVMValueRef) -> Result<(), &'static str> {
    // SAFETY: forwarded from the caller.
    let (volatile, ordering) = unsafe { (LLVMGetVolatile(inst), LLVMGetOrdering(inst)) };
    if volatile != 0 || ordering != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic {
        return Err("it is accessed atomically or volatilely");
    }
    Ok(())
}

/// The value of a constant integer that fits in a non-negative i64.
fn const_int(v: LLVMValueRef) -> Option<u64> {
    // SAFETY: `v` is a live value; the cast only succeeds for ConstantInt.
    if v.is_null() || unsafe { LLVMIsAConstantInt(v) }.is_null() {
        return None;
    }
    // SAFETY: `v` is a ConstantInt.
    let n = unsafe { inkwell::llvm_sys::core::LLVMConstIntGetSExtValue(v) };
    u64::try_from(n).ok()
}

/// No use of the alloca may be reachable after a call that gets its heap
/// copy: it would read the frame's stale slot.
fn nothing_after_escapes(needs: &Needs, cfg: &Cfg) -> Result<(), &'static str> {
    for &call in &needs.escapes {
        // SAFETY: `call` is a live instruction of the function.
        let block = unsafe { LLVMGetInstructionParent(call) };
        let after = cfg.reachable_after(block);
        for &other in &needs.others {
            // SAFETY: as above.
            let ob = unsafe { LLVMGetInstructionParent(other) };
            let later_here = ob == block && comes_after(other, call);
            if later_here || after.contains(&ob) {
                return Err("it is used after its address escapes");
            }
        }
    }
    Ok(())
}

/// A call that gets a copy of the local (copied back when it returns) must
/// be the last one on every path from it (never-returning ones included):
/// a later call could write through a pointer the first one kept, and the
/// frame's slot would miss it. (A call in a loop reaches itself.)
fn no_call_after_syncs(needs: &Needs, cfg: &Cfg) -> Result<(), &'static str> {
    for &call in &needs.syncs {
        // SAFETY: `call` is a live instruction of the function.
        let block = unsafe { LLVMGetInstructionParent(call) };
        // SAFETY: as above; the walk ends at the block's end (null).
        let mut i = unsafe { LLVMGetNextInstruction(call) };
        while !i.is_null() {
            if is_real_call(i) {
                return Err("its address escapes (passed, cast, compared or merged)");
            }
            // SAFETY: as above.
            i = unsafe { LLVMGetNextInstruction(i) };
        }
        let after = cfg.reachable_after(block);
        if after.iter().any(|b| cfg.calling.contains(b)) {
            return Err("its address escapes (passed, cast, compared or merged)");
        }
        no_fresh_address_after(call, block, &after)?;
    }
    Ok(())
}

/// After a call that got a copy, the frame must not access memory through
/// a pointer it obtained after that call (loaded, returned by the call):
/// the callee may have handed out the copy's address, and an access there
/// would miss the frame's slot. Pointers the frame had before the call
/// cannot point at a copy made by it.
fn no_fresh_address_after(
    call: LLVMValueRef,
    block: LLVMBasicBlockRef,
    after: &HashSet<LLVMBasicBlockRef>,
) -> Result<(), &'static str> {
    let fresh = |v: LLVMValueRef| -> bool {
        let base = strip_geps(v);
        // SAFETY: `base` is a live value; only instructions have parents.
        unsafe {
            if LLVMIsAInstruction(base).is_null() {
                return false;
            }
            let b = LLVMGetInstructionParent(base);
            after.contains(&b) || (b == block && (base == call || comes_after(base, call)))
        }
    };
    let check = |inst: LLVMValueRef| -> Result<(), &'static str> {
        // SAFETY: `inst` is a live instruction; each operand index read
        // belongs to its opcode.
        let addresses: Vec<LLVMValueRef> = unsafe {
            match LLVMGetInstructionOpcode(inst) {
                LLVMOpcode::LLVMLoad
                | LLVMOpcode::LLVMAtomicRMW
                | LLVMOpcode::LLVMAtomicCmpXchg => {
                    vec![LLVMGetOperand(inst, 0)]
                }
                LLVMOpcode::LLVMStore => vec![LLVMGetOperand(inst, 1)],
                LLVMOpcode::LLVMCall => {
                    let n = LLVMGetNumOperands(inst).max(1) - 1;
                    (0..n as u32).map(|i| LLVMGetOperand(inst, i)).collect()
                }
                _ => Vec::new(),
            }
        };
        if addresses.into_iter().any(fresh) {
            return Err(
                "it is passed to a call, then memory is reached through a pointer obtained after it",
            );
        }
        Ok(())
    };
    // SAFETY: walking live instructions of live blocks to their ends.
    unsafe {
        let mut i = LLVMGetNextInstruction(call);
        while !i.is_null() {
            check(i)?;
            i = LLVMGetNextInstruction(i);
        }
        for &b in after {
            let mut i = LLVMGetFirstInstruction(b);
            while !i.is_null() {
                check(i)?;
                i = LLVMGetNextInstruction(i);
            }
        }
    }
    Ok(())
}

/// `v` with its `getelementptr`s (constant or not) stripped.
fn strip_geps(mut v: LLVMValueRef) -> LLVMValueRef {
    // SAFETY: `v` is a live value; operand 0 of a GEP is its base.
    unsafe {
        while !LLVMIsAGetElementPtrInst(v).is_null() {
            v = LLVMGetOperand(v, 0);
        }
    }
    v
}

/// A call or invoke of anything but an `llvm.*` intrinsic.
fn is_real_call(inst: LLVMValueRef) -> bool {
    // SAFETY: `inst` is a live instruction.
    let op = unsafe { LLVMGetInstructionOpcode(inst) };
    match op {
        LLVMOpcode::LLVMInvoke | LLVMOpcode::LLVMCallBr => true,
        LLVMOpcode::LLVMCall => !callee_name(inst).starts_with(b"llvm."),
        _ => false,
    }
}

/// [`AllocaHome::Frame`] when the alloca can be a frame object, else the
/// heap for `why`.
fn frame_or_heap(alloca: InstructionValue<'_>, size: u64, why: &'static str) -> AllocaHome {
    if can_be_frame(alloca, size) {
        AllocaHome::Frame
    } else {
        AllocaHome::Heap(why)
    }
}

/// Small enough, at most 16-aligned, and every use keeps its capability
/// from outliving the calls it goes to.
fn can_be_frame(alloca: InstructionValue<'_>, size: u64) -> bool {
    let align = alloca.get_alignment().unwrap_or(16);
    size <= FRAME_OBJECT_MAX && align <= 16 && frame_uses_ok(alloca.as_value_ref(), 0)
}

/// Whether every use of `value` (the alloca or an address derived from it)
/// keeps its capability from outliving the call it is passed to: accesses
/// (as the address), address arithmetic (a bounds guard's launder
/// included, [`crate::guards`]), memory intrinsics, lifetime and `va_*`
/// markers, and direct calls whose parameter is `nocapture`.
/// `depth` bounds the walk through chains of address arithmetic.
fn frame_uses_ok(value: LLVMValueRef, depth: u32) -> bool {
    if depth > 16 {
        return false;
    }
    let Some(users) = users(value) else {
        return false;
    };
    users.into_iter().all(|user| {
        // SAFETY: `user` is a live instruction (`users` checked) of the
        // same function; each operand index read belongs to its opcode.
        unsafe {
            match LLVMGetInstructionOpcode(user) {
                LLVMOpcode::LLVMLoad => true,
                LLVMOpcode::LLVMStore => {
                    LLVMGetOperand(user, 0) != value && LLVMGetOperand(user, 1) == value
                }
                LLVMOpcode::LLVMGetElementPtr => {
                    LLVMGetOperand(user, 0) == value && frame_uses_ok(user, depth + 1)
                }
                LLVMOpcode::LLVMCall
                    if crate::guards::is_launder(
                        crate::llvm::Value::from_llvm(user).expect("a user"),
                        crate::llvm::Value::from_llvm(value).expect("a value"),
                    ) =>
                {
                    frame_uses_ok(user, depth + 1)
                }
                LLVMOpcode::LLVMCall => nocapture_argument(user, value),
                _ => false,
            }
        }
    })
}

/// The users of `value`, or None when one is not an instruction (a
/// constant expression takes the address).
fn users(value: LLVMValueRef) -> Option<Vec<LLVMValueRef>> {
    let mut out = Vec::new();
    // SAFETY: `value` is a live value; its use list and users are live.
    unsafe {
        let mut use_ = LLVMGetFirstUse(value);
        while !use_.is_null() {
            let user = LLVMGetUser(use_);
            if LLVMIsAInstruction(user).is_null() {
                return None;
            }
            out.push(user);
            use_ = LLVMGetNextUse(use_);
        }
    }
    Some(out)
}

/// Whether every place `value` appears in `call` is a parameter the callee
/// cannot capture: a memory intrinsic or marker, or a direct call whose
/// parameter (not a variadic one) is `nocapture` and not `returned` (and,
/// for a declaration, whose result holds no pointer).
fn nocapture_argument(call: LLVMValueRef, value: LLVMValueRef) -> bool {
    let name = callee_name(call);
    if name.is_empty() || name.ends_with(b"setjmp") {
        return false;
    }
    if name.starts_with(b"llvm.") {
        return [
            &b"llvm.memset."[..],
            b"llvm.memcpy.",
            b"llvm.memmove.",
            b"llvm.lifetime.",
            b"llvm.va_start",
            b"llvm.va_end",
            b"llvm.va_copy",
        ]
        .iter()
        .any(|p| name.starts_with(p));
    }
    // SAFETY: `call` is a live direct call (checked above); its argument
    // operands come first, the callee last; attribute kinds are looked up
    // by name.
    unsafe {
        let callee = LLVMGetCalledValue(call);
        let params = inkwell::llvm_sys::core::LLVMCountParams(callee);
        let args = inkwell::llvm_sys::core::LLVMGetNumArgOperands(call);
        let attr = |name: &str| {
            inkwell::llvm_sys::core::LLVMGetEnumAttributeKindForName(
                name.as_ptr().cast(),
                name.len(),
            )
        };
        // A library function's attributes are LLVM's knowledge of its C
        // semantics, not an inference; one returning a pointer may return
        // the argument itself (`getcwd`), so only non-pointer results.
        if inkwell::llvm_sys::core::LLVMCountBasicBlocks(callee) == 0
            && has_pointer(AnyTypeEnum::new(LLVMTypeOf(call)))
        {
            return false;
        }
        let (nocapture, returned) = (attr("nocapture"), attr("returned"));
        let mut found = false;
        for i in 0..args {
            if LLVMGetOperand(call, i) != value {
                continue;
            }
            found = true;
            let idx = i + 1;
            let has = |kind| {
                !inkwell::llvm_sys::core::LLVMGetCallSiteEnumAttribute(call, idx, kind).is_null()
                    || !inkwell::llvm_sys::core::LLVMGetEnumAttributeAtIndex(callee, idx, kind)
                        .is_null()
            };
            if i >= params || !has(nocapture) || has(returned) {
                return false;
            }
        }
        found
    }
}

/// A plain call of a function (not an intrinsic, not `setjmp`) taking
/// `value` as an argument, never as the callee.
fn direct_argument(call: LLVMValueRef, value: LLVMValueRef) -> bool {
    let name = callee_name(call);
    // SAFETY: `call` is a live call; its last operand is the callee.
    let callee_is_value = unsafe {
        let n = LLVMGetNumOperands(call);
        n > 0 && LLVMGetOperand(call, (n - 1) as u32) == value
    };
    !name.is_empty()
        && !name.starts_with(b"llvm.")
        && !name.ends_with(b"setjmp")
        && !callee_is_value
}

/// Whether `inst` comes after `call` in their common block.
fn comes_after(inst: LLVMValueRef, call: LLVMValueRef) -> bool {
    // SAFETY: both are live instructions of one block; walking forward from
    // `call` ends at the block's end (null).
    unsafe {
        let mut i = LLVMGetNextInstruction(call);
        while !i.is_null() {
            if i == inst {
                return true;
            }
            i = LLVMGetNextInstruction(i);
        }
    }
    false
}

/// A non-volatile `llvm.memset` with a constant length, its destination
/// `value` (at `offset` into the alloca) and wholly inside the alloca.
fn is_memset_inside(call: LLVMValueRef, value: LLVMValueRef, offset: u64, size: u64) -> bool {
    if !callee_name(call).starts_with(b"llvm.memset.") {
        return false;
    }
    // SAFETY: `call` is a live call of `llvm.memset(dst, val, len, volatile)`.
    unsafe {
        if LLVMGetOperand(call, 0) != value || LLVMGetOperand(call, 1) == value {
            return false;
        }
        let (Some(len), Some(0)) = (
            const_int(LLVMGetOperand(call, 2)),
            const_int(LLVMGetOperand(call, 3)),
        ) else {
            return false;
        };
        offset.checked_add(len).is_some_and(|end| end <= size)
    }
}

/// A [`direct_argument`] call in a block that never returns.
fn escapes_to_doom(call: LLVMValueRef, value: LLVMValueRef, cfg: &Cfg) -> bool {
    // SAFETY: `call` is a live call instruction.
    let block = unsafe { LLVMGetInstructionParent(call) };
    cfg.doomed.contains(&block) && direct_argument(call, value)
}

/// The name of a call's callee, empty for an indirect call.
fn callee_name(call: LLVMValueRef) -> &'static [u8] {
    // SAFETY: `call` is a live call; the callee cast only succeeds for
    // functions, whose names live as long as the module.
    unsafe {
        let callee = LLVMGetCalledValue(call);
        if callee.is_null() || LLVMIsAFunction(callee).is_null() {
            return b"";
        }
        let mut len = 0usize;
        let name = inkwell::llvm_sys::core::LLVMGetValueName2(callee, &mut len);
        core::slice::from_raw_parts(name.cast::<u8>(), len)
    }
}

fn is_lifetime_marker(call: LLVMValueRef) -> bool {
    callee_name(call).starts_with(b"llvm.lifetime.")
}

fn has_pointer(ty: AnyTypeEnum<'_>) -> bool {
    match ty {
        AnyTypeEnum::PointerType(_) => true,
        AnyTypeEnum::ArrayType(a) => has_pointer(a.get_element_type().as_any_type_enum()),
        AnyTypeEnum::VectorType(v) => has_pointer(v.get_element_type().as_any_type_enum()),
        AnyTypeEnum::StructType(s) => s
            .get_field_types()
            .iter()
            .any(|f| has_pointer(f.as_any_type_enum())),
        _ => false,
    }
}
