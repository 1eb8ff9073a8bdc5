//! POSIX threads: threads running "compiled" start routines (Rust generic
//! entries standing in for compiled code), join values and thread-specific
//! data kept alive across collections, mutexes, condition variables,
//! rwlocks and `pthread_once` in program memory, and the safety errors of
//! bad arguments.

mod support;

use core::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use gimso_abi::{EntryResult, FlightPtr, HEADER_SIZE, ThreadAbi};
use gimso_libc_wrappers::mem::{self, load_ptr};
use gimso_libc_wrappers::object::FunctionObject;
use gimso_libc_wrappers::pthread::cond::*;
use gimso_libc_wrappers::pthread::key::*;
use gimso_libc_wrappers::pthread::mutex::*;
use gimso_libc_wrappers::pthread::once::*;
use gimso_libc_wrappers::pthread::rwlock::*;
use gimso_libc_wrappers::pthread::thread::*;
use support::*;

/// Argument word 0 of the current call with its capability.
///
/// # Safety
/// `t` is the calling thread's ABI struct.
unsafe fn arg0(t: *mut ThreadAbi) -> FlightPtr {
    // SAFETY: contract; the CC buffer's capability words hold
    // capabilities or 0.
    unsafe { FlightPtr::new((*t).cc_payload[0] as usize, (*t).cc_caps[0]) }
}

/// Returns pointer `p` from a "compiled" function.
///
/// # Safety
/// `t` is the calling thread's ABI struct.
unsafe fn ret_ptr(t: *mut ThreadAbi, p: FlightPtr) -> EntryResult {
    // SAFETY: contract.
    unsafe {
        (*t).cc_payload[0] = p.intval() as u64;
        (*t).cc_caps[0] = p.lower();
    }
    EntryResult {
        has_exception: 0,
        ret_bytes: 8,
    }
}

const VOID: EntryResult = EntryResult {
    has_exception: 0,
    ret_bytes: 0,
};

fn u64_at(p: FlightPtr) -> u64 {
    u64::from_ne_bytes(mem::read_int::<8>(p))
}

fn set_u64(p: FlightPtr, v: u64) {
    mem::write_int(p, &v.to_ne_bytes());
}

/// Creates a thread running `f(arg)`; returns its id.
fn spawn(f: &FunctionObject, arg: FlightPtr) -> u64 {
    let out = buf(8);
    let r = invoke(
        pthread_create::entry,
        &[
            A::P(out),
            A::P(FlightPtr::NULL),
            A::P(f.pointer()),
            A::P(arg),
        ],
    );
    assert_eq!(r.i32(), 0);
    u64_at(out)
}

/// Joins thread `id`; returns its value.
fn join(id: u64) -> FlightPtr {
    let out = buf(8);
    assert_eq!(
        invoke(pthread_join::entry, &[A::I(id as i64), A::P(out)]).i32(),
        0
    );
    load_ptr(out)
}

/// `arg` = { pthread_mutex_t (40 bytes); u64 counter }: 1000 locked
/// increments, allocating inside the critical section (a safepoint).
/// Returns a pointer to the counter.
unsafe extern "C" fn count_locked(t: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    // SAFETY: t is this thread's ABI struct; one pointer argument.
    let a = unsafe { arg0(t) };
    let counter = a.offset(40);
    for _ in 0..1000 {
        assert_eq!(pthread_mutex_lock::call(a), 0);
        let v = u64_at(counter);
        mem::alloc(64, 16, 0);
        set_u64(counter, v + 1);
        assert_eq!(pthread_mutex_unlock::call(a), 0);
    }
    // SAFETY: as above.
    unsafe { ret_ptr(t, counter) }
}
static COUNT_LOCKED: FunctionObject = FunctionObject::new(&raw const COUNT_LOCKED, count_locked);

#[test]
fn threads_share_a_mutex() {
    let shared = buf(48);
    let ids: Vec<u64> = (0..4).map(|_| spawn(&COUNT_LOCKED, shared)).collect();
    let mut distinct = ids.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "ids are distinct: {ids:?}");
    for id in ids {
        let v = join(id);
        assert_eq!(v, shared.offset(40), "value with its capability");
    }
    assert_eq!(u64_at(shared.offset(40)), 4000);
    // Unlocked, owner and count cleared.
    assert_eq!(read(shared, 12), vec![0; 12]);
}

