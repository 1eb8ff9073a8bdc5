//! Pointers at rest: intval in the payload, capability in shadow storage,
//! the aux allocation created lazily, pointer/integer aliasing per spec.

mod common;

use common::*;
use gimso_shadow::ObjRef;
use gimso_shadow::pointer::{atomic_load_ptr, atomic_store_ptr, cmpxchg_ptr, xchg_ptr};

#[test]
fn store_then_load_round_trips() {
    let mut l = local();
    let obj = alloc(&mut l, 32);
    let t = alloc(&mut l, 100).offset(40);
    store(&mut l, obj.offset(16), t);
    assert_eq!(load(obj.offset(16)), t);
    // Loading a pointer where none was stored yields the null capability.
    assert_eq!(load(obj.offset(8)).lower(), 0);
    // Storing a pointer is visible to integer loads (ptrtoint through memory).
    assert_eq!(read_u64(obj.offset(16)), t.intval() as u64);
}

#[test]
fn small_objects_carry_their_shadow_inline() {
    let mut l = local();
    let obj = alloc(&mut l, 48);
    // SAFETY: obj.lower is a fresh capability.
    let o = unsafe { ObjRef::from_lower(obj.lower()) };
    let aux = o.aux_words().expect("inline shadow from birth") as usize;
    assert_eq!(aux, o.upper(), "the shadow sits right after the payload");
    assert!(gimso_shadow::alloc::is_inline_aux(aux, o.upper()));
    let t = alloc(&mut l, 16);
    store(&mut l, obj.offset(8), t);
    assert_eq!(
        o.aux_words().unwrap() as usize,
        aux,
        "no separate aux was made"
    );
    assert_eq!(load(obj.offset(8)), t);
    // The shadow is not part of the payload: bounds stop before it.
    assert_eq!(o.upper() - o.lower(), 48);
}

#[test]
fn aux_is_created_lazily() {
    let mut l = local();
    let obj = alloc(&mut l, gimso_shadow::alloc::INLINE_AUX_MAX + 8);
    // SAFETY: obj.lower is a fresh capability.
    let o = unsafe { ObjRef::from_lower(obj.lower()) };
    assert!(o.aux_words().is_none());
    store(&mut l, obj, gimso_abi::FlightPtr::from_int(1234));
    assert!(o.aux_words().is_none(), "a null capability needs no shadow");
    assert_eq!(load(obj).intval(), 1234);
    store(&mut l, obj.offset(8), obj);
    assert!(o.aux_words().is_some());
}

#[test]
fn integer_store_over_pointer_keeps_capability_with_new_intval() {
    let mut l = local();
    let obj = alloc(&mut l, 16);
    let t = alloc(&mut l, 16);
    store(&mut l, obj, t);
    write_u64(obj, 0xdead_beef);
    let p = load(obj);
    assert_eq!(p.intval(), 0xdead_beef);
    assert_eq!(p.lower(), t.lower());
}

#[test]
fn atomic_mode_keeps_pointer_atomic_against_integer_stores() {
    // The spec's sequence: atomic store V, integer store W, pointer load
    // sees V atomically, integer load sees W.
    let mut l = local();
    let obj = alloc(&mut l, 16);
    let v = alloc(&mut l, 16);
    atomic_store_ptr(&mut l, obj, v, HERE);
    write_u64(obj, 77);
    assert_eq!(atomic_load_ptr(obj, HERE), v);
    assert_eq!(read_u64(obj), 77);
    // A non-atomic load combines the payload intval with the box's capability.
    let p = load(obj);
    assert_eq!((p.intval(), p.lower()), (77, v.lower()));
}

#[test]
fn cmpxchg_and_xchg() {
    let mut l = local();
    let obj = alloc(&mut l, 16);
    let a = alloc(&mut l, 16);
    let b = alloc(&mut l, 16);
    store(&mut l, obj, a);
    let r = cmpxchg_ptr(&mut l, obj, b.intval(), b, false, HERE);
    assert_eq!((r.old, r.success), (a, 0));
    assert_eq!(atomic_load_ptr(obj, HERE), a);
    let r = cmpxchg_ptr(&mut l, obj, a.intval(), b, false, HERE);
    assert_eq!((r.old, r.success), (a, 1));
    assert_eq!(atomic_load_ptr(obj, HERE), b);
    assert_eq!(load(obj), b);
    assert_eq!(xchg_ptr(&mut l, obj, a, HERE), b);
    assert_eq!(atomic_load_ptr(obj, HERE), a);
}
