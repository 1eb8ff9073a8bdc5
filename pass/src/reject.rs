//! Rejection of the LLVM constructs the gimso semantics does not support
//! (spec: "Other Call-Related Instructions", "Alloca", "Inline Assembly",
//! and the address-space rule of "Pointers At Rest").
//!
//! The checker reports every problem in the module, not only the first, so a
//! user sees all of them in one compile, like clang does.

use std::fmt;

use inkwell::llvm_sys::LLVMOpcode;
use inkwell::llvm_sys::core::{
    LLVMAliasGetAliasee, LLVMGetAllocatedType, LLVMGetCalledFunctionType, LLVMGetCalledValue,
    LLVMGetFirstGlobalAlias, LLVMGetFirstGlobalIFunc, LLVMGetGEPSourceElementType,
    LLVMGetGlobalIFuncResolver, LLVMGetInitializer, LLVMGetInstructionOpcode, LLVMGetModuleContext,
    LLVMGetModuleInlineAsm, LLVMGetNextGlobalAlias, LLVMGetNextGlobalIFunc, LLVMGetNumOperands,
    LLVMGetOperand, LLVMGlobalGetValueType, LLVMIsAFunction, LLVMIsAInlineAsm,
};
use inkwell::llvm_sys::prelude::{LLVMContextRef, LLVMValueRef};
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};

use crate::intrinsics::IntrinsicClass;
use crate::ir::{AddrSpaceFinder, InallocaProbe, inline_asm_parts};
use crate::location::{Location, Scope, value_name};

/// One unsupported construct, with where it is and why it is rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub location: Location,
    /// Short, stable name of the construct: `callbr`, `catchswitch`,
    /// `catchpad`, `cleanuppad`, `catchret`, `cleanupret`, `alloca inalloca`,
    /// `inline asm`, `module asm`, or `addrspace(N)`.
    pub construct: String,
    /// Full sentence: `gimso does not support …: <why>`.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    /// clang's style: ``file.c:12:5: error: <message> (in function `f`)``,
    /// with `<module>` in place of the position when there is no debug info.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location.source {
            Some(source) => write!(f, "{source}")?,
            None => f.write_str("<module>")?,
        }
        write!(f, ": error: {}", self.message)?;
        match &self.location.scope {
            Scope::Module => Ok(()),
            Scope::Function(name) => write!(f, " (in function `{name}`)"),
            Scope::Global(name) => write!(f, " (in global `{name}`)"),
        }
    }
}

impl std::error::Error for Diagnostic {}

/// Checks the whole module and returns every unsupported construct, in
/// module order (module asm, globals, aliases, ifuncs, then functions).
pub fn check_module(module: &Module<'_>) -> Vec<Diagnostic> {
    let mut checker = Checker {
        // SAFETY: the module is borrowed and live.
        ctx: unsafe { LLVMGetModuleContext(module.as_mut_ptr()) },
        diags: Vec::new(),
        spaces: AddrSpaceFinder::default(),
        inalloca: InallocaProbe::new(),
    };
    checker.module(module);
    checker.diags
}

struct Checker {
    /// The module's context, for the `alloca inalloca` probe's scratch module.
    ctx: LLVMContextRef,
    diags: Vec<Diagnostic>,
    spaces: AddrSpaceFinder,
    inalloca: InallocaProbe,
}

impl Checker {
    fn push(&mut self, location: Location, construct: impl Into<String>, message: String) {
        self.diags.push(Diagnostic {
            location,
            construct: construct.into(),
            message,
        });
    }

    fn addrspace(&mut self, location: Location, space: u32) {
        if space != 0 {
            let message = format!(
                "gimso does not support pointers in address space {space}: only address-space-0 \
                 pointers carry capabilities"
            );
            self.push(location, format!("addrspace({space})"), message);
        }
    }

