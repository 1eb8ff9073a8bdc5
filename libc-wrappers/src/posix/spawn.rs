//! `posix_spawn`, `posix_spawnp`, their file actions and attributes.
//!
//! glibc's `posix_spawn_file_actions_t` points at an array glibc
//! allocates, which the program must not be able to forge: here the
//! program's (80-byte, checked) structure holds a handle to a list of
//! actions the runtime keeps, replayed into a native one at spawn time.
//! `posix_spawnattr_t` is plain data (flags, process group, signal sets,
//! scheduling): the attribute functions and the spawn use private copies
//! of the program's bytes. The spawn itself runs exited (it may wait for
//! the child's exec).

use gimso_abi::FlightPtr;

use super::Raw;
use super::process::{native_array, string_array};
use crate::handles::Handles;
use crate::{mem, wrapper};

/// Bytes of the two structures (glibc, x86-64).
const ACTIONS_T: usize = 80;
const ATTR_T: usize = 336;
const _: () = assert!(size_of::<libc::posix_spawn_file_actions_t>() == ACTIONS_T);
const _: () = assert!(size_of::<libc::posix_spawnattr_t>() == ATTR_T);

/// One file action, with its path copied.
#[derive(Clone)]
enum Action {
    Open {
        fd: i32,
        path: Vec<u8>,
        flags: i32,
        mode: u32,
    },
    Close {
        fd: i32,
    },
    Dup2 {
        fd: i32,
        new: i32,
    },
    Chdir {
        path: Vec<u8>,
    },
    Fchdir {
        fd: i32,
    },
}

/// The action lists by handle ("SP" in the top bytes).
static ACTIONS: Handles<Vec<Action>> = Handles::new(0x5350);

fn handle(fa: FlightPtr) -> u64 {
    u64::from_ne_bytes(mem::read_int::<8>(fa))
}

/// Appends `a` to the list of the program's `fa`. A zeroed structure (no
/// handle yet) gets a list, as glibc accepts one; any other value
/// `posix_spawn_file_actions_init` did not set up is EINVAL.
fn add(fa: FlightPtr, a: Action) -> i32 {
    let h = handle(fa);
    if h == 0 {
        mem::check_write(fa, ACTIONS_T);
        let id = ACTIONS.insert(vec![a]);
        mem::write_int(fa, &id.to_ne_bytes());
        return 0;
    }
    ACTIONS.with_value(h, |list| match list {
        Some(list) => {
            list.push(a);
            0
        }
        None => libc::EINVAL,
    })
}

wrapper! {
    /// `int posix_spawn_file_actions_init(posix_spawn_file_actions_t *fa)`.
    fn posix_spawn_file_actions_init(fa: FlightPtr) -> i32 {
        mem::check_write(fa, ACTIONS_T);
        let id = ACTIONS.insert(Vec::new());
        mem::write_bytes(fa, &[0u8; ACTIONS_T]);
        mem::write_int(fa, &id.to_ne_bytes());
        0
    }
}

wrapper! {
    /// `int posix_spawn_file_actions_destroy(posix_spawn_file_actions_t *fa)`.
    fn posix_spawn_file_actions_destroy(fa: FlightPtr) -> i32 {
        let h = handle(fa);
        if h == 0 {
            return 0;
        }
        match ACTIONS.remove(h) {
            Some(_) => {
                mem::write_int(fa, &0u64.to_ne_bytes());
                0
            }
            None => libc::EINVAL,
        }
    }
}

wrapper! {
    /// `int posix_spawn_file_actions_addopen(posix_spawn_file_actions_t *fa,
    /// int fd, const char *path, int flags, mode_t mode)`.
    fn posix_spawn_file_actions_addopen(fa: FlightPtr, fd: i32, path: FlightPtr, flags: i32, mode: u32) -> i32 {
        let path = mem::c_string_nul(path);
        add(fa, Action::Open { fd, path, flags, mode })
    }
}

wrapper! {
    /// `int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *fa, int fd)`.
    fn posix_spawn_file_actions_addclose(fa: FlightPtr, fd: i32) -> i32 {
        add(fa, Action::Close { fd })
    }
}

wrapper! {
    /// `int posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *fa,
    /// int fd, int newfd)`.
    fn posix_spawn_file_actions_adddup2(fa: FlightPtr, fd: i32, new: i32) -> i32 {
        add(fa, Action::Dup2 { fd, new })
    }
}

wrapper! {
    /// `int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t
    /// *fa, const char *path)`.
    fn posix_spawn_file_actions_addchdir_np(fa: FlightPtr, path: FlightPtr) -> i32 {
        let path = mem::c_string_nul(path);
        add(fa, Action::Chdir { path })
    }
}

