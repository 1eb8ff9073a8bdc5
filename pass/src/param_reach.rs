//! How far a function reaches through a pointer parameter: the bytes
//! around the address it is passed that its accesses can touch.
//!
//! The guards ([`crate::guards`]) use it at a call of a function defined
//! in the module that is passed the address of a local. Once the optimiser
//! inlines the callee, its accesses through the parameter are accesses to
//! the local at offsets the optimiser may fold to constants; one that falls
//! outside the local is undefined behaviour to it, and is deleted or
//! rewritten before the translation can check it. When the callee's reach
//! may leave the local, the guards hand it a laundered address instead.
//! When every access is at a constant offset inside the local (`p->x = 0`
//! in an initialiser), the address is passed as it is and the local can
//! still be promoted to registers after inlining.
//!
//! The walk runs before `mem2reg`, so a parameter is first stored to a
//! local variable and read back from it: a local variable that only ever
//! holds the address is looked through. Anything the walk does not follow
//! precisely — a variable index, a `memcpy` of variable length, a call of
//! code not defined here (the optimiser rewrites some, such as `strcpy` of
//! a constant string, into plain memory accesses), a copy of the address
//! kept in memory, returned or merged in a `phi` — reaches anywhere.

use std::collections::{HashMap, HashSet};

use inkwell::llvm_sys::LLVMTypeKind;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMTypeRef, LLVMValueRef};
use inkwell::llvm_sys::target::{
    LLVMABISizeOfType, LLVMOffsetOfElement, LLVMStoreSizeOfType, LLVMTargetDataRef,
};
use inkwell::llvm_sys::{LLVMAttributeFunctionIndex, LLVMOpcode};

use crate::guards::const_int;
use crate::ir::users;
use crate::kept_locals::marker;

/// How deep one walk follows address arithmetic and local variables.
const MAX_DEPTH: u32 = 32;

/// How many callees' parameters are looked at one inside the other.
const MAX_CALLS: usize = 8;

/// The bytes a pointer reaches, relative to the address it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Bytes `lo..hi` (nothing when `lo >= hi`).
    Bytes { lo: i128, hi: i128 },
    /// Any byte: an offset not known here.
    Any,
}

impl Reach {
    /// Reaches nothing.
    pub const NONE: Reach = Reach::Bytes { lo: 0, hi: 0 };

    fn bytes(lo: i128, len: i128) -> Reach {
        if len <= 0 {
            Reach::NONE
        } else {
            Reach::Bytes { lo, hi: lo + len }
        }
    }

    fn join(self, other: Reach) -> Reach {
        match (self, other) {
            (Reach::Any, _) | (_, Reach::Any) => Reach::Any,
            (Reach::Bytes { lo, hi }, b) if lo >= hi => b,
            (a, Reach::Bytes { lo, hi }) if lo >= hi => a,
            (Reach::Bytes { lo: a, hi: b }, Reach::Bytes { lo: c, hi: d }) => Reach::Bytes {
                lo: a.min(c),
                hi: b.max(d),
            },
        }
    }

    fn shifted(self, by: i128) -> Reach {
        match self {
            Reach::Bytes { lo, hi } if lo < hi => Reach::Bytes {
                lo: lo + by,
                hi: hi + by,
            },
            other => other,
        }
    }

    /// Whether the reach stays inside an object of `size` bytes, for a
    /// pointer `offset` bytes into it (`None`: an offset not known here).
    pub fn inside(self, offset: Option<i128>, size: u64) -> bool {
        match self {
            Reach::Bytes { lo, hi } if lo >= hi => true,
            Reach::Bytes { lo, hi } => {
                offset.is_some_and(|o| o + lo >= 0 && o + hi <= i128::from(size))
            }
            Reach::Any => false,
        }
    }
}

