//! Which `alloca`s may stay plain stack slots.
//!
//! Under gimso an `alloca` is a zero-initialised capability object on the
//! GC heap, because its address may be stored, passed, compared or indexed
//! out of bounds. An alloca whose address never leaves the function and
//! whose every access is provably inside it needs no capability: it stays a
//! (zeroed) stack slot and its accesses need no checks. That holds when
//! every use of the alloca is, directly or through `getelementptr` with
//! constant indices,
//!
//! - the address operand of a non-volatile, non-atomic `load` or `store` of
//!   a type without pointers, entirely inside the allocation, or
//! - an `llvm.lifetime.*` marker.
//!
//! Anything else (the address stored, passed to a call, cast, compared,
//! selected, indexed with a variable, a dynamic size) makes it a heap
//! object. At `-O2`, `mem2reg` and SROA have already removed most allocas of
//! the first kind; what remains is mostly the second.
//!
//! Two more shapes stay in the frame as [`AllocaHome::StackCaps`]: a slot
//! beside the alloca holds the capabilities of the pointers at rest in it.
//!
//! - `ptr` loads and stores at word-aligned offsets inside it, and constant
//!   `llvm.memset`s inside it (which clear the capabilities they cover);
//! - `i64` loads and stores at word-aligned offsets: the capability slot
//!   keeps what such a word may carry (a union, a `memcpy` turned into an
//!   integer copy), as shadow storage would;
//! - its address passed to calls in blocks that never return (every path
//!   from them ends in `unreachable`: an error raised with `longjmp`, an
//!   `abort`), with no other use reachable after such a call. There the
//!   translation copies the slot (values and capabilities) into a heap
//!   object the first time, and the calls get that object. Lua's
//!   `luaH_resize` keeps its 56-byte `Table newt` this way: it escapes only
//!   to `freehash` on the allocation-failure path before `luaD_throw`, and
//!   was a GC allocation on every table resize;
//! - its address passed to a call after which no other call can run on
//!   any path that returns (an out-parameter filled by the last call:
//!   Lua's `lua_tointegerx` passes `&res` to `luaV_tointeger` on its slow
//!   path only). That call gets a fresh heap copy and the slot gets the
//!   copy's contents back when it returns; the allocation is made on the
//!   path that needs it, not in the prologue. A pointer the callee keeps
//!   goes on referring to the copy, which outlives the frame as any heap
//!   object would; no later call of this frame can use it before the
//!   frame's own reads.
//!
//! Both are refused in functions that call `setjmp` (a `longjmp` back
//! would skip the copy back, or bring back a path that never returns).
//!
//! An alloca that fits none of these but whose address only goes to
//! accesses (any index: they are checked), the memory intrinsics and
//! arguments that LLVM proved `nocapture` (the callee keeps no copy of the
//! pointer beyond the call: `sqlite3GetVarint32`'s out-parameter, a
//! buffer handed to `snprintf`) is an [`AllocaHome::Frame`] object: a real
//! capability object, header and inline shadow included, in the frame.
//! Its capability can outlive the frame only in stale words nobody reads
//! as a live pointer (a dead stack slot, a CC buffer, which the collector
//! takes for non-heap and skips), never in memory the program can load
//! from, because no callee captured it; it costs no GC allocation.

use std::collections::{HashMap, HashSet};

use crate::llvm::{Block, DataLayout, Opcode, Ordering, Type, TypeKind, Value};

/// Where an alloca lives after translation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AllocaHome {
    /// A plain zeroed stack slot: no capability, no checks.
    Stack,
    /// A zeroed stack slot with a capability slot beside it (pointers at
    /// rest); `escapes`: its address is passed to calls that get a heap
    /// copy (on never-returning paths, or copied back after the call).
    StackCaps {
        /// Whether some call takes its address.
        escapes: bool,
    },
    /// A capability object in the frame (header, payload, inline shadow):
    /// its address goes only to accesses and `nocapture` arguments.
    Frame,
    /// A capability object on the GC heap, and why.
    Heap(&'static str),
}

