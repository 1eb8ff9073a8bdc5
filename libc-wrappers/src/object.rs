//! Static capability objects the wrappers export: function objects
//! (`gimso.obj.NAME` of every wrapper) and global data objects holding one
//! pointer (`gimso.obj.stdout`, ...), laid out exactly as compiled code's
//! own globals (`include/gimso.h`, "Compiled code").
//!
//! Both are built entirely at compile time: the header words hold
//! addresses of the static itself, which the linker fills in with
//! relocations, so the objects are valid before any code runs (global
//! constructors included) and need no start-up step.

use core::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, Ordering};

use gimso_abi::{
    EntryFn, FLAG_GLOBAL, FlightPtr, HEADER_SIZE, SpecialKind, WORD_SIZE, aux_with_delta,
};

/// The capability object of a function: `{upper, aux}` header followed by
/// the payload `{entry, body, type hash}` (`gimso_abi::FUNCTION_PAYLOAD_SIZE`);
/// wrappers have generic entries only, so no body (0) and no hash (0).
/// `upper == lower` (no data access passes), `aux = FLAG_GLOBAL | FUNCTION`.
#[repr(C, align(16))]
#[derive(Debug)]
pub struct FunctionObject {
    upper: AtomicPtr<u8>,
    aux: AtomicU64,
    entry: AtomicPtr<u8>,
    body: AtomicPtr<u8>,
    type_hash: AtomicU64,
}

const _: () = assert!(
    core::mem::size_of::<FunctionObject>() >= HEADER_SIZE + gimso_abi::FUNCTION_PAYLOAD_SIZE
        && core::mem::offset_of!(FunctionObject, body) - HEADER_SIZE
            == gimso_abi::FUNCTION_BODY_OFFSET
        && core::mem::offset_of!(FunctionObject, type_hash) - HEADER_SIZE
            == gimso_abi::FUNCTION_TYPE_HASH_OFFSET
);

impl FunctionObject {
    /// The object for `entry`, to be stored at `this` (the static being
    /// initialised: `static F: FunctionObject = FunctionObject::new(&raw const F, e);`).
    pub const fn new(this: *const FunctionObject, entry: EntryFn) -> FunctionObject {
        FunctionObject {
            upper: AtomicPtr::new(this.cast::<u8>().cast_mut().wrapping_add(HEADER_SIZE)),
            aux: AtomicU64::new(FLAG_GLOBAL | SpecialKind::Function.to_aux()),
            entry: AtomicPtr::new(entry as *mut u8),
            body: AtomicPtr::new(core::ptr::null_mut()),
            type_hash: AtomicU64::new(0),
        }
    }

    /// The capability (`lower`): the payload address.
    pub fn lower(&self) -> usize {
        &self.entry as *const AtomicPtr<u8> as usize
    }

    /// The entry address held in the payload.
    pub fn entry(&self) -> usize {
        self.entry.load(Ordering::Relaxed) as usize
    }

    /// The C function pointer to this function: `(entry, lower)`.
    pub fn pointer(&self) -> FlightPtr {
        // SAFETY: a function object of the runtime: its header sits just
        // below `lower`.
        unsafe { FlightPtr::new(self.entry(), self.lower()) }
    }
}

/// A global variable holding one pointer (`FILE *stdout`): header, the
/// one-word payload (the pointer's intval) and, right after it, the
/// payload's shadow word (its capability), which makes the shadow storage
/// "inline" (shadow at `upper`) so the collector needs no separate aux
/// object.
#[repr(C, align(16))]
#[derive(Debug)]
pub struct PointerGlobal {
    upper: AtomicPtr<u8>,
    /// `FLAG_GLOBAL` and the distance to the shadow word (one word).
    aux: AtomicU64,
    payload: AtomicPtr<u8>,
    shadow: AtomicPtr<u8>,
}

impl PointerGlobal {
    /// A global at `this` initialised to the pointer `(value, value)` (a
    /// pointer to the start of the object whose payload is `value`).
    pub const fn new(this: *const PointerGlobal, value: *const u8) -> PointerGlobal {
        let shadow = this
            .cast::<u8>()
            .cast_mut()
            .wrapping_add(HEADER_SIZE + WORD_SIZE);
        PointerGlobal {
            upper: AtomicPtr::new(shadow),
            aux: AtomicU64::new(aux_with_delta(FLAG_GLOBAL, WORD_SIZE as isize)),
            payload: AtomicPtr::new(value.cast_mut()),
            shadow: AtomicPtr::new(value.cast_mut()),
        }
    }

