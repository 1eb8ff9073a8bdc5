//! Which inline assembly is safe, and what its pointer results may carry.
//!
//! The spec accepts all safe inline assembly. Real programs use a few
//! register-only idioms that are safe by construction: `cpuid` and `rdtsc`
//! for feature and time probes, a `cmp`/`cmova` choosing one of two
//! pointers (zstd's `ZSTD_selectAddr`), `bswap`, alignment directives and
//! `nop`s, and the empty optimisation barrier. A template is accepted when
//! every statement is, in AT&T syntax,
//!
//! - an alignment directive with one number (`.p2align 5`; a fill value
//!   would put arbitrary bytes in the instruction stream),
//! - a `.byte` list that encodes one of a few known instructions (`xgetbv`
//!   written out for old assemblers), checked as that instruction, or
//! - an instruction from a fixed list of register-only instructions, none of
//!   which reads or writes memory, branches, or moves the stack pointer,
//!   whose operands are registers, the statement's own operands (`$0`,
//!   `${1:k}`) or immediate numbers: nothing in parentheses, no symbol, no
//!   absolute address;
//!
//! and every register it writes, explicitly or implicitly (`cpuid` writes
//! four), is an output of the statement or declared clobbered: a write to a
//! register the compiler expects unchanged could overwrite a value it keeps
//! there, a capability included. Instructions that set flags need `cc`
//! clobbered (clang declares it for every x86 `asm`).
//!
//! Operands: an output in memory, or an input passed indirectly (`*m`: an
//! lvalue the template could write through), is refused in a non-empty
//! template; a direct `m`/`rm`/`g` input is a temporary the compiler makes
//! for the statement, which the template may read. The empty template does
//! nothing, so any operands are fine there.
//!
//! A pointer result gets the capability of a pointer input with the same
//! address (a selection: `cmova` of two pointers, `"+r"(p)` left alone),
//! else of the input it is tied to (the template moved it: pointer
//! arithmetic, checked at every use), else none.

/// One constraint of an inline-asm call, as LLVM spells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Constraint {
    pub kind: Kind,
    /// The codes after the `=`/`~`/`&`/`*` markers (`r`, `{ax}`, `0`, ...).
    pub code: String,
    /// `*`: the operand is a pointer to the memory the constraint names.
    pub indirect: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Output,
    Input,
    Clobber,
}

/// Parses LLVM's constraint string (`"=r,0,~{flags}"`).
pub(crate) fn constraints(s: &str) -> Vec<Constraint> {
    if s.is_empty() {
        return Vec::new();
    }
    s.split(',')
        .map(|c| {
            let (kind, rest) = if let Some(r) = c.strip_prefix('~') {
                (Kind::Clobber, r)
            } else if let Some(r) = c.strip_prefix('=') {
                (Kind::Output, r)
            } else {
                (Kind::Input, c)
            };
            let rest = rest.trim_start_matches('&');
            let (indirect, code) = match rest.strip_prefix('*') {
                Some(r) => (true, r),
                None => (false, rest),
            };
            Constraint {
                kind,
                code: code.to_owned(),
                indirect,
            }
        })
        .collect()
}

/// The operands numbered in the template (`$N`): outputs, then inputs;
/// clobbers are not operands.
fn operands(cons: &[Constraint]) -> Vec<&Constraint> {
    cons.iter().filter(|c| c.kind != Kind::Clobber).collect()
}

/// For each direct output (in order), the call argument tied to it, if one
/// is (`"+r"(p)` is `=r` and an input `0`).
pub(crate) fn tied_inputs(cons: &[Constraint]) -> Vec<Option<usize>> {
    let ops = operands(cons);
    let outputs: Vec<usize> = (0..ops.len())
        .filter(|&i| ops[i].kind == Kind::Output && !ops[i].indirect)
        .collect();
    let mut tied = vec![None; outputs.len()];
    // The call's arguments are the indirect outputs and the inputs, in order.
    let mut arg = 0;
    for op in &ops {
        if op.kind == Kind::Output && !op.indirect {
            continue;
        }
        if op.kind == Kind::Input {
            if let Ok(n) = op.code.parse::<usize>() {
                if let Some(k) = outputs.iter().position(|&o| o == n) {
                    tied[k] = Some(arg);
                }
            }
        }
        arg += 1;
    }
    tied
}