    fn module(&mut self, module: &Module<'_>) {
        let raw = module.as_mut_ptr();
        let mut len = 0usize;
        // SAFETY: `raw` is the borrowed, live module; the returned bytes are
        // owned by it and only read here.
        let asm = unsafe {
            let ptr = LLVMGetModuleInlineAsm(raw, &mut len);
            if ptr.is_null() {
                &[][..]
            } else {
                std::slice::from_raw_parts(ptr.cast::<u8>(), len)
            }
        };
        // LLVM joins module asm lines with newlines; whitespace assembles to nothing.
        if !asm.iter().all(u8::is_ascii_whitespace) {
            let message = "gimso does not support module-level inline assembly: it can define \
                           code that accesses memory without capability checks"
                .to_owned();
            self.push(Location::module(), "module asm", message);
        }

        for global in module.get_globals() {
            let g = global.as_value_ref();
            // SAFETY: `g` is a live global variable of `module`.
            let space = unsafe {
                let init = LLVMGetInitializer(g);
                let own = self.spaces.in_value(g);
                let own = if own != 0 {
                    own
                } else {
                    self.spaces.in_type(LLVMGlobalGetValueType(g))
                };
                if own != 0 || init.is_null() {
                    own
                } else {
                    self.spaces.in_value(init)
                }
            };
            self.addrspace(Location::of_global(global), space);
        }

        // SAFETY: walking the alias and ifunc lists of the live module.
        unsafe {
            let mut alias = LLVMGetFirstGlobalAlias(raw);
            while !alias.is_null() {
                self.indirect_global(alias, LLVMAliasGetAliasee(alias));
                alias = LLVMGetNextGlobalAlias(alias);
            }
            let mut ifunc = LLVMGetFirstGlobalIFunc(raw);
            while !ifunc.is_null() {
                self.indirect_global(ifunc, LLVMGetGlobalIFuncResolver(ifunc));
                ifunc = LLVMGetNextGlobalIFunc(ifunc);
            }
        }

        for function in module.get_functions() {
            self.function(function);
        }
    }

    /// An alias or ifunc: its own pointer type and its target expression.
    ///
    /// # Safety
    /// Both values must be live and belong to the module being checked.
    unsafe fn indirect_global(&mut self, global: LLVMValueRef, target: LLVMValueRef) {
        // SAFETY: forwarded from the caller.
        let space = unsafe {
            let own = self.spaces.in_value(global);
            if own != 0 || target.is_null() {
                own
            } else {
                self.spaces.in_value(target)
            }
        };
        // SAFETY: `global` is live.
        let name = unsafe { value_name(global) };
        self.addrspace(
            Location {
                source: None,
                scope: Scope::Global(name),
            },
            space,
        );
    }

    fn function(&mut self, function: FunctionValue<'_>) {
        let f = function.as_value_ref();
        // The function's own address space, then its signature (params, return).
        // SAFETY: `f` is a live function.
        let space = unsafe {
            let own = self.spaces.in_value(f);
            if own != 0 {
                own
            } else {
                self.spaces.in_type(LLVMGlobalGetValueType(f))
            }
        };
        self.addrspace(Location::of_function(function), space);

        for block in function.get_basic_block_iter() {
            let mut next = block.get_first_instruction();
            while let Some(inst) = next {
                self.instruction(inst);
                next = inst.get_next_instruction();
            }
        }
    }

    fn instruction(&mut self, inst: InstructionValue<'_>) {
        let raw = inst.as_value_ref();
        // SAFETY: `raw` is a live instruction.
        let opcode = unsafe { LLVMGetInstructionOpcode(raw) };
        if let Some((construct, why)) = forbidden_opcode(opcode) {
            let message = format!("gimso does not support `{construct}`: {why}");
            self.push(Location::of_instruction(inst), construct, message);
        }
        match opcode {
            LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke => {
                // SAFETY: `raw` is a live call/invoke (callbr was rejected above).
                unsafe { self.inline_asm(inst) };
                self.intrinsic(inst);
            }
            LLVMOpcode::LLVMAlloca => {
                // SAFETY: `raw` is a live alloca of the module, whose context
                // is `self.ctx` and outlives this checker.
                let inalloca = unsafe { self.inalloca.is_inalloca(self.ctx, raw) };
                if inalloca {
                    let message = "gimso does not support `alloca inalloca`: it exists only for \
                                   the 32-bit Windows C++ ABI"
                        .to_owned();
                    self.push(Location::of_instruction(inst), "alloca inalloca", message);
                }
            }
            _ => {}
        }
        // SAFETY: `raw` is live; each accessor is only called on its opcode.
        let space = unsafe { self.instruction_addrspace(raw, opcode) };
        self.addrspace(Location::of_instruction(inst), space);
    }

