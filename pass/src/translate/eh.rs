//! Exception-handling data (docs/translation.md, "Exceptions, unwinding and setjmp"): one LSDA object per `landingpad`,
//! in the format `gimso.h` documents (`gimso_eh_landing_pad`).
//!
//! The objects are made as ordinary constant globals of the original
//! module before any global is translated, so they become read-only gimso
//! objects like every other constant, with their `type_info` pointers
//! getting capabilities at start-up.

use crate::llvm::{Linkage, Opcode, TypeKind};

use gimso_abi::{EH_CLAUSE_CATCH, EH_CLAUSE_FILTER};

use super::ModTx;
use super::ll::V;

impl<'m> ModTx<'m> {
    /// Creates the LSDA of every `landingpad` in `functions` and records it
    /// in [`ModTx::lsda_map`].
    pub fn create_lsdas(&mut self, functions: &[V<'m>]) {
        let mut n = 0;
        for &f in functions {
            if f.is_declaration() {
                continue;
            }
            for b in f.func().blocks() {
                for inst in b.instructions() {
                    if inst.opcode() == Opcode::LLVMLandingPad {
                        let g = self.lsda_for(inst, n);
                        self.lsda_map.insert(inst, g);
                        n += 1;
                    }
                }
            }
        }
    }

    /// The module-wide number of catch type `t` (a `type_info` pointer or
    /// null), from 1: what `llvm.eh.typeid.for(t)` yields and what a
    /// personality reports for a catch clause of `t`.
    pub fn type_id(&mut self, t: V<'m>) -> i64 {
        let next = self.type_ids.len() as i64 + 1;
        *self.type_ids.entry(t).or_insert(next)
    }

    fn private_constant(&self, init: V<'m>, name: &str) -> V<'m> {
        let g = self.ll.add_global(init.type_of(), name);
        g.set_initializer(Some(init));
        g.set_linkage(Linkage::LLVMPrivateLinkage);
        g.set_global_constant(true);
        g
    }

    /// `{cleanup, num_clauses, [{kind, selector, num_types, types}]}` for `lp`.
    fn lsda_for(&mut self, lp: V<'m>, n: usize) -> V<'m> {
        let (clauses, cleanup) = lp.landingpad_clauses();
        let ll = &self.ll;
        let (ptr, i64) = (ll.ptr(), ll.i64());
        let clause_ty = ll.struct_ty(&[i64, i64, i64, ptr]);
        let mut out = Vec::new();
        for (j, &c) in clauses.iter().enumerate() {
            let ty = c.type_of();
            let (kind, selector, types): (u64, i64, Vec<V<'m>>) =
                if ty.kind() == TypeKind::LLVMArrayTypeKind {
                    let len = ty.array_len() as u32;
                    let elems = (0..len).filter_map(|k| c.aggregate_element(k)).collect();
                    self.filters += 1;
                    (EH_CLAUSE_FILTER, -self.filters, elems)
                } else {
                    (EH_CLAUSE_CATCH, self.type_id(c), vec![c])
                };
            let types_ptr = if types.is_empty() {
                self.ll.null_ptr()
            } else {
                let arr = self.ll.const_array(ptr, &types);
                self.private_constant(arr, &format!("gimso.lsda.{n}.types.{j}"))
            };
            let ll = &self.ll;
            out.push(ll.const_struct(&[
                ll.i64c(kind),
                ll.i64c(selector as u64),
                ll.i64c(types.len() as u64),
                types_ptr,
            ]));
        }
        let ll = &self.ll;
        let init = ll.const_struct(&[
            ll.i64c(u64::from(cleanup)),
            ll.i64c(out.len() as u64),
            ll.const_array(clause_ty, &out),
        ]);
        self.private_constant(init, &format!("gimso.lsda.{n}"))
    }
}