const MARKER: u64 = 0x5eed_1234_abcd_0042;

/// Returns a fresh object holding MARKER, reachable from nothing else.
unsafe extern "C" fn make_object(t: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    let p = mem::alloc(32, 16, 0);
    set_u64(p, MARKER);
    // SAFETY: t is this thread's ABI struct.
    unsafe { ret_ptr(t, p) }
}
static MAKE_OBJECT: FunctionObject = FunctionObject::new(&raw const MAKE_OBJECT, make_object);

#[test]
fn join_value_survives_collections() {
    let id = spawn(&MAKE_OBJECT, FlightPtr::NULL);
    std::thread::sleep(Duration::from_millis(20));
    for _ in 0..3 {
        gimso_gc::collect();
    }
    let v = join(id);
    assert!(
        gimso_heap::lookup(v.lower() - HEADER_SIZE).is_some(),
        "still allocated"
    );
    assert_eq!(u64_at(v), MARKER);
}

#[test]
fn self_equal_and_join_errors() {
    let me = invoke(pthread_self::entry, &[]).i64();
    assert_eq!(invoke(pthread_self::entry, &[]).i64(), me, "stable");
    assert_eq!(invoke(pthread_equal::entry, &[A::I(me), A::I(me)]).i32(), 1);
    assert_eq!(
        invoke(pthread_equal::entry, &[A::I(me), A::I(me + 1)]).i32(),
        0
    );
    let null = A::P(FlightPtr::NULL);
    assert_eq!(
        invoke(pthread_join::entry, &[A::I(me), null]).i32(),
        libc::EDEADLK
    );
    assert_eq!(
        invoke(pthread_join::entry, &[A::I(-7), null]).i32(),
        libc::ESRCH
    );
    let id = spawn(&MAKE_OBJECT, FlightPtr::NULL);
    assert_eq!(invoke(pthread_detach::entry, &[A::I(id as i64)]).i32(), 0);
    let r = invoke(pthread_detach::entry, &[A::I(id as i64)]).i32();
    assert!(r == libc::EINVAL || r == libc::ESRCH, "second detach: {r}");
}

#[test]
fn mutex_types() {
    let attr = buf(4);
    assert_eq!(
        invoke(pthread_mutexattr_init::entry, &[A::P(attr)]).i32(),
        0
    );
    let set = |kind: i32| {
        invoke(
            pthread_mutexattr_settype::entry,
            &[A::P(attr), A::I(kind as i64)],
        )
        .i32()
    };
    assert_eq!(set(99), libc::EINVAL);
    assert_eq!(set(libc::PTHREAD_MUTEX_RECURSIVE), 0);
    let m = buf(40);
    assert_eq!(
        invoke(pthread_mutex_init::entry, &[A::P(m), A::P(attr)]).i32(),
        0
    );
    let lock = |m: FlightPtr| invoke(pthread_mutex_lock::entry, &[A::P(m)]).i32();
    let unlock = |m: FlightPtr| invoke(pthread_mutex_unlock::entry, &[A::P(m)]).i32();
    let trylock = |m: FlightPtr| invoke(pthread_mutex_trylock::entry, &[A::P(m)]).i32();
    assert_eq!((lock(m), lock(m), trylock(m)), (0, 0, 0));
    assert_eq!(
        u32::from_ne_bytes(read(m.offset(4), 4).try_into().unwrap()),
        3,
        "__count"
    );
    assert_eq!((unlock(m), unlock(m), unlock(m)), (0, 0, 0));
    assert_eq!(unlock(m), libc::EPERM);
    assert_eq!(invoke(pthread_mutex_destroy::entry, &[A::P(m)]).i32(), 0);

    set(libc::PTHREAD_MUTEX_ERRORCHECK);
    let out = buf(4);
    invoke(pthread_mutexattr_gettype::entry, &[A::P(attr), A::P(out)]);
    assert_eq!(
        read(out, 4),
        (libc::PTHREAD_MUTEX_ERRORCHECK as u32).to_ne_bytes()
    );
    let e = buf(40);
    invoke(pthread_mutex_init::entry, &[A::P(e), A::P(attr)]);
    assert_eq!((lock(e), lock(e)), (0, libc::EDEADLK));
    assert_eq!(
        invoke(pthread_mutex_destroy::entry, &[A::P(e)]).i32(),
        libc::EBUSY
    );
    assert_eq!((unlock(e), unlock(e)), (0, libc::EPERM));

    // All zeros is PTHREAD_MUTEX_INITIALIZER (normal).
    let n = buf(40);
    assert_eq!((lock(n), trylock(n)), (0, libc::EBUSY));
    let past = buf(16); // 1970: long gone
    let r = invoke(pthread_mutex_timedlock::entry, &[A::P(n), A::P(past)]).i32();
    assert_eq!(r, libc::ETIMEDOUT);
    assert_eq!(unlock(n), 0);
}