/// Largest alloca made a frame object (its shadow doubles it in the frame;
/// bigger ones stay on the heap so deep recursion keeps its stack use).
pub const FRAME_OBJECT_MAX: u64 = 1024;

/// Classifies every alloca of `function`.
pub fn classify_allocas<'m>(
    layout: &DataLayout<'m>,
    function: crate::llvm::Func<'m>,
) -> HashMap<Value<'m>, AllocaHome> {
    let cfg = Paths::new(function);
    let mut out = HashMap::new();
    for block in function.blocks() {
        for inst in block.instructions() {
            if inst.opcode() == Opcode::LLVMAlloca {
                out.insert(inst, home(layout, inst, &cfg));
            }
        }
    }
    out
}

/// Two facts about the paths through one function's blocks, over the
/// successor relation every analysis shares ([`crate::llvm::Block::successors`]).
pub(crate) struct Paths<'m> {
    /// Blocks every path from which ends in `unreachable`.
    doomed: HashSet<Block<'m>>,
    /// Blocks holding a call (other than an `llvm.*` intrinsic) or invoke.
    calling: HashSet<Block<'m>>,
}

impl<'m> Paths<'m> {
    pub(crate) fn new(function: crate::llvm::Func<'m>) -> Paths<'m> {
        let blocks = function.blocks();
        let succs: Vec<(Block<'m>, Vec<Block<'m>>)> =
            blocks.iter().map(|&b| (b, b.successors())).collect();
        let calling = blocks
            .iter()
            .copied()
            .filter(|b| b.instructions().into_iter().any(is_real_call))
            .collect();
        // Least fixpoint: a block is doomed when it ends in `unreachable`
        // or all its successors are doomed (a loop with no way out but
        // doomed blocks stays undoomed: that only costs an allocation).
        let mut doomed: HashSet<Block<'m>> = blocks
            .iter()
            .copied()
            .filter(|b| {
                b.terminator()
                    .is_some_and(|t| t.opcode() == Opcode::LLVMUnreachable)
            })
            .collect();
        loop {
            let before = doomed.len();
            for (b, s) in &succs {
                if !s.is_empty() && s.iter().all(|x| doomed.contains(x)) {
                    doomed.insert(*b);
                }
            }
            if doomed.len() == before {
                break;
            }
        }
        Paths { doomed, calling }
    }

    /// Whether every path from `block` ends in `unreachable`.
    pub(crate) fn is_doomed(&self, block: Block<'m>) -> bool {
        self.doomed.contains(&block)
    }
}

/// Blocks reachable from the successors of `from`.
fn reachable_after(from: Block<'_>) -> HashSet<Block<'_>> {
    let mut seen = HashSet::new();
    let mut work = from.successors();
    while let Some(b) = work.pop() {
        if seen.insert(b) {
            work.extend(b.successors());
        }
    }
    seen
}

/// What the uses of one alloca need, beyond plain accesses.
struct Needs<'m> {
    /// A `ptr` is loaded from or stored in it.
    caps: bool,
    /// Calls in doomed blocks that take its address.
    escapes: Vec<Value<'m>>,
    /// Other calls that take its address (copied in and out around them).
    syncs: Vec<Value<'m>>,
    /// Every other use (accesses, memsets).
    others: Vec<Value<'m>>,
}

fn home<'m>(layout: &DataLayout<'m>, alloca: Value<'m>, cfg: &Paths<'m>) -> AllocaHome {
    let (ty, count) = (alloca.allocated_type(), alloca.operand(0));
    let Some(n) = const_int(count) else {
        return AllocaHome::Heap("its size is not a constant");
    };
    let size = size(layout, ty).saturating_mul(n);
    let mut needs = Needs {
        caps: false,
        escapes: Vec::new(),
        syncs: Vec::new(),
        others: Vec::new(),
    };
    if let Err(why) = uses_ok(layout, alloca, 0, size, cfg, &mut needs) {
        return frame_or_heap(alloca, size, why);
    }
    if let Err(why) = nothing_after_escapes(&needs) {
        return frame_or_heap(alloca, size, why);
    }
    if let Err(why) = no_call_after_syncs(&needs, cfg) {
        return frame_or_heap(alloca, size, why);
    }
    let escapes = !needs.escapes.is_empty() || !needs.syncs.is_empty();
    if !needs.syncs.is_empty() {
        // A frame object costs no allocation on any path; the copy
        // around a returning call costs one on its path. (Copies on
        // never-returning paths are not worth a checked frame object.)
        if can_be_frame(alloca, size) {
            return AllocaHome::Frame;
        }
    }
    if needs.caps || escapes {
        AllocaHome::StackCaps { escapes }
    } else {
        AllocaHome::Stack
    }
}

