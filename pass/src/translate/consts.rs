//! Constants under gimso: every global value becomes the pair (intval,
//! capability) of its translated object; `undef`/`poison` become zero.

use super::ModTx;
use super::layout::has_ptr;
use super::ll::{Ll, T, V};
use crate::llvm::{Linkage, Opcode, TypeKind, ValueKind};

/// A translated value: the intval part (same type as the original) and,
/// for types containing pointers, the capability part (same type again,
/// with each pointer's `lower` in place of the pointer and zero elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tx<'m> {
    pub int: V<'m>,
    pub cap: Option<V<'m>>,
}

impl<'m> Tx<'m> {
    pub fn plain(int: V<'m>) -> Tx<'m> {
        Tx { int, cap: None }
    }
}

/// A translated global object whose size and flags are fixed at compile
/// time: defined in this module with a linkage no other definition can
/// replace, so accesses to it at constant offsets are checked statically.
#[derive(Clone, Copy, Debug)]
pub struct StaticObject {
    /// Payload bytes (upper - lower).
    pub size: u64,
    pub readonly: bool,
}

/// The bounds of a capability that is a global defined here: fixed for the
/// program's life (globals are never freed).
#[derive(Debug, Clone, Copy)]
pub struct StaticBounds<'m> {
    /// `upper`, an `i64` constant expression.
    pub upper: V<'m>,
    /// Payload bytes (`upper - lower`).
    pub size: u64,
    pub readonly: bool,
}

/// `c` as (global, byte offset) when it is a constant address inside one
/// global: the global itself or constant GEPs on it.
pub fn const_address<'m>(ll: &Ll<'m>, c: V<'m>) -> Option<(V<'m>, i64)> {
    match c.value_kind() {
        ValueKind::LLVMGlobalVariableValueKind => Some((c, 0)),
        ValueKind::LLVMConstantExprValueKind => match c.const_opcode() {
            Some(Opcode::LLVMGetElementPtr) => {
                let (base, mut off) = const_address(ll, c.operand(0))?;
                let mut ty = c.gep_source_type();
                for i in 1..c.num_operands() {
                    let idx = c.operand(i).const_int_svalue()?;
                    let step = if i == 1 {
                        i64::try_from(ll.size_of(ty)).ok()?.checked_mul(idx)?
                    } else {
                        match ty.kind() {
                            TypeKind::LLVMStructTypeKind => {
                                let field = u32::try_from(idx).ok()?;
                                let o = ll.field_offset(ty, field);
                                ty = *ty.struct_fields().get(field as usize)?;
                                i64::try_from(o).ok()?
                            }
                            TypeKind::LLVMArrayTypeKind => {
                                ty = ty.element_type();
                                i64::try_from(ll.size_of(ty)).ok()?.checked_mul(idx)?
                            }
                            _ => return None,
                        }
                    };
                    off = off.checked_add(step)?;
                }
                Some((base, off))
            }
            Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMAddrSpaceCast) => {
                const_address(ll, c.operand(0))
            }
            _ => None,
        },
        _ => None,
    }
}

impl<'m> ModTx<'m> {
    /// Whether an access of `size` bytes at the constant address `int`
    /// with capability `cap` is known to pass its check (`align` as the
    /// check would require, `write` for stores).
    pub fn passes_statically(
        &self,
        int: V<'m>,
        cap: V<'m>,
        size: u64,
        align: u64,
        write: bool,
    ) -> bool {
        let (Some((obj, at)), Some((cobj, lower))) =
            (const_address(&self.ll, int), const_address(&self.ll, cap))
        else {
            return false;
        };
        let Some(o) = self.static_objects.get(&obj) else {
            return false;
        };
        // Objects are 16-aligned with the payload at 16 bytes in.
        let off = at - lower;
        obj == cobj
            && lower == 16
            && off >= 0
            && (off as u64)
                .checked_add(size)
                .is_some_and(|end| end <= o.size)
            && (align <= 1 || (align <= 16 && (at as u64) % align == 0))
            && !(write && o.readonly)
    }