/// `arg` = { mutex (40); cond (48); u64 flag }: waits for the flag, sets
/// it to 2, returns NULL.
unsafe extern "C" fn wait_flag(t: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    // SAFETY: t is this thread's ABI struct; one pointer argument.
    let a = unsafe { arg0(t) };
    let (m, c, flag) = (a, a.offset(40), a.offset(88));
    pthread_mutex_lock::call(m);
    while u64_at(flag) == 0 {
        assert_eq!(pthread_cond_wait::call(c, m), 0);
    }
    set_u64(flag, 2);
    pthread_mutex_unlock::call(m);
    // SAFETY: as above.
    unsafe { ret_ptr(t, FlightPtr::NULL) }
}
static WAIT_FLAG: FunctionObject = FunctionObject::new(&raw const WAIT_FLAG, wait_flag);

unsafe extern "C" fn return_null(t: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    // SAFETY: t is this thread's ABI struct.
    unsafe { ret_ptr(t, FlightPtr::NULL) }
}

#[test]
fn condition_variables() {
    let a = buf(96);
    let id = spawn(&WAIT_FLAG, a);
    std::thread::sleep(Duration::from_millis(20));
    invoke(pthread_mutex_lock::entry, &[A::P(a)]);
    set_u64(a.offset(88), 1);
    assert_eq!(
        invoke(pthread_cond_signal::entry, &[A::P(a.offset(40))]).i32(),
        0
    );
    invoke(pthread_mutex_unlock::entry, &[A::P(a)]);
    assert_eq!(join(id), FlightPtr::NULL);
    assert_eq!(u64_at(a.offset(88)), 2);

    // A timed wait with nobody signalling, on the monotonic clock.
    let attr = buf(4);
    invoke(pthread_condattr_init::entry, &[A::P(attr)]);
    let mono = libc::CLOCK_MONOTONIC as i64;
    assert_eq!(
        invoke(pthread_condattr_setclock::entry, &[A::P(attr), A::I(mono)]).i32(),
        0
    );
    let (m, c) = (buf(40), buf(48));
    invoke(pthread_cond_init::entry, &[A::P(c), A::P(attr)]);
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a local timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    let deadline = buf(16);
    set_u64(deadline, now.tv_sec as u64);
    set_u64(deadline.offset(8), now.tv_nsec as u64);
    invoke(pthread_mutex_lock::entry, &[A::P(m)]);
    let r = loop {
        let r = invoke(
            pthread_cond_timedwait::entry,
            &[A::P(c), A::P(m), A::P(deadline)],
        )
        .i32();
        if r != 0 {
            break r;
        }
    };
    assert_eq!(r, libc::ETIMEDOUT);
    // The mutex is held again.
    assert_eq!(
        invoke(pthread_mutex_trylock::entry, &[A::P(m)]).i32(),
        libc::EBUSY
    );
    set_u64(deadline.offset(8), 1_000_000_000);
    let r = invoke(
        pthread_cond_timedwait::entry,
        &[A::P(c), A::P(m), A::P(deadline)],
    )
    .i32();
    assert_eq!(r, libc::EINVAL);
}

