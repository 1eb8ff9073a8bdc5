//! Words moved as floating-point values or vector lanes become integer
//! accesses.
//!
//! clang types `union { int32_t i; double d; void *p; }` as `{ double }`
//! and passes it as an `i64`. Without instcombine (`-O0`, where the driver
//! runs only SROA and mem2reg), a pointer stored in such a union is read
//! back as `load double` + `bitcast double to i64`, and a union parameter
//! is put back with `bitcast i64 to double` + `store double`. A `double`
//! carries no capability, so the pointer would lose its own on the way.
//!
//! Here:
//! - a non-atomic `store` of `bitcast i64 %x to double` stores `%x` itself
//!   ([`integer_stores`]);
//! - every web of non-atomic `double` loads, phis and selects that reaches
//!   a `bitcast` to `i64` is rebuilt as `i64`s, with a cast back for a use
//!   that needs the `double` ([`integer_webs`]): at `-O0` a lone load cast
//!   to `i64`, at `-O2` SROA's `double` loads merged by phis and selects,
//!   cast only where the pointer is used;
//! - a non-atomic `double` load whose every use is the value of a
//!   non-atomic store is a word copy (a union assigned through its `double`
//!   member at `-O0`): it loads and stores an `i64` instead, so the word
//!   keeps its capability as the `memcpy` it stands for would
//!   ([`integer_copies`]);
//! - a store of a vector of 2 to 4 `i64`s built from words (the SLP
//!   vectoriser pairs a union word with its tag, or copies a pair through
//!   a vector load) is split into word stores, each of the scalar it was
//!   built from ([`scalar_word_stores`]).
//!
//! The bytes moved are the same; the word now travels as an integer, which
//! carries its capability (see the `inttoptr` module).

use std::collections::{HashMap, HashSet};

use crate::llvm::{Block, Func, Ll, Opcode, Ordering, Type, TypeKind, Value};

/// Stores of `bitcast i64 %x to double` store `%x` itself (see the
/// module documentation); returns how many changed.
pub fn integer_stores(f: Func<'_>) -> usize {
    let mut changed = 0;
    for block in f.blocks() {
        for inst in block.instructions() {
            if inst.opcode() != Opcode::LLVMStore || !plain(inst) {
                continue;
            }
            let v = inst.operand(0);
            if v.inst_opcode() != Some(Opcode::LLVMBitCast) || !float_word(v.type_of()) {
                continue;
            }
            let src = v.operand(0);
            let src_ty = src.type_of();
            if src_ty.is_int() && src_ty.int_width() == 64 {
                inst.set_operand(0, src);
                changed += 1;
            }
        }
    }
    changed
}

/// `double` loads only copied to memory load and store an `i64` (see the
/// module documentation); returns how many loads changed. A `double` that
/// is computed with is a number and keeps its type.
pub fn integer_copies<'m>(ll: &Ll<'m>, f: Func<'m>) -> usize {
    let i64_ty = ll.i64();
    let mut changed = 0;
    for block in f.blocks() {
        for load in block.instructions() {
            if load.opcode() != Opcode::LLVMLoad
                || !plain(load)
                || load.is_volatile()
                || !float_word(load.type_of())
            {
                continue;
            }
            let stores = load.distinct_users();
            let copies = !stores.is_empty()
                && stores.iter().all(|&s| {
                    s.inst_opcode() == Some(Opcode::LLVMStore)
                        && plain(s)
                        && !s.is_volatile()
                        && s.operand(0) == load
                        && s.operand(1) != load
                });
            if !copies {
                continue;
            }
            ll.position_before(load);
            let word = ll.load(i64_ty, load.operand(0), load.alignment());
            word.set_debug_loc(load.debug_loc());
            for s in stores {
                s.set_operand(0, word);
            }
            // SAFETY: its only users, the stores, now store `word`, and
            // `load` is not used again (the walk moves past it).
            unsafe { load.erase() };
            changed += 1;
        }
    }
    changed
}

/// Whether load or store `inst` is not atomic.
fn plain(inst: Value<'_>) -> bool {
    inst.ordering() == Ordering::LLVMAtomicOrderingNotAtomic
}