/// The reach of the module's pointer parameters, each looked at once.
#[derive(Default)]
pub struct ParamReach {
    /// Parameter → its reach (for one being looked at, the current guess).
    params: HashMap<LLVMValueRef, Reach>,
    /// Parameters in `params`, in the order they were settled.
    settled: Vec<LLVMValueRef>,
    /// Parameters being looked at (recursion reached them again).
    open: HashSet<LLVMValueRef>,
    /// Whether a guess of an open parameter was used since this was last
    /// cleared.
    guessed: bool,
}

impl ParamReach {
    /// The reach of parameter `index` of `callee` (a declaration or a
    /// variadic position reaches anywhere).
    ///
    /// A recursive function reaches a parameter again while it is being
    /// looked at: that use takes a guess (first nothing), and when the
    /// answer differs from a guess that was used, everything settled since
    /// is forgotten and the parameter is looked at again with the answer as
    /// its guess; the third round guesses anywhere, which always holds.
    ///
    /// # Safety
    /// `callee` is a live function; `td` describes its module's layout.
    pub unsafe fn param(
        &mut self,
        td: LLVMTargetDataRef,
        callee: LLVMValueRef,
        index: u32,
    ) -> Reach {
        // SAFETY: as the caller promises.
        let p = unsafe {
            if LLVMIsAFunction(callee).is_null()
                || LLVMCountBasicBlocks(callee) == 0
                || index >= LLVMCountParams(callee)
            {
                return Reach::Any;
            }
            LLVMGetParam(callee, index)
        };
        // SAFETY: `callee` is a live function.
        if unsafe { never_inlined(callee) } {
            // Its accesses stay its own, checked where they happen.
            return Reach::NONE;
        }
        if let Some(&r) = self.params.get(&p) {
            self.guessed |= self.open.contains(&p);
            return r;
        }
        if self.open.len() >= MAX_CALLS {
            return Reach::Any;
        }
        let outer_guessed = core::mem::replace(&mut self.guessed, false);
        let mark = self.settled.len();
        let mut guess = Reach::NONE;
        let mut rounds = 0;
        let r = loop {
            self.params.insert(p, guess);
            self.open.insert(p);
            self.guessed = false;
            // SAFETY: `p` is a parameter of `callee`, which has a body.
            let r = unsafe { self.value(td, p, 0, 0, &mut HashSet::new()) };
            self.open.remove(&p);
            if r == guess || !self.guessed {
                break r;
            }
            for q in self.settled.drain(mark..) {
                self.params.remove(&q);
            }
            rounds += 1;
            guess = if rounds < 2 { r } else { Reach::Any };
        };
        self.params.insert(p, r);
        self.settled.push(p);
        self.guessed |= outer_guessed;
        r
    }

    /// The reach of `v`, an address `off` bytes past the parameter's.
    ///
    /// # Safety
    /// `v` is a live pointer value; `td` describes its module's layout.
    unsafe fn value(
        &mut self,
        td: LLVMTargetDataRef,
        v: LLVMValueRef,
        off: i128,
        depth: u32,
        seen: &mut HashSet<LLVMValueRef>,
    ) -> Reach {
        if depth > MAX_DEPTH {
            return Reach::Any;
        }
        if !seen.insert(v) {
            // A second way to the same value (a local variable's loads are
            // each reached once): the same offset, already counted.
            return Reach::NONE;
        }
        let mut reach = Reach::NONE;
        // SAFETY: as the caller promises; users are live instructions whose
        // operands are read by their opcodes' positions.
        unsafe {
            for user in users(v) {
                let r = match LLVMGetInstructionOpcode(user) {
                    LLVMOpcode::LLVMLoad => Reach::bytes(off, store_size(td, LLVMTypeOf(user))),
                    LLVMOpcode::LLVMStore => {
                        let value = LLVMGetOperand(user, 0);
                        let mut r = Reach::NONE;
                        if LLVMGetOperand(user, 1) == v {
                            r = Reach::bytes(off, store_size(td, LLVMTypeOf(value)));
                        }
                        if value == v {
                            r = r.join(self.variable(
                                td,
                                LLVMGetOperand(user, 1),
                                v,
                                off,
                                depth,
                                seen,
                            ));
                        }
                        r
                    }
                    LLVMOpcode::LLVMGetElementPtr if LLVMGetOperand(user, 0) == v => {
                        match const_gep_offset(td, user) {
                            Some(c) => self.value(td, user, off + c, depth + 1, seen),
                            None => Reach::Any,
                        }
                    }
                    LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast => {
                        self.value(td, user, off, depth + 1, seen)
                    }
                    LLVMOpcode::LLVMICmp => Reach::NONE,
                    LLVMOpcode::LLVMCall if crate::guards::is_launder(user, v) => {
                        self.value(td, user, off, depth + 1, seen)
                    }
                    LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke => self.call(td, user, v, off),
                    _ => Reach::Any,
                };
                reach = reach.join(r);
                if reach == Reach::Any {
                    break;
                }
            }
        }
        reach
    }