/// `template` (LLVM's syntax) as the C source spells it: `$$` is `$`,
/// `$N` is `%N`, `${N:k}` is `%kN`.
pub(crate) fn gcc_form(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(r) = after.strip_prefix('$') {
            out.push('$');
            rest = r;
        } else if let Some(close) = after.strip_prefix('{').and_then(|r| r.find('}')) {
            let inner = &after[1..1 + close];
            let (n, m) = inner.split_once(':').unwrap_or((inner, ""));
            out.push('%');
            out.push_str(m);
            out.push_str(n);
            rest = &after[close + 2..];
        } else {
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            out.push(if digits > 0 { '%' } else { '$' });
            out.push_str(&after[..digits]);
            rest = &after[digits..];
        }
    }
    out.push_str(rest);
    out
}

/// Why the inline asm with IR template `template` (LLVM's form: `$$` is a
/// dollar sign, `$N` an operand) and constraint string `cons` is unsafe, or
/// `None` when it is safe.
pub(crate) fn refusal(template: &str, cons: &str, intel: bool) -> Option<String> {
    check(template, cons, intel).err()
}

fn check(template: &str, cons: &str, intel: bool) -> Result<(), String> {
    if template.trim().is_empty() {
        return Ok(());
    }
    if intel {
        return Err("it is in Intel syntax, and gimso reads only AT&T syntax".to_owned());
    }
    let cons = constraints(cons);
    for c in &cons {
        let memory = c.code.contains(['m', 'o', 'V', 'g', 'X', 'p']);
        match c.kind {
            Kind::Output if c.indirect || memory => {
                return Err(format!(
                    "its output `{}` is memory, which the template could write unchecked",
                    c.code
                ));
            }
            Kind::Input if c.indirect => {
                return Err(format!(
                    "its operand `*{}` is memory the template could reach unchecked",
                    c.code
                ));
            }
            _ => {}
        }
    }
    let ops = operands(&cons);
    let declared = Declared::new(&cons);
    let mut sets_flags = false;
    for raw in template.split(['\n', ';']) {
        let stmt = raw.trim();
        if stmt.is_empty() {
            continue;
        }
        if stmt.contains(['#', '/', '(', '*']) {
            return Err(format!(
                "`{}` may touch memory or branch (it has `(`, `*`, `#` or `/`)",
                gcc_form(stmt)
            ));
        }
        if let Some(name) = encoded_instruction(stmt) {
            sets_flags |= instruction(name, &ops, &declared)?;
            continue;
        }
        if stmt.starts_with('.') {
            directive(stmt)?;
            continue;
        }
        sets_flags |= instruction(stmt, &ops, &declared)?;
    }
    if sets_flags && !declared.flags {
        return Err("it changes the flags without declaring `cc` clobbered".to_owned());
    }
    Ok(())
}

/// Instructions written as raw bytes for assemblers that predate them
/// (libdeflate's `.byte 0x0f, 0x01, 0xd0` is `xgetbv`), by encoding: such a
/// statement is checked as the instruction it encodes.
const ENCODINGS: &[(&[u8], &str)] = &[
    (&[0x0f, 0x01, 0xd0], "xgetbv"),
    (&[0x0f, 0xa2], "cpuid"),
    (&[0x0f, 0x31], "rdtsc"),
    (&[0x0f, 0x01, 0xf9], "rdtscp"),
    (&[0xf3, 0x90], "pause"),
];

/// The instruction a `.byte` statement encodes, if it is a known one.
fn encoded_instruction(stmt: &str) -> Option<&'static str> {
    let bytes = stmt.strip_prefix(".byte")?;
    let bytes: Option<Vec<u8>> = bytes
        .split(',')
        .map(|b| {
            let b = b.trim();
            match b.strip_prefix("0x").or_else(|| b.strip_prefix("0X")) {
                Some(hex) => u8::from_str_radix(hex, 16).ok(),
                None => b.parse().ok(),
            }
        })
        .collect();
    let bytes = bytes?;
    ENCODINGS
        .iter()
        .find(|(code, _)| *code == bytes.as_slice())
        .map(|(_, name)| *name)
}