    /// The capability (`lower`) of the global.
    pub fn lower(&self) -> usize {
        &self.payload as *const AtomicPtr<u8> as usize
    }

    /// A pointer to the variable (what `&stdout` is in C).
    pub fn pointer(&self) -> FlightPtr {
        // SAFETY: a global object of the runtime: its header sits just
        // below `lower`.
        unsafe { FlightPtr::from_lower(self.lower()) }
    }
}

/// A global `int` variable of the C library (`optind`, ...): header and a
/// 4-byte payload the program reads and writes through its capability.
#[repr(C, align(16))]
#[derive(Debug)]
pub struct IntGlobal {
    upper: AtomicPtr<u8>,
    aux: AtomicU64,
    value: core::sync::atomic::AtomicI32,
    /// Keeps the object a whole number of words.
    _pad: u32,
    /// The payload's shadow word (always null: no pointer fits in 4
    /// bytes), inline so that the aux word leads to readable zeroes.
    _shadow: AtomicU64,
}

impl IntGlobal {
    /// A global at `this` holding `value`.
    pub const fn new(this: *const IntGlobal, value: i32) -> IntGlobal {
        IntGlobal {
            upper: AtomicPtr::new(this.cast::<u8>().cast_mut().wrapping_add(HEADER_SIZE + 4)),
            aux: AtomicU64::new(aux_with_delta(FLAG_GLOBAL, WORD_SIZE as isize)),
            value: core::sync::atomic::AtomicI32::new(value),
            _pad: 0,
            _shadow: AtomicU64::new(0),
        }
    }

    /// The current value (the program may have stored it).
    pub fn get(&self) -> i32 {
        self.value.load(Ordering::Relaxed)
    }

    /// Stores a value.
    pub fn set(&self, v: i32) {
        self.value.store(v, Ordering::Relaxed);
    }
}

/// A global array of `N` `unsigned int`s of the C runtime (`__cpu_model`):
/// header and a payload of `4 * N` bytes (`N` even: whole words), which
/// compiled code reads and writes through its capability.
#[repr(C, align(16))]
#[derive(Debug)]
pub struct U32Global<const N: usize> {
    upper: AtomicPtr<u8>,
    aux: AtomicU64,
    values: [AtomicU32; N],
    /// The payload's shadow words, inline (one per two values).
    shadow: [AtomicU64; N],
}

impl<const N: usize> U32Global<N> {
    /// A zeroed global at `this`.
    pub const fn new(this: *const U32Global<N>) -> U32Global<N> {
        assert!(N % 2 == 0, "the payload is whole words");
        U32Global {
            upper: AtomicPtr::new(
                this.cast::<u8>()
                    .cast_mut()
                    .wrapping_add(HEADER_SIZE + 4 * N),
            ),
            aux: AtomicU64::new(aux_with_delta(FLAG_GLOBAL, 4 * N as isize)),
            values: [const { AtomicU32::new(0) }; N],
            // N words where N / 2 are used: a const generic expression
            // cannot size the array.
            shadow: [const { AtomicU64::new(0) }; N],
        }
    }

    /// Stores `values` (as many as fit).
    pub fn set(&self, values: &[u32]) {
        for (slot, v) in self.values.iter().zip(values) {
            slot.store(*v, Ordering::Relaxed);
        }
    }

    /// Value `i`.
    ///
    /// # Panics
    /// If `i >= N`.
    pub fn get(&self, i: usize) -> u32 {
        self.values[i].load(Ordering::Relaxed)
    }
}

/// A runtime-private special object with a one-word payload, such as the
/// `FILE` objects of the standard streams: `upper == lower`, so compiled
/// code can pass the pointer around but never read or write through it.
#[repr(C, align(16))]
#[derive(Debug)]
pub struct SpecialObject {
    upper: AtomicPtr<u8>,
    aux: AtomicU64,
    word: AtomicU64,
}

impl SpecialObject {
    /// A global special of `kind` at `this` whose payload word is `word`.
    pub const fn new(this: *const SpecialObject, kind: SpecialKind, word: u64) -> SpecialObject {
        SpecialObject {
            upper: AtomicPtr::new(this.cast::<u8>().cast_mut().wrapping_add(HEADER_SIZE)),
            aux: AtomicU64::new(FLAG_GLOBAL | kind.to_aux()),
            word: AtomicU64::new(word),
        }
    }

    /// The capability (`lower`).
    pub fn lower(&self) -> usize {
        &self.word as *const AtomicU64 as usize
    }

    /// The pointer to the object.
    pub fn pointer(&self) -> FlightPtr {
        // SAFETY: a special object of the runtime: its header sits just
        // below `lower`.
        unsafe { FlightPtr::from_lower(self.lower()) }
    }

