//! Global objects, function objects, module start-up and `main`.

use crate::llvm::{Linkage, Opcode, TypeKind, ValueKind};
use std::collections::HashSet;

use gimso_abi::{
    FLAG_GLOBAL, FLAG_READONLY, SPECIAL_SHIFT, SYMBOL_FN_PREFIX, SYMBOL_OBJ_PREFIX, aux_with_delta,
};

use super::ModTx;
use super::consts::{GlobalTx, StaticObject, Tx};
use super::layout::has_ptr;
use super::ll::{T, V};
use super::runtime::{call, entry_type};
use crate::location::Location;

/// The object header flags of a function object.
const FUNCTION_AUX: u64 = FLAG_GLOBAL | (1 << SPECIAL_SHIFT);

/// Distance from a payload of `size` bytes to its inline shadow words (a
/// global's, a frame object's): the payload rounded up to whole words.
pub(super) fn shadow_distance(size: u64) -> u64 {
    size.div_ceil(8) * 8
}

impl<'m> ModTx<'m> {
    fn symbol_name(&self, v: V<'m>, index: usize) -> String {
        let n = v.name();
        if n.is_empty() {
            format!("anon.{index}")
        } else {
            n
        }
    }

    /// The linkage a translated symbol gets: one-definition promises are
    /// gone (spec "Constants And Linking"), common becomes weak.
    fn new_linkage(&self, old: V<'m>) -> Linkage {
        use Linkage::*;
        match old.linkage() {
            LLVMLinkOnceAnyLinkage
            | LLVMLinkOnceODRLinkage
            | LLVMWeakODRLinkage
            | LLVMCommonLinkage
            | LLVMWeakAnyLinkage => LLVMWeakAnyLinkage,
            LLVMAvailableExternallyLinkage => LLVMExternalLinkage,
            LLVMPrivateLinkage => LLVMPrivateLinkage,
            LLVMInternalLinkage => LLVMInternalLinkage,
            LLVMExternalWeakLinkage => LLVMExternalWeakLinkage,
            _ => LLVMExternalLinkage,
        }
    }

