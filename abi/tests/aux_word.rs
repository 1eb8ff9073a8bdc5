//! The aux word's packing: flags in the low 16 bits, the signed distance
//! from `lower` to the shadow storage in the high 48.

use gimso_abi::{
    AUX_DELTA_SHIFT, AUX_FLAGS_MASK, BARRIER_EPOCH_MASK, BARRIER_EPOCH_SHIFT, FLAG_GLOBAL,
    FLAG_READONLY, FLAG_SHADOW, SpecialKind, aux_delta, aux_shadow, aux_with_delta,
    aux_with_zero_delta,
};

const LOWER: usize = 0x7f12_3456_7890;

#[test]
fn distances_of_either_sign_round_trip_and_keep_the_flags() {
    let flags =
        FLAG_GLOBAL | FLAG_READONLY | SpecialKind::File.to_aux() | (7 << BARRIER_EPOCH_SHIFT);
    for shadow in [LOWER + 4096, LOWER - 0x10_0000, 0x1_0000, 0x7fff_ffff_f000] {
        let delta = shadow.wrapping_sub(LOWER) as isize;
        let aux = aux_with_delta(flags, delta);
        assert_eq!(aux_delta(aux), delta);
        assert_eq!(aux_shadow(aux, LOWER), Some(shadow));
        assert_eq!(
            aux & AUX_FLAGS_MASK,
            flags | FLAG_SHADOW,
            "flags kept, shadow flagged"
        );
        assert_eq!(SpecialKind::from_aux(aux), Some(SpecialKind::File));
        assert_eq!((aux & BARRIER_EPOCH_MASK) >> BARRIER_EPOCH_SHIFT, 7);
        // What compiled code computes: the shadow word of the slot at
        // `lower + 24` is `lower + 24 + (aux >> 16)`, arithmetic shift.
        let word = (LOWER + 24).wrapping_add_signed((aux as i64 >> AUX_DELTA_SHIFT) as isize);
        assert_eq!(word, shadow + 24);
    }
}

#[test]
fn a_zero_distance_means_no_shadow() {
    assert_eq!(aux_shadow(AUX_FLAGS_MASK & !FLAG_SHADOW, LOWER), None);
    assert_eq!(aux_shadow(0, LOWER), None);
    // Replacing the distance keeps the flags; clearing it clears the
    // shadow flag too.
    let aux = aux_with_delta(FLAG_GLOBAL, 64);
    assert_eq!(aux_with_delta(aux, 0), FLAG_GLOBAL);
}

#[test]
fn a_distance_to_zero_memory_is_no_shadow_but_still_read_by_compiled_code() {
    let zero = LOWER + (1 << 40);
    let delta = zero.wrapping_sub(LOWER) as isize;
    let aux = aux_with_zero_delta(FLAG_GLOBAL | FLAG_SHADOW, delta);
    assert_eq!(aux & FLAG_SHADOW, 0, "the shadow flag is cleared");
    assert_eq!(aux & AUX_FLAGS_MASK, FLAG_GLOBAL);
    assert_eq!(aux_shadow(aux, LOWER), None);
    // A pointer load still finds its word from the distance alone.
    let word = (LOWER + 24).wrapping_add_signed((aux as i64 >> AUX_DELTA_SHIFT) as isize);
    assert_eq!(word, zero + 24);
    // Installing real shadow storage later flags it.
    let real = aux_with_delta(aux, 4096);
    assert_eq!(aux_shadow(real, LOWER), Some(LOWER + 4096));
}