    /// When capability `cap` is a global defined here with a fixed size (a
    /// constant address), its bounds and whether it is read-only: globals
    /// are never freed, so neither changes.
    pub fn static_upper(&self, cap: V<'m>) -> Option<StaticBounds<'m>> {
        let (obj, lower) = const_address(&self.ll, cap)?;
        let o = self.static_objects.get(&obj)?;
        if lower != 16 {
            return None;
        }
        let upper = self.ll.const_gep_i8(obj, 16 + o.size);
        Some(StaticBounds {
            upper: self.ll.const_ptrtoint(upper, self.ll.i64()),
            size: o.size,
            readonly: o.readonly,
        })
    }

    /// Whether capability `cap` is the payload address of a global that
    /// the link must define (a constant; not a weak declaration, whose
    /// capability may be null): never null, whatever the program does.
    pub fn global_payload(&self, cap: V<'m>) -> bool {
        matches!(const_address(&self.ll, cap),
            Some((obj, 16)) if obj.linkage() != Linkage::LLVMExternalWeakLinkage)
    }

    /// Whether the constant address `int` lies at or above the constant
    /// capability `cap` in the same global (so `int >= lower` holds).
    pub fn const_at_or_above(&self, int: V<'m>, cap: V<'m>) -> bool {
        match (const_address(&self.ll, int), const_address(&self.ll, cap)) {
            (Some((obj, at)), Some((cobj, lower))) => obj == cobj && at >= lower,
            _ => false,
        }
    }

    /// The capability of the global object `obj`: its payload, or null
    /// for a weak declaration the link left undefined.
    fn object_lower(&self, obj: V<'m>) -> V<'m> {
        if self.weak_objects.contains(&obj) && !self.image_mode {
            self.ll.const_gep_i8_or_null(obj, 16)
        } else {
            self.ll.const_gep_i8(obj, 16)
        }
    }

    /// The translation of constant `c` (memoised).
    pub fn tx_const(&mut self, c: V<'m>) -> Result<Tx<'m>, String> {
        if let Some(&t) = self.const_memo.get(&c) {
            return Ok(t);
        }
        let t = self.tx_const_uncached(c)?;
        self.const_memo.insert(c, t);
        Ok(t)
    }

    fn zero_tx(&self, ty: T<'m>) -> Tx<'m> {
        let z = self.ll.zero(ty);
        Tx {
            int: z,
            cap: has_ptr(ty).then_some(z),
        }
    }

    /// Whether `c` refers to a global value or block address anywhere.
    pub fn mentions_globals(&mut self, c: V<'m>) -> bool {
        if let Some(&m) = self.mentions_memo.get(&c) {
            return m;
        }
        let m = match c.value_kind() {
            ValueKind::LLVMFunctionValueKind
            | ValueKind::LLVMGlobalVariableValueKind
            | ValueKind::LLVMGlobalAliasValueKind
            | ValueKind::LLVMGlobalIFuncValueKind
            | ValueKind::LLVMBlockAddressValueKind => true,
            ValueKind::LLVMUndefValueValueKind | ValueKind::LLVMPoisonValueKind => true,
            ValueKind::LLVMConstantExprValueKind
            | ValueKind::LLVMConstantStructValueKind
            | ValueKind::LLVMConstantArrayValueKind
            | ValueKind::LLVMConstantVectorValueKind => {
                let n = c.num_operands();
                (0..n).any(|i| {
                    let op = c.operand(i);
                    self.mentions_globals(op)
                })
            }
            _ => false,
        };
        self.mentions_memo.insert(c, m);
        m
    }

    fn tx_const_uncached(&mut self, c: V<'m>) -> Result<Tx<'m>, String> {
        let ty = c.type_of();
        let kind = c.value_kind();
        match kind {
            ValueKind::LLVMFunctionValueKind => {
                let (entry, obj) = self
                    .fn_map
                    .get(&c)
                    .copied()
                    .ok_or_else(|| format!("function `{}` has no translation", c.name()))?;
                let lower = self.object_lower(obj);
                Ok(Tx {
                    int: entry,
                    cap: Some(lower),
                })
            }
            ValueKind::LLVMGlobalVariableValueKind | ValueKind::LLVMGlobalAliasValueKind => {
                let obj = self
                    .obj_map
                    .get(&c)
                    .copied()
                    .ok_or_else(|| format!("global `{}` has no translation", c.name()))?;
                match obj {
                    GlobalTx::Data(obj) if self.tls_objects.contains(&obj) => Err(format!(
                        "thread-local variable `{}` used other than through \
                         llvm.threadlocal.address",
                        c.name()
                    )),
                    GlobalTx::Data(obj) => {
                        let lower = self.object_lower(obj);
                        Ok(Tx {
                            int: lower,
                            cap: Some(lower),
                        })
                    }
                    GlobalTx::Function(f) => self.tx_const(f),
                }
            }
            ValueKind::LLVMGlobalIFuncValueKind => Err("ifunc".into()),
            ValueKind::LLVMBlockAddressValueKind => {
                let b = c.operand(1).as_block().expect("blockaddress of a block");
                let f = b.parent().expect("a block in a function").as_value();
                let id = self.block_id(f, b);
                let int = self.ll.const_inttoptr(self.ll.i64c(id), self.ll.ptr());
                Ok(Tx {
                    int,
                    cap: Some(self.ll.null_ptr()),
                })
            }
            ValueKind::LLVMUndefValueValueKind
            | ValueKind::LLVMPoisonValueKind
            | ValueKind::LLVMConstantAggregateZeroValueKind
            | ValueKind::LLVMConstantPointerNullValueKind
            | ValueKind::LLVMConstantTokenNoneValueKind => Ok(self.zero_tx(ty)),
            ValueKind::LLVMConstantStructValueKind
            | ValueKind::LLVMConstantArrayValueKind
            | ValueKind::LLVMConstantVectorValueKind => {
                if !self.mentions_globals(c) {
                    return Ok(Tx {
                        int: c,
                        cap: has_ptr(ty).then(|| self.ll.zero(ty)),
                    });
                }
                self.tx_aggregate(c, ty, kind)
            }
            ValueKind::LLVMConstantExprValueKind => {
                if !self.mentions_globals(c) {
                    return Ok(Tx {
                        int: c,
                        cap: has_ptr(ty).then(|| self.ll.zero(ty)),
                    });
                }
                self.tx_const_expr(c, ty)
            }
            _ => Ok(Tx {
                int: c,
                cap: has_ptr(ty).then(|| self.ll.zero(ty)),
            }),
        }
    }

    fn tx_aggregate(&mut self, c: V<'m>, ty: T<'m>, kind: ValueKind) -> Result<Tx<'m>, String> {
        let n = c.num_operands();
        let mut ints = Vec::with_capacity(n as usize);
        let mut caps = Vec::with_capacity(n as usize);
        for i in 0..n {
            let e = c.operand(i);
            let t = self.tx_const(e)?;
            ints.push(t.int);
            caps.push(t.cap.unwrap_or_else(|| self.ll.zero(e.type_of())));
        }
        let ll = &self.ll;
        let with_ptr = has_ptr(ty);
        let (int, cap) = match kind {
            ValueKind::LLVMConstantStructValueKind => (
                ll.const_named_struct(ty, &ints),
                ll.const_named_struct(ty, &caps),
            ),
            ValueKind::LLVMConstantArrayValueKind => {
                let e = ty.element_type();
                (ll.const_array(e, &ints), ll.const_array(e, &caps))
            }
            _ => (ll.const_vector(&ints), ll.const_vector(&caps)),
        };
        Ok(Tx {
            int,
            cap: with_ptr.then_some(cap),
        })
    }

    fn tx_const_expr(&mut self, c: V<'m>, ty: T<'m>) -> Result<Tx<'m>, String> {
        let op = c.const_opcode();
        let operand = |s: &mut Self, i: u32| -> Result<Tx<'m>, String> {
            let o = c.operand(i);
            s.tx_const(o)
        };
        match op {
            Some(Opcode::LLVMGetElementPtr) => {
                let base = operand(self, 0)?;
                let mut idx = Vec::new();
                for i in 1..c.num_operands() {
                    idx.push(operand(self, i)?.int);
                }
                let src = c.gep_source_type();
                let int = self.ll.const_gep(src, base.int, &idx);
                let cap = base.cap.unwrap_or_else(|| self.ll.null_ptr());
                if ty.is_vector() && !cap.type_of().is_vector() {
                    return Err("constant vector getelementptr".into());
                }
                Ok(Tx {
                    int,
                    cap: Some(cap),
                })
            }
            Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMAddrSpaceCast) => {
                let src = operand(self, 0)?;
                if src.int.type_of() == ty {
                    Ok(src)
                } else if !has_ptr(ty) && src.cap.is_none() {
                    Ok(Tx::plain(c))
                } else {
                    Err("constant bitcast of pointers".into())
                }
            }
            Some(Opcode::LLVMPtrToInt) => {
                let src = operand(self, 0)?;
                Ok(Tx::plain(self.ll.const_ptrtoint(src.int, ty)))
            }
            Some(Opcode::LLVMIntToPtr) => {
                let src = operand(self, 0)?;
                Ok(Tx {
                    int: self.ll.const_inttoptr(src.int, ty),
                    cap: Some(self.ll.zero(ty)),
                })
            }
            Some(Opcode::LLVMSelect) => {
                // `&a[1] == &b ? x : y`, folded by the optimiser: each arm
                // keeps its own capability.
                let cond = operand(self, 0)?.int;
                let (a, b) = (operand(self, 1)?, operand(self, 2)?);
                let ll = &self.ll;
                let pick = |x: V<'m>, y: V<'m>| ll.const_select(cond, x, y);
                let cap = match (a.cap, b.cap) {
                    (None, None) => None,
                    (x, y) => {
                        let zero = ll.zero(ty);
                        Some(pick(x.unwrap_or(zero), y.unwrap_or(zero)))
                    }
                };
                Ok(Tx {
                    int: pick(a.int, b.int),
                    cap,
                })
            }
            _ => self.rebuild_int_const_expr(c, ty),
        }
    }

    /// Integer constant expressions over pointers (`sub (ptrtoint @a,
    /// ptrtoint @b)`, `and (ptrtoint @a, 63)`, `icmp`, `trunc`, ...), and
    /// an address converted to floating point (`(double)(uintptr_t)&a`, and
    /// `fcmp` of it): rebuilt with translated operands.
    fn rebuild_int_const_expr(&mut self, c: V<'m>, ty: T<'m>) -> Result<Tx<'m>, String> {
        let op = c.const_opcode();
        let to_float = matches!(op, Some(Opcode::LLVMSIToFP) | Some(Opcode::LLVMUIToFP));
        if ty.kind() != TypeKind::LLVMIntegerTypeKind && !to_float {
            return Err(format!(
                "constant expression `{:?}` over globals",
                c.const_opcode()
            ));
        }
        let a = self.tx_const(c.operand(0))?.int;
        let b = if c.num_operands() > 1 {
            Some(self.tx_const(c.operand(1))?.int)
        } else {
            None
        };
        let ll = &self.ll;
        let v = match (op, b) {
            // Addresses compared as the program sees them (`&x == &y`, an
            // alignment test folded to `icmp`).
            (Some(Opcode::LLVMICmp), Some(b)) => Some(ll.const_icmp(c.icmp_predicate(), a, b)),
            (Some(Opcode::LLVMFCmp), Some(b)) => Some(ll.const_fcmp(c.fcmp_predicate(), a, b)),
            (Some(op), Some(b)) => ll.const_binop(op, a, b),
            (
                Some(
                    op @ (Opcode::LLVMTrunc
                    | Opcode::LLVMZExt
                    | Opcode::LLVMSExt
                    | Opcode::LLVMSIToFP
                    | Opcode::LLVMUIToFP),
                ),
                None,
            ) => ll.const_cast(op, a, ty),
            _ => None,
        };
        let Some(v) = v else {
            return Err(format!("constant expression `{op:?}` over globals"));
        };
        Ok(Tx::plain(v))
    }
}

/// What an original global variable or alias became.
#[derive(Clone, Copy, Debug)]
pub enum GlobalTx<'m> {
    /// A data object: the symbol of its header.
    Data(V<'m>),
    /// An alias of a function: that (original) function.
    Function(V<'m>),
}