/// `.p2align N`, `.align N`, `.balign N`: padding with no fill value (the
/// assembler pads code with no-ops).
fn directive(stmt: &str) -> Result<(), String> {
    let (name, arg) = stmt.split_once(char::is_whitespace).unwrap_or((stmt, ""));
    let number = !arg.trim().is_empty() && arg.trim().bytes().all(|b| b.is_ascii_digit());
    if matches!(name, ".p2align" | ".align" | ".balign") && number {
        Ok(())
    } else {
        Err(format!(
            "the directive `{}` is not an alignment directive with a single number",
            gcc_form(stmt)
        ))
    }
}

/// Registers an asm statement may change: its outputs and clobbers.
struct Declared {
    writable: Vec<&'static str>,
    flags: bool,
}

impl Declared {
    fn new(cons: &[Constraint]) -> Declared {
        let mut writable = Vec::new();
        let mut flags = false;
        for c in cons {
            if c.kind == Kind::Input {
                continue;
            }
            let code = c.code.to_ascii_lowercase();
            if c.kind == Kind::Clobber
                && (code == "{flags}" || code == "{eflags}" || code == "{cc}")
            {
                flags = true;
            }
            if let Some(name) = code.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
                if let Some(f) = family(name) {
                    writable.push(f);
                }
            }
            // GCC's one-letter register constraints (clang spells them
            // `{ax}`; hand-written IR may not).
            if c.kind == Kind::Output {
                let letter = [
                    ("a", "ax"),
                    ("b", "bx"),
                    ("c", "cx"),
                    ("d", "dx"),
                    ("S", "si"),
                    ("D", "di"),
                ];
                if let Some((_, f)) = letter.iter().find(|(l, _)| *l == c.code) {
                    writable.push(f);
                }
            }
        }
        Declared { writable, flags }
    }

    fn may_write(&self, family: &str) -> bool {
        self.writable.contains(&family)
    }
}

/// The general-purpose or vector register `name` (without `%`) belongs to,
/// or `None` for the stack and instruction pointers, segment registers and
/// anything unknown.
fn family(name: &str) -> Option<&'static str> {
    const LEGACY: [(&str, [&str; 5]); 6] = [
        ("ax", ["rax", "eax", "ax", "al", "ah"]),
        ("bx", ["rbx", "ebx", "bx", "bl", "bh"]),
        ("cx", ["rcx", "ecx", "cx", "cl", "ch"]),
        ("dx", ["rdx", "edx", "dx", "dl", "dh"]),
        ("si", ["rsi", "esi", "si", "sil", "si"]),
        ("di", ["rdi", "edi", "di", "dil", "di"]),
    ];
    for (f, names) in LEGACY {
        if names.contains(&name) {
            return Some(f);
        }
    }
    if ["rbp", "ebp", "bp", "bpl"].contains(&name) {
        return Some("bp");
    }
    const NUMBERED: [&str; 8] = ["r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"];
    for r in NUMBERED {
        if let Some(rest) = name.strip_prefix(r) {
            if ["", "d", "w", "b"].contains(&rest) {
                return Some(r);
            }
        }
    }
    const VECTOR: [&str; 32] = [
        "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20",
        "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30",
        "xmm31",
    ];
    let number = ["xmm", "ymm", "zmm"]
        .iter()
        .find_map(|p| name.strip_prefix(p))?;
    VECTOR
        .into_iter()
        .find(|v| v.strip_prefix("xmm") == Some(number))
}

/// What an instruction writes besides flags.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Writes {
    /// No operand (compares, tests, fences, `nop`).
    Nothing,
    /// Its last operand (AT&T: the destination).
    Last,
    /// Its only operand.
    Only,
}

/// The register-only instructions accepted: base mnemonic (no AT&T size
/// suffix), what it writes, the registers it writes implicitly, whether it
/// sets flags, and how many explicit operands it takes (min, max).
#[derive(Clone, Copy)]
struct Op {
    name: &'static str,
    writes: Writes,
    implicit: &'static [&'static str],
    flags: bool,
    arity: (usize, usize),
}

const fn op(
    name: &'static str,
    writes: Writes,
    implicit: &'static [&'static str],
    flags: bool,
    arity: (usize, usize),
) -> Op {
    Op {
        name,
        writes,
        implicit,
        flags,
        arity,
    }
}

