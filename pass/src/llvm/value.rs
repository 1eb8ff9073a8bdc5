//! [`Value`]: any LLVM value of a live module, with the queries and edits
//! the pass makes of values, instructions, constants and globals.

use std::marker::PhantomData;
use std::ptr::NonNull;

use inkwell::llvm_sys::LLVMValue;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMUseRef, LLVMValueRef};
use inkwell::values::AsValueRef;

use super::{
    Block, Func, IntPredicate, Linkage, Meta, Opcode, Ordering, RealPredicate, RmwOp, Type,
    ValueKind, Visibility, cstring, take_message,
};

/// A value of a live module (see the [module docs](super) for the
/// invariant). Equality and hashing are by identity.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Value<'m> {
    raw: NonNull<LLVMValue>,
    _m: PhantomData<&'m ()>,
}

impl std::fmt::Debug for Value<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Value({})", self.print())
    }
}

/// One use of a value: the user holding it as an operand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Use<'m> {
    raw: NonNull<inkwell::llvm_sys::LLVMUse>,
    _m: PhantomData<&'m ()>,
}

impl<'m> Use<'m> {
    /// # Safety
    /// `raw` is null or a use of a value of a module alive for `'m`.
    unsafe fn from_raw(raw: LLVMUseRef) -> Option<Use<'m>> {
        NonNull::new(raw).map(|raw| Use {
            raw,
            _m: PhantomData,
        })
    }
    /// The instruction or constant holding the use.
    #[track_caller]
    pub fn user(self) -> Value<'m> {
        // SAFETY: a live use (invariant); every use has a user.
        unsafe { Value::from_raw(LLVMGetUser(self.raw.as_ptr())) }.expect("a use without a user")
    }
    /// The value used.
    #[track_caller]
    pub fn used(self) -> Value<'m> {
        // SAFETY: a live use (invariant); every use has a value.
        unsafe { Value::from_raw(LLVMGetUsedValue(self.raw.as_ptr())) }
            .expect("a use without a value")
    }
    /// The next use of the same value.
    #[track_caller]
    pub fn next(self) -> Option<Use<'m>> {
        // SAFETY: a live use (invariant); null ends the list.
        unsafe { Use::from_raw(LLVMGetNextUse(self.raw.as_ptr())) }
    }
}

macro_rules! is_a {
    ($($(#[$doc:meta])* $name:ident => $f:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(self) -> bool {
            // SAFETY: `LLVMIsA*` only inspects the kind of a live value.
            unsafe { !$f(self.raw()).is_null() }
        }
    )*};
}