/// The size of `ty` (0 for an unsized type, which no access fits).
fn size<'m>(layout: &DataLayout<'m>, ty: Type<'m>) -> u64 {
    if ty.is_sized() { layout.size_of(ty) } else { 0 }
}

/// Whether every use of `value`, which points `offset` bytes into an
/// allocation of `size` bytes, keeps the allocation private and in
/// bounds (or lets it out only on doomed paths); what they need is
/// added to `needs`.
fn uses_ok<'m>(
    layout: &DataLayout<'m>,
    value: Value<'m>,
    offset: u64,
    size: u64,
    cfg: &Paths<'m>,
    needs: &mut Needs<'m>,
) -> Result<(), &'static str> {
    let users = users(value).ok_or("its address is used by a constant")?;
    for user in users {
        match user.opcode() {
            Opcode::LLVMLoad => {
                plain_access(user)?;
                needs.caps |= access_ok(layout, user.type_of(), offset, size)?;
                needs.caps |= int_word(user.type_of(), offset)?;
                needs.others.push(user);
            }
            Opcode::LLVMStore => {
                let (stored, address) = (user.operand(0), user.operand(1));
                if stored == value || address != value {
                    return Err("its address is stored to memory");
                }
                plain_access(user)?;
                needs.caps |= access_ok(layout, stored.type_of(), offset, size)?;
                needs.caps |= int_word(stored.type_of(), offset)?;
                needs.others.push(user);
            }
            Opcode::LLVMGetElementPtr => {
                let extra = gep_offset(layout, user).ok_or("it is indexed with a variable")?;
                let inner = offset.checked_add(extra).ok_or("an index overflows")?;
                uses_ok(layout, user, inner, size, cfg, needs)?;
            }
            Opcode::LLVMCall if is_lifetime_marker(user) => {}
            Opcode::LLVMCall if is_memset_inside(user, value, offset, size) => {
                needs.others.push(user);
            }
            Opcode::LLVMCall if escapes_to_doom(user, value, cfg) => {
                needs.escapes.push(user);
            }
            Opcode::LLVMCall if direct_argument(user, value) => {
                needs.syncs.push(user);
            }
            _ => return Err("its address escapes (passed, cast, compared or merged)"),
        }
    }
    Ok(())
}

/// A load or store of `ty` at `offset` must fit, and hold no pointer
/// unless it is one `ptr` at a word-aligned offset; returns whether it
/// is one.
fn access_ok<'m>(
    layout: &DataLayout<'m>,
    ty: Type<'m>,
    offset: u64,
    size: u64,
) -> Result<bool, &'static str> {
    // One `ptr`, or a vector of them (the SLP vectoriser pairs
    // neighbouring pointer fields).
    let word = ty.is_ptr() || (ty.is_vector() && ty.element_type().is_ptr());
    if word && offset % 8 != 0 {
        return Err("a pointer in it is not word-aligned");
    }
    if !word && has_pointer(ty) {
        return Err("an aggregate with pointers is loaded or stored whole");
    }
    let bytes = if ty.is_sized() {
        layout.store_size_of(ty)
    } else {
        u64::MAX
    };
    match offset.checked_add(bytes) {
        Some(end) if end <= size => Ok(word),
        _ => Err("an access may fall outside it"),
    }
}