/// Whether `ty` is a 64-bit floating-point scalar (what clang gives a union
/// whose widest member is a `double`).
fn float_word(ty: Type<'_>) -> bool {
    ty.kind() == TypeKind::LLVMDoubleTypeKind
}

/// Webs of `double` phis, selects and loads that some `bitcast` turns into
/// an `i64`: after SROA a union `{ double }` holding a pointer (QuickJS's
/// `JSValue` on the interpreter's paths) is loaded, merged by phis and
/// only then cast to the integer that becomes a pointer. Each such web is
/// rebuilt as `i64` phis, selects and loads (so the inference follows the
/// word and its capability); a use that needs the `double` gets a
/// `bitcast` back. Returns how many values were rebuilt.
pub fn integer_webs<'m>(ll: &Ll<'m>, f: Func<'m>) -> usize {
    let i64_ty = ll.i64();
    let mut seeds = Vec::new();
    for block in f.blocks() {
        for inst in block.instructions() {
            if inst.opcode() == Opcode::LLVMBitCast && inst.type_of() == i64_ty {
                let src = inst.operand(0);
                if web_member(src) {
                    seeds.push(src);
                }
            }
        }
    }
    if seeds.is_empty() {
        return 0;
    }
    let web = grow_web(seeds);
    rebuild_web(ll, &web)
}

/// Whether `v` can be rebuilt as an `i64`: a `double` phi, select or
/// non-atomic load.
fn web_member(v: Value<'_>) -> bool {
    if !v.is_instruction() || !float_word(v.type_of()) {
        return false;
    }
    match v.opcode() {
        Opcode::LLVMPHI | Opcode::LLVMSelect => true,
        Opcode::LLVMLoad => plain(v),
        _ => false,
    }
}

/// The members connected to `seeds` through phi and select operands and
/// users, in a deterministic order.
fn grow_web(seeds: Vec<Value<'_>>) -> Vec<Value<'_>> {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let mut work = seeds;
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        order.push(v);
        for o in data_operands(v) {
            if web_member(o) {
                work.push(o);
            }
        }
        for user in v.users() {
            let merges = matches!(
                user.inst_opcode(),
                Some(Opcode::LLVMPHI | Opcode::LLVMSelect)
            );
            if merges && web_member(user) {
                work.push(user);
            }
        }
    }
    order
}