    /// The address of the payload word, for initialising globals at
    /// compile time.
    pub const fn payload_address(this: *const SpecialObject) -> *const u8 {
        this.cast::<u8>().wrapping_add(HEADER_SIZE)
    }
}

/// Defines a wrapper: a module `NAME` holding
///
/// - `call(args…) -> R`: the behaviour, callable from Rust;
/// - `entry`: the generic entry, exported as `gimso.fn.NAME`, which checks
///   `arg_bytes`, reads the arguments from the CC buffers, calls `call` and
///   writes the return value back;
/// - `OBJECT`: the function object, exported as `gimso.obj.NAME`.
///
/// Argument types implement [`crate::cc::Arg`] (integers, `f64`,
/// `FlightPtr`, and `VarArgs` last for variadic functions); the return
/// type implements [`crate::cc::Ret`].
///
/// ```ignore
/// wrapper! {
///     /// `size_t strlen(const char *s)`
///     fn strlen(s: FlightPtr) -> usize { c_strlen(s) }
/// }
/// ```
///
/// Other names of the same function (glibc's `*64`, `_unlocked` and
/// `__isoc99_` names) follow the name after `|`: each gets its own entry
/// and object, calling the first one's behaviour.
///
/// ```ignore
/// wrapper! {
///     /// `FILE *fopen(const char *path, const char *mode)`
///     fn fopen | fopen64 (path: FlightPtr, mode: FlightPtr) -> FlightPtr { open(path, mode) }
/// }
/// ```
#[macro_export]
macro_rules! wrapper {
    (@aliases $name:ident [] ($($arg:ident : $ty:ty),*) -> $ret:ty) => {};
    (@aliases $name:ident [$alias:ident $($rest:ident)*] ($($arg:ident : $ty:ty),*) -> $ret:ty) => {
        $crate::wrapper! {
            #[doc = concat!("`", stringify!($alias), "`: another name of `", stringify!($name), "`.")]
            fn $alias($($arg: $ty),*) -> $ret { $name::call($($arg),*) }
        }
        $crate::wrapper!(@aliases $name [$($rest)*] ($($arg: $ty),*) -> $ret);
    };
    ($(#[$meta:meta])* fn $name:ident $(| $alias:ident)+ ($($arg:ident : $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $crate::wrapper! {
            $(#[$meta])*
            fn $name($($arg: $ty),*) -> $ret $body
        }
        $crate::wrapper!(@aliases $name [$($alias)+] ($($arg: $ty),*) -> $ret);
    };
    ($(#[$meta:meta])* fn $name:ident ($($arg:ident : $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $(#[$meta])*
        #[allow(non_snake_case)]
        pub mod $name {
            #[allow(unused_imports)]
            use super::*;

            /// The wrapper's behaviour, callable from Rust.
            #[allow(clippy::too_many_arguments, clippy::unused_unit)]
            pub fn call($($arg: $ty),*) -> $ret $body

            /// The generic entry compiled code calls.
            ///
            /// # Safety
            /// `thread` is the calling thread's ABI struct and its CC
            /// buffers hold `arg_bytes` of arguments (ABI v1).
            #[unsafe(export_name = concat!("gimso.fn.", stringify!($name)))]
            pub unsafe extern "C" fn entry(
                thread: *mut $crate::cc::ThreadAbi,
                _callee_lower: usize,
                arg_bytes: u64,
            ) -> $crate::cc::EntryResult {
                const LAYOUT: &[(u64, u64)] = &[$(<$ty as $crate::cc::Arg>::LAYOUT),*];
                // SAFETY: the caller passes its thread struct and the
                // argument size (the function's contract).
                #[allow(unused_mut, unused_variables)]
                let mut args = unsafe {
                    $crate::cc::Args::new(thread, arg_bytes, stringify!($name), LAYOUT)
                };
                $(
                    // SAFETY: Args::new checked that arg_bytes covers LAYOUT.
                    let $arg = unsafe { <$ty as $crate::cc::Arg>::read(&mut args) };
                )*
                #[allow(clippy::let_unit_value)]
                let result = call($($arg),*);
                // SAFETY: thread is the caller's thread struct.
                unsafe { $crate::cc::ret(thread, result) }
            }

            /// The function object (`gimso.obj.NAME`).
            #[unsafe(export_name = concat!("gimso.obj.", stringify!($name)))]
            pub static OBJECT: $crate::object::FunctionObject =
                $crate::object::FunctionObject::new(&raw const OBJECT, entry);
        }
    };
}
