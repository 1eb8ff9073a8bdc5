//! Objects without shadow words: their aux word leads into the runtime's
//! read-only zero region (where compiled code reads null capabilities
//! without testing anything), until the first pointer store makes real
//! shadow words.

mod common;

use common::*;
use gimso_abi::{FLAG_SHADOW, WORD_SIZE, aux_delta};
use gimso_shadow::ObjRef;

#[test]
fn an_object_without_shadow_words_leads_into_zero_memory() {
    let mut l = local();
    let size = gimso_shadow::alloc::INLINE_AUX_MAX * 4;
    let obj = alloc(&mut l, size);
    // SAFETY: obj.lower is a fresh capability.
    let o = unsafe { ObjRef::from_lower(obj.lower()) };
    let aux = o.aux_word();
    assert_eq!(aux & FLAG_SHADOW, 0, "no shadow words yet");
    assert!(o.aux_words().is_none());
    let zero = o.lower().wrapping_add_signed(aux_delta(aux));
    assert!(gimso_shadow::zero::contains(zero));
    assert!(gimso_shadow::zero::contains(zero + size - 1));
    // What a compiled pointer load reads there, for every word: null.
    for w in 0..size / WORD_SIZE {
        // SAFETY: the zero region is mapped readable and covers `size`
        // bytes from `zero`.
        let cap = unsafe { ((zero + w * WORD_SIZE) as *const u64).read_volatile() };
        assert_eq!(cap, 0);
    }
}

#[test]
fn the_first_pointer_store_replaces_the_zero_distance_with_shadow_words() {
    let mut l = local();
    let obj = alloc(&mut l, 512);
    let target = alloc(&mut l, 32);
    store(&mut l, obj.offset(64), target);
    // SAFETY: obj.lower is a fresh capability.
    let o = unsafe { ObjRef::from_lower(obj.lower()) };
    let aux = o.aux_word();
    assert_ne!(aux & FLAG_SHADOW, 0);
    let shadow = o.aux_words().expect("shadow words made") as usize;
    assert!(!gimso_shadow::zero::contains(shadow));
    assert_eq!(shadow, o.lower().wrapping_add_signed(aux_delta(aux)));
    assert_eq!(load(obj.offset(64)), target);
    assert_eq!(load(obj.offset(72)).lower(), 0);
}

#[test]
fn specials_keep_a_zero_distance() {
    let mut l = local();
    let f = gimso_shadow::alloc_special(&mut l, gimso_abi::SpecialKind::Function, 24, 0);
    assert_eq!(aux_delta(f.aux_word()), 0);
    assert_eq!(f.aux_word() & FLAG_SHADOW, 0);
}