    /// The reach through a local variable `dest` that `v` is stored into:
    /// that of its loads when it holds nothing else, else anywhere.
    ///
    /// # Safety
    /// As [`ParamReach::value`]; `dest` is the address of a store of `v`.
    unsafe fn variable(
        &mut self,
        td: LLVMTargetDataRef,
        dest: LLVMValueRef,
        v: LLVMValueRef,
        off: i128,
        depth: u32,
        seen: &mut HashSet<LLVMValueRef>,
    ) -> Reach {
        // SAFETY: as the caller promises.
        unsafe {
            if LLVMIsAAllocaInst(dest).is_null() {
                return Reach::Any;
            }
            if !seen.insert(dest) {
                return Reach::NONE;
            }
            let mut reach = Reach::NONE;
            for user in users(dest) {
                let r = match LLVMGetInstructionOpcode(user) {
                    LLVMOpcode::LLVMLoad => self.value(td, user, off, depth + 1, seen),
                    LLVMOpcode::LLVMStore
                        if LLVMGetOperand(user, 0) == v && LLVMGetOperand(user, 1) == dest =>
                    {
                        Reach::NONE
                    }
                    LLVMOpcode::LLVMCall if marker(user) => Reach::NONE,
                    _ => Reach::Any,
                };
                reach = reach.join(r);
                if reach == Reach::Any {
                    break;
                }
            }
            reach
        }
    }

    /// The reach of `call`, passed `v` (an address `off` bytes past the
    /// parameter's).
    ///
    /// # Safety
    /// As [`ParamReach::value`]; `call` is a call or invoke using `v`.
    unsafe fn call(
        &mut self,
        td: LLVMTargetDataRef,
        call: LLVMValueRef,
        v: LLVMValueRef,
        off: i128,
    ) -> Reach {
        // SAFETY: as the caller promises.
        unsafe {
            let callee = LLVMGetCalledValue(call);
            if callee == v {
                return Reach::Any;
            }
            if LLVMIsAFunction(callee).is_null() {
                // Through a pointer: code the optimiser does not see into.
                return Reach::NONE;
            }
            let name = crate::llvm::Value::from_llvm(callee)
                .map_or_else(String::new, crate::llvm::Value::name);
            if name.starts_with("llvm.") {
                if marker(call) {
                    return Reach::NONE;
                }
                let mem = ["llvm.memcpy.", "llvm.memmove.", "llvm.memset."];
                if !mem.iter().any(|m| name.starts_with(m)) {
                    return Reach::Any;
                }
                return match const_int(LLVMGetOperand(call, 2)) {
                    Some(n) => Reach::bytes(off, n),
                    None => Reach::Any,
                };
            }
            if LLVMCountBasicBlocks(callee) == 0 {
                return if rewritten_libcall(&name) {
                    Reach::Any
                } else {
                    Reach::NONE
                };
            }
            let fixed = LLVMCountParams(callee);
            let mut reach = Reach::NONE;
            for i in 0..LLVMGetNumArgOperands(call).min(fixed) {
                if LLVMGetOperand(call, i) == v {
                    reach = reach.join(self.param(td, callee, i).shifted(off));
                }
            }
            reach
        }
    }
}

