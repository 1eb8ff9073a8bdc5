//! Rejection of the LLVM constructs the gimso semantics does not support
//! (spec: "Other Call-Related Instructions", "Alloca", "Inline Assembly",
//! and the address-space rule of "Pointers At Rest").
//!
//! The checker reports every problem in the module, not only the first, so a
//! user sees all of them in one compile, like clang does.

use std::fmt;

use inkwell::module::Module;

use crate::intrinsics::IntrinsicClass;
use crate::llvm::{AddrSpaceFinder, Func, InallocaProbe, Ll, Opcode, Value};
use crate::location::{Location, Scope};

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
        diags: Vec::new(),
        spaces: AddrSpaceFinder::default(),
        inalloca: InallocaProbe::new(),
    };
    checker.module(module);
    checker.diags
}

struct Checker<'m> {
    diags: Vec<Diagnostic>,
    spaces: AddrSpaceFinder<'m>,
    /// Its scratch module lives in the checked module's context.
    inalloca: InallocaProbe,
}

impl<'m> Checker<'m> {
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

    fn module(&mut self, module: &'m Module<'_>) {
        let ll = Ll::new(module);
        let asm = ll.module_asm();
        // LLVM joins module asm lines with newlines; whitespace assembles to nothing.
        if !asm.bytes().all(|b| b.is_ascii_whitespace()) {
            let message = "gimso does not support module-level inline assembly: it can define \
                           code that accesses memory without capability checks"
                .to_owned();
            self.push(Location::module(), "module asm", message);
        }

        for g in ll.globals() {
            let own = self.spaces.in_value(g);
            let own = if own != 0 {
                own
            } else {
                self.spaces.in_type(g.global_value_type())
            };
            let space = match g.initializer() {
                Some(init) if own == 0 => self.spaces.in_value(init),
                _ => own,
            };
            self.addrspace(Location::of_global(g), space);
        }

        for alias in ll.aliases() {
            self.indirect_global(alias, Some(alias.aliasee()));
        }
        for ifunc in ll.ifuncs() {
            self.indirect_global(ifunc, ifunc.ifunc_resolver());
        }

        for function in ll.functions() {
            self.function(function);
        }
    }

    /// An alias or ifunc: its own pointer type and its target expression.
    fn indirect_global(&mut self, global: Value<'m>, target: Option<Value<'m>>) {
        let own = self.spaces.in_value(global);
        let space = match target {
            Some(target) if own == 0 => self.spaces.in_value(target),
            _ => own,
        };
        self.addrspace(
            Location {
                source: None,
                scope: Scope::Global(global.name()),
            },
            space,
        );
    }

    fn function(&mut self, f: Func<'m>) {
        // The function's own address space, then its signature (params, return).
        let own = self.spaces.in_value(f.as_value());
        let space = if own != 0 {
            own
        } else {
            self.spaces.in_type(f.fn_type())
        };
        self.addrspace(Location::of_function(f), space);

        for inst in f.instructions() {
            self.instruction(inst);
        }
    }

    fn instruction(&mut self, inst: Value<'m>) {
        let opcode = inst.opcode();
        if let Some((construct, why)) = forbidden_opcode(opcode) {
            let message = format!("gimso does not support `{construct}`: {why}");
            self.push(Location::of_instruction(inst), construct, message);
        }
        match opcode {
            Opcode::LLVMCall | Opcode::LLVMInvoke => {
                self.inline_asm(inst);
                self.intrinsic(inst);
            }
            Opcode::LLVMAlloca if self.inalloca.is_inalloca(inst) => {
                let message = "gimso does not support `alloca inalloca`: it exists only for the \
                               32-bit Windows C++ ABI"
                    .to_owned();
                self.push(Location::of_instruction(inst), "alloca inalloca", message);
            }
            _ => {}
        }
        let space = self.instruction_addrspace(inst, opcode);
        self.addrspace(Location::of_instruction(inst), space);
    }

    /// Rejects a call to an intrinsic that touches memory and has no checked
    /// form.
    fn intrinsic(&mut self, inst: Value<'m>) {
        let Some(callee) = inst.called_value().as_func() else {
            return;
        };
        if let Some(IntrinsicClass::Rejected(why)) = crate::intrinsics::classify(callee) {
            let name = callee.name();
            let message = format!("gimso does not support the intrinsic `{name}`: {why}");
            self.push(Location::of_instruction(inst), "intrinsic", message);
        }
    }

    /// Rejects a call to inline asm unless it is safe ([`crate::asm_safety`]).
    /// `inst` is a `call` or `invoke`.
    fn inline_asm(&mut self, inst: Value<'m>) {
        let callee = inst.called_value();
        if !callee.is_inline_asm() {
            return;
        }
        let (raw, constraints, intel) = callee.inline_asm_parts();
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
    fn instruction_addrspace(&mut self, inst: Value<'m>, opcode: Opcode) -> u32 {
        let space = std::iter::once(inst)
            .chain(inst.operands())
            .map(|v| self.spaces.in_value(v))
            .find(|&a| a != 0);
        if let Some(space) = space {
            return space;
        }
        let named = match opcode {
            Opcode::LLVMAlloca => inst.allocated_type(),
            Opcode::LLVMGetElementPtr => inst.gep_source_type(),
            Opcode::LLVMCall | Opcode::LLVMInvoke | Opcode::LLVMCallBr => inst.called_fn_type(),
            _ => return 0,
        };
        self.spaces.in_type(named)
    }
}

/// Instructions rejected outright, with the reason (spec: "Other
/// Call-Related Instructions").
fn forbidden_opcode(opcode: Opcode) -> Option<(&'static str, &'static str)> {
    const FUNCLET: &str = "it belongs to funclet-based (Windows) exception handling; gimso \
                           supports only Itanium `landingpad`/`resume`";
    Some(match opcode {
        Opcode::LLVMCallBr => (
            "callbr",
            "`asm goto` is inline assembly that can branch, and only an empty, non-branching \
             inline asm is safe",
        ),
        Opcode::LLVMCatchSwitch => ("catchswitch", FUNCLET),
        Opcode::LLVMCatchPad => ("catchpad", FUNCLET),
        Opcode::LLVMCleanupPad => ("cleanuppad", FUNCLET),
        Opcode::LLVMCatchRet => ("catchret", FUNCLET),
        Opcode::LLVMCleanupRet => ("cleanupret", FUNCLET),
        _ => return None,
    })
}
