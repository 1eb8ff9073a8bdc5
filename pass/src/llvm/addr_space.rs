//! [`AddrSpaceFinder`]: non-zero address spaces anywhere in types and
//! constants.

use std::collections::HashMap;

use super::{Type, TypeKind, Value};

/// Finds non-zero address spaces in types and constant expressions.
///
/// Results are memoised (types are uniqued per context; constants are shared
/// across uses), which keeps a whole-module walk linear.
#[derive(Default)]
pub struct AddrSpaceFinder<'m> {
    types: HashMap<Type<'m>, u32>,
    constants: HashMap<Value<'m>, u32>,
}

impl<'m> AddrSpaceFinder<'m> {
    /// The first non-zero address space of a pointer anywhere in `ty`
    /// (through arrays, vectors, struct fields and function signatures); 0 if none.
    #[track_caller]
    pub fn in_type(&mut self, ty: Type<'m>) -> u32 {
        if let Some(&a) = self.types.get(&ty) {
            return a;
        }
        // Provisional entry: cuts any cycle (impossible with opaque pointers,
        // but a wrong answer beats a stack overflow).
        self.types.insert(ty, 0);
        let found = match ty.kind() {
            TypeKind::LLVMPointerTypeKind => ty.address_space(),
            TypeKind::LLVMArrayTypeKind
            | TypeKind::LLVMVectorTypeKind
            | TypeKind::LLVMScalableVectorTypeKind => self.in_type(ty.element_type()),
            TypeKind::LLVMStructTypeKind if !ty.is_opaque_struct() => {
                self.first_in(&ty.struct_fields())
            }
            TypeKind::LLVMFunctionTypeKind => {
                let mut all = ty.fn_params();
                all.push(ty.fn_ret());
                self.first_in(&all)
            }
            _ => 0,
        };
        self.types.insert(ty, found);
        found
    }

    fn first_in(&mut self, types: &[Type<'m>]) -> u32 {
        types
            .iter()
            .map(|&t| self.in_type(t))
            .find(|&a| a != 0)
            .unwrap_or(0)
    }

    /// The first non-zero address space in `value`'s type or, for a constant
    /// (other than a global, which is checked on its own), in its operands.
    #[track_caller]
    pub fn in_value(&mut self, value: Value<'m>) -> u32 {
        let own = self.in_type(value.type_of());
        let is_plain_constant = value.is_constant_kind() && !value.is_global_value();
        if own != 0 || !is_plain_constant {
            return own;
        }
        if let Some(&a) = self.constants.get(&value) {
            return a;
        }
        self.constants.insert(value, 0);
        let found = value
            .operands()
            .map(|op| self.in_value(op))
            .find(|&a| a != 0)
            .unwrap_or(0);
        self.constants.insert(value, found);
        found
    }
}
