//! Thread-specific data: `pthread_key_create`, `pthread_key_delete`,
//! `pthread_getspecific`, `pthread_setspecific`, and the destructors run
//! when a thread ends.
//!
//! Keys are indices into a runtime table (`PTHREAD_KEYS_MAX` of them), each
//! with a generation number so that values set under a deleted key are
//! never returned for a key created later in the same slot. Values are
//! pointers with capabilities, kept per thread in runtime storage whose
//! capabilities are collector roots ([`Held`]); destructors are compiled
//! functions called through the call check.

use core::cell::RefCell;

use gimso_abi::FlightPtr;
use parking_lot::Mutex;

use super::slots::Held;
use crate::call::{Callee, CcArg};
use crate::{mem, wrapper};

/// `PTHREAD_KEYS_MAX` (glibc).
const KEYS_MAX: usize = 1024;
/// `PTHREAD_DESTRUCTOR_ITERATIONS` (glibc).
const DESTRUCTOR_ITERATIONS: usize = 4;

struct Key {
    in_use: bool,
    generation: u64,
    destructor: Option<Held>,
}

static KEYS: Mutex<Vec<Key>> = Mutex::new(Vec::new());

struct Value {
    generation: u64,
    value: Held,
}

thread_local! {
    /// The calling thread's values, by key.
    static VALUES: RefCell<Vec<Option<Value>>> = const { RefCell::new(Vec::new()) };
}

/// The generation of key `k` if it is in use.
fn generation(k: u32) -> Option<u64> {
    match KEYS.lock().get(k as usize) {
        Some(key) if key.in_use => Some(key.generation),
        _ => None,
    }
}

fn create(out: FlightPtr, destructor: FlightPtr) -> i32 {
    mem::check_write(out, 4);
    let destructor = (destructor.intval() != 0).then(|| {
        // A destructor that is no function is reported now, at the caller.
        Callee::check(destructor);
        Held::new(destructor)
    });
    let mut keys = KEYS.lock();
    let index = match keys.iter().position(|k| !k.in_use) {
        Some(i) => i,
        None if keys.len() < KEYS_MAX => {
            keys.push(Key {
                in_use: false,
                generation: 0,
                destructor: None,
            });
            keys.len() - 1
        }
        None => return libc::EAGAIN,
    };
    let key = &mut keys[index];
    key.in_use = true;
    key.generation += 1;
    key.destructor = destructor;
    drop(keys);
    mem::write_int(out, &(index as u32).to_ne_bytes());
    0
}

fn delete(k: u32) -> i32 {
    let mut keys = KEYS.lock();
    match keys.get_mut(k as usize) {
        Some(key) if key.in_use => {
            key.in_use = false;
            key.destructor = None;
            0
        }
        _ => libc::EINVAL,
    }
}

fn get(k: u32) -> FlightPtr {
    let Some(generation) = generation(k) else {
        return FlightPtr::NULL;
    };
    VALUES.with(|v| match v.borrow().get(k as usize) {
        Some(Some(val)) if val.generation == generation => val.value.get(),
        _ => FlightPtr::NULL,
    })
}

fn set(k: u32, value: FlightPtr) -> i32 {
    let Some(generation) = generation(k) else {
        return libc::EINVAL;
    };
    VALUES.with(|v| {
        let mut v = v.borrow_mut();
        let i = k as usize;
        if v.len() <= i {
            v.resize_with(i + 1, || None);
        }
        match &mut v[i] {
            Some(val) => {
                val.generation = generation;
                val.value.set(value);
            }
            slot => {
                *slot = Some(Value {
                    generation,
                    value: Held::new(value),
                })
            }
        }
    });
    0
}

/// Takes the calling thread's non-NULL value of key `i` (leaving NULL) if
/// the key is live and has a destructor; returns both.
fn take_for_destructor(i: usize) -> Option<(FlightPtr, FlightPtr)> {
    let (generation, destructor) = {
        let keys = KEYS.lock();
        let key = keys.get(i).filter(|k| k.in_use)?;
        (key.generation, key.destructor.as_ref()?.get())
    };
    VALUES.with(|v| {
        let mut v = v.borrow_mut();
        let slot = v.get_mut(i)?;
        let value = slot
            .as_ref()
            .filter(|val| val.generation == generation)?
            .value
            .get();
        if value.intval() == 0 {
            return None;
        }
        *slot = None;
        Some((destructor, value))
    })
}

/// Runs the destructors of the calling thread's non-NULL values, repeating
/// while destructors set new ones, at most `PTHREAD_DESTRUCTOR_ITERATIONS`
/// rounds (POSIX). The thread must be attached and entered.
pub fn run_destructors() {
    for _ in 0..DESTRUCTOR_ITERATIONS {
        let mut ran = false;
        let n = VALUES.with(|v| v.borrow().len());
        for i in 0..n {
            // The pointers are on this frame from here, and no runtime
            // lock or borrow is held while the destructor runs (it may
            // call any of these functions).
            if let Some((destructor, value)) = take_for_destructor(i) {
                ran = true;
                Callee::check(destructor).call(
                    &[CcArg::Ptr(value)],
                    0,
                    "a thread-specific data destructor",
                );
            }
        }
        if !ran {
            return;
        }
    }
}

/// Drops the calling thread's values (the thread has finished).
pub fn forget_thread_values() {
    let values = VALUES.with(|v| core::mem::take(&mut *v.borrow_mut()));
    drop(values);
}

wrapper! {
    /// `int pthread_key_create(pthread_key_t *key, void (*destructor)(void *))`.
    fn pthread_key_create(key: FlightPtr, destructor: FlightPtr) -> i32 {
        create(key, destructor)
    }
}

wrapper! {
    /// `int pthread_key_delete(pthread_key_t key)`.
    fn pthread_key_delete(key: u32) -> i32 {
        delete(key)
    }
}

wrapper! {
    /// `void *pthread_getspecific(pthread_key_t key)`.
    fn pthread_getspecific(key: u32) -> FlightPtr {
        get(key)
    }
}

wrapper! {
    /// `int pthread_setspecific(pthread_key_t key, const void *value)`.
    fn pthread_setspecific(key: u32, value: FlightPtr) -> i32 {
        set(key, value)
    }
}