wrapper! {
    /// `int posix_spawn_file_actions_addfchdir_np(posix_spawn_file_actions_t
    /// *fa, int fd)`.
    fn posix_spawn_file_actions_addfchdir_np(fa: FlightPtr, fd: i32) -> i32 {
        add(fa, Action::Fchdir { fd })
    }
}

/// glibc functions the `libc` crate does not declare.
mod native {
    unsafe extern "C" {
        pub fn posix_spawn_file_actions_addchdir_np(
            fa: *mut libc::posix_spawn_file_actions_t,
            path: *const core::ffi::c_char,
        ) -> i32;
        pub fn posix_spawn_file_actions_addfchdir_np(
            fa: *mut libc::posix_spawn_file_actions_t,
            fd: i32,
        ) -> i32;
    }
}

/// Runs `f` on a private copy of the program's attributes at `attr`
/// (checked; written back when `write` and `f` returned 0).
fn with_attr(
    attr: FlightPtr,
    write: bool,
    f: impl FnOnce(*mut libc::posix_spawnattr_t) -> i32,
) -> i32 {
    if write {
        mem::check_write(attr, ATTR_T);
    }
    let mut image = Raw::<ATTR_T>::read(attr);
    let r = f(image.as_mut::<libc::posix_spawnattr_t>());
    if write && r == 0 {
        image.write(attr);
    }
    r
}

wrapper! {
    /// `int posix_spawnattr_init(posix_spawnattr_t *attr)`.
    fn posix_spawnattr_init(attr: FlightPtr) -> i32 {
        mem::check_write(attr, ATTR_T);
        let mut image = Raw::<ATTR_T>::zeroed();
        // SAFETY: a private attribute image.
        let r = unsafe { libc::posix_spawnattr_init(image.as_mut::<libc::posix_spawnattr_t>()) };
        image.write(attr);
        r
    }
}

wrapper! {
    /// `int posix_spawnattr_destroy(posix_spawnattr_t *attr)`.
    fn posix_spawnattr_destroy(attr: FlightPtr) -> i32 {
        mem::check_write(attr, ATTR_T);
        0
    }
}

wrapper! {
    /// `int posix_spawnattr_setflags(posix_spawnattr_t *attr, short flags)`.
    fn posix_spawnattr_setflags(attr: FlightPtr, flags: i32) -> i32 {
        // SAFETY: a private copy.
        with_attr(attr, true, |a| unsafe { libc::posix_spawnattr_setflags(a, flags as i16) })
    }
}

wrapper! {
    /// `int posix_spawnattr_getflags(const posix_spawnattr_t *attr, short *flags)`.
    fn posix_spawnattr_getflags(attr: FlightPtr, flags: FlightPtr) -> i32 {
        let mut f: i16 = 0;
        // SAFETY: a private copy and a local.
        let r = with_attr(attr, false, |a| unsafe { libc::posix_spawnattr_getflags(a, &mut f) });
        mem::write_int(flags, &f.to_ne_bytes());
        r
    }
}

wrapper! {
    /// `int posix_spawnattr_setpgroup(posix_spawnattr_t *attr, pid_t pgroup)`.
    fn posix_spawnattr_setpgroup(attr: FlightPtr, pgroup: i32) -> i32 {
        // SAFETY: a private copy.
        with_attr(attr, true, |a| unsafe { libc::posix_spawnattr_setpgroup(a, pgroup) })
    }
}

wrapper! {
    /// `int posix_spawnattr_setsigmask(posix_spawnattr_t *attr, const sigset_t *mask)`.
    fn posix_spawnattr_setsigmask(attr: FlightPtr, mask: FlightPtr) -> i32 {
        let set = Raw::<{ size_of::<libc::sigset_t>() }>::read(mask);
        // SAFETY: private copies.
        with_attr(attr, true, |a| unsafe { libc::posix_spawnattr_setsigmask(a, set.as_const::<libc::sigset_t>()) })
    }
}

wrapper! {
    /// `int posix_spawnattr_setsigdefault(posix_spawnattr_t *attr, const sigset_t *set)`.
    fn posix_spawnattr_setsigdefault(attr: FlightPtr, set: FlightPtr) -> i32 {
        let s = Raw::<{ size_of::<libc::sigset_t>() }>::read(set);
        // SAFETY: private copies.
        with_attr(attr, true, |a| unsafe { libc::posix_spawnattr_setsigdefault(a, s.as_const::<libc::sigset_t>()) })
    }
}