/// A phi's incoming values, a select's two data operands, nothing for a load.
fn data_operands(v: Value<'_>) -> Vec<Value<'_>> {
    match v.opcode() {
        Opcode::LLVMPHI => v.incoming().into_iter().map(|(x, _)| x).collect(),
        Opcode::LLVMSelect => vec![v.operand(1), v.operand(2)],
        _ => Vec::new(),
    }
}

/// Rebuilds `web` as `i64`s (see [`integer_webs`]); returns its size.
/// New instructions are made next to the ones they replace, and old
/// members are erased only after every use of them is gone.
fn rebuild_web<'m>(ll: &Ll<'m>, web: &[Value<'m>]) -> usize {
    let members: HashSet<_> = web.iter().copied().collect();
    let mut new = rebuild_phis_and_loads(ll, web);
    rebuild_selects(ll, web, &members, &mut new);
    fill_phis(ll, web, &new);
    rewire_users(ll, web, &members, &new);
    // The old members now only use each other.
    for &v in web {
        v.replace_all_uses_with(ll.poison(v.type_of()));
    }
    for &v in web {
        // SAFETY: every use of `v` was replaced above and `web` is not
        // used after this loop.
        unsafe { v.erase() };
    }
    web.len()
}

/// The `i64` phis and loads replacing the web's phis and loads (selects
/// and phi inputs refer to them, so they come first).
fn rebuild_phis_and_loads<'m>(ll: &Ll<'m>, web: &[Value<'m>]) -> HashMap<Value<'m>, Value<'m>> {
    let i64_ty = ll.i64();
    let mut new = HashMap::new();
    for &v in web {
        ll.position_before(v);
        let n = match v.opcode() {
            Opcode::LLVMPHI => ll.phi(i64_ty),
            Opcode::LLVMLoad => {
                let l = ll.load(i64_ty, v.operand(0), v.alignment());
                l.set_volatile(v.is_volatile());
                l
            }
            _ => continue,
        };
        n.set_debug_loc(v.debug_loc());
        new.insert(v, n);
    }
    new
}

/// The `i64` selects replacing the web's selects, each made once its
/// member operands exist (no cycles without a phi, which exists already).
fn rebuild_selects<'m>(
    ll: &Ll<'m>,
    web: &[Value<'m>],
    members: &HashSet<Value<'m>>,
    new: &mut HashMap<Value<'m>, Value<'m>>,
) {
    let mut pending: Vec<_> = web
        .iter()
        .copied()
        .filter(|v| v.opcode() == Opcode::LLVMSelect)
        .collect();
    while !pending.is_empty() {
        let before = pending.len();
        pending.retain(|&v| {
            let (a, b) = (v.operand(1), v.operand(2));
            let ready = |x| !members.contains(&x) || new.contains_key(&x);
            if !(ready(a) && ready(b)) {
                return true;
            }
            ll.position_before(v);
            let ia = as_int(ll, a, new);
            let ib = as_int(ll, b, new);
            let s = ll.select(v.operand(0), ia, ib);
            s.set_debug_loc(v.debug_loc());
            new.insert(v, s);
            false
        });
        if pending.len() == before {
            // Cannot happen in valid SSA; leave the web alone.
            break;
        }
    }
}

/// Gives the new phis their inputs: a leaf is cast at the end of its
/// incoming block, once per block (a switch may list the same block twice).
fn fill_phis<'m>(ll: &Ll<'m>, web: &[Value<'m>], new: &HashMap<Value<'m>, Value<'m>>) {
    let mut cast_in: HashMap<(Value<'m>, Block<'m>), Value<'m>> = HashMap::new();
    for &v in web {
        if v.opcode() != Opcode::LLVMPHI {
            continue;
        }
        let n = new[&v];
        for (x, b) in v.incoming() {
            let val = if let Some(&m) = new.get(&x) {
                m
            } else if let Some(&c) = cast_in.get(&(x, b)) {
                c
            } else {
                ll.position_before(b.terminator().expect("a phi's incoming block ends"));
                let c = as_int(ll, x, new);
                cast_in.insert((x, b), c);
                c
            };
            n.add_incoming(val, b);
        }
    }
}

/// Uses of the old members outside the web: integer casts take the new
/// word, stores store it, anything else gets the double back.
fn rewire_users<'m>(
    ll: &Ll<'m>,
    web: &[Value<'m>],
    members: &HashSet<Value<'m>>,
    new: &HashMap<Value<'m>, Value<'m>>,
) {
    let i64_ty = ll.i64();
    for &v in web {
        let n = new[&v];
        let mut back = None;
        for user in v.distinct_users() {
            if members.contains(&user) {
                continue;
            }
            match user.opcode() {
                Opcode::LLVMBitCast if user.type_of() == i64_ty => {
                    user.replace_all_uses_with(n);
                    // SAFETY: its uses now take `n`; a cast has one
                    // operand, so no later user list holds it.
                    unsafe { user.erase() };
                }
                Opcode::LLVMStore if user.operand(0) == v && plain(user) => {
                    user.set_operand(0, n);
                }
                _ => {
                    let d = *back.get_or_insert_with(|| {
                        if n.opcode() == Opcode::LLVMPHI {
                            ll.position_before(first_non_phi(n.block()));
                        } else {
                            ll.position_before(v);
                        }
                        ll.bitcast(n, v.type_of())
                    });
                    for k in 0..user.num_operands() {
                        if user.get_operand(k) == Some(v) {
                            user.set_operand(k, d);
                        }
                    }
                }
            }
        }
    }
}

/// `x` as an `i64` at the builder's position: a member's rebuilt word,
/// the source of a `bitcast` from `i64`, or a new `bitcast`.
fn as_int<'m>(ll: &Ll<'m>, x: Value<'m>, new: &HashMap<Value<'m>, Value<'m>>) -> Value<'m> {
    if let Some(&n) = new.get(&x) {
        return n;
    }
    let i64_ty = ll.i64();
    if x.inst_opcode() == Some(Opcode::LLVMBitCast) && x.operand(0).type_of() == i64_ty {
        return x.operand(0);
    }
    ll.bitcast(x, i64_ty)
}

/// The first instruction of `block` that is not a phi.
///
/// # Panics
/// If `block` has no terminator.
fn first_non_phi(block: Block<'_>) -> Value<'_> {
    std::iter::successors(block.first_instruction(), |i| i.next_instruction())
        .find(|i| i.opcode() != Opcode::LLVMPHI)
        .expect("a block without a terminator")
}

/// Stores of `<N x i64>` vectors made of words (the SLP vectoriser pairs a
/// union word and its tag, QuickJS's `JSValue` copies): stored lane by lane
/// as `i64`s, each taken from the `insertelement` or the (also split)
/// vector load that made it, so each word brings its capability. Returns
/// how many stores were split.
pub fn scalar_word_stores<'m>(ll: &Ll<'m>, f: Func<'m>) -> usize {
    let i64_ty = ll.i64();
    let mut changed = 0;
    for block in f.blocks() {
        for store in block.instructions() {
            if store.opcode() != Opcode::LLVMStore || !plain(store) || store.is_volatile() {
                continue;
            }
            let v = store.operand(0);
            let Some(n) = word_lanes(v.type_of(), i64_ty) else {
                continue;
            };
            let mut lanes = vec![None; n as usize];
            resolve_lanes(ll, v, &mut lanes);
            if !lanes.iter().flatten().any(|l| l.is_instruction()) {
                continue;
            }
            ll.position_before(store);
            let ptr = store.operand(1);
            let align = store.alignment();
            for (k, lane) in lanes.iter().enumerate() {
                let val = match lane {
                    Some(l) => *l,
                    None => ll.extract_element(v, ll.i32c(k as u64)),
                };
                let at = ll.gep_i8(ptr, ll.i64c(8 * k as u64));
                let s = ll.store(val, at, if k == 0 { align } else { align.min(8) });
                s.set_debug_loc(store.debug_loc());
            }
            // SAFETY: the split stores replace it; a store has no uses and
            // the walk moves past it.
            unsafe { store.erase() };
            if v.inst_opcode() == Some(Opcode::LLVMLoad) && !v.has_uses() {
                // SAFETY: unused, and it dominates `store`: the walk is past
                // it, or has not yet listed the block it is in.
                unsafe { v.erase() };
            }
            changed += 1;
        }
    }
    changed
}

/// The lane count of `ty` if it is a vector of 2 to 4 `i64`s.
fn word_lanes<'m>(ty: Type<'m>, i64_ty: Type<'m>) -> Option<u32> {
    if ty.kind() != TypeKind::LLVMVectorTypeKind || ty.element_type() != i64_ty {
        return None;
    }
    let n = ty.vector_len();
    (2..=4).contains(&n).then_some(n)
}

/// Fills `lanes` with the scalar each lane of vector `v` was made from:
/// the operands of an `insertelement` chain with constant indices, or word
/// loads made next to a plain vector load.
fn resolve_lanes<'m>(ll: &Ll<'m>, v: Value<'m>, lanes: &mut [Option<Value<'m>>]) {
    let mut vec = v;
    while vec.inst_opcode() == Some(Opcode::LLVMInsertElement) {
        let Some(i) = vec.operand(2).const_int_value() else {
            return;
        };
        let i = i as usize;
        if i < lanes.len() && lanes[i].is_none() {
            lanes[i] = Some(vec.operand(1));
        }
        vec = vec.operand(0);
    }
    if vec == v && v.inst_opcode() == Some(Opcode::LLVMLoad) && plain(v) && !v.is_volatile() {
        ll.position_before(v);
        let ptr = v.operand(0);
        let align = v.alignment();
        let i64_ty = ll.i64();
        for (k, lane) in lanes.iter_mut().enumerate() {
            let at = ll.gep_i8(ptr, ll.i64c(8 * k as u64));
            let l = ll.load(i64_ty, at, if k == 0 { align } else { align.min(8) });
            l.set_debug_loc(v.debug_loc());
            *lane = Some(l);
        }
    }
}