/// An `i64` may be a pointer's `ptrtoint` carrying a capability (a
/// union, a `memcpy` turned into an integer copy): at a word-aligned
/// offset the capability slot keeps it, as shadow storage would
/// (returns true); anywhere else it carries none, as in shadow storage.
/// Wider integers, integer vectors and aggregates loaded whole are
/// refused: the translation reads and writes capabilities one `i64`
/// at a time.
fn int_word(ty: Type<'_>, offset: u64) -> Result<bool, &'static str> {
    match ty.kind() {
        TypeKind::LLVMIntegerTypeKind if ty.int_width() == 64 => Ok(offset % 8 == 0),
        TypeKind::LLVMIntegerTypeKind if ty.int_width() > 64 => Err("a wide integer is kept in it"),
        TypeKind::LLVMVectorTypeKind if ty.element_type().is_int() => {
            Err("an integer vector is kept in it")
        }
        TypeKind::LLVMArrayTypeKind | TypeKind::LLVMStructTypeKind => {
            Err("an aggregate is loaded or stored whole")
        }
        _ => Ok(false),
    }
}

/// The constant byte offset a GEP adds, if all its indices are constant.
fn gep_offset<'m>(layout: &DataLayout<'m>, gep: Value<'m>) -> Option<u64> {
    let mut ty = gep.gep_source_type();
    let first = const_int(gep.get_operand(1)?)?;
    let mut offset = size(layout, ty).checked_mul(first)?;
    for i in 2..gep.num_operands() {
        let index = const_int(gep.operand(i))?;
        match ty.kind() {
            TypeKind::LLVMStructTypeKind => {
                let field = *ty.struct_fields().get(usize::try_from(index).ok()?)?;
                offset = offset.checked_add(layout.field_offset(ty, index as u32))?;
                ty = field;
            }
            TypeKind::LLVMArrayTypeKind => {
                ty = ty.element_type();
                offset = offset.checked_add(size(layout, ty).checked_mul(index)?)?;
            }
            _ => return None,
        }
    }
    Some(offset)
}

/// Loads and stores must be neither volatile nor atomic to stay unchecked.
fn plain_access(inst: Value<'_>) -> Result<(), &'static str> {
    if inst.is_volatile() || inst.ordering() != Ordering::LLVMAtomicOrderingNotAtomic {
        return Err("it is accessed atomically or volatilely");
    }
    Ok(())
}

/// The value of a constant integer that fits in a non-negative i64.
fn const_int(v: Value<'_>) -> Option<u64> {
    u64::try_from(v.const_int_svalue()?).ok()
}

/// No use of the alloca may be reachable after a call that gets its heap
/// copy: it would read the frame's stale slot.
fn nothing_after_escapes(needs: &Needs<'_>) -> Result<(), &'static str> {
    for &call in &needs.escapes {
        let block = call.block();
        let after = reachable_after(block);
        for &other in &needs.others {
            let ob = other.block();
            let later_here = ob == block && comes_after(other, call);
            if later_here || after.contains(&ob) {
                return Err("it is used after its address escapes");
            }
        }
    }
    Ok(())
}

/// A call that gets a copy of the local (copied back when it returns) must
/// be the last one on every path from it (never-returning ones included):
/// a later call could write through a pointer the first one kept, and the
/// frame's slot would miss it. (A call in a loop reaches itself.)
fn no_call_after_syncs(needs: &Needs<'_>, cfg: &Paths<'_>) -> Result<(), &'static str> {
    for &call in &needs.syncs {
        let block = call.block();
        if std::iter::successors(call.next_instruction(), |i| i.next_instruction())
            .any(is_real_call)
        {
            return Err("its address escapes (passed, cast, compared or merged)");
        }
        let after = reachable_after(block);
        if after.iter().any(|b| cfg.calling.contains(b)) {
            return Err("its address escapes (passed, cast, compared or merged)");
        }
        no_fresh_address_after(call, block, &after)?;
    }
    Ok(())
}

/// After a call that got a copy, the frame must not access memory through
/// a pointer it obtained after that call (loaded, returned by the call):
/// the callee may have handed out the copy's address, and an access there
/// would miss the frame's slot. Pointers the frame had before the call
/// cannot point at a copy made by it.
fn no_fresh_address_after<'m>(
    call: Value<'m>,
    block: Block<'m>,
    after: &HashSet<Block<'m>>,
) -> Result<(), &'static str> {
    let fresh = |v: Value<'m>| -> bool {
        let base = strip_geps(v);
        if !base.is_instruction() {
            return false;
        }
        let b = base.block();
        after.contains(&b) || (b == block && (base == call || comes_after(base, call)))
    };
    let check = |inst: Value<'m>| -> Result<(), &'static str> {
        let addresses: Vec<Value<'m>> = match inst.opcode() {
            Opcode::LLVMLoad | Opcode::LLVMAtomicRMW | Opcode::LLVMAtomicCmpXchg => {
                vec![inst.operand(0)]
            }
            Opcode::LLVMStore => vec![inst.operand(1)],
            Opcode::LLVMCall => {
                let n = inst.num_operands().max(1) - 1;
                (0..n).map(|i| inst.operand(i)).collect()
            }
            _ => Vec::new(),
        };
        if addresses.into_iter().any(fresh) {
            return Err(
                "it is passed to a call, then memory is reached through a pointer obtained after it",
            );
        }
        Ok(())
    };
    for i in std::iter::successors(call.next_instruction(), |i| i.next_instruction()) {
        check(i)?;
    }
    for &b in after {
        for i in b.instructions() {
            check(i)?;
        }
    }
    Ok(())
}

