//! [`Meta`]: metadata of a live module (debug locations, scopes, nodes).

use std::marker::PhantomData;
use std::ptr::NonNull;

use inkwell::llvm_sys::LLVMOpaqueMetadata;
use inkwell::llvm_sys::debuginfo::*;
use inkwell::llvm_sys::prelude::LLVMMetadataRef;

/// A metadata node (see the [module docs](super) for the invariant).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Meta<'m> {
    raw: NonNull<LLVMOpaqueMetadata>,
    _m: PhantomData<&'m ()>,
}

impl<'m> Meta<'m> {
    /// # Safety
    /// `raw` is null or metadata of a context alive for `'m`.
    pub(super) unsafe fn from_raw(raw: LLVMMetadataRef) -> Option<Meta<'m>> {
        NonNull::new(raw).map(|raw| Meta {
            raw,
            _m: PhantomData,
        })
    }
    pub(super) fn raw(self) -> LLVMMetadataRef {
        self.raw.as_ptr()
    }
    /// The kind of metadata this is.
    #[track_caller]
    pub fn kind(self) -> LLVMMetadataKind {
        // SAFETY: live metadata.
        unsafe { LLVMGetMetadataKind(self.raw()) }
    }
    /// Whether this is a `DILocation`.
    #[track_caller]
    pub fn is_location(self) -> bool {
        self.kind() as u32 == LLVMMetadataKind::LLVMDILocationMetadataKind as u32
    }
    /// The line and column of a `DILocation`.
    #[track_caller]
    pub fn line_col(self) -> (u32, u32) {
        assert!(self.is_location(), "line_col of {:?}", self.kind());
        // SAFETY: a DILocation (checked).
        unsafe {
            (
                LLVMDILocationGetLine(self.raw()),
                LLVMDILocationGetColumn(self.raw()),
            )
        }
    }
    /// The scope of a `DILocation`.
    #[track_caller]
    pub fn scope(self) -> Option<Meta<'m>> {
        assert!(self.is_location(), "scope of {:?}", self.kind());
        // SAFETY: a DILocation (checked).
        unsafe { Meta::from_raw(LLVMDILocationGetScope(self.raw())) }
    }
    /// Where the code of a `DILocation` was inlined into (`None` if it
    /// was not inlined).
    #[track_caller]
    pub fn inlined_at(self) -> Option<Meta<'m>> {
        assert!(self.is_location(), "inlined_at of {:?}", self.kind());
        // SAFETY: a DILocation (checked).
        unsafe { Meta::from_raw(LLVMDILocationGetInlinedAt(self.raw())) }
    }
    /// The directory and file name of a debug-info scope's file (empty
    /// strings when it has none).
    #[track_caller]
    pub fn scope_file(self) -> (String, String) {
        // SAFETY: LLVMDIScopeGetFile accepts any DIScope and returns null
        // for metadata without a file; the strings are copied at once.
        unsafe {
            let Some(file) = Meta::from_raw(LLVMDIScopeGetFile(self.raw())) else {
                return (String::new(), String::new());
            };
            let copy = |p: *const std::ffi::c_char, len: u32| {
                if p.is_null() || len == 0 {
                    return String::new();
                }
                let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len as usize);
                String::from_utf8_lossy(bytes).into_owned()
            };
            let (mut dlen, mut flen) = (0u32, 0u32);
            let dir = LLVMDIFileGetDirectory(file.raw(), &mut dlen);
            let name = LLVMDIFileGetFilename(file.raw(), &mut flen);
            (copy(dir, dlen), copy(name, flen))
        }
    }
}
