//! Source-location records for the runtime's failure paths.
//!
//! Every check the translation inlines calls the runtime out of line when
//! it fails (`gimso_access_failed(p, size, access, loc)`), passing a
//! `gimso_source_location` record so the safety report can name the C file,
//! line, column and function. This module emits those records as private
//! constant globals, one per distinct location (checks on the same line
//! share one), laid out as `gimso.h` declares:
//! `{ const char *file; const char *function; uint32_t line; uint32_t column; }`,
//! in its relative form (`GIMSO_SITE_RELATIVE` in `column`): the names are
//! offsets from the record, which the static linker resolves, where
//! addresses would each be a dynamic relocation of a position-independent
//! executable (two per record, a hundred thousand in SQLite).

use std::collections::HashMap;

use inkwell::context::ContextRef;
use inkwell::module::{Linkage, Module};
use inkwell::types::StructType;
use inkwell::values::{GlobalValue, InstructionValue, PointerValue};

use crate::location::{Location, Scope};

/// Emits and deduplicates location records for one module.
pub struct SiteTable<'ctx> {
    ty: StructType<'ctx>,
    records: HashMap<(String, String, u32, u32), GlobalValue<'ctx>>,
    strings: HashMap<String, PointerValue<'ctx>>,
}

impl<'ctx> SiteTable<'ctx> {
    /// A table for `module`, whose record type matches
    /// `gimso_source_location` (`gimso_abi::SourceLocation`).
    pub fn new(module: &Module<'ctx>) -> Self {
        let ctx = module.get_context();
        SiteTable {
            ty: record_type(&ctx),
            records: HashMap::new(),
            strings: HashMap::new(),
        }
    }

    /// The record type (`{ i64, i64, i32, i32 }`).
    pub fn record_type(&self) -> StructType<'ctx> {
        self.ty
    }

    /// The record for `inst`'s source location (file, line and column from
    /// its debug location, or the function's line, or nothing), created on
    /// first use.
    pub fn record_for(
        &mut self,
        module: &Module<'ctx>,
        inst: InstructionValue<'_>,
    ) -> GlobalValue<'ctx> {
        let loc = Location::of_instruction(inst);
        let function = match &loc.scope {
            Scope::Function(f) => f.clone(),
            _ => String::new(),
        };
        let (file, line, column) = match &loc.source {
            Some(s) => (s.file.clone(), s.line, s.column),
            None => (String::new(), 0, 0),
        };
        let key = (file, function, line, column);
        if let Some(g) = self.records.get(&key) {
            return *g;
        }
        let ctx = module.get_context();
        let g = module.add_global(self.ty, None, "gimso.site");
        let i64t = ctx.i64_type();
        let at = g.as_pointer_value().const_to_int(i64t);
        let mut offset = |name: &str| {
            if name.is_empty() {
                i64t.const_zero()
            } else {
                self.string(module, name).const_to_int(i64t).const_sub(at)
            }
        };
        let (file, function) = (offset(&key.0), offset(&key.1));
        let i32t = ctx.i32_type();
        let column = key.3 | gimso_abi::SITE_RELATIVE;
        let value = self.ty.const_named_struct(&[
            file.into(),
            function.into(),
            i32t.const_int(u64::from(key.2), false).into(),
            i32t.const_int(u64::from(column), false).into(),
        ]);
        g.set_initializer(&value);
        g.set_constant(true);
        g.set_linkage(Linkage::Private);
        g.set_unnamed_addr(true);
        self.records.insert(key, g);
        g
    }

    /// A private NUL-terminated string constant, shared by equal strings.
    fn string(&mut self, module: &Module<'ctx>, s: &str) -> PointerValue<'ctx> {
        if let Some(p) = self.strings.get(s) {
            return *p;
        }
        let ctx = module.get_context();
        let bytes = ctx.const_string(s.as_bytes(), true);
        let g = module.add_global(bytes.get_type(), None, "gimso.site.str");
        g.set_initializer(&bytes);
        g.set_constant(true);
        g.set_linkage(Linkage::Private);
        g.set_unnamed_addr(true);
        let p = g.as_pointer_value();
        self.strings.insert(s.to_owned(), p);
        p
    }
}

/// `{ i64, i64, i32, i32 }`: the C struct's layout, its two name fields
/// holding offsets.
fn record_type<'ctx>(ctx: &ContextRef<'ctx>) -> StructType<'ctx> {
    let i64t = ctx.i64_type();
    let i32t = ctx.i32_type();
    ctx.struct_type(&[i64t.into(), i64t.into(), i32t.into(), i32t.into()], false)
}