    /// Header, then the payload `{entry, direct body, body's type hash}`
    /// (`gimso_abi::FUNCTION_PAYLOAD_SIZE`).
    fn function_object_type(&self) -> T<'m> {
        let (p, i) = (self.ll.ptr(), self.ll.i64());
        self.ll.struct_ty(&[p, i, p, p, i])
    }

    /// Creates every function's generic entry and object.
    pub fn declare_functions(&mut self, functions: &[V<'m>]) {
        let entry_ty = entry_type(&self.ll);
        for (i, &f) in functions.iter().enumerate() {
            let mut name = self.symbol_name(f, i);
            // The optimiser's name for `memcmp(...) == 0`.
            if name == "bcmp" && f.is_declaration() {
                name = "memcmp".into();
            }
            let weak = f.linkage() == Linkage::LLVMExternalWeakLinkage;
            let fn_name = format!("{SYMBOL_FN_PREFIX}{name}");
            let obj_name = format!("{SYMBOL_OBJ_PREFIX}{name}");
            if let (Some(e), Some(o)) = (
                self.ll.get_function(&fn_name),
                self.ll.get_global(&obj_name),
            ) {
                // Two declarations of one symbol (`bcmp` and `memcmp`).
                self.fn_map.insert(f, (*e, o));
                continue;
            }
            let entry = self.ll.add_function(&fn_name, entry_ty);
            let obj = self.ll.add_global(self.function_object_type(), &obj_name);
            let linkage = self.new_linkage(f);
            obj.set_alignment(16);
            if weak {
                // Undefined at link time, both are null: the function
                // pointer is null, and calls go through the call check.
                entry.set_linkage(Linkage::LLVMExternalWeakLinkage);
                obj.set_linkage(Linkage::LLVMExternalWeakLinkage);
                self.weak_objects.insert(obj);
            }
            if !f.is_declaration() {
                entry.set_linkage(linkage);
                obj.set_linkage(linkage);
                entry.set_visibility(f.visibility());
                obj.set_visibility(f.visibility());
                f.func().copy_safe_attrs_to(entry.func());
                self.declare_direct(f, &name, linkage);
                let upper = self.ll.const_gep_i8(obj, 16);
                let (body, hash) = match self.direct.get(&f) {
                    Some(d) => (d.body, super::direct::type_hash(f.global_value_type())),
                    None => (self.ll.null_ptr(), 0),
                };
                let init = self.ll.const_struct(&[
                    upper,
                    self.ll.i64c(FUNCTION_AUX),
                    *entry,
                    body,
                    self.ll.i64c(hash),
                ]);
                obj.set_initializer(Some(init));
            }
            self.fn_map.insert(f, (*entry, obj));
        }
    }

    /// Creates every global variable's object (initialisers come later,
    /// once every object exists).
    pub fn declare_globals(&mut self, globals: &[V<'m>]) {
        for (i, &g) in globals.iter().enumerate() {
            let name = self.symbol_name(g, i);
            if name.starts_with("llvm.") {
                continue;
            }
            let sym = format!("{SYMBOL_OBJ_PREFIX}{name}");
            let obj = if g.is_declaration() {
                let o = self.ll.add_global(self.ll.i8(), &sym);
                if g.linkage() == Linkage::LLVMExternalWeakLinkage {
                    o.set_linkage(Linkage::LLVMExternalWeakLinkage);
                    self.weak_objects.insert(o);
                }
                o
            } else {
                let ty = g.global_value_type();
                // Packed: the payload starts right after the 16-byte
                // header whatever its type's alignment (a 32-aligned
                // vector would otherwise sit at offset 32, and `lower`,
                // header + 16, would not be its address); the object's
                // own alignment gives the payload its alignment.
                let obj_ty = self.ll.struct_ty_packed(&[
                    self.ll.ptr(),
                    self.ll.i64(),
                    ty,
                    self.shadow_tail_ty(self.ll.size_of(ty)),
                ]);
                let align = u64::from(g.alignment()).max(self.ll.align_of(ty)).max(16);
                let linkage = self.new_linkage(g);
                let o = if align > 16 {
                    self.padded_object(g, &name, obj_ty, align, linkage)
                } else {
                    let o = self.ll.add_global(obj_ty, &sym);
                    o.set_alignment(16);
                    o
                };
                o.set_linkage(linkage);
                if matches!(
                    linkage,
                    Linkage::LLVMExternalLinkage
                        | Linkage::LLVMInternalLinkage
                        | Linkage::LLVMPrivateLinkage
                ) {
                    let obj = StaticObject {
                        size: self.ll.size_of(ty),
                        readonly: g.is_global_constant(),
                    };
                    self.static_objects.insert(o, obj);
                }
                o.set_visibility(g.visibility());
                self.stats.globals += 1;
                o
            };
            if g.is_thread_local() {
                // The object is the variable's initial image; each thread
                // works on its own copy (`gimso_tls_address`).
                self.tls_objects.insert(obj);
                self.static_objects.remove(&obj);
            }
            self.obj_map.insert(g, GlobalTx::Data(obj));
        }
    }

    /// What follows a global's payload of `size` bytes: padding to whole
    /// words, then its shadow words, zero (a global is born with its
    /// shadow storage, inline: no aux allocation at its first pointer
    /// store, and an aux word whose distance leads to readable words, as
    /// every data object's must; see `gimso_abi::ObjectHeader`).
    fn shadow_tail_ty(&self, size: u64) -> T<'m> {
        let tail = shadow_distance(size) - size + shadow_distance(size);
        self.ll.array_ty(self.ll.i8(), tail)
    }

    /// The object of a global aligned to `align` (> 16): its payload must
    /// start at a multiple of `align`, and every module refers to a global
    /// by its header symbol (`lower` is 16 bytes past it, whatever the
    /// alignment its declarations see). So the object lies in a private
    /// storage global aligned to `align`, after `align - 16` bytes of
    /// padding, and the header symbol is an alias into it (for a
    /// thread-local, this is the image each thread's copy is made from;
    /// the runtime aligns the copies as the image is). Refused for
    /// linkages the linker may merge or replace (the alias would point
    /// into one module's storage), and above a page.
    fn padded_object(
        &mut self,
        g: V<'m>,
        name: &str,
        obj_ty: T<'m>,
        align: u64,
        linkage: Linkage,
    ) -> V<'m> {
        let sym = format!("{SYMBOL_OBJ_PREFIX}{name}");
        let plain = matches!(
            linkage,
            Linkage::LLVMExternalLinkage
                | Linkage::LLVMInternalLinkage
                | Linkage::LLVMPrivateLinkage
        );
        if align > 4096 || !plain {
            let why = if align > 4096 {
                "more than a page"
            } else {
                "a definition the linker may merge or replace"
            };
            self.error(
                Location::of_global(g),
                "over-aligned globals",
                &format!("`{name}` needs {align}-byte alignment ({why})"),
            );
            let o = self.ll.add_global(obj_ty, &sym);
            o.set_alignment(16);
            return o;
        }
        let pad = align - 16;
        let pad_ty = self.ll.array_ty(self.ll.i8(), pad);
        let storage_ty = self.ll.struct_ty_packed(&[pad_ty, obj_ty]);
        let storage = self
            .ll
            .add_global(storage_ty, &format!("gimso.objpad.{name}"));
        storage.set_alignment(align as u32);
        storage.set_linkage(Linkage::LLVMPrivateLinkage);
        let header = self.ll.const_gep_i8(storage, pad);
        let o = self.ll.add_alias(obj_ty, header, &sym);
        self.padded_objects.insert(o, (storage, pad));
        o
    }

    /// Aliases of functions and of whole globals become aliases of their
    /// translations; anything else is refused.
    pub fn declare_aliases(&mut self, aliases: &[V<'m>]) {
        for (i, &a) in aliases.iter().enumerate() {
            let name = self.symbol_name(a, i);
            let target = a.aliasee();
            let linkage = self.new_linkage(a);
            if let Some(&(entry, obj)) = self.fn_map.get(&target) {
                let e = self.ll.add_alias(
                    entry_type(&self.ll),
                    entry,
                    &format!("{SYMBOL_FN_PREFIX}{name}"),
                );
                let o = self.ll.add_alias(
                    self.function_object_type(),
                    obj,
                    &format!("{SYMBOL_OBJ_PREFIX}{name}"),
                );
                e.set_linkage(linkage);
                o.set_linkage(linkage);
                self.obj_map.insert(a, GlobalTx::Function(target));
            } else if let Some(&GlobalTx::Data(obj)) = self.obj_map.get(&target) {
                let ty = obj.global_value_type();
                let o = self
                    .ll
                    .add_alias(ty, obj, &format!("{SYMBOL_OBJ_PREFIX}{name}"));
                o.set_linkage(linkage);
                self.obj_map.insert(a, GlobalTx::Data(o));
            } else {
                self.error(
                    Location::module(),
                    "aliases into the middle of objects",
                    &format!("alias `{name}` does not name a whole function or variable"),
                );
            }
        }
    }

    /// Sets every defined global object's header and initial payload.
    pub fn define_globals(&mut self, globals: &[V<'m>]) {
        self.image_mode = true;
        self.const_memo.clear();
        self.define_global_images(globals);
        self.image_mode = false;
        self.const_memo.clear();
    }

    fn define_global_images(&mut self, globals: &[V<'m>]) {
        for &g in globals {
            let Some(&GlobalTx::Data(obj)) = self.obj_map.get(&g) else {
                continue;
            };
            if g.is_declaration() {
                continue;
            }
            let ty = g.global_value_type();
            let init = match g.initializer() {
                Some(c) => match self.tx_const(c) {
                    Ok(t) => t.int,
                    Err(why) => {
                        self.error(Location::of_global(g), "this initialiser", &why);
                        continue;
                    }
                },
                None => self.ll.zero(ty),
            };
            let size = self.ll.size_of(ty);
            let upper = self.ll.const_gep_i8(obj, 16 + size);
            let mut flags = FLAG_GLOBAL;
            if g.is_global_constant() {
                flags |= FLAG_READONLY;
            }
            let aux = aux_with_delta(flags, shadow_distance(size) as isize);
            let tail = self.ll.zero(self.shadow_tail_ty(size));
            let value = self
                .ll
                .const_struct_packed(&[upper, self.ll.i64c(aux), init, tail]);
            match self.padded_objects.get(&obj) {
                Some(&(storage, pad)) => {
                    let pad = self.ll.zero(self.ll.array_ty(self.ll.i8(), pad));
                    let padded = self.ll.const_struct_packed(&[pad, value]);
                    storage.set_initializer(Some(padded));
                }
                None => obj.set_initializer(Some(value)),
            }
        }
    }

    /// The module's start-up function (registers its globals as roots and
    /// stores the capabilities of pointer initialisers), and native stubs
    /// for the program's constructors and destructors.
    pub fn emit_startup(&mut self, functions: &[V<'m>], globals: &[V<'m>]) {
        let ll = &self.ll;
        let void_fn = ll.fn_ty(ll.void(), &[], false);
        let init = ll.add_function("gimso.module_init", void_fn);
        init.set_linkage(Linkage::LLVMInternalLinkage);
        let b = ll.append_block(init, "entry");
        ll.position_at_end(b);
        ll.set_debug_loc(None);
        call(ll, "gimso_thread_attach", &[]);
        let mut ctors: Vec<(u64, V<'m>)> = Vec::new();
        let mut dtors: Vec<(u64, V<'m>)> = Vec::new();
        for &g in globals {
            let name = g.name();
            if name == "llvm.global_ctors" || name == "llvm.global_dtors" {
                let list = self.structors(g);
                if name == "llvm.global_ctors" {
                    ctors = list;
                } else {
                    dtors = list;
                }
                continue;
            }
            let Some(&GlobalTx::Data(obj)) = self.obj_map.get(&g) else {
                continue;
            };
            if g.is_declaration() {
                continue;
            }
            let ty = g.global_value_type();
            let lower = self.ll.const_gep_i8(obj, 16);
            let mut leaves = Vec::new();
            if let Some(c) = g.initializer() {
                if has_ptr(ty) {
                    if let Ok(t) = self.tx_const(c) {
                        self.pointer_leaves(ty, t, 0, &mut leaves);
                    }
                }
                if self.mentions_globals(c) {
                    let mut words = Vec::new();
                    self.ptrtoint_leaves(ty, c, 0, &mut words);
                    for (off, leaf) in words {
                        // The pointer itself: the same bits as the word.
                        if let Ok(t) = self.tx_const(leaf.operand(0)) {
                            leaves.push((off, t));
                        }
                    }
                }
            }
            let readonly = g.is_global_constant();
            if !readonly || !leaves.is_empty() {
                call(&self.ll, "gimso_register_global", &[lower, lower]);
            }
            for (off, t) in leaves {
                let at = self.ll.const_gep_i8(obj, 16 + off);
                let cap = t.cap.unwrap_or_else(|| self.ll.null_ptr());
                call(&self.ll, "gimso_global_init_ptr", &[at, lower, t.int, cap]);
            }
        }
        self.ll.position_at_end(b);
        if self.options.exposed_provenance {
            for g in self.constant_ptrtoints(functions, globals) {
                if let Ok(t) = self.tx_const(g) {
                    let cap = t.cap.unwrap_or_else(|| self.ll.null_ptr());
                    call(&self.ll, "gimso_expose", &[cap]);
                }
            }
        }
        self.ll.ret_void();
        let mut new_ctors = vec![(0u64, init.as_value())];
        for (i, (prio, f)) in ctors.into_iter().enumerate() {
            new_ctors.push((prio, self.structor_stub(f, &format!("gimso.ctor.{i}"))));
        }
        let mut new_dtors = Vec::new();
        for (i, (prio, f)) in dtors.into_iter().enumerate() {
            new_dtors.push((prio, self.structor_stub(f, &format!("gimso.dtor.{i}"))));
        }
        self.pending_structors = Some((new_ctors, new_dtors));
    }

    /// Under exposed provenance: the globals and functions whose address a
    /// constant `ptrtoint` converts, in code or in initialisers (a string
    /// literal cast to `unsigned long`). Start-up exposes them, as a
    /// `ptrtoint` instruction exposes its object when it runs.
    fn constant_ptrtoints(&self, functions: &[V<'m>], globals: &[V<'m>]) -> Vec<V<'m>> {
        let mut roots: Vec<V<'m>> = Vec::new();
        for &f in functions {
            for b in f.func().blocks() {
                for i in b.instructions() {
                    for k in 0..i.num_operands() {
                        roots.push(i.operand(k));
                    }
                }
            }
        }
        roots.extend(globals.iter().filter_map(|&g| g.initializer()));
        let mut found = Vec::new();
        let mut seen = HashSet::new();
        for c in roots {
            self.find_ptrtoints(c, false, &mut found, &mut seen);
        }
        found
    }

    /// Collects into `found` the global values under a `ptrtoint` in the
    /// constant `c` (`under`: inside one already).
    fn find_ptrtoints(
        &self,
        c: V<'m>,
        under: bool,
        found: &mut Vec<V<'m>>,
        seen: &mut HashSet<(V<'m>, bool)>,
    ) {
        if !seen.insert((c, under)) {
            return;
        }
        match c.value_kind() {
            ValueKind::LLVMFunctionValueKind
            | ValueKind::LLVMGlobalVariableValueKind
            | ValueKind::LLVMGlobalAliasValueKind
                if under && !c.name().starts_with("llvm.") =>
            {
                found.push(c);
            }
            ValueKind::LLVMConstantExprValueKind
            | ValueKind::LLVMConstantStructValueKind
            | ValueKind::LLVMConstantArrayValueKind
            | ValueKind::LLVMConstantVectorValueKind => {
                let ptrtoint = c.value_kind() == ValueKind::LLVMConstantExprValueKind
                    && c.const_opcode() == Some(Opcode::LLVMPtrToInt);
                for k in 0..c.num_operands() {
                    self.find_ptrtoints(c.operand(k), under || ptrtoint, found, seen);
                }
            }
            _ => {}
        }
    }

    /// (priority, original function) of each entry of a ctor/dtor list.
    fn structors(&self, list: V<'m>) -> Vec<(u64, V<'m>)> {
        let Some(init) = list.initializer() else {
            return Vec::new();
        };
        let ty = init.type_of();
        if ty.kind() != TypeKind::LLVMArrayTypeKind {
            return Vec::new();
        }
        let n = ty.array_len();
        let mut out = Vec::new();
        for i in 0..n as u32 {
            let Some(e) = init.aggregate_element(i) else {
                continue;
            };
            let (Some(prio), Some(f)) = (e.aggregate_element(0), e.aggregate_element(1)) else {
                continue;
            };
            let prio = prio.const_int_value().unwrap_or(65535);
            if self.fn_map.contains_key(&f) {
                out.push((prio, f));
            }
        }
        out
    }

    /// A native `void()` function calling compiled function `f` with no
    /// arguments on the calling thread.
    fn structor_stub(&self, f: V<'m>, name: &str) -> V<'m> {
        let ll = &self.ll;
        let (entry, obj) = self.fn_map[&f];
        let stub = ll.add_function(name, ll.fn_ty(ll.void(), &[], false));
        stub.set_linkage(Linkage::LLVMInternalLinkage);
        let b = ll.append_block(stub, "entry");
        ll.position_at_end(b);
        ll.set_debug_loc(None);
        let t = call(ll, "gimso_thread_attach", &[]);
        let lower = ll.const_gep_i8(obj, 16);
        ll.call(entry_type(ll), entry, &[t, lower, ll.i64c(0)]);
        ll.ret_void();
        *stub
    }

    fn emit_structor_list(&self, name: &str, list: &[(u64, V<'m>)]) {
        if list.is_empty() {
            return;
        }
        let ll = &self.ll;
        let elem_ty = ll.struct_ty(&[ll.i32(), ll.ptr(), ll.ptr()]);
        let elems: Vec<V<'m>> = list
            .iter()
            .map(|&(p, f)| ll.const_struct(&[ll.i32c(p), f, ll.null_ptr()]))
            .collect();
        let arr = ll.const_array(elem_ty, &elems);
        let g = ll.add_global(ll.array_ty(elem_ty, list.len() as u64), name);
        g.set_linkage(Linkage::LLVMAppendingLinkage);
        g.set_initializer(Some(arr));
    }

    /// Pointer leaves (offset, value) of a translated constant of `ty`.
    fn pointer_leaves(&self, ty: T<'m>, t: Tx<'m>, base: u64, out: &mut Vec<(u64, Tx<'m>)>) {
        let ll = &self.ll;
        match ty.kind() {
            TypeKind::LLVMPointerTypeKind => {
                if let Some(cap) = t.cap {
                    if cap.value_kind() != ValueKind::LLVMConstantPointerNullValueKind {
                        out.push((base, t));
                    }
                }
            }
            TypeKind::LLVMStructTypeKind => {
                for (i, f) in ty.struct_fields().into_iter().enumerate() {
                    if !has_ptr(f) {
                        continue;
                    }
                    let off = ll.field_offset(ty, i as u32);
                    let sub = self.const_part(t, i as u32);
                    self.pointer_leaves(f, sub, base + off, out);
                }
            }
            TypeKind::LLVMArrayTypeKind | TypeKind::LLVMVectorTypeKind => {
                let e = ty.element_type();
                let n = if ty.kind() == TypeKind::LLVMArrayTypeKind {
                    ty.array_len()
                } else {
                    u64::from(ty.vector_len())
                };
                let stride = ll.size_of(e);
                for i in 0..n {
                    let sub = self.const_part(t, i as u32);
                    self.pointer_leaves(e, sub, base + i * stride, out);
                }
            }
            _ => {}
        }
    }

    /// The 8-aligned `i64` leaves of initialiser `c` (of `ty`) that are a
    /// constant `ptrtoint` of a pointer constant, with their offsets: the
    /// words a C++ member-function pointer table (`{ ptrtoint @f, 0 }`)
    /// or a `uintptr_t` initialised from an address holds. Their words
    /// carry that pointer's capability, as a stored `ptrtoint` does.
    fn ptrtoint_leaves(&self, ty: T<'m>, c: V<'m>, base: u64, out: &mut Vec<(u64, V<'m>)>) {
        let ll = &self.ll;
        match ty.kind() {
            TypeKind::LLVMIntegerTypeKind => {
                let is_ptrtoint = c.value_kind() == ValueKind::LLVMConstantExprValueKind
                    && c.const_opcode() == Some(Opcode::LLVMPtrToInt)
                    && c.operand(0).type_of().is_ptr();
                if ty.int_width() == 64 && base % 8 == 0 && is_ptrtoint {
                    out.push((base, c));
                }
            }
            TypeKind::LLVMStructTypeKind => {
                for (i, f) in ty.struct_fields().into_iter().enumerate() {
                    if let Some(e) = c.aggregate_element(i as u32) {
                        let off = ll.field_offset(ty, i as u32);
                        self.ptrtoint_leaves(f, e, base + off, out);
                    }
                }
            }
            TypeKind::LLVMArrayTypeKind => {
                let e = ty.element_type();
                if !matches!(
                    e.kind(),
                    TypeKind::LLVMStructTypeKind
                        | TypeKind::LLVMArrayTypeKind
                        | TypeKind::LLVMIntegerTypeKind
                ) || (e.is_int() && e.int_width() != 64)
                {
                    return;
                }
                let stride = ll.size_of(e);
                for i in 0..ty.array_len() {
                    if let Some(x) = c.aggregate_element(i as u32) {
                        self.ptrtoint_leaves(e, x, base + i * stride, out);
                    }
                }
            }
            _ => {}
        }
    }

    fn const_part(&self, t: Tx<'m>, i: u32) -> Tx<'m> {
        Tx {
            int: t.int.aggregate_element(i).expect("REASON"),
            cap: t.cap.map(|c| c.aggregate_element(i)).expect("REASON"),
        }
    }

    /// Deletes the original functions, globals and aliases, and installs
    /// the new constructor and destructor lists.
    pub fn delete_originals(&mut self, functions: &[V<'m>], globals: &[V<'m>], aliases: &[V<'m>]) {
        for &a in aliases {
            let target = match self.obj_map.get(&a) {
                Some(&GlobalTx::Data(o)) => o,
                Some(&GlobalTx::Function(f)) => self.fn_map[&f].1,
                None => self.ll.null_ptr(),
            };
            if target.is_global_value() {
                self.ll.retire_alias(a, target);
            }
        }
        for &g in globals {
            g.set_initializer(None);
        }
        // Uses first (from other original bodies and constants), then the
        // functions, whose deletion drops their bodies' own references.
        for &v in functions.iter().chain(globals) {
            let undef = self.ll.undef(v.type_of());
            v.replace_all_uses_with(undef);
        }
        for &f in functions {
            // SAFETY: every use was just replaced, and the original
            // functions are not looked at again.
            unsafe { f.func().delete() };
        }
        for &g in globals {
            // SAFETY: as above, for the original globals.
            unsafe { g.delete_global() };
        }
        if let Some((ctors, dtors)) = self.pending_structors.take() {
            self.emit_structor_list("llvm.global_ctors", &ctors);
            self.emit_structor_list("llvm.global_dtors", &dtors);
        }
    }

    /// The program's native `main`, which hands over to the runtime.
    pub fn emit_main(&mut self) {
        let Some(entry) = self.ll.get_function(&format!("{SYMBOL_FN_PREFIX}main")) else {
            return;
        };
        if entry.is_declaration() || entry.linkage() != Linkage::LLVMExternalLinkage {
            return;
        }
        let Some(obj) = self.ll.get_global(&format!("{SYMBOL_OBJ_PREFIX}main")) else {
            return;
        };
        let ll = &self.ll;
        let ty = ll.fn_ty(ll.i32(), &[ll.i32(), ll.ptr(), ll.ptr()], false);
        let main = ll.add_function("main", ty);
        let b = ll.append_block(main, "entry");
        ll.position_at_end(b);
        ll.set_debug_loc(None);
        let lower = ll.const_ptrtoint(ll.const_gep_i8(obj, 16), ll.i64());
        let r = call(
            ll,
            "gimso_start_main",
            &[
                main.func().param(0),
                main.func().param(1),
                main.func().param(2),
                *entry,
                lower,
            ],
        );
        ll.ret(r);
    }
}
