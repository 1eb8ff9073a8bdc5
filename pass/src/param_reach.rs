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

use crate::guards::const_int;
use crate::kept_locals::marker;
use crate::llvm::{AttrAt, DataLayout, Opcode, Type, TypeKind, Value};

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
pub struct ParamReach<'m> {
    /// Parameter → its reach (for one being looked at, the current guess).
    params: HashMap<Value<'m>, Reach>,
    /// Parameters in `params`, in the order they were settled.
    settled: Vec<Value<'m>>,
    /// Parameters being looked at (recursion reached them again).
    open: HashSet<Value<'m>>,
    /// Whether a guess of an open parameter was used since this was last
    /// cleared.
    guessed: bool,
}

impl<'m> ParamReach<'m> {
    /// The reach of parameter `index` of `callee` (a declaration or a
    /// variadic position reaches anywhere); `dl` is the layout of
    /// `callee`'s module.
    ///
    /// A recursive function reaches a parameter again while it is being
    /// looked at: that use takes a guess (first nothing), and when the
    /// answer differs from a guess that was used, everything settled since
    /// is forgotten and the parameter is looked at again with the answer as
    /// its guess; the third round guesses anywhere, which always holds.
    pub fn param(&mut self, dl: &DataLayout<'m>, callee: Value<'m>, index: u32) -> Reach {
        let Some(f) = callee.as_func() else {
            return Reach::Any;
        };
        let params = f.params();
        if f.count_blocks() == 0 || index as usize >= params.len() {
            return Reach::Any;
        }
        let p = params[index as usize];
        if never_inlined(callee) {
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
            let r = self.value(dl, p, 0, 0, &mut HashSet::new());
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

    /// The reach of `v` (a pointer), an address `off` bytes past the
    /// parameter's.
    fn value(
        &mut self,
        dl: &DataLayout<'m>,
        v: Value<'m>,
        off: i128,
        depth: u32,
        seen: &mut HashSet<Value<'m>>,
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
        for user in v.distinct_users() {
            let r = match user.inst_opcode() {
                Some(Opcode::LLVMLoad) => Reach::bytes(off, store_size(dl, user.type_of())),
                Some(Opcode::LLVMStore) => {
                    let value = user.operand(0);
                    let mut r = Reach::NONE;
                    if user.operand(1) == v {
                        r = Reach::bytes(off, store_size(dl, value.type_of()));
                    }
                    if value == v {
                        r = r.join(self.variable(dl, user.operand(1), v, off, depth, seen));
                    }
                    r
                }
                Some(Opcode::LLVMGetElementPtr) if user.operand(0) == v => {
                    match const_gep_offset(dl, user) {
                        Some(c) => self.value(dl, user, off + c, depth + 1, seen),
                        None => Reach::Any,
                    }
                }
                Some(Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast) => {
                    self.value(dl, user, off, depth + 1, seen)
                }
                Some(Opcode::LLVMICmp) => Reach::NONE,
                Some(Opcode::LLVMCall) if crate::guards::is_launder(user, v) => {
                    self.value(dl, user, off, depth + 1, seen)
                }
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => self.call(dl, user, v, off),
                _ => Reach::Any,
            };
            reach = reach.join(r);
            if reach == Reach::Any {
                break;
            }
        }
        reach
    }

    /// The reach through a local variable `dest` that `v` is stored into
    /// (`dest` the address of that store): that of its loads when it holds
    /// nothing else, else anywhere.
    fn variable(
        &mut self,
        dl: &DataLayout<'m>,
        dest: Value<'m>,
        v: Value<'m>,
        off: i128,
        depth: u32,
        seen: &mut HashSet<Value<'m>>,
    ) -> Reach {
        if !dest.is_alloca() {
            return Reach::Any;
        }
        if !seen.insert(dest) {
            return Reach::NONE;
        }
        let mut reach = Reach::NONE;
        for user in dest.distinct_users() {
            let r = match user.inst_opcode() {
                Some(Opcode::LLVMLoad) => self.value(dl, user, off, depth + 1, seen),
                Some(Opcode::LLVMStore) if user.operand(0) == v && user.operand(1) == dest => {
                    Reach::NONE
                }
                Some(Opcode::LLVMCall) if marker(user) => Reach::NONE,
                _ => Reach::Any,
            };
            reach = reach.join(r);
            if reach == Reach::Any {
                break;
            }
        }
        reach
    }

    /// The reach of `call` (a call or invoke using `v`), passed `v` (an
    /// address `off` bytes past the parameter's).
    fn call(&mut self, dl: &DataLayout<'m>, call: Value<'m>, v: Value<'m>, off: i128) -> Reach {
        let callee = call.called_value();
        if callee == v {
            return Reach::Any;
        }
        let Some(f) = callee.as_func() else {
            // Through a pointer: code the optimiser does not see into.
            return Reach::NONE;
        };
        let name = callee.name();
        if name.starts_with("llvm.") {
            if marker(call) {
                return Reach::NONE;
            }
            let mem = ["llvm.memcpy.", "llvm.memmove.", "llvm.memset."];
            if !mem.iter().any(|m| name.starts_with(m)) {
                return Reach::Any;
            }
            return match const_int(call.operand(2)) {
                Some(n) => Reach::bytes(off, n),
                None => Reach::Any,
            };
        }
        if f.count_blocks() == 0 {
            return if rewritten_libcall(&name) {
                Reach::Any
            } else {
                Reach::NONE
            };
        }
        let fixed = f.params().len() as u32;
        let mut reach = Reach::NONE;
        for i in 0..call.num_arg_operands().min(fixed) {
            if call.operand(i) == v {
                reach = reach.join(self.param(dl, callee, i).shifted(off));
            }
        }
        reach
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

/// Whether `f` (a function) is marked `noinline` (or `optnone`): the
/// optimiser never inlines it, so what it does through a parameter is
/// never seen as an access to the caller's local.
fn never_inlined(f: Value<'_>) -> bool {
    let f = f.func();
    ["noinline", "optnone"]
        .iter()
        .any(|a| f.has_attr(AttrAt::Function, a))
}

/// The bytes a load or store of `ty` touches (0 for an unsized type).
fn store_size(dl: &DataLayout<'_>, ty: Type<'_>) -> i128 {
    if !ty.is_sized() {
        return 0;
    }
    i128::from(dl.store_size_of(ty))
}

/// The constant byte offset of `gep` (a getelementptr instruction or
/// constant expression of `dl`'s module), or `None` when an index is not
/// a constant.
pub(crate) fn const_gep_offset(dl: &DataLayout<'_>, gep: Value<'_>) -> Option<i128> {
    // Operand 0 is the base, then the indices, walking the source element
    // type.
    let n = gep.num_operands();
    let mut ty = gep.gep_source_type();
    let mut off: i128 = 0;
    for k in 1..n {
        let idx = const_int(gep.operand(k))?;
        if k == 1 {
            off += idx * i128::from(dl.size_of(ty));
            continue;
        }
        match ty.kind() {
            TypeKind::LLVMStructTypeKind => {
                let field = u32::try_from(idx).ok()?;
                off += i128::from(dl.field_offset(ty, field));
                ty = ty.struct_fields()[field as usize];
            }
            TypeKind::LLVMArrayTypeKind | TypeKind::LLVMVectorTypeKind => {
                ty = ty.element_type();
                off += idx * i128::from(dl.size_of(ty));
            }
            _ => return None,
        }
    }
    Some(off)
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