#[test]
fn rwlocks() {
    let l = buf(56);
    let call = |e: gimso_abi::EntryFn| invoke(e, &[A::P(l)]).i32();
    assert_eq!(call(pthread_rwlock_rdlock::entry), 0);
    assert_eq!(call(pthread_rwlock_tryrdlock::entry), 0);
    assert_eq!(call(pthread_rwlock_trywrlock::entry), libc::EBUSY);
    assert_eq!(call(pthread_rwlock_destroy::entry), libc::EBUSY);
    assert_eq!(call(pthread_rwlock_unlock::entry), 0);
    assert_eq!(call(pthread_rwlock_unlock::entry), 0);
    assert_eq!(call(pthread_rwlock_unlock::entry), libc::EPERM);
    assert_eq!(call(pthread_rwlock_wrlock::entry), 0);
    assert_eq!(call(pthread_rwlock_wrlock::entry), libc::EDEADLK);
    assert_eq!(call(pthread_rwlock_rdlock::entry), libc::EDEADLK);
    assert_eq!(call(pthread_rwlock_unlock::entry), 0);
    assert_eq!(call(pthread_rwlock_destroy::entry), 0);
}

static ONCE_RUNS: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn once_init(_: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    ONCE_RUNS.fetch_add(1, Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(20));
    VOID
}
static ONCE_INIT: FunctionObject = FunctionObject::new(&raw const ONCE_INIT, once_init);

/// `arg` is a `pthread_once_t`.
unsafe extern "C" fn call_once(t: *mut ThreadAbi, l: usize, b: u64) -> EntryResult {
    // SAFETY: t is this thread's ABI struct; one pointer argument.
    let control = unsafe { arg0(t) };
    assert_eq!(pthread_once::call(control, ONCE_INIT.pointer()), 0);
    assert_eq!(
        ONCE_RUNS.load(Ordering::SeqCst),
        1,
        "returns after the routine"
    );
    // SAFETY: as above.
    unsafe { return_null(t, l, b) }
}
static CALL_ONCE: FunctionObject = FunctionObject::new(&raw const CALL_ONCE, call_once);

#[test]
fn once_runs_exactly_once() {
    let control = buf(4);
    let ids: Vec<u64> = (0..4).map(|_| spawn(&CALL_ONCE, control)).collect();
    for id in ids {
        join(id);
    }
    assert_eq!(ONCE_RUNS.load(Ordering::SeqCst), 1);
    assert_eq!(read(control, 4), 2u32.to_ne_bytes(), "done");
}

static DESTRUCTED: AtomicUsize = AtomicUsize::new(0);

/// Destructor: its argument must still hold MARKER.
unsafe extern "C" fn destructor(t: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    // SAFETY: t is this thread's ABI struct; one pointer argument.
    let v = unsafe { arg0(t) };
    assert_eq!(u64_at(v), MARKER);
    DESTRUCTED.fetch_add(1, Ordering::SeqCst);
    VOID
}
static DESTRUCTOR: FunctionObject = FunctionObject::new(&raw const DESTRUCTOR, destructor);

/// `arg` holds a key: sets a fresh object as its value, collects while
/// only the runtime holds it, reads it back.
unsafe extern "C" fn use_key(t: *mut ThreadAbi, l: usize, b: u64) -> EntryResult {
    // SAFETY: t is this thread's ABI struct; one pointer argument.
    let key = u32::from_ne_bytes(mem::read_int::<4>(unsafe { arg0(t) }));
    set_value(key);
    gimso_gc::collect();
    let v = pthread_getspecific::call(key);
    assert!(gimso_heap::lookup(v.lower() - HEADER_SIZE).is_some());
    assert_eq!(u64_at(v), MARKER);
    // SAFETY: as above.
    unsafe { return_null(t, l, b) }
}
static USE_KEY: FunctionObject = FunctionObject::new(&raw const USE_KEY, use_key);

