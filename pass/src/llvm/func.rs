//! [`Func`]: a function of a live module, and attributes of functions and
//! call sites.

use std::marker::PhantomData;
use std::ptr::NonNull;

use inkwell::llvm_sys::LLVMOpaqueAttributeRef;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMAttributeRef, LLVMContextRef};

use super::{Block, Meta, Opcode, Type, Value};

/// A function, declared or defined (see the [module docs](super) for the
/// invariant). It is a [`Value`] too, through `Deref`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Func<'m>(Value<'m>);

impl<'m> std::ops::Deref for Func<'m> {
    type Target = Value<'m>;
    fn deref(&self) -> &Value<'m> {
        &self.0
    }
}

impl<'m> From<Func<'m>> for Value<'m> {
    fn from(f: Func<'m>) -> Value<'m> {
        f.0
    }
}

/// Where an attribute sits: on the function, its return value or a
/// parameter (0-based).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AttrAt {
    Function,
    Return,
    Param(u32),
}

impl AttrAt {
    fn index(self) -> u32 {
        match self {
            AttrAt::Function => inkwell::llvm_sys::LLVMAttributeFunctionIndex,
            AttrAt::Return => inkwell::llvm_sys::LLVMAttributeReturnIndex,
            AttrAt::Param(i) => i + 1,
        }
    }
}

/// An attribute of a function or call site.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Attr<'m> {
    raw: NonNull<LLVMOpaqueAttributeRef>,
    _m: PhantomData<&'m ()>,
}

/// The kind number of the enum attribute called `name` (0 if unknown).
#[track_caller]
pub fn attr_kind(name: &str) -> u32 {
    // SAFETY: the name is read for `len` bytes only.
    unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len()) }
}

impl<'m> Attr<'m> {
    /// # Safety
    /// `raw` is null or an attribute of a context alive for `'m`.
    unsafe fn from_raw(raw: LLVMAttributeRef) -> Option<Attr<'m>> {
        NonNull::new(raw).map(|raw| Attr {
            raw,
            _m: PhantomData,
        })
    }
    fn raw(self) -> LLVMAttributeRef {
        self.raw.as_ptr()
    }
    #[track_caller]
    pub fn is_string(self) -> bool {
        // SAFETY: a live attribute.
        unsafe { LLVMIsStringAttribute(self.raw()) != 0 }
    }
    /// The kind of an enum (or type) attribute.
    #[track_caller]
    pub fn enum_kind(self) -> Option<u32> {
        // SAFETY: a live attribute; the kind is read of non-string ones.
        (!self.is_string()).then(|| unsafe { LLVMGetEnumAttributeKind(self.raw()) })
    }
    /// The type a type attribute (`byval(T)`, `sret(T)`, ...) carries.
    #[track_caller]
    pub fn type_value(self) -> Option<Type<'m>> {
        if self.is_string() {
            return None;
        }
        // SAFETY: a live non-string attribute; null when it holds no type.
        unsafe { Type::from_raw(LLVMGetTypeAttributeValue(self.raw())) }
    }
    /// The integer payload of an enum attribute (`memory(...)`'s effects,
    /// `align(n)`'s n); `None` for a string or type attribute.
    #[track_caller]
    pub fn enum_value(self) -> Option<u64> {
        // SAFETY: a live attribute; the payload is read of enum ones only.
        unsafe {
            (LLVMIsEnumAttribute(self.raw()) != 0).then(|| LLVMGetEnumAttributeValue(self.raw()))
        }
    }
}

/// The context of a live value.
fn context_of(v: Value<'_>) -> LLVMContextRef {
    // SAFETY: a live value's type belongs to its module's context.
    unsafe { LLVMGetTypeContext(LLVMTypeOf(v.raw())) }
}

/// A new enum attribute of kind `name` with integer payload `val`, in
/// `v`'s context.
fn new_enum_attr<'m>(v: Value<'m>, name: &str, val: u64) -> Attr<'m> {
    // SAFETY: a live context; LLVM makes (or finds) the attribute.
    unsafe { Attr::from_raw(LLVMCreateEnumAttribute(context_of(v), attr_kind(name), val)) }
        .expect("attribute")
}