const AD: &[&str] = &["ax", "dx"];
const NONE: &[&str] = &[];

#[rustfmt::skip]
const OPS: &[Op] = &[
    op("nop", Writes::Nothing, NONE, false, (0, 0)),
    op("pause", Writes::Nothing, NONE, false, (0, 0)),
    op("lfence", Writes::Nothing, NONE, false, (0, 0)),
    op("mfence", Writes::Nothing, NONE, false, (0, 0)),
    op("sfence", Writes::Nothing, NONE, false, (0, 0)),
    op("cpuid", Writes::Nothing, &["ax", "bx", "cx", "dx"], false, (0, 0)),
    op("rdtsc", Writes::Nothing, AD, false, (0, 0)),
    op("rdtscp", Writes::Nothing, &["ax", "cx", "dx"], false, (0, 0)),
    op("xgetbv", Writes::Nothing, AD, false, (0, 0)),
    op("cqto", Writes::Nothing, &["dx"], false, (0, 0)),
    op("cqo", Writes::Nothing, &["dx"], false, (0, 0)),
    op("cltd", Writes::Nothing, &["dx"], false, (0, 0)),
    op("cdq", Writes::Nothing, &["dx"], false, (0, 0)),
    op("cltq", Writes::Nothing, &["ax"], false, (0, 0)),
    op("cdqe", Writes::Nothing, &["ax"], false, (0, 0)),
    op("cwtl", Writes::Nothing, &["ax"], false, (0, 0)),
    op("cmp", Writes::Nothing, NONE, true, (2, 2)),
    op("test", Writes::Nothing, NONE, true, (2, 2)),
    op("bt", Writes::Nothing, NONE, true, (2, 2)),
    op("mov", Writes::Last, NONE, false, (2, 2)),
    op("movabs", Writes::Last, NONE, false, (2, 2)),
    op("movzb", Writes::Last, NONE, false, (2, 2)),
    op("movzw", Writes::Last, NONE, false, (2, 2)),
    op("movsb", Writes::Last, NONE, false, (2, 2)),
    op("movsw", Writes::Last, NONE, false, (2, 2)),
    op("movsl", Writes::Last, NONE, false, (2, 2)),
    op("add", Writes::Last, NONE, true, (2, 2)),
    op("sub", Writes::Last, NONE, true, (2, 2)),
    op("adc", Writes::Last, NONE, true, (2, 2)),
    op("sbb", Writes::Last, NONE, true, (2, 2)),
    op("and", Writes::Last, NONE, true, (2, 2)),
    op("or", Writes::Last, NONE, true, (2, 2)),
    op("xor", Writes::Last, NONE, true, (2, 2)),
    op("shl", Writes::Last, NONE, true, (1, 2)),
    op("sal", Writes::Last, NONE, true, (1, 2)),
    op("shr", Writes::Last, NONE, true, (1, 2)),
    op("sar", Writes::Last, NONE, true, (1, 2)),
    op("rol", Writes::Last, NONE, true, (1, 2)),
    op("ror", Writes::Last, NONE, true, (1, 2)),
    op("shld", Writes::Last, NONE, true, (2, 3)),
    op("shrd", Writes::Last, NONE, true, (2, 3)),
    op("imul", Writes::Last, NONE, true, (1, 3)),
    op("bsf", Writes::Last, NONE, true, (2, 2)),
    op("bsr", Writes::Last, NONE, true, (2, 2)),
    op("tzcnt", Writes::Last, NONE, true, (2, 2)),
    op("lzcnt", Writes::Last, NONE, true, (2, 2)),
    op("popcnt", Writes::Last, NONE, true, (2, 2)),
    op("btc", Writes::Last, NONE, true, (2, 2)),
    op("btr", Writes::Last, NONE, true, (2, 2)),
    op("bts", Writes::Last, NONE, true, (2, 2)),
    op("crc32", Writes::Last, NONE, true, (2, 2)),
    op("pext", Writes::Last, NONE, false, (3, 3)),
    op("pdep", Writes::Last, NONE, false, (3, 3)),
    op("andn", Writes::Last, NONE, true, (3, 3)),
    op("bextr", Writes::Last, NONE, true, (3, 3)),
    op("bzhi", Writes::Last, NONE, true, (3, 3)),
    op("rorx", Writes::Last, NONE, false, (3, 3)),
    op("sarx", Writes::Last, NONE, false, (3, 3)),
    op("shlx", Writes::Last, NONE, false, (3, 3)),
    op("shrx", Writes::Last, NONE, false, (3, 3)),
    op("blsi", Writes::Last, NONE, true, (2, 2)),
    op("blsr", Writes::Last, NONE, true, (2, 2)),
    op("blsmsk", Writes::Last, NONE, true, (2, 2)),
    op("not", Writes::Only, NONE, false, (1, 1)),
    op("neg", Writes::Only, NONE, true, (1, 1)),
    op("inc", Writes::Only, NONE, true, (1, 1)),
    op("dec", Writes::Only, NONE, true, (1, 1)),
    op("bswap", Writes::Only, NONE, false, (1, 1)),
    op("rdrand", Writes::Only, NONE, true, (1, 1)),
    op("rdseed", Writes::Only, NONE, true, (1, 1)),
    op("mul", Writes::Nothing, AD, true, (1, 1)),
    op("div", Writes::Nothing, AD, true, (1, 1)),
    op("idiv", Writes::Nothing, AD, true, (1, 1)),
];