#[inline(never)]
fn set_value(key: u32) {
    let p = mem::alloc(16, 16, 0);
    set_u64(p, MARKER);
    assert_eq!(pthread_setspecific::call(key, p), 0);
}

#[test]
fn thread_specific_data() {
    let key = buf(4);
    let r = invoke(
        pthread_key_create::entry,
        &[A::P(key), A::P(DESTRUCTOR.pointer())],
    );
    assert_eq!(r.i32(), 0);
    let k = u32::from_ne_bytes(read(key, 4).try_into().unwrap()) as i64;
    join(spawn(&USE_KEY, key));
    assert_eq!(DESTRUCTED.load(Ordering::SeqCst), 1);
    // This thread's value is its own.
    assert_eq!(
        invoke(pthread_getspecific::entry, &[A::I(k)]).ptr(),
        FlightPtr::NULL
    );
    let v = buf(8);
    assert_eq!(
        invoke(pthread_setspecific::entry, &[A::I(k), A::P(v)]).i32(),
        0
    );
    assert_eq!(invoke(pthread_getspecific::entry, &[A::I(k)]).ptr(), v);
    assert_eq!(invoke(pthread_key_delete::entry, &[A::I(k)]).i32(), 0);
    assert_eq!(
        invoke(pthread_getspecific::entry, &[A::I(k)]).ptr(),
        FlightPtr::NULL
    );
    assert_eq!(
        invoke(pthread_setspecific::entry, &[A::I(k), A::P(v)]).i32(),
        libc::EINVAL
    );
    assert_eq!(
        invoke(pthread_key_delete::entry, &[A::I(k)]).i32(),
        libc::EINVAL
    );
}

unsafe extern "C" fn returns_void(_: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    VOID
}
static RETURNS_VOID: FunctionObject = FunctionObject::new(&raw const RETURNS_VOID, returns_void);

fn run(name: &str) {
    let null = A::P(FlightPtr::NULL);
    match name {
        "mutex_too_small" => {
            invoke(pthread_mutex_lock::entry, &[A::P(buf(16))]);
        }
        "mutex_misaligned" => {
            invoke(pthread_mutex_lock::entry, &[A::P(buf(48).offset(2))]);
        }
        "cond_freed" => {
            let c = buf(48);
            gimso_shadow::free::free(c);
            invoke(pthread_cond_signal::entry, &[A::P(c)]);
        }
        "create_non_function" => {
            let out = buf(8);
            invoke(
                pthread_create::entry,
                &[A::P(out), null, A::P(buf(8)), null],
            );
        }
        "create_bad_out" => {
            // 4 bytes left here.
            let out = buf(8).offset(4);
            invoke(
                pthread_create::entry,
                &[A::P(out), null, A::P(MAKE_OBJECT.pointer()), null],
            );
        }
        "start_returns_void" => {
            let id = spawn(&RETURNS_VOID, FlightPtr::NULL);
            join(id);
        }
        "join_bad_out" => {
            let id = spawn(&MAKE_OBJECT, FlightPtr::NULL);
            invoke(
                pthread_join::entry,
                &[A::I(id as i64), A::P(buf(8).offset(4))],
            );
        }
        "once_read_only" => {
            let control = mem::alloc_c_string(b"abc", true);
            invoke(
                pthread_once::entry,
                &[A::P(control), A::P(ONCE_INIT.pointer())],
            );
        }
        other => panic!("unknown scenario {other}"),
    }
}

#[test]
fn scenario_child() {
    child_main(run);
}

#[test]
fn bad_arguments_are_safety_errors() {
    expect_error("mutex_too_small", "out-of-bounds write");
    expect_error("mutex_misaligned", "misaligned pointer access");
    expect_error("cond_freed", "use after free");
    expect_error("create_non_function", "call through non-function pointer");
    expect_error("create_bad_out", "out-of-bounds write");
    let o = expect_error("start_returns_void", "return size mismatch");
    assert!(o.stderr.contains("thread start routine"), "{}", o.stderr);
    expect_error("join_bad_out", "misaligned pointer access");
    expect_error("once_read_only", "write to read-only object");
}