/// `v` with its `getelementptr`s (constant or not) stripped.
fn strip_geps(mut v: Value<'_>) -> Value<'_> {
    while v.is_gep_inst() {
        v = v.operand(0);
    }
    v
}

/// A call or invoke of anything but an `llvm.*` intrinsic.
fn is_real_call(inst: Value<'_>) -> bool {
    match inst.opcode() {
        Opcode::LLVMInvoke | Opcode::LLVMCallBr => true,
        Opcode::LLVMCall => !callee_name(inst).starts_with("llvm."),
        _ => false,
    }
}

/// [`AllocaHome::Frame`] when the alloca can be a frame object, else the
/// heap for `why`.
fn frame_or_heap(alloca: Value<'_>, size: u64, why: &'static str) -> AllocaHome {
    if can_be_frame(alloca, size) {
        AllocaHome::Frame
    } else {
        AllocaHome::Heap(why)
    }
}

/// Small enough, at most 16-aligned, and every use keeps its capability
/// from outliving the calls it goes to.
fn can_be_frame(alloca: Value<'_>, size: u64) -> bool {
    let align = match alloca.alignment() {
        0 => 16,
        a => a,
    };
    size <= FRAME_OBJECT_MAX && align <= 16 && frame_uses_ok(alloca, 0)
}

/// Whether every use of `value` (the alloca or an address derived from it)
/// keeps its capability from outliving the call it is passed to: accesses
/// (as the address), address arithmetic (a bounds guard's launder
/// included, [`crate::guards`]), memory intrinsics, lifetime and `va_*`
/// markers, and direct calls whose parameter is `nocapture`.
/// `depth` bounds the walk through chains of address arithmetic.
fn frame_uses_ok(value: Value<'_>, depth: u32) -> bool {
    if depth > 16 {
        return false;
    }
    let Some(users) = users(value) else {
        return false;
    };
    users.into_iter().all(|user| match user.opcode() {
        Opcode::LLVMLoad => true,
        Opcode::LLVMStore => user.operand(0) != value && user.operand(1) == value,
        Opcode::LLVMGetElementPtr => user.operand(0) == value && frame_uses_ok(user, depth + 1),
        Opcode::LLVMCall if crate::guards::is_launder(user, value) => {
            frame_uses_ok(user, depth + 1)
        }
        Opcode::LLVMCall => nocapture_argument(user, value),
        _ => false,
    })
}

/// The users of `value`, or None when one is not an instruction (a
/// constant expression takes the address).
fn users(value: Value<'_>) -> Option<Vec<Value<'_>>> {
    let users = value.users();
    users.iter().all(|u| u.is_instruction()).then_some(users)
}

/// Whether every place `value` appears in `call` is a parameter the callee
/// cannot capture: a memory intrinsic or marker, or a direct call whose
/// parameter (not a variadic one) is `nocapture` and not `returned` (and,
/// for a declaration, whose result holds no pointer).
fn nocapture_argument(call: Value<'_>, value: Value<'_>) -> bool {
    use crate::llvm::AttrAt;
    let name = callee_name(call);
    if name.is_empty() || name.ends_with("setjmp") {
        return false;
    }
    if name.starts_with("llvm.") {
        return [
            "llvm.memset.",
            "llvm.memcpy.",
            "llvm.memmove.",
            "llvm.lifetime.",
            "llvm.va_start",
            "llvm.va_end",
            "llvm.va_copy",
        ]
        .iter()
        .any(|p| name.starts_with(p));
    }
    let callee = call.called_value().func();
    let params = callee.params().len() as u32;
    // A library function's attributes are LLVM's knowledge of its C
    // semantics, not an inference; one returning a pointer may return
    // the argument itself (`getcwd`), so only non-pointer results.
    if callee.count_blocks() == 0 && has_pointer(call.type_of()) {
        return false;
    }
    let mut found = false;
    for i in 0..call.num_arg_operands() {
        if call.operand(i) != value {
            continue;
        }
        found = true;
        let has = |kind: &str| {
            call.call_has_attr(AttrAt::Param(i), kind) || callee.has_attr(AttrAt::Param(i), kind)
        };
        if i >= params || !has("nocapture") || has("returned") {
            return false;
        }
    }
    found
}

/// A plain call of a function (not an intrinsic, not `setjmp`) taking
/// `value` as an argument, never as the callee.
fn direct_argument(call: Value<'_>, value: Value<'_>) -> bool {
    let name = callee_name(call);
    let n = call.num_operands();
    let callee_is_value = n > 0 && call.operand(n - 1) == value;
    !name.is_empty() && !name.starts_with("llvm.") && !name.ends_with("setjmp") && !callee_is_value
}

/// Whether `inst` comes after `call` in their common block.
fn comes_after(inst: Value<'_>, call: Value<'_>) -> bool {
    std::iter::successors(call.next_instruction(), |i| i.next_instruction()).any(|i| i == inst)
}

/// A non-volatile `llvm.memset` with a constant length, its destination
/// `value` (at `offset` into the alloca) and wholly inside the alloca.
fn is_memset_inside(call: Value<'_>, value: Value<'_>, offset: u64, size: u64) -> bool {
    if !callee_name(call).starts_with("llvm.memset.") {
        return false;
    }
    if call.operand(0) != value || call.operand(1) == value {
        return false;
    }
    let (Some(len), Some(0)) = (const_int(call.operand(2)), const_int(call.operand(3))) else {
        return false;
    };
    offset.checked_add(len).is_some_and(|end| end <= size)
}

/// A [`direct_argument`] call in a block that never returns.
fn escapes_to_doom<'m>(call: Value<'m>, value: Value<'m>, cfg: &Paths<'m>) -> bool {
    cfg.doomed.contains(&call.block()) && direct_argument(call, value)
}

/// The name of a call's callee, empty for an indirect call.
fn callee_name(call: Value<'_>) -> String {
    let callee = call.called_value();
    if callee.is_function() {
        callee.name()
    } else {
        String::new()
    }
}

fn is_lifetime_marker(call: Value<'_>) -> bool {
    callee_name(call).starts_with("llvm.lifetime.")
}

fn has_pointer(ty: Type<'_>) -> bool {
    match ty.kind() {
        TypeKind::LLVMPointerTypeKind => true,
        TypeKind::LLVMArrayTypeKind | TypeKind::LLVMVectorTypeKind => {
            has_pointer(ty.element_type())
        }
        TypeKind::LLVMStructTypeKind => ty.struct_fields().into_iter().any(has_pointer),
        _ => false,
    }
}