impl<'m> Func<'m> {
    pub(super) fn from_value(v: Value<'m>) -> Func<'m> {
        debug_assert!(v.is_function());
        Func(v)
    }
    #[track_caller]
    pub fn as_value(self) -> Value<'m> {
        self.0
    }
    /// The handle of an inkwell function.
    #[track_caller]
    pub fn of(f: inkwell::values::FunctionValue<'m>) -> Func<'m> {
        Func(Value::of(f))
    }
    /// Its function type.
    #[track_caller]
    pub fn fn_type(self) -> Type<'m> {
        self.0.global_value_type()
    }
    #[track_caller]
    pub fn params(self) -> Vec<Value<'m>> {
        // SAFETY: a live function; the buffer has room for every parameter.
        unsafe {
            let n = LLVMCountParams(self.0.raw()) as usize;
            let mut v = vec![std::ptr::null_mut(); n];
            LLVMGetParams(self.0.raw(), v.as_mut_ptr());
            v.into_iter().filter_map(|p| Value::from_raw(p)).collect()
        }
    }
    #[track_caller]
    pub fn param(self, i: u32) -> Value<'m> {
        // SAFETY: a live function; the index is checked first.
        unsafe {
            assert!(
                i < LLVMCountParams(self.0.raw()),
                "parameter {i} out of range"
            );
            Value::from_raw(LLVMGetParam(self.0.raw(), i)).expect("parameter")
        }
    }
    #[track_caller]
    pub fn count_blocks(self) -> u32 {
        // SAFETY: a live function.
        unsafe { LLVMCountBasicBlocks(self.0.raw()) }
    }
    #[track_caller]
    pub fn entry_block(self) -> Option<Block<'m>> {
        if self.count_blocks() == 0 {
            return None;
        }
        // SAFETY: a live function with a body (checked).
        unsafe { Block::from_raw(LLVMGetEntryBasicBlock(self.0.raw())) }
    }
    /// The blocks in layout order (a snapshot).
    #[track_caller]
    pub fn blocks(self) -> Vec<Block<'m>> {
        // SAFETY: a live function; null ends the list.
        let first = unsafe { Block::from_raw(LLVMGetFirstBasicBlock(self.0.raw())) };
        std::iter::successors(first, |b| b.next()).collect()
    }
    /// Every instruction of every block, in layout order (a snapshot).
    #[track_caller]
    pub fn instructions(self) -> Vec<Value<'m>> {
        self.blocks()
            .into_iter()
            .flat_map(Block::instructions)
            .collect()
    }
    /// Whether any instruction has one of `ops`.
    #[track_caller]
    pub fn has_opcode(self, ops: &[Opcode]) -> bool {
        self.blocks().into_iter().any(|b| {
            b.instructions()
                .into_iter()
                .any(|i| ops.contains(&i.opcode()))
        })
    }
    #[track_caller]
    pub fn subprogram(self) -> Option<Meta<'m>> {
        // SAFETY: a live function.
        unsafe {
            Meta::from_raw(inkwell::llvm_sys::debuginfo::LLVMGetSubprogram(
                self.0.raw(),
            ))
        }
    }
    #[track_caller]
    pub fn set_subprogram(self, sp: Option<Meta<'m>>) {
        // SAFETY: a live function; `sp` null or a DISubprogram.
        unsafe {
            inkwell::llvm_sys::debuginfo::LLVMSetSubprogram(
                self.0.raw(),
                sp.map_or(std::ptr::null_mut(), Meta::raw),
            )
        }
    }
    #[track_caller]
    pub fn personality(self) -> Option<Value<'m>> {
        // SAFETY: a live function; the personality is read only when set.
        unsafe {
            if LLVMHasPersonalityFn(self.0.raw()) == 0 {
                return None;
            }
            Value::from_raw(LLVMGetPersonalityFn(self.0.raw()))
        }
    }
    #[track_caller]
    pub fn set_personality(self, p: Option<Value<'m>>) {
        // SAFETY: a live function; `p` null or a function.
        unsafe { LLVMSetPersonalityFn(self.0.raw(), p.map_or(std::ptr::null_mut(), Value::raw)) }
    }
    #[track_caller]
    pub fn call_conv(self) -> u32 {
        // SAFETY: a live function.
        unsafe { LLVMGetFunctionCallConv(self.0.raw()) }
    }
    #[track_caller]
    pub fn set_call_conv(self, cc: u32) {
        // SAFETY: a live function.
        unsafe { LLVMSetFunctionCallConv(self.0.raw(), cc) }
    }
    /// The garbage collector strategy named on the function, if any.
    #[track_caller]
    pub fn gc(self) -> Option<String> {
        // SAFETY: a live function; the name is LLVM's and copied.
        unsafe {
            let p = LLVMGetGC(self.0.raw());
            (!p.is_null()).then(|| std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned())
        }
    }
    /// Deletes this function.
    ///
    /// # Safety
    /// It has no uses left and no handle to it or anything in it is used
    /// afterwards.
    #[track_caller]
    pub unsafe fn delete(self) {
        // SAFETY: a live function the caller is done with.
        unsafe { LLVMDeleteFunction(self.0.raw()) }
    }

    // ---- attributes ---------------------------------------------------------

    #[track_caller]
    pub fn attr(self, at: AttrAt, name: &str) -> Option<Attr<'m>> {
        // SAFETY: a live function; null when absent.
        unsafe {
            Attr::from_raw(LLVMGetEnumAttributeAtIndex(
                self.0.raw(),
                at.index(),
                attr_kind(name),
            ))
        }
    }
    #[track_caller]
    pub fn has_attr(self, at: AttrAt, name: &str) -> bool {
        self.attr(at, name).is_some()
    }
    #[track_caller]
    pub fn attrs(self, at: AttrAt) -> Vec<Attr<'m>> {
        // SAFETY: a live function; the buffer has room for every attribute.
        unsafe {
            let n = LLVMGetAttributeCountAtIndex(self.0.raw(), at.index()) as usize;
            let mut v = vec![std::ptr::null_mut(); n];
            if n > 0 {
                LLVMGetAttributesAtIndex(self.0.raw(), at.index(), v.as_mut_ptr());
            }
            v.into_iter().filter_map(|a| Attr::from_raw(a)).collect()
        }
    }
    #[track_caller]
    pub fn add_attr(self, at: AttrAt, a: Attr<'m>) {
        // SAFETY: a live function and attribute of its context.
        unsafe { LLVMAddAttributeAtIndex(self.0.raw(), at.index(), a.raw()) }
    }
    /// Adds enum attribute `name` (with payload `val`, 0 for a flag).
    #[track_caller]
    pub fn add_enum_attr(self, at: AttrAt, name: &str, val: u64) {
        self.add_attr(at, new_enum_attr(self.0, name, val));
    }
    /// Adds the flag attributes `names` (`noreturn`, ...) at function
    /// level; unknown names are skipped.
    #[track_caller]
    pub fn add_fn_attrs(self, names: &[&str]) {
        for name in names.iter().filter(|n| attr_kind(n) != 0) {
            self.add_enum_attr(AttrAt::Function, name, 0);
        }
    }
    /// The `byval(T)` type of parameter `i`, if it has one.
    #[track_caller]
    pub fn param_byval(self, i: u32) -> Option<Type<'m>> {
        self.attr(AttrAt::Param(i), "byval")?.type_value()
    }
    /// Copies to `to` the function attributes that stay true after the
    /// translation (target and code-generation settings, every string
    /// attribute); promises about memory, returning or progress are not.
    #[track_caller]
    pub fn copy_safe_attrs_to(self, to: Func<'m>) {
        const KEEP: &[&str] = &[
            "noinline", "optnone", "cold", "hot", "minsize", "optsize", "uwtable", "nounwind",
        ];
        for a in self.attrs(AttrAt::Function) {
            let keep = match a.enum_kind() {
                None => true,
                Some(kind) => KEEP.iter().any(|name| attr_kind(name) == kind),
            };
            if keep {
                to.add_attr(AttrAt::Function, a);
            }
        }
    }
    #[track_caller]
    pub fn remove_enum_attr(self, at: AttrAt, name: &str) {
        // SAFETY: a live function; removing an absent attribute is a no-op.
        unsafe { LLVMRemoveEnumAttributeAtIndex(self.0.raw(), at.index(), attr_kind(name)) }
    }
    /// Gives `to` this function's DLL storage class, `unnamed_addr`,
    /// section, GC strategy, comdat and metadata attachments (its
    /// debug-info subprogram among them), verbatim: what a function
    /// replacing this one under a new type keeps besides what the typed
    /// accessors above copy.
    #[track_caller]
    pub fn copy_object_properties_to(self, to: Func<'m>) {
        let (from, to) = (self.0.raw(), to.0.raw());
        // SAFETY: two live functions; the section and GC names are LLVM's
        // NUL-terminated strings, read only when present and copied by the
        // setters; the metadata entries hold `n` entries and are freed once.
        unsafe {
            LLVMSetDLLStorageClass(to, LLVMGetDLLStorageClass(from));
            LLVMSetUnnamedAddress(to, LLVMGetUnnamedAddress(from));
            let section = LLVMGetSection(from);
            if !section.is_null() {
                LLVMSetSection(to, section);
            }
            let gc = LLVMGetGC(from);
            if !gc.is_null() {
                LLVMSetGC(to, gc);
            }
            let comdat = inkwell::llvm_sys::comdat::LLVMGetComdat(from);
            if !comdat.is_null() {
                inkwell::llvm_sys::comdat::LLVMSetComdat(to, comdat);
            }
            let mut n = 0;
            let entries = LLVMGlobalCopyAllMetadata(from, &mut n);
            if entries.is_null() {
                return;
            }
            for i in 0..n as u32 {
                let kind = LLVMValueMetadataEntriesGetKind(entries, i);
                let md = LLVMValueMetadataEntriesGetMetadata(entries, i);
                LLVMGlobalSetMetadata(to, kind, md);
            }
            LLVMDisposeValueMetadataEntries(entries);
        }
    }
}

