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

use crate::llvm::{Linkage, Ll, Opcode, Type, Value};
use crate::location::{Location, Scope};

/// Emits and deduplicates location records for one module.
pub struct SiteTable<'m> {
    ty: Type<'m>,
    records: HashMap<(String, String, u32, u32), Value<'m>>,
    strings: HashMap<String, Value<'m>>,
}

impl<'m> SiteTable<'m> {
    /// A table for `ll`'s module, whose record type matches
    /// `gimso_source_location` (`gimso_abi::SourceLocation`).
    pub fn new(ll: &Ll<'m>) -> Self {
        SiteTable {
            ty: record_type(ll),
            records: HashMap::new(),
            strings: HashMap::new(),
        }
    }

    /// The record type (`{ i64, i64, i32, i32 }`).
    pub fn record_type(&self) -> Type<'m> {
        self.ty
    }

    /// The record for instruction `inst`'s source location (file, line and
    /// column from its debug location, or the function's line, or nothing),
    /// created on first use.
    pub fn record_for(&mut self, ll: &Ll<'m>, inst: Value<'m>) -> Value<'m> {
        let loc = Location::of_instruction(inst);
        let mut function = match &loc.scope {
            Scope::Function(f) => f.clone(),
            _ => String::new(),
        };
        // Code inlined from elsewhere (a library header): the report's
        // function names the call sites that brought it here.
        let chain = Location::inlined_at(inst);
        if !chain.is_empty() && loc.source.is_some() {
            let sites: Vec<String> = chain.iter().map(ToString::to_string).collect();
            function = format!("{function} (inlined at {})", sites.join(", "));
        }
        let (file, line, column) = match &loc.source {
            Some(s) => (s.file.clone(), s.line, s.column),
            None => (String::new(), 0, 0),
        };
        let key = (file, function, line, column);
        if let Some(g) = self.records.get(&key) {
            return *g;
        }
        let g = ll.add_global(self.ty, "gimso.site");
        let i64t = ll.i64();
        let at = ll.const_ptrtoint(g, i64t);
        let mut offset = |name: &str| {
            if name.is_empty() {
                ll.zero(i64t)
            } else {
                let p = ll.const_ptrtoint(self.string(ll, name), i64t);
                ll.const_binop(Opcode::LLVMSub, p, at)
                    .expect("sub is a constant binary operator")
            }
        };
        let (file, function) = (offset(&key.0), offset(&key.1));
        let column = key.3 | gimso_abi::SITE_RELATIVE;
        let value = ll.const_named_struct(
            self.ty,
            &[
                file,
                function,
                ll.i32c(u64::from(key.2)),
                ll.i32c(u64::from(column)),
            ],
        );
        g.set_initializer(Some(value));
        g.set_global_constant(true);
        g.set_linkage(Linkage::LLVMPrivateLinkage);
        g.set_unnamed_addr(true);
        self.records.insert(key, g);
        g
    }

    /// A private NUL-terminated string constant, shared by equal strings.
    fn string(&mut self, ll: &Ll<'m>, s: &str) -> Value<'m> {
        if let Some(p) = self.strings.get(s) {
            return *p;
        }
        let bytes = ll.const_cstring(s.as_bytes());
        let g = ll.add_global(bytes.type_of(), "gimso.site.str");
        g.set_initializer(Some(bytes));
        g.set_global_constant(true);
        g.set_linkage(Linkage::LLVMPrivateLinkage);
        g.set_unnamed_addr(true);
        self.strings.insert(s.to_owned(), g);
        g
    }
}

/// `{ i64, i64, i32, i32 }`: the C struct's layout, its two name fields
/// holding offsets.
fn record_type<'m>(ll: &Ll<'m>) -> Type<'m> {
    let (i64t, i32t) = (ll.i64(), ll.i32());
    ll.struct_ty(&[i64t, i64t, i32t, i32t])
}