/// Condition codes of `cmovCC` and `setCC`.
const CONDITIONS: &[&str] = &[
    "a", "ae", "b", "be", "c", "e", "g", "ge", "l", "le", "na", "nae", "nb", "nbe", "nc", "ne",
    "ng", "nge", "nl", "nle", "no", "np", "ns", "nz", "o", "p", "pe", "po", "s", "z",
];

/// `m` without its AT&T size suffix (`addl` → `add`), or "" if it has none.
fn strip(m: &str) -> &str {
    m.strip_suffix(['b', 'w', 'l', 'q']).unwrap_or("")
}

/// The accepted instruction `mnemonic` names, with an AT&T size suffix
/// (`addl`, `movq`) allowed.
fn lookup(mnemonic: &str) -> Option<Op> {
    let find = |m: &str| OPS.iter().find(|o| o.name == m).copied();
    if let Some(o) = find(mnemonic).or_else(|| find(strip(mnemonic))) {
        return Some(o);
    }
    // `cmovCC` and `setCC`, the condition maybe followed by a size suffix.
    let conditional = |prefix: &str| {
        mnemonic
            .strip_prefix(prefix)
            .is_some_and(|c| CONDITIONS.contains(&c) || CONDITIONS.contains(&strip(c)))
    };
    if conditional("cmov") {
        return Some(op("cmov", Writes::Last, NONE, false, (2, 2)));
    }
    if conditional("set") {
        return Some(op("set", Writes::Only, NONE, false, (1, 1)));
    }
    None
}

/// An operand of an accepted instruction.
enum Operand {
    Register(&'static str),
    /// `$N` / `${N:mod}`: the statement's operand N.
    Numbered(usize),
    Immediate,
}

fn operand(text: &str) -> Result<Operand, String> {
    let t = text.trim();
    if let Some(reg) = t.strip_prefix('%') {
        return family(&reg.to_ascii_lowercase())
            .map(Operand::Register)
            .ok_or_else(|| format!("it uses the register `%{reg}`"));
    }
    if let Some(imm) = t.strip_prefix("$$") {
        let digits = imm.strip_prefix('-').unwrap_or(imm);
        let number = match digits.strip_prefix("0x") {
            Some(hex) => !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()),
            None => !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()),
        };
        return if number {
            Ok(Operand::Immediate)
        } else {
            Err(format!(
                "its immediate `${}` is not a number",
                gcc_form(imm)
            ))
        };
    }
    if let Some(rest) = t.strip_prefix('$') {
        let inner = rest
            .strip_prefix('{')
            .and_then(|r| r.strip_suffix('}'))
            .unwrap_or(rest);
        let (num, modifier) = inner.split_once(':').unwrap_or((inner, ""));
        // Register-size and plain modifiers; `a`, `c`, `P` and the like
        // print addresses or bare constants (memory references).
        let plain = ["", "b", "h", "w", "k", "q", "x", "t", "g"].contains(&modifier);
        if let (Ok(n), true) = (num.parse::<usize>(), plain) {
            return Ok(Operand::Numbered(n));
        }
    }
    Err(format!(
        "its operand `{}` is not a register, an operand or a number",
        gcc_form(t)
    ))
}