/// Whether the optimiser may rewrite a call of the C library function
/// `name` into plain memory accesses it then reasons about (`strcpy` of a
/// constant string into a `memcpy`, `sprintf("%s")` into `strcpy`, a short
/// `memcmp` into loads). Other functions declared here stay calls, whose
/// accesses are checked where they happen.
fn rewritten_libcall(name: &str) -> bool {
    let name = name.trim_start_matches('_');
    let name = name.strip_suffix("_chk").unwrap_or(name);
    ["mem", "str", "stp", "wmem", "wcs", "bcopy", "bzero", "bcmp"]
        .iter()
        .any(|p| name.starts_with(p))
        || matches!(name, "sprintf" | "snprintf" | "vsprintf" | "vsnprintf")
}

/// Whether `f` is marked `noinline` (or `optnone`): the optimiser never
/// inlines it, so what it does through a parameter is never seen as an
/// access to the caller's local.
///
/// # Safety
/// `f` is a live function.
unsafe fn never_inlined(f: LLVMValueRef) -> bool {
    // SAFETY: as the caller promises; attribute kinds are looked up by name.
    unsafe {
        ["noinline", "optnone"].iter().any(|a| {
            let kind = LLVMGetEnumAttributeKindForName(a.as_ptr().cast(), a.len());
            !LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind).is_null()
        })
    }
}

/// The bytes a load or store of `ty` touches (0 for an unsized type).
///
/// # Safety
/// `ty` is a type of `td`'s module.
unsafe fn store_size(td: LLVMTargetDataRef, ty: LLVMTypeRef) -> i128 {
    // SAFETY: as the caller promises.
    unsafe {
        if LLVMTypeIsSized(ty) == 0 {
            return 0;
        }
        i128::from(LLVMStoreSizeOfType(td, ty))
    }
}

/// The constant byte offset of `gep` (a getelementptr instruction or
/// constant expression), or `None` when an index is not a constant.
///
/// # Safety
/// `gep` is a live getelementptr of `td`'s module.
pub(crate) unsafe fn const_gep_offset(td: LLVMTargetDataRef, gep: LLVMValueRef) -> Option<i128> {
    // SAFETY: as the caller promises: operand 0 is the base, then the
    // indices, walking the source element type.
    unsafe {
        let n = LLVMGetNumOperands(gep) as u32;
        let mut ty = LLVMGetGEPSourceElementType(gep);
        let mut off: i128 = 0;
        for k in 1..n {
            let idx = const_int(LLVMGetOperand(gep, k))?;
            if k == 1 {
                off += idx * i128::from(LLVMABISizeOfType(td, ty));
                continue;
            }
            match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    let field = u32::try_from(idx).ok()?;
                    off += i128::from(LLVMOffsetOfElement(td, ty, field));
                    ty = LLVMStructGetTypeAtIndex(ty, field);
                }
                LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                    ty = LLVMGetElementType(ty);
                    off += idx * i128::from(LLVMABISizeOfType(td, ty));
                }
                _ => return None,
            }
        }
        Some(off)
    }
}

#[cfg(test)]
mod tests {
    use super::Reach;

    #[test]
    fn join_and_inside() {
        let a = Reach::bytes(0, 4);
        let b = Reach::bytes(8, 4);
        assert_eq!(a.join(b), Reach::Bytes { lo: 0, hi: 12 });
        assert_eq!(Reach::NONE.join(b), b);
        assert_eq!(b.join(Reach::NONE), b);
        assert_eq!(a.join(Reach::Any), Reach::Any);
        assert!(a.join(b).inside(Some(0), 12));
        assert!(!a.join(b).inside(Some(4), 12));
        assert!(!a.inside(None, 100));
        assert!(Reach::NONE.inside(None, 0));
        assert!(!a.shifted(-1).inside(Some(0), 8));
        assert!(!Reach::Any.inside(Some(0), u64::MAX));
    }
}