/// Attributes of call sites.
impl<'m> Value<'m> {
    #[track_caller]
    fn expect_call(self, what: &str) {
        assert!(self.is_call_base(), "{what} of a value that is not a call");
    }
    #[track_caller]
    pub fn call_attr(self, at: AttrAt, name: &str) -> Option<Attr<'m>> {
        self.expect_call("call_attr");
        // SAFETY: a live call (checked); null when absent.
        unsafe {
            Attr::from_raw(LLVMGetCallSiteEnumAttribute(
                self.raw(),
                at.index(),
                attr_kind(name),
            ))
        }
    }
    #[track_caller]
    pub fn call_has_attr(self, at: AttrAt, name: &str) -> bool {
        self.call_attr(at, name).is_some()
    }
    #[track_caller]
    pub fn call_attrs(self, at: AttrAt) -> Vec<Attr<'m>> {
        self.expect_call("call_attrs");
        // SAFETY: a live call (checked); the buffer has room for every
        // attribute.
        unsafe {
            let n = LLVMGetCallSiteAttributeCount(self.raw(), at.index()) as usize;
            let mut v = vec![std::ptr::null_mut(); n];
            if n > 0 {
                LLVMGetCallSiteAttributes(self.raw(), at.index(), v.as_mut_ptr());
            }
            v.into_iter().filter_map(|a| Attr::from_raw(a)).collect()
        }
    }
    #[track_caller]
    pub fn add_call_attr(self, at: AttrAt, a: Attr<'m>) {
        self.expect_call("add_call_attr");
        // SAFETY: a live call (checked) and an attribute of its context.
        unsafe { LLVMAddCallSiteAttribute(self.raw(), at.index(), a.raw()) }
    }
    #[track_caller]
    pub fn add_call_enum_attr(self, at: AttrAt, name: &str, val: u64) {
        self.add_call_attr(at, new_enum_attr(self, name, val));
    }
    #[track_caller]
    pub fn remove_call_enum_attr(self, at: AttrAt, name: &str) {
        self.expect_call("remove_call_enum_attr");
        // SAFETY: a live call (checked); removing an absent one is a no-op.
        unsafe { LLVMRemoveCallSiteEnumAttribute(self.raw(), at.index(), attr_kind(name)) }
    }
    /// Adds the flag attributes `names` to this call at function level;
    /// unknown names are skipped.
    #[track_caller]
    pub fn add_call_attrs(self, names: &[&str]) {
        for name in names.iter().filter(|n| attr_kind(n) != 0) {
            self.add_call_enum_attr(AttrAt::Function, name, 0);
        }
    }
    /// The type of type attribute `name` at call argument `i`.
    #[track_caller]
    pub fn call_type_attr(self, i: u32, name: &str) -> Option<Type<'m>> {
        self.call_attr(AttrAt::Param(i), name)?.type_value()
    }
}