/// The spawn: `search` for `posix_spawnp`.
fn spawn(
    pid: FlightPtr,
    path: FlightPtr,
    fa: FlightPtr,
    attr: FlightPtr,
    argv: FlightPtr,
    envp: FlightPtr,
    search: bool,
) -> i32 {
    if pid.intval() != 0 {
        mem::check_write(pid, 4);
    }
    let path = mem::c_string_nul(path);
    let actions = match if fa.intval() == 0 { 0 } else { handle(fa) } {
        0 => None,
        h => match ACTIONS.get(h) {
            Some(list) => Some(list),
            None => return libc::EINVAL,
        },
    };
    let attr_image = (attr.intval() != 0).then(|| Raw::<ATTR_T>::read(attr));
    let args = string_array(argv);
    let env = (envp.intval() != 0).then(|| string_array(envp));
    let argv_n = native_array(&args);
    let env_n = env.as_ref().map(|e| native_array(e));
    // SAFETY: all-zero is a valid structure to initialise.
    let mut native_fa: libc::posix_spawn_file_actions_t = unsafe { core::mem::zeroed() };
    if let Some(list) = &actions {
        // SAFETY: a private structure; every path is a NUL-terminated copy
        // that lives until the spawn below.
        unsafe {
            libc::posix_spawn_file_actions_init(&mut native_fa);
            for a in list {
                let r = match a {
                    Action::Open {
                        fd,
                        path,
                        flags,
                        mode,
                    } => libc::posix_spawn_file_actions_addopen(
                        &mut native_fa,
                        *fd,
                        path.as_ptr().cast(),
                        *flags,
                        *mode,
                    ),
                    Action::Close { fd } => {
                        libc::posix_spawn_file_actions_addclose(&mut native_fa, *fd)
                    }
                    Action::Dup2 { fd, new } => {
                        libc::posix_spawn_file_actions_adddup2(&mut native_fa, *fd, *new)
                    }
                    Action::Chdir { path } => native::posix_spawn_file_actions_addchdir_np(
                        &mut native_fa,
                        path.as_ptr().cast(),
                    ),
                    Action::Fchdir { fd } => {
                        native::posix_spawn_file_actions_addfchdir_np(&mut native_fa, *fd)
                    }
                };
                if r != 0 {
                    libc::posix_spawn_file_actions_destroy(&mut native_fa);
                    return r;
                }
            }
        }
    }
    let mut child: libc::pid_t = 0;
    let fap = if actions.is_some() {
        &raw const native_fa
    } else {
        core::ptr::null()
    };
    let ap = attr_image.as_ref().map_or(core::ptr::null(), |a| {
        a.as_const::<libc::posix_spawnattr_t>()
    });
    // SAFETY: environ is libc's own environment array.
    let envp_n = env_n
        .as_ref()
        .map_or(unsafe { libc_environ() }, |e| e.as_ptr());
    let cp = &raw mut child;
    let spawn = if search {
        libc::posix_spawnp
    } else {
        libc::posix_spawn
    };
    // SAFETY: NUL-terminated copies and arrays built above, private
    // structures, a local pid.
    let r = gimso_gc::exited(|| unsafe {
        spawn(
            cp,
            path.as_ptr().cast(),
            fap,
            ap,
            argv_n.as_ptr().cast(),
            envp_n.cast(),
        )
    });
    if actions.is_some() {
        // SAFETY: initialised above.
        unsafe { libc::posix_spawn_file_actions_destroy(&mut native_fa) };
    }
    if r == 0 && pid.intval() != 0 {
        mem::write_int(pid, &child.to_ne_bytes());
    }
    r
}

/// libc's `environ`.
///
/// # Safety
/// Reads a global libc maintains.
unsafe fn libc_environ() -> *const *const libc::c_char {
    unsafe extern "C" {
        static environ: *const *const libc::c_char;
    }
    // SAFETY: libc's environment pointer (the caller's contract).
    unsafe { environ }
}

wrapper! {
    /// `int posix_spawn(pid_t *pid, const char *path, const
    /// posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr, char
    /// *const argv[], char *const envp[])`.
    fn posix_spawn(pid: FlightPtr, path: FlightPtr, fa: FlightPtr, attr: FlightPtr, argv: FlightPtr, envp: FlightPtr) -> i32 {
        spawn(pid, path, fa, attr, argv, envp, false)
    }
}

wrapper! {
    /// `int posix_spawnp(...)`: `posix_spawn` searching `PATH`.
    fn posix_spawnp(pid: FlightPtr, file: FlightPtr, fa: FlightPtr, attr: FlightPtr, argv: FlightPtr, envp: FlightPtr) -> i32 {
        spawn(pid, file, fa, attr, argv, envp, true)
    }
}