impl<'m> Value<'m> {
    /// # Safety
    /// `raw` is null or a value of a module that stays alive for `'m`.
    pub(super) unsafe fn from_raw(raw: LLVMValueRef) -> Option<Value<'m>> {
        NonNull::new(raw).map(|raw| Value {
            raw,
            _m: PhantomData,
        })
    }

    pub(super) fn raw(self) -> LLVMValueRef {
        self.raw.as_ptr()
    }

    /// The handle of an inkwell value (inkwell's values are alive for
    /// their `'ctx`, which borrows the module).
    #[track_caller]
    pub fn of<V: AsValueRef + 'm>(v: V) -> Value<'m> {
        // SAFETY: inkwell only makes values of live modules.
        unsafe { Value::from_raw(v.as_value_ref()) }.expect("inkwell value is null")
    }

    // ---- every value ------------------------------------------------------

    #[track_caller]
    pub fn type_of(self) -> Type<'m> {
        // SAFETY: live value; every value has a type.
        unsafe { Type::from_raw(LLVMTypeOf(self.raw())) }.expect("a value without a type")
    }
    #[track_caller]
    pub fn value_kind(self) -> ValueKind {
        // SAFETY: live value.
        unsafe { LLVMGetValueKind(self.raw()) }
    }
    /// The value's name; empty when it has none.
    #[track_caller]
    pub fn name(self) -> String {
        let mut len = 0usize;
        // SAFETY: live value; the name buffer is owned by LLVM and copied.
        unsafe {
            let p = LLVMGetValueName2(self.raw(), &mut len);
            if p.is_null() {
                return String::new();
            }
            String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), len)).into_owned()
        }
    }
    #[track_caller]
    pub fn set_name(self, name: &str) {
        // SAFETY: live value; the name is copied.
        unsafe { LLVMSetValueName2(self.raw(), name.as_ptr().cast(), name.len()) }
    }
    /// The value's textual IR.
    #[track_caller]
    pub fn print(self) -> String {
        // SAFETY: live value; the message is LLVM's, copied and freed.
        unsafe { take_message(LLVMPrintValueToString(self.raw())) }
    }

    is_a! {
        is_instruction => LLVMIsAInstruction;
        is_terminator => LLVMIsATerminatorInst;
        is_alloca => LLVMIsAAllocaInst;
        is_load => LLVMIsALoadInst;
        is_store => LLVMIsAStoreInst;
        is_gep_inst => LLVMIsAGetElementPtrInst;
        is_call => LLVMIsACallInst;
        is_invoke => LLVMIsAInvokeInst;
        is_phi => LLVMIsAPHINode;
        is_function => LLVMIsAFunction;
        is_argument => LLVMIsAArgument;
        is_basic_block => LLVMIsABasicBlock;
        is_global_value => LLVMIsAGlobalValue;
        is_global_variable => LLVMIsAGlobalVariable;
        is_global_alias => LLVMIsAGlobalAlias;
        is_inline_asm => LLVMIsAInlineAsm;
        is_constant_int => LLVMIsAConstantInt;
        is_constant_expr => LLVMIsAConstantExpr;
        is_constant_kind => LLVMIsAConstant;
        is_block_address => LLVMIsABlockAddress;
    }

    /// Whether this is a constant (a global's address included).
    #[track_caller]
    pub fn is_constant(self) -> bool {
        // SAFETY: live value.
        unsafe { LLVMIsConstant(self.raw()) != 0 }
    }
    /// Whether this is the constant null (all-zero) value.
    #[track_caller]
    pub fn is_null_constant(self) -> bool {
        // SAFETY: live value; `LLVMIsNull` is asked of constants only.
        unsafe { LLVMIsConstant(self.raw()) != 0 && LLVMIsNull(self.raw()) != 0 }
    }
    #[track_caller]
    pub fn is_undef(self) -> bool {
        // SAFETY: live value.
        unsafe { LLVMIsUndef(self.raw()) != 0 }
    }
    #[track_caller]
    pub fn is_poison(self) -> bool {
        // SAFETY: live value.
        unsafe { LLVMIsPoison(self.raw()) != 0 }
    }
    /// Whether this is a call, invoke or callbr.
    #[track_caller]
    pub fn is_call_base(self) -> bool {
        self.is_call() || self.is_invoke() || self.inst_opcode() == Some(Opcode::LLVMCallBr)
    }
    /// This value as a function, if it is one.
    #[track_caller]
    pub fn as_func(self) -> Option<Func<'m>> {
        self.is_function().then(|| Func::from_value(self))
    }
    /// This value as a function.
    ///
    /// # Panics
    /// If it is not a function.
    #[track_caller]
    pub fn func(self) -> Func<'m> {
        match self.as_func() {
            Some(f) => f,
            None => panic!("a function expected, not a {:?}", self.value_kind()),
        }
    }
    /// This value as a basic block, if it is one.
    #[track_caller]
    pub fn as_block(self) -> Option<Block<'m>> {
        // SAFETY: a live basic-block value converts to its block.
        self.is_basic_block()
            .then(|| unsafe { Block::from_raw(LLVMValueAsBasicBlock(self.raw())) })
            .flatten()
    }

    // ---- users and operands -------------------------------------------------

    #[track_caller]
    pub fn num_operands(self) -> u32 {
        // SAFETY: live value (0 for a non-user).
        unsafe { LLVMGetNumOperands(self.raw()).max(0) as u32 }
    }
    /// Operand `i`, if this is a user with more than `i` operands.
    #[track_caller]
    pub fn get_operand(self, i: u32) -> Option<Value<'m>> {
        if i >= self.num_operands() {
            return None;
        }
        // SAFETY: `i` is in range (checked).
        unsafe { Value::from_raw(LLVMGetOperand(self.raw(), i)) }
    }
    /// Operand `i`.
    ///
    /// # Panics
    /// If this value has no operand `i`.
    #[track_caller]
    pub fn operand(self, i: u32) -> Value<'m> {
        match self.get_operand(i) {
            Some(op) => op,
            None => panic!("operand {i} of a value with {}", self.num_operands()),
        }
    }
    #[track_caller]
    pub fn operands(self) -> impl Iterator<Item = Value<'m>> {
        (0..self.num_operands()).filter_map(move |i| self.get_operand(i))
    }
    /// Replaces operand `i`.
    ///
    /// # Panics
    /// If this value has no operand `i`.
    #[track_caller]
    pub fn set_operand(self, i: u32, op: Value<'m>) {
        assert!(i < self.num_operands(), "set_operand {i} out of range");
        // SAFETY: `i` is in range (checked); both values are live.
        unsafe { LLVMSetOperand(self.raw(), i, op.raw()) }
    }
    #[track_caller]
    pub fn first_use(self) -> Option<Use<'m>> {
        // SAFETY: live value; null is no use.
        unsafe { Use::from_raw(LLVMGetFirstUse(self.raw())) }
    }
    #[track_caller]
    pub fn has_uses(self) -> bool {
        self.first_use().is_some()
    }
    #[track_caller]
    pub fn uses(self) -> Vec<Use<'m>> {
        std::iter::successors(self.first_use(), |u| u.next()).collect()
    }
    /// The users of this value, one entry per use.
    #[track_caller]
    pub fn users(self) -> Vec<Value<'m>> {
        std::iter::successors(self.first_use(), |u| u.next())
            .map(Use::user)
            .collect()
    }
    /// The distinct users of this value, in use-list order.
    #[track_caller]
    pub fn distinct_users(self) -> Vec<Value<'m>> {
        let mut out = Vec::new();
        for u in self.users() {
            if !out.contains(&u) {
                out.push(u);
            }
        }
        out
    }
    /// Whether operand `i` is a first-class value (not metadata, a label
    /// or a token).
    #[track_caller]
    pub fn operand_is_value(self, i: u32) -> bool {
        use super::TypeKind::*;
        self.get_operand(i).is_some_and(|op| {
            !matches!(
                op.type_of().kind(),
                LLVMMetadataTypeKind | LLVMLabelTypeKind | LLVMTokenTypeKind | LLVMVoidTypeKind
            )
        })
    }
    #[track_caller]
    pub fn replace_all_uses_with(self, new: Value<'m>) {
        // SAFETY: both values are live; LLVM asserts the types agree.
        unsafe { LLVMReplaceAllUsesWith(self.raw(), new.raw()) }
    }

    // ---- instructions -------------------------------------------------------

    #[track_caller]
    fn expect_inst(self, what: &str) {
        assert!(
            self.is_instruction(),
            "{what} of a value that is not an instruction"
        );
    }
    #[track_caller]
    fn expect_op(self, what: &str, ops: &[Opcode]) {
        let op = self.inst_opcode();
        assert!(
            op.is_some_and(|o| ops.contains(&o)),
            "{what} of {op:?}, not one of {ops:?}"
        );
    }

    /// The opcode, if this is an instruction.
    #[track_caller]
    pub fn inst_opcode(self) -> Option<Opcode> {
        // SAFETY: the opcode is read of instructions only.
        self.is_instruction()
            .then(|| unsafe { LLVMGetInstructionOpcode(self.raw()) })
    }
    /// The opcode of this instruction.
    ///
    /// # Panics
    /// If this is not an instruction.
    #[track_caller]
    pub fn opcode(self) -> Opcode {
        match self.inst_opcode() {
            Some(op) => op,
            None => panic!("opcode of a {:?}, not an instruction", self.value_kind()),
        }
    }
    /// The block holding this instruction (`None` when unparented).
    #[track_caller]
    pub fn parent_block(self) -> Option<Block<'m>> {
        self.expect_inst("parent_block");
        // SAFETY: a live instruction.
        unsafe { Block::from_raw(LLVMGetInstructionParent(self.raw())) }
    }
    /// The block holding this instruction.
    ///
    /// # Panics
    /// If it is not an instruction in a block.
    #[track_caller]
    pub fn block(self) -> Block<'m> {
        self.parent_block()
            .expect("an instruction outside any block")
    }
    #[track_caller]
    pub fn next_instruction(self) -> Option<Value<'m>> {
        self.expect_inst("next_instruction");
        // SAFETY: a live instruction; null ends the block.
        unsafe { Value::from_raw(LLVMGetNextInstruction(self.raw())) }
    }
    #[track_caller]
    pub fn prev_instruction(self) -> Option<Value<'m>> {
        self.expect_inst("prev_instruction");
        // SAFETY: a live instruction; null starts the block.
        unsafe { Value::from_raw(LLVMGetPreviousInstruction(self.raw())) }
    }
    /// Removes this instruction from its block and deletes it.
    ///
    /// # Safety
    /// No handle to this instruction is used afterwards, and it has no
    /// remaining uses.
    #[track_caller]
    pub unsafe fn erase(self) {
        self.expect_inst("erase");
        // SAFETY: a live instruction (invariant); the caller drops every
        // handle to it.
        unsafe { LLVMInstructionEraseFromParent(self.raw()) }
    }
    /// Unlinks this instruction from its block, keeping it alive.
    #[track_caller]
    pub fn remove_from_parent(self) {
        self.expect_inst("remove_from_parent");
        // SAFETY: a live instruction; it stays owned by the module's context.
        unsafe { LLVMInstructionRemoveFromParent(self.raw()) }
    }
    /// An unparented copy of this instruction.
    #[track_caller]
    pub fn clone_inst(self) -> Value<'m> {
        self.expect_inst("clone_inst");
        // SAFETY: a live instruction.
        unsafe { Value::from_raw(LLVMInstructionClone(self.raw())) }.expect("clone failed")
    }
    #[track_caller]
    pub fn debug_loc(self) -> Option<Meta<'m>> {
        self.expect_inst("debug_loc");
        // SAFETY: a live instruction.
        unsafe {
            Meta::from_raw(inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(
                self.raw(),
            ))
        }
    }
    #[track_caller]
    pub fn set_debug_loc(self, loc: Option<Meta<'m>>) {
        self.expect_inst("set_debug_loc");
        // SAFETY: a live instruction; `loc` is null or a DILocation.
        unsafe {
            inkwell::llvm_sys::debuginfo::LLVMInstructionSetDebugLoc(
                self.raw(),
                loc.map_or(std::ptr::null_mut(), Meta::raw),
            )
        }
    }
    /// The metadata of kind `kind` attached to this instruction.
    #[track_caller]
    pub fn metadata(self, kind: u32) -> Option<Value<'m>> {
        self.expect_inst("metadata");
        // SAFETY: a live instruction.
        unsafe { Value::from_raw(LLVMGetMetadata(self.raw(), kind)) }
    }
    /// Attaches (or with `None` removes) metadata of kind `kind`.
    #[track_caller]
    pub fn set_metadata(self, kind: u32, node: Option<Value<'m>>) {
        self.expect_inst("set_metadata");
        // SAFETY: a live instruction; `node` is null or a metadata value.
        unsafe {
            LLVMSetMetadata(
                self.raw(),
                kind,
                node.map_or(std::ptr::null_mut(), Value::raw),
            )
        }
    }
    /// The kinds of metadata attached, other than the debug location.
    #[track_caller]
    pub fn metadata_kinds(self) -> Vec<u32> {
        self.expect_inst("metadata_kinds");
        let mut n = 0usize;
        // SAFETY: a live instruction; the entries array holds `n` entries
        // and is freed once.
        unsafe {
            let entries = LLVMInstructionGetAllMetadataOtherThanDebugLoc(self.raw(), &mut n);
            if entries.is_null() {
                return Vec::new();
            }
            let kinds = (0..n)
                .map(|i| LLVMValueMetadataEntriesGetKind(entries, i as u32))
                .collect();
            LLVMDisposeValueMetadataEntries(entries);
            kinds
        }
    }

    // ---- memory instructions ------------------------------------------------

    const MEMORY: &'static [Opcode] = &[
        Opcode::LLVMLoad,
        Opcode::LLVMStore,
        Opcode::LLVMAtomicRMW,
        Opcode::LLVMAtomicCmpXchg,
    ];

    #[track_caller]
    pub fn is_volatile(self) -> bool {
        self.expect_op("is_volatile", Self::MEMORY);
        // SAFETY: a memory access instruction (checked).
        unsafe { LLVMGetVolatile(self.raw()) != 0 }
    }
    #[track_caller]
    pub fn set_volatile(self, v: bool) {
        self.expect_op("set_volatile", Self::MEMORY);
        // SAFETY: a memory access instruction (checked).
        unsafe { LLVMSetVolatile(self.raw(), v as i32) }
    }
    /// The alignment of a global, alloca, load or store.
    #[track_caller]
    pub fn alignment(self) -> u32 {
        self.expect_aligned("alignment");
        // SAFETY: a global, alloca, load or store (checked).
        unsafe { LLVMGetAlignment(self.raw()) }
    }
    #[track_caller]
    pub fn set_alignment(self, a: u32) {
        self.expect_aligned("set_alignment");
        // SAFETY: a global, alloca, load or store (checked).
        unsafe { LLVMSetAlignment(self.raw(), a) }
    }
    #[track_caller]
    fn expect_aligned(self, what: &str) {
        let ok = self.is_global_variable()
            || self.is_function()
            || matches!(
                self.inst_opcode(),
                Some(
                    Opcode::LLVMAlloca
                        | Opcode::LLVMLoad
                        | Opcode::LLVMStore
                        | Opcode::LLVMAtomicRMW
                        | Opcode::LLVMAtomicCmpXchg
                )
            );
        assert!(ok, "{what} of a value without an alignment");
    }
    /// The ordering of a load, store, fence or atomicrmw.
    #[track_caller]
    pub fn ordering(self) -> Ordering {
        self.expect_op(
            "ordering",
            &[
                Opcode::LLVMLoad,
                Opcode::LLVMStore,
                Opcode::LLVMFence,
                Opcode::LLVMAtomicRMW,
            ],
        );
        // SAFETY: an instruction with an ordering (checked).
        unsafe { LLVMGetOrdering(self.raw()) }
    }
    #[track_caller]
    pub fn set_ordering(self, o: Ordering) {
        self.expect_op(
            "set_ordering",
            &[Opcode::LLVMLoad, Opcode::LLVMStore, Opcode::LLVMFence],
        );
        // SAFETY: an instruction with an ordering (checked).
        unsafe { LLVMSetOrdering(self.raw(), o) }
    }
    #[track_caller]
    pub fn cmpxchg_weak(self) -> bool {
        self.expect_op("cmpxchg_weak", &[Opcode::LLVMAtomicCmpXchg]);
        // SAFETY: a cmpxchg (checked).
        unsafe { LLVMGetWeak(self.raw()) != 0 }
    }
    #[track_caller]
    pub fn set_cmpxchg_weak(self, weak: bool) {
        self.expect_op("set_cmpxchg_weak", &[Opcode::LLVMAtomicCmpXchg]);
        // SAFETY: a cmpxchg (checked).
        unsafe { LLVMSetWeak(self.raw(), weak as i32) }
    }
    /// A cmpxchg's success and failure orderings.
    #[track_caller]
    pub fn cmpxchg_orderings(self) -> (Ordering, Ordering) {
        self.expect_op("cmpxchg_orderings", &[Opcode::LLVMAtomicCmpXchg]);
        // SAFETY: a cmpxchg (checked).
        unsafe {
            (
                LLVMGetCmpXchgSuccessOrdering(self.raw()),
                LLVMGetCmpXchgFailureOrdering(self.raw()),
            )
        }
    }
    #[track_caller]
    pub fn rmw_op(self) -> RmwOp {
        self.expect_op("rmw_op", &[Opcode::LLVMAtomicRMW]);
        // SAFETY: an atomicrmw (checked).
        unsafe { LLVMGetAtomicRMWBinOp(self.raw()) }
    }
    #[track_caller]
    pub fn allocated_type(self) -> Type<'m> {
        self.expect_op("allocated_type", &[Opcode::LLVMAlloca]);
        // SAFETY: an alloca (checked).
        unsafe { Type::from_raw(LLVMGetAllocatedType(self.raw())) }.expect("alloca type")
    }
    /// The source element type of a GEP instruction or constant expression.
    #[track_caller]
    pub fn gep_source_type(self) -> Type<'m> {
        assert!(
            self.gep_like(),
            "gep_source_type of a value that is not a GEP"
        );
        // SAFETY: a GEP (checked).
        unsafe { Type::from_raw(LLVMGetGEPSourceElementType(self.raw())) }.expect("GEP type")
    }
    #[track_caller]
    pub fn is_inbounds(self) -> bool {
        assert!(self.gep_like(), "is_inbounds of a value that is not a GEP");
        // SAFETY: a GEP (checked).
        unsafe { LLVMIsInBounds(self.raw()) != 0 }
    }
    #[track_caller]
    pub fn set_inbounds(self, on: bool) {
        assert!(self.gep_like(), "set_inbounds of a value that is not a GEP");
        // SAFETY: a GEP (checked).
        unsafe { LLVMSetIsInBounds(self.raw(), on as i32) }
    }
    fn gep_like(self) -> bool {
        self.inst_opcode() == Some(Opcode::LLVMGetElementPtr)
            || self.const_opcode() == Some(Opcode::LLVMGetElementPtr)
    }

    // ---- calls --------------------------------------------------------------

    const CALLS: &'static [Opcode] = &[Opcode::LLVMCall, Opcode::LLVMInvoke, Opcode::LLVMCallBr];

    /// The callee of a call, invoke or callbr.
    #[track_caller]
    pub fn called_value(self) -> Value<'m> {
        self.expect_op("called_value", Self::CALLS);
        // SAFETY: a call (checked); every call has a callee.
        unsafe { Value::from_raw(LLVMGetCalledValue(self.raw())) }.expect("callee")
    }
    #[track_caller]
    pub fn called_fn_type(self) -> Type<'m> {
        self.expect_op("called_fn_type", Self::CALLS);
        // SAFETY: a call (checked).
        unsafe { Type::from_raw(LLVMGetCalledFunctionType(self.raw())) }.expect("callee type")
    }
    #[track_caller]
    pub fn num_arg_operands(self) -> u32 {
        self.expect_op("num_arg_operands", Self::CALLS);
        // SAFETY: a call (checked).
        unsafe { LLVMGetNumArgOperands(self.raw()) }
    }
    /// Argument `i` of a call.
    #[track_caller]
    pub fn arg(self, i: u32) -> Value<'m> {
        assert!(i < self.num_arg_operands(), "argument {i} out of range");
        self.operand(i)
    }
    #[track_caller]
    pub fn call_conv(self) -> u32 {
        self.expect_op("call_conv", Self::CALLS);
        // SAFETY: a call (checked).
        unsafe { LLVMGetInstructionCallConv(self.raw()) }
    }
    #[track_caller]
    pub fn set_call_conv(self, cc: u32) {
        self.expect_op("set_call_conv", Self::CALLS);
        // SAFETY: a call (checked).
        unsafe { LLVMSetInstructionCallConv(self.raw(), cc) }
    }
    /// The normal and unwind destinations of an invoke.
    #[track_caller]
    pub fn invoke_dests(self) -> (Block<'m>, Block<'m>) {
        self.expect_op("invoke_dests", &[Opcode::LLVMInvoke]);
        // SAFETY: an invoke (checked); both destinations exist.
        unsafe {
            (
                Block::from_raw(LLVMGetNormalDest(self.raw())).expect("normal dest"),
                Block::from_raw(LLVMGetUnwindDest(self.raw())).expect("unwind dest"),
            )
        }
    }

    // ---- control flow ------------------------------------------------------

    #[track_caller]
    pub fn successors(self) -> Vec<Block<'m>> {
        assert!(self.is_terminator(), "successors of a non-terminator");
        // SAFETY: a terminator (checked), with that many successors.
        unsafe {
            let n = LLVMGetNumSuccessors(self.raw());
            (0..n)
                .filter_map(|i| Block::from_raw(LLVMGetSuccessor(self.raw(), i)))
                .collect()
        }
    }
    #[track_caller]
    pub fn set_successor(self, i: u32, b: Block<'m>) {
        assert!(self.is_terminator(), "set_successor of a non-terminator");
        // SAFETY: a terminator (checked); index checked.
        unsafe {
            assert!(
                i < LLVMGetNumSuccessors(self.raw()),
                "successor {i} out of range"
            );
            LLVMSetSuccessor(self.raw(), i, b.raw())
        }
    }
    /// Whether a `br` is conditional.
    #[track_caller]
    pub fn is_conditional(self) -> bool {
        self.expect_op("is_conditional", &[Opcode::LLVMBr]);
        // SAFETY: a branch (checked).
        unsafe { LLVMIsConditional(self.raw()) != 0 }
    }
    /// A phi's (value, block) pairs.
    #[track_caller]
    pub fn incoming(self) -> Vec<(Value<'m>, Block<'m>)> {
        self.expect_op("incoming", &[Opcode::LLVMPHI]);
        // SAFETY: a phi (checked), with that many incoming pairs.
        unsafe {
            let n = LLVMCountIncoming(self.raw());
            (0..n)
                .filter_map(|i| {
                    Some((
                        Value::from_raw(LLVMGetIncomingValue(self.raw(), i))?,
                        Block::from_raw(LLVMGetIncomingBlock(self.raw(), i))?,
                    ))
                })
                .collect()
        }
    }
    #[track_caller]
    pub fn add_incoming(self, v: Value<'m>, b: Block<'m>) {
        self.expect_op("add_incoming", &[Opcode::LLVMPHI]);
        let mut vals = [v.raw()];
        let mut blocks = [b.raw()];
        // SAFETY: a phi (checked); one pair passed.
        unsafe { LLVMAddIncoming(self.raw(), vals.as_mut_ptr(), blocks.as_mut_ptr(), 1) }
    }
    #[track_caller]
    pub fn add_case(self, on: Value<'m>, dest: Block<'m>) {
        self.expect_op("add_case", &[Opcode::LLVMSwitch]);
        // SAFETY: a switch (checked).
        unsafe { LLVMAddCase(self.raw(), on.raw(), dest.raw()) }
    }
    #[track_caller]
    pub fn add_destination(self, dest: Block<'m>) {
        self.expect_op("add_destination", &[Opcode::LLVMIndirectBr]);
        // SAFETY: an indirectbr (checked).
        unsafe { LLVMAddDestination(self.raw(), dest.raw()) }
    }
    #[track_caller]
    pub fn icmp_predicate(self) -> IntPredicate {
        assert!(
            self.inst_opcode() == Some(Opcode::LLVMICmp)
                || self.const_opcode() == Some(Opcode::LLVMICmp),
            "icmp_predicate of a value that is not an icmp"
        );
        // SAFETY: an icmp (checked).
        unsafe { LLVMGetICmpPredicate(self.raw()) }
    }
    #[track_caller]
    pub fn fcmp_predicate(self) -> RealPredicate {
        assert!(
            self.inst_opcode() == Some(Opcode::LLVMFCmp)
                || self.const_opcode() == Some(Opcode::LLVMFCmp),
            "fcmp_predicate of a value that is not an fcmp"
        );
        // SAFETY: an fcmp (checked).
        unsafe { LLVMGetFCmpPredicate(self.raw()) }
    }
    /// The indices of an `extractvalue` or `insertvalue`.
    #[track_caller]
    pub fn indices(self) -> Vec<u32> {
        self.expect_op(
            "indices",
            &[Opcode::LLVMExtractValue, Opcode::LLVMInsertValue],
        );
        // SAFETY: an extractvalue/insertvalue (checked), whose index array
        // holds `LLVMGetNumIndices` entries.
        unsafe {
            let n = LLVMGetNumIndices(self.raw()) as usize;
            let p = LLVMGetIndices(self.raw());
            if n == 0 || p.is_null() {
                return Vec::new();
            }
            std::slice::from_raw_parts(p, n).to_vec()
        }
    }
    /// A landingpad's clauses and whether it is a cleanup.
    #[track_caller]
    pub fn landingpad_clauses(self) -> (Vec<Value<'m>>, bool) {
        self.expect_op("landingpad_clauses", &[Opcode::LLVMLandingPad]);
        // SAFETY: a landingpad (checked), with that many clauses.
        unsafe {
            let n = LLVMGetNumClauses(self.raw());
            let clauses = (0..n)
                .filter_map(|i| Value::from_raw(LLVMGetClause(self.raw(), i)))
                .collect();
            (clauses, LLVMIsCleanup(self.raw()) != 0)
        }
    }

    // ---- constants ----------------------------------------------------------

    /// The zero-extended value of a ConstantInt of at most 64 bits.
    #[track_caller]
    pub fn const_int_value(self) -> Option<u64> {
        (self.is_constant_int() && self.type_of().int_width() <= 64)
            // SAFETY: a ConstantInt of at most 64 bits (checked).
            .then(|| unsafe { LLVMConstIntGetZExtValue(self.raw()) })
    }
    /// The sign-extended value of a ConstantInt of at most 64 bits.
    #[track_caller]
    pub fn const_int_svalue(self) -> Option<i64> {
        (self.is_constant_int() && self.type_of().int_width() <= 64)
            // SAFETY: a ConstantInt of at most 64 bits (checked).
            .then(|| unsafe { LLVMConstIntGetSExtValue(self.raw()) })
    }
    /// The opcode of a constant expression.
    #[track_caller]
    pub fn const_opcode(self) -> Option<Opcode> {
        // SAFETY: asked of constant expressions only.
        self.is_constant_expr()
            .then(|| unsafe { LLVMGetConstOpcode(self.raw()) })
    }
    /// Element `i` of a constant aggregate (`None` past its end).
    #[track_caller]
    pub fn aggregate_element(self, i: u32) -> Option<Value<'m>> {
        if !self.is_constant() {
            return None;
        }
        // SAFETY: a constant; LLVM returns null for an index it lacks.
        unsafe { Value::from_raw(LLVMGetAggregateElement(self.raw(), i)) }
    }
    /// The bytes of a constant data array of `i8` (`c"..."`).
    #[track_caller]
    pub fn const_string(self) -> Option<Vec<u8>> {
        // SAFETY: asked of constant strings only; the buffer is LLVM's,
        // `len` bytes long, and copied.
        unsafe {
            if LLVMIsAConstantDataSequential(self.raw()).is_null()
                || LLVMIsConstantString(self.raw()) == 0
            {
                return None;
            }
            let mut len = 0usize;
            let p = LLVMGetAsString(self.raw(), &mut len);
            (!p.is_null()).then(|| std::slice::from_raw_parts(p.cast::<u8>(), len).to_vec())
        }
    }

    // ---- globals ------------------------------------------------------------

    #[track_caller]
    fn expect_global(self, what: &str) {
        assert!(
            self.is_global_value(),
            "{what} of a value that is not a global"
        );
    }
    #[track_caller]
    fn expect_variable(self, what: &str) {
        assert!(
            self.is_global_variable(),
            "{what} of a value that is not a global variable"
        );
    }
    #[track_caller]
    pub fn linkage(self) -> Linkage {
        self.expect_global("linkage");
        // SAFETY: a global value (checked).
        unsafe { LLVMGetLinkage(self.raw()) }
    }
    #[track_caller]
    pub fn set_linkage(self, l: Linkage) {
        self.expect_global("set_linkage");
        // SAFETY: a global value (checked).
        unsafe { LLVMSetLinkage(self.raw(), l) }
    }
    #[track_caller]
    pub fn visibility(self) -> Visibility {
        self.expect_global("visibility");
        // SAFETY: a global value (checked).
        unsafe { LLVMGetVisibility(self.raw()) }
    }
    #[track_caller]
    pub fn set_visibility(self, v: Visibility) {
        self.expect_global("set_visibility");
        // SAFETY: a global value (checked).
        unsafe { LLVMSetVisibility(self.raw(), v) }
    }
    #[track_caller]
    pub fn is_declaration(self) -> bool {
        self.expect_global("is_declaration");
        // SAFETY: a global value (checked).
        unsafe { LLVMIsDeclaration(self.raw()) != 0 }
    }
    /// The type of the object a global value names.
    #[track_caller]
    pub fn global_value_type(self) -> Type<'m> {
        self.expect_global("global_value_type");
        // SAFETY: a global value (checked).
        unsafe { Type::from_raw(LLVMGlobalGetValueType(self.raw())) }.expect("value type")
    }
    #[track_caller]
    pub fn section(self) -> Option<String> {
        self.expect_global("section");
        // SAFETY: a global value (checked); the section name is LLVM's.
        unsafe {
            let p = LLVMGetSection(self.raw());
            (!p.is_null()).then(|| std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned())
        }
    }
    #[track_caller]
    pub fn set_section(self, s: &str) {
        self.expect_global("set_section");
        let c = cstring(s);
        // SAFETY: a global value (checked); the name is copied.
        unsafe { LLVMSetSection(self.raw(), c.as_ptr()) }
    }
    #[track_caller]
    pub fn initializer(self) -> Option<Value<'m>> {
        self.expect_variable("initializer");
        // SAFETY: a global variable (checked); null when it has none.
        unsafe { Value::from_raw(LLVMGetInitializer(self.raw())) }
    }
    #[track_caller]
    pub fn set_initializer(self, init: Option<Value<'m>>) {
        self.expect_variable("set_initializer");
        // SAFETY: a global variable (checked); `init` null or a constant.
        unsafe { LLVMSetInitializer(self.raw(), init.map_or(std::ptr::null_mut(), Value::raw)) }
    }
    #[track_caller]
    pub fn is_global_constant(self) -> bool {
        self.expect_variable("is_global_constant");
        // SAFETY: a global variable (checked).
        unsafe { LLVMIsGlobalConstant(self.raw()) != 0 }
    }
    #[track_caller]
    pub fn set_global_constant(self, on: bool) {
        self.expect_variable("set_global_constant");
        // SAFETY: a global variable (checked).
        unsafe { LLVMSetGlobalConstant(self.raw(), on as i32) }
    }
    #[track_caller]
    pub fn is_thread_local(self) -> bool {
        self.expect_variable("is_thread_local");
        // SAFETY: a global variable (checked).
        unsafe { LLVMIsThreadLocal(self.raw()) != 0 }
    }
    /// The target of an alias.
    #[track_caller]
    pub fn aliasee(self) -> Value<'m> {
        assert!(
            self.is_global_alias(),
            "aliasee of a value that is not an alias"
        );
        // SAFETY: an alias (checked); every alias has a target.
        unsafe { Value::from_raw(LLVMAliasGetAliasee(self.raw())) }.expect("aliasee")
    }
    #[track_caller]
    pub fn set_aliasee(self, target: Value<'m>) {
        assert!(
            self.is_global_alias(),
            "set_aliasee of a value that is not an alias"
        );
        // SAFETY: an alias (checked); `target` a pointer constant.
        unsafe { LLVMAliasSetAliasee(self.raw(), target.raw()) }
    }
    /// Deletes a global variable.
    ///
    /// # Safety
    /// It has no uses left and no handle to it is used afterwards.
    #[track_caller]
    pub unsafe fn delete_global(self) {
        self.expect_variable("delete_global");
        // SAFETY: a global variable (checked) the caller is done with.
        unsafe { LLVMDeleteGlobal(self.raw()) }
    }
    /// The resolver of an ifunc (`None` if it has none yet).
    ///
    /// # Panics
    /// If this is not an ifunc.
    #[track_caller]
    pub fn ifunc_resolver(self) -> Option<Value<'m>> {
        assert!(
            self.value_kind() == ValueKind::LLVMGlobalIFuncValueKind,
            "ifunc_resolver of a value that is not an ifunc"
        );
        // SAFETY: an ifunc (checked); null when it has no resolver.
        unsafe { Value::from_raw(LLVMGetGlobalIFuncResolver(self.raw())) }
    }
    /// The source position debug info gives an instruction (its `!dbg`), a
    /// function (its `DISubprogram`) or a global variable (its
    /// `DIGlobalVariable`): file, directory, line and column, empty or 0
    /// where there is none (the column is known for instructions only).
    ///
    /// # Panics
    /// If this is none of those kinds.
    #[track_caller]
    pub fn source_position(self) -> (String, String, u32, u32) {
        assert!(
            self.is_instruction() || self.is_function() || self.is_global_variable(),
            "source_position of a value that is not an instruction, function or global variable"
        );
        let copy = |p: *const std::ffi::c_char, len: u32| {
            if p.is_null() || len == 0 {
                return String::new();
            }
            // SAFETY: LLVM hands back `len` bytes owned by the debug info,
            // copied at once.
            let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len as usize) };
            String::from_utf8_lossy(bytes).into_owned()
        };
        let (mut file_len, mut dir_len) = (0u32, 0u32);
        // SAFETY: one of the kinds these accessors accept (checked); each
        // returns null or a borrowed (pointer, length) pair.
        unsafe {
            let file = LLVMGetDebugLocFilename(self.raw(), &mut file_len);
            let dir = LLVMGetDebugLocDirectory(self.raw(), &mut dir_len);
            (
                copy(file, file_len),
                copy(dir, dir_len),
                LLVMGetDebugLocLine(self.raw()),
                LLVMGetDebugLocColumn(self.raw()),
            )
        }
    }
    /// The sign-extended value of a ConstantInt of any width, one wider
    /// than 64 bits read as its low 64 bits (what `getSExtValue` gives
    /// there in an LLVM built without assertions, so a wide index reads
    /// the same wherever the C API read it directly).
    #[track_caller]
    pub fn const_int_low_svalue(self) -> Option<i64> {
        if !self.is_constant_int() {
            return None;
        }
        if self.type_of().int_width() <= 64 {
            return self.const_int_svalue();
        }
        // SAFETY: a ConstantInt (checked) truncated to the `i64` of its own
        // context, which folds to a ConstantInt of 64 bits.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(self.raw()));
            let low = LLVMConstTrunc(self.raw(), LLVMInt64TypeInContext(ctx));
            Some(LLVMConstIntGetSExtValue(low))
        }
    }
    /// The value's name byte for byte (symbol names need not be UTF-8,
    /// which [`Value::name`] would make lossy); empty when it has none.
    #[track_caller]
    pub fn name_bytes(self) -> Vec<u8> {
        let mut len = 0usize;
        // SAFETY: live value; the name buffer is LLVM's, `len` bytes long,
        // and copied.
        unsafe {
            let p = LLVMGetValueName2(self.raw(), &mut len);
            if p.is_null() {
                return Vec::new();
            }
            std::slice::from_raw_parts(p.cast::<u8>(), len).to_vec()
        }
    }
    /// Names the value with `name`'s bytes (made unique in its symbol
    /// table as LLVM does for any name).
    #[track_caller]
    pub fn set_name_bytes(self, name: &[u8]) {
        // SAFETY: live value; the name is read for `len` bytes and copied.
        unsafe { LLVMSetValueName2(self.raw(), name.as_ptr().cast(), name.len()) }
    }
    /// Marks a global value `unnamed_addr` (`on`) or not: with it, only
    /// the contents matter, so the linker may merge equal constants.
    #[track_caller]
    pub fn set_unnamed_addr(self, on: bool) {
        self.expect_global("set_unnamed_addr");
        let a = if on {
            inkwell::llvm_sys::LLVMUnnamedAddr::LLVMGlobalUnnamedAddr
        } else {
            inkwell::llvm_sys::LLVMUnnamedAddr::LLVMNoUnnamedAddr
        };
        // SAFETY: a global value (checked).
        unsafe { LLVMSetUnnamedAddress(self.raw(), a) }
    }
}