    /// Rejects a call to an intrinsic that touches memory and has no checked
    /// form.
    fn intrinsic(&mut self, inst: InstructionValue<'_>) {
        // SAFETY: `inst` is a live call site; a direct callee is a Function.
        let callee = unsafe { LLVMGetCalledValue(inst.as_value_ref()) };
        // SAFETY: `callee` is live; the cast only succeeds for functions.
        if callee.is_null() || unsafe { LLVMIsAFunction(callee).is_null() } {
            return;
        }
        // SAFETY: `callee` is a live function of the module.
        let function = unsafe { FunctionValue::new(callee) };
        let Some(function) = function else { return };
        if let Some(IntrinsicClass::Rejected(why)) = crate::intrinsics::classify(function) {
            let name = function.get_name().to_string_lossy().into_owned();
            let message = format!("gimso does not support the intrinsic `{name}`: {why}");
            self.push(Location::of_instruction(inst), "intrinsic", message);
        }
    }

    /// Rejects a call to inline asm unless it is safe ([`crate::asm_safety`]).
    ///
    /// # Safety
    /// `inst` must be a live `call` or `invoke`.
    unsafe fn inline_asm(&mut self, inst: InstructionValue<'_>) {
        // SAFETY: `inst` is a live call site (caller).
        let callee = unsafe { LLVMGetCalledValue(inst.as_value_ref()) };
        // SAFETY: `callee` is live; only `InlineAsm` values reach the printer.
        if callee.is_null() || unsafe { LLVMIsAInlineAsm(callee).is_null() } {
            return;
        }
        // SAFETY: `callee` is an `InlineAsm`.
        let (raw, constraints, intel) = unsafe { inline_asm_parts(callee) };
        let Some(why) = crate::asm_safety::refusal(&raw, &constraints, intel) else {
            return;
        };
        let template = crate::asm_safety::gcc_form(&raw);
        let shown: String = template.chars().take(40).collect();
        let ellipsis = if shown.len() < template.len() {
            "..."
        } else {
            ""
        };
        let message = format!(
            "gimso does not support inline assembly `{shown}{ellipsis}`: {why} (inline assembly \
             can reach memory without capability checks; gimso accepts register-only \
             instructions with declared outputs and clobbers)"
        );
        self.push(Location::of_instruction(inst), "inline asm", message);
    }

    /// The first non-zero address space in the instruction's result, its
    /// operands (through constant expressions), or the types it names.
    ///
    /// # Safety
    /// `raw` must be a live instruction with opcode `opcode`.
    unsafe fn instruction_addrspace(&mut self, raw: LLVMValueRef, opcode: LLVMOpcode) -> u32 {
        // SAFETY: `raw` is live (caller); the per-opcode type accessors match
        // the opcode, and operand indices are in range.
        unsafe {
            let mut space = self.spaces.in_value(raw);
            let operands = LLVMGetNumOperands(raw).max(0) as u32;
            let mut i = 0;
            while space == 0 && i < operands {
                space = self.spaces.in_value(LLVMGetOperand(raw, i));
                i += 1;
            }
            if space != 0 {
                return space;
            }
            let named = match opcode {
                LLVMOpcode::LLVMAlloca => LLVMGetAllocatedType(raw),
                LLVMOpcode::LLVMGetElementPtr => LLVMGetGEPSourceElementType(raw),
                LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke | LLVMOpcode::LLVMCallBr => {
                    LLVMGetCalledFunctionType(raw)
                }
                _ => return 0,
            };
            if named.is_null() {
                0
            } else {
                self.spaces.in_type(named)
            }
        }
    }
}

/// Instructions rejected outright, with the reason (spec: "Other
/// Call-Related Instructions").
fn forbidden_opcode(opcode: LLVMOpcode) -> Option<(&'static str, &'static str)> {
    const FUNCLET: &str = "it belongs to funclet-based (Windows) exception handling; gimso \
                           supports only Itanium `landingpad`/`resume`";
    Some(match opcode {
        LLVMOpcode::LLVMCallBr => (
            "callbr",
            "`asm goto` is inline assembly that can branch, and only an empty, non-branching \
             inline asm is safe",
        ),
        LLVMOpcode::LLVMCatchSwitch => ("catchswitch", FUNCLET),
        LLVMOpcode::LLVMCatchPad => ("catchpad", FUNCLET),
        LLVMOpcode::LLVMCleanupPad => ("cleanuppad", FUNCLET),
        LLVMOpcode::LLVMCatchRet => ("catchret", FUNCLET),
        LLVMOpcode::LLVMCleanupRet => ("cleanupret", FUNCLET),
        _ => return None,
    })
}