/// Checks one instruction; returns whether it sets flags.
fn instruction(raw: &str, ops: &[&Constraint], declared: &Declared) -> Result<bool, String> {
    let stmt = &gcc_form(raw);
    let (mnemonic, rest) = raw.split_once(char::is_whitespace).unwrap_or((stmt, ""));
    let mnemonic = mnemonic.to_ascii_lowercase();
    let Some(op) = lookup(&mnemonic) else {
        return Err(format!(
            "`{mnemonic}` is not one of the register-only instructions gimso accepts"
        ));
    };
    let rest = rest.trim();
    let parsed = if rest.is_empty() {
        Vec::new()
    } else {
        rest.split(',')
            .map(operand)
            .collect::<Result<Vec<_>, _>>()?
    };
    if parsed.len() < op.arity.0 || parsed.len() > op.arity.1 {
        return Err(format!("`{stmt}` has an unexpected number of operands"));
    }
    let written = match op.writes {
        Writes::Nothing => None,
        Writes::Last | Writes::Only => parsed.last(),
    };
    if let Some(w) = written {
        match w {
            Operand::Register(f) if !declared.may_write(f) => {
                return Err(format!(
                    "`{stmt}` writes a register the statement does not declare as an output or \
                     clobber"
                ));
            }
            Operand::Numbered(n) => {
                let output = ops.get(*n).is_some_and(|c| {
                    c.kind == Kind::Output
                        || (c.kind == Kind::Input && c.code.parse::<usize>().is_ok())
                });
                if !output {
                    return Err(format!("`{stmt}` writes its input operand %{n}"));
                }
            }
            Operand::Immediate => return Err(format!("`{stmt}` writes an immediate")),
            Operand::Register(_) => {}
        }
    }
    // `imul`/`mul`/`div`/`idiv` with one operand (rdx:rax), and every
    // implicit write, must be declared too.
    let one_operand_multiply = op.name == "imul" && parsed.len() == 1;
    let implicit: &[&str] = if one_operand_multiply {
        AD
    } else {
        op.implicit
    };
    if let Some(f) = implicit.iter().find(|f| !declared.may_write(f)) {
        return Err(format!(
            "`{stmt}` writes %{}, which the statement does not declare as an output or clobber",
            if f.len() == 2 {
                format!("e{f}")
            } else {
                (*f).to_owned()
            }
        ));
    }
    Ok(op.flags)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLAGS: &str = "~{dirflag},~{fpsr},~{flags}";

    fn ok(t: &str, c: &str) {
        assert_eq!(refusal(t, c, false), None, "{t} / {c}");
    }

    fn refused(t: &str, c: &str, why: &str) {
        let r = refusal(t, c, false);
        assert!(
            r.as_deref().is_some_and(|r| r.contains(why)),
            "{t} / {c}: {r:?} should mention {why}"
        );
    }

    #[test]
    fn register_only_idioms_are_accepted() {
        ok("", "=*m,*m");
        ok("", "=r,0");
        ok(
            "cpuid",
            &format!("={{ax}},={{bx}},={{cx}},={{dx}},{{ax}},{{cx}},{FLAGS}"),
        );
        ok(
            "cpuid",
            &format!("={{ax}},{{ax}},~{{ebx}},~{{ecx}},~{{edx}},{FLAGS}"),
        );
        ok("bswap $0", &format!("=r,0,{FLAGS}"));
        ok(
            "cmp $1, $2\n\tcmova $3, $0",
            &format!("=r,r,rm,r,0,{FLAGS}"),
        );
        ok(".p2align 5\n\tnop", FLAGS);
        ok("add $$5, ${0:k}", &format!("=r,0,{FLAGS}"));
        ok("movl %eax, $0", &format!("=r,~{{eax}},{FLAGS}"));
        ok("rdtsc", &format!("={{ax}},={{dx}},{FLAGS}"));
        ok("xorl %eax, %eax; pause", &format!("~{{eax}},{FLAGS}"));
        ok("shrq $$3, $0\n setnz ${1:b}", &format!("=r,=r,0,{FLAGS}"));
        ok("movq %xmm1, $0", &format!("=r,{FLAGS}"));
        ok("movq $1, %xmm2", &format!("=r,r,~{{ymm2}},{FLAGS}"));
        ok("mov $1, %r9d", &format!("=r,r,~{{r9}},{FLAGS}"));
        // Raw encodings of known instructions (libdeflate's xgetbv).
        ok(
            ".byte 0x0f, 0x01, 0xd0",
            &format!("={{dx}},={{ax}},{{cx}},{FLAGS}"),
        );
        ok(
            ".byte 15, 162",
            &format!("={{ax}},={{bx}},={{cx}},={{dx}},{FLAGS}"),
        );
    }

    #[test]
    fn memory_control_flow_and_undeclared_writes_are_refused() {
        refused("movl $$0, ($0)", &format!("r,{FLAGS}"), "may touch memory");
        refused("movl $$0, $0", &format!("=*m,{FLAGS}"), "output");
        refused("incl $0", &format!("*m,{FLAGS}"), "operand `*m`");
        refused("syscall", FLAGS, "`syscall` is not one");
        refused("call foo", FLAGS, "`call` is not one");
        refused("jmp 1f", FLAGS, "`jmp` is not one");
        refused("1: nop", FLAGS, "`1:` is not one");
        refused("rep stosb", FLAGS, "`rep` is not one");
        refused("movsb", FLAGS, "unexpected number of operands");
        refused(
            "lock incl $0",
            &format!("=r,0,{FLAGS}"),
            "`lock` is not one",
        );
        refused("mov %eax, %ebx", FLAGS, "does not declare");
        refused(
            "movq $0, %xmm2",
            &format!("r,~{{xmm3}},{FLAGS}"),
            "does not declare",
        );
        refused(
            "mov $$1, %r9d",
            &format!("~{{r8}},{FLAGS}"),
            "does not declare",
        );
        refused("addq $$8, %rsp", &format!("~{{rsp}},{FLAGS}"), "%rsp");
        refused("movq %rip, $0", &format!("=r,{FLAGS}"), "%rip");
        refused("cpuid", &format!("={{ax}},{{ax}},{FLAGS}"), "%ebx");
        refused("rdtsc", &format!("={{ax}},{FLAGS}"), "%edx");
        ok("addl $1, $0", &format!("=r,r,{FLAGS}"));
        refused(
            "addl $$1, $1",
            &format!("=r,r,{FLAGS}"),
            "`addl $1, %1` writes its input operand %1",
        );
        refused("mov 0x1000, $0", &format!("=r,{FLAGS}"), "not a register");
        refused("mov sym, $0", &format!("=r,{FLAGS}"), "not a register");
        refused("mov ${1:c}, $0", &format!("=r,i,{FLAGS}"), "not a register");
        refused(".byte 0x0f, 0x05", FLAGS, "directive");
        refused(
            ".byte 0x0f, 0x01, 0xd0",
            &format!("={{ax}},{{cx}},{FLAGS}"),
            "%edx",
        );
        refused(".p2align 4, 0xcc", FLAGS, "directive");
        refused("addl $$1, $0", "=r,0", "flags");
        ok("nop", "");
    }

    #[test]
    fn templates_are_shown_as_written_in_c() {
        assert_eq!(gcc_form("add $$5, ${0:k}"), "add $5, %k0");
        assert_eq!(
            gcc_form("cmp $1, $2\n\tcmova $3, $0"),
            "cmp %1, %2\n\tcmova %3, %0"
        );
        assert_eq!(gcc_form("movl $$0, ($0)"), "movl $0, (%0)");
        assert_eq!(gcc_form("a $ b"), "a $ b");
    }

    #[test]
    fn intel_syntax_is_refused() {
        assert!(refusal("nop", "", true).is_some());
    }

    #[test]
    fn outputs_are_tied_to_their_arguments() {
        let c = constraints("=r,r,rm,r,0,~{flags}");
        assert_eq!(tied_inputs(&c), vec![Some(3)]);
        let c = constraints("={ax},={bx},{ax},1");
        assert_eq!(tied_inputs(&c), vec![None, Some(1)]);
        let c = constraints("=*m,=r,*m,1");
        assert_eq!(tied_inputs(&c), vec![Some(2)]);
    }
}
