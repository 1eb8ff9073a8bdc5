//! [`Block`]: a basic block of a live module.

use std::marker::PhantomData;
use std::ptr::NonNull;

use inkwell::llvm_sys::LLVMBasicBlock;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::LLVMBasicBlockRef;

use super::{Func, Value};

/// A basic block (see the [module docs](super) for the invariant).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Block<'m> {
    raw: NonNull<LLVMBasicBlock>,
    _m: PhantomData<&'m ()>,
}

impl<'m> Block<'m> {
    /// # Safety
    /// `raw` is null or a block of a module alive for `'m`.
    pub(super) unsafe fn from_raw(raw: LLVMBasicBlockRef) -> Option<Block<'m>> {
        NonNull::new(raw).map(|raw| Block {
            raw,
            _m: PhantomData,
        })
    }
    pub(super) fn raw(self) -> LLVMBasicBlockRef {
        self.raw.as_ptr()
    }
    /// The handle of an inkwell block.
    #[track_caller]
    pub fn of(b: inkwell::basic_block::BasicBlock<'m>) -> Block<'m> {
        // SAFETY: inkwell only makes blocks of live modules.
        unsafe { Block::from_raw(b.as_mut_ptr()) }.expect("inkwell block is null")
    }

    /// The function holding this block (`None` when unparented).
    #[track_caller]
    pub fn parent(self) -> Option<Func<'m>> {
        // SAFETY: a live block.
        unsafe { Value::from_raw(LLVMGetBasicBlockParent(self.raw())) }.map(Func::from_value)
    }
    #[track_caller]
    pub fn first_instruction(self) -> Option<Value<'m>> {
        // SAFETY: a live block; null when empty.
        unsafe { Value::from_raw(LLVMGetFirstInstruction(self.raw())) }
    }
    #[track_caller]
    pub fn last_instruction(self) -> Option<Value<'m>> {
        // SAFETY: a live block; null when empty.
        unsafe { Value::from_raw(LLVMGetLastInstruction(self.raw())) }
    }
    /// The instructions in order (a snapshot: editing the block while
    /// walking it is fine).
    #[track_caller]
    pub fn instructions(self) -> Vec<Value<'m>> {
        std::iter::successors(self.first_instruction(), |i| i.next_instruction()).collect()
    }
    #[track_caller]
    pub fn terminator(self) -> Option<Value<'m>> {
        // SAFETY: a live block; null when it has no terminator yet.
        unsafe { Value::from_raw(LLVMGetBasicBlockTerminator(self.raw())) }
    }
    /// The successor blocks of its terminator.
    #[track_caller]
    pub fn successors(self) -> Vec<Block<'m>> {
        self.terminator().map(Value::successors).unwrap_or_default()
    }
    #[track_caller]
    pub fn next(self) -> Option<Block<'m>> {
        // SAFETY: a live block; null at the function's end.
        unsafe { Block::from_raw(LLVMGetNextBasicBlock(self.raw())) }
    }
    /// This block as a value (for `blockaddress` and branch operands).
    #[track_caller]
    pub fn as_value(self) -> Value<'m> {
        // SAFETY: a live block; every block is a value.
        unsafe { Value::from_raw(LLVMBasicBlockAsValue(self.raw())) }.expect("block value")
    }
    /// Unlinks this block from its function, keeping it alive.
    #[track_caller]
    pub fn remove_from_parent(self) {
        // SAFETY: a live block; it stays owned by the context.
        unsafe { LLVMRemoveBasicBlockFromParent(self.raw()) }
    }
    /// Deletes this block.
    ///
    /// # Safety
    /// Nothing uses it any more and no handle to it or its instructions is
    /// used afterwards.
    #[track_caller]
    pub unsafe fn delete(self) {
        // SAFETY: a live block the caller is done with.
        unsafe { LLVMDeleteBasicBlock(self.raw()) }
    }
}
