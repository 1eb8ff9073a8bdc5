//! `getopt`, `getopt_long` and `getopt_long_only` with GNU behaviour
//! (argument permutation, `+`/`-`/`:` prefixes, `POSIXLY_CORRECT`,
//! optional arguments, unique abbreviations of long options), written
//! here over the program's own `argv`: every element is a checked
//! pointer load, every string a checked read, and the permutation stores
//! pointers back with their capabilities. `optarg` points into the
//! program's argument strings (same capability).
//!
//! `optarg`, `optind`, `opterr` and `optopt` are global variables of the
//! program (`gimso.obj.optind`, ...), read and written by compiled code
//! directly; the parser's own position (inside a cluster like `-abc`)
//! lives here, as in glibc.

use gimso_abi::FlightPtr;
use parking_lot::Mutex;

use crate::object::{IntGlobal, PointerGlobal};
use crate::{mem, stdio, wrapper};

/// `extern char *optarg`.
#[unsafe(export_name = "gimso.obj.optarg")]
pub static OPTARG: PointerGlobal = PointerGlobal::new(&raw const OPTARG, core::ptr::null());
/// `extern int optind`.
#[unsafe(export_name = "gimso.obj.optind")]
pub static OPTIND: IntGlobal = IntGlobal::new(&raw const OPTIND, 1);
/// `extern int opterr`.
#[unsafe(export_name = "gimso.obj.opterr")]
pub static OPTERR: IntGlobal = IntGlobal::new(&raw const OPTERR, 1);
/// `extern int optopt`.
#[unsafe(export_name = "gimso.obj.optopt")]
pub static OPTOPT: IntGlobal = IntGlobal::new(&raw const OPTOPT, b'?' as i32);

/// Registers `optarg` with the collector (the program may store its own
/// pointers there). Called at program start.
pub fn register_globals() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| gimso_gc::register_global_object(OPTARG.lower()));
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ordering {
    /// Stop at the first non-option (`+` or `POSIXLY_CORRECT`).
    RequireOrder,
    /// Move non-options to the end (the default).
    Permute,
    /// Return non-options as the argument of option 1 (`-`).
    ReturnInOrder,
}

/// The parser's position between calls.
#[derive(Debug)]
struct State {
    initialized: bool,
    /// Within `argv[arg]`, the next option character is at `offset`.
    next: Option<(usize, usize)>,
    first_nonopt: usize,
    last_nonopt: usize,
}

static STATE: Mutex<State> = Mutex::new(State {
    initialized: false,
    next: None,
    first_nonopt: 1,
    last_nonopt: 1,
});

/// `struct option` (32 bytes): name, has_arg, flag, val.
#[derive(Debug)]
struct LongOption {
    name: Vec<u8>,
    has_arg: i32,
    flag: FlightPtr,
    val: i32,
}

const NO_ARGUMENT: i32 = 0;
const REQUIRED_ARGUMENT: i32 = 1;
/// A long-option index meaning "several options match".
const AMBIGUOUS: usize = usize::MAX;

/// Reads the `struct option` array at `p` up to its all-zero terminator.
fn read_long_options(p: FlightPtr) -> Vec<LongOption> {
    let mut out = Vec::new();
    if p.intval() == 0 {
        return out;
    }
    loop {
        let entry = p.offset((32 * out.len()) as isize);
        let name = mem::load_ptr(entry);
        if name.intval() == 0 {
            return out;
        }
        let has_arg = i32::from_ne_bytes(mem::read_int::<4>(entry.offset(8)));
        let flag = mem::load_ptr(entry.offset(16));
        let val = i32::from_ne_bytes(mem::read_int::<4>(entry.offset(24)));
        out.push(LongOption {
            name: mem::c_string(name),
            has_arg,
            flag,
            val,
        });
    }
}

/// One call's view of the program's arguments.
struct Call<'a> {
    argc: usize,
    argv: FlightPtr,
    opts: &'a [u8],
    longs: Option<Vec<LongOption>>,
    long_only: bool,
    long_index: FlightPtr,
    /// Errors are printed (`opterr` set and the optstring does not start
    /// with `:`).
    print: bool,
    /// Missing arguments return `:` rather than `?`.
    colon: bool,
}

impl Call<'_> {
    fn arg(&self, i: usize) -> FlightPtr {
        mem::load_ptr(self.argv.offset((8 * i) as isize))
    }

    fn arg_text(&self, i: usize) -> Vec<u8> {
        mem::c_string(self.arg(i))
    }

    fn is_nonoption(&self, i: usize) -> bool {
        let a = self.arg_text(i);
        a.len() < 2 || a[0] != b'-'
    }

    fn program_name(&self) -> Vec<u8> {
        if self.argc > 0 {
            self.arg_text(0)
        } else {
            b"?".to_vec()
        }
    }

    fn complain(&self, message: &[u8]) {
        if self.print {
            let mut line = self.program_name();
            line.extend_from_slice(b": ");
            line.extend_from_slice(message);
            line.push(b'\n');
            stdio::write_stream(stdio::program_stderr(), &line);
        }
    }

    /// Moves `argv[first..last]` (non-options) after `argv[last..optind]`
    /// (options), as GNU getopt does.
    fn exchange(&self, st: &mut State, optind: usize) {
        let (first, last) = (st.first_nonopt, st.last_nonopt);
        let items: Vec<FlightPtr> = (first..optind).map(|i| self.arg(i)).collect();
        let split = last - first;
        let reordered = items[split..].iter().chain(&items[..split]);
        for (k, p) in reordered.enumerate() {
            mem::store_ptr(self.argv.offset((8 * (first + k)) as isize), *p);
        }
        st.first_nonopt += optind - last;
        st.last_nonopt = optind;
    }
}

fn set_optarg(p: FlightPtr) {
    mem::store_ptr(OPTARG.pointer(), p);
}

/// The next option, as `getopt_long_only` (`long_only`) or
/// `getopt_long` (`longs` given) or `getopt` returns it.
fn next_option(call: &Call, st: &mut State) -> i32 {
    let mut optind = OPTIND.get().max(0) as usize;
    let mut opts = call.opts;
    let mut ordering = Ordering::Permute;
    match opts.first() {
        Some(b'-') => {
            ordering = Ordering::ReturnInOrder;
            opts = &opts[1..];
        }
        Some(b'+') => {
            ordering = Ordering::RequireOrder;
            opts = &opts[1..];
        }
        _ => {
            if std::env::var_os("POSIXLY_CORRECT").is_some() {
                ordering = Ordering::RequireOrder;
            }
        }
    }
    if optind == 0 || !st.initialized {
        if optind == 0 {
            optind = 1;
        }
        st.first_nonopt = optind;
        st.last_nonopt = optind;
        st.next = None;
        st.initialized = true;
    }
    set_optarg(FlightPtr::NULL);

    let at_end = match st.next {
        None => true,
        Some((i, off)) => i >= call.argc || call.arg_text(i).get(off).is_none(),
    };
    if at_end {
        st.next = None;
        st.last_nonopt = st.last_nonopt.min(optind);
        st.first_nonopt = st.first_nonopt.min(optind);
        if ordering == Ordering::Permute {
            if st.first_nonopt != st.last_nonopt && st.last_nonopt != optind {
                call.exchange(st, optind);
            } else if st.last_nonopt != optind {
                st.first_nonopt = optind;
            }
            while optind < call.argc && call.is_nonoption(optind) {
                optind += 1;
            }
            st.last_nonopt = optind;
        }
        if optind != call.argc && call.arg_text(optind) == b"--" {
            optind += 1;
            if st.first_nonopt != st.last_nonopt && st.last_nonopt != optind {
                call.exchange(st, optind);
            } else if st.first_nonopt == st.last_nonopt {
                st.first_nonopt = optind;
            }
            st.last_nonopt = call.argc;
            optind = call.argc;
        }
        if optind >= call.argc {
            if st.first_nonopt != st.last_nonopt {
                optind = st.first_nonopt;
            }
            OPTIND.set(optind as i32);
            return -1;
        }
        if call.is_nonoption(optind) {
            if ordering == Ordering::RequireOrder {
                OPTIND.set(optind as i32);
                return -1;
            }
            set_optarg(call.arg(optind));
            OPTIND.set(optind as i32 + 1);
            return 1;
        }
        let text = call.arg_text(optind);
        if let Some(longs) = &call.longs {
            let double = text[1] == b'-';
            let try_long =
                double || (call.long_only && (text.len() > 2 || !opts.contains(&text[1])));
            if try_long {
                let start = if double { 2 } else { 1 };
                match long_option(call, longs, &mut optind, start, opts) {
                    LongResult::Done(r) => {
                        OPTIND.set(optind as i32);
                        return r;
                    }
                    LongResult::TryShort => {}
                }
            }
        }
        st.next = Some((optind, 1));
    }

    // A short option at st.next.
    let (i, off) = st.next.expect("a position inside an option cluster");
    let text = call.arg_text(i);
    let c = text[off];
    let rest = off + 1;
    let at_last = rest >= text.len();
    if at_last {
        optind = i + 1;
        st.next = None;
    } else {
        st.next = Some((i, rest));
    }
    let spec = opts.iter().position(|&o| o == c);
    let Some(pos) = spec.filter(|_| c != b':' && c != b';') else {
        let mut m = b"invalid option -- '".to_vec();
        m.push(c);
        m.push(b'\'');
        call.complain(&m);
        OPTOPT.set(i32::from(c));
        OPTIND.set(optind as i32);
        return i32::from(b'?');
    };
    if opts.get(pos + 1) == Some(&b':') {
        let optional = opts.get(pos + 2) == Some(&b':');
        if !at_last {
            set_optarg(call.arg(i).offset(rest as isize));
            optind = i + 1;
        } else if optional {
            set_optarg(FlightPtr::NULL);
        } else if optind >= call.argc {
            let mut m = b"option requires an argument -- '".to_vec();
            m.push(c);
            m.push(b'\'');
            call.complain(&m);
            OPTOPT.set(i32::from(c));
            OPTIND.set(optind as i32);
            return i32::from(if call.colon { b':' } else { b'?' });
        } else {
            set_optarg(call.arg(optind));
            optind += 1;
        }
        st.next = None;
    }
    OPTIND.set(optind as i32);
    i32::from(c)
}

enum LongResult {
    Done(i32),
    /// `getopt_long_only`: not a long option, but a short one.
    TryShort,
}

/// Handles `argv[*optind]` as a long option whose name starts at `start`.
fn long_option(
    call: &Call,
    longs: &[LongOption],
    optind: &mut usize,
    start: usize,
    opts: &[u8],
) -> LongResult {
    let i = *optind;
    let arg = call.arg(i);
    let text = call.arg_text(i);
    let body = &text[start..];
    let name_len = body.iter().position(|&b| b == b'=').unwrap_or(body.len());
    let name = &body[..name_len];
    let prefix = &text[..start];
    let exact = longs.iter().position(|o| o.name == name);
    let found = exact.or_else(|| {
        let matches: Vec<usize> = (0..longs.len())
            .filter(|&k| longs[k].name.starts_with(name))
            .collect();
        let first = *matches.first()?;
        let same = |k: &usize| {
            let (a, b) = (&longs[first], &longs[*k]);
            a.has_arg == b.has_arg && a.flag == b.flag && a.val == b.val
        };
        if matches.iter().all(same) {
            return Some(first);
        }
        let mut m = b"option '".to_vec();
        m.extend_from_slice(prefix);
        m.extend_from_slice(name);
        m.extend_from_slice(b"' is ambiguous");
        call.complain(&m);
        Some(AMBIGUOUS)
    });
    let Some(k) = found else {
        if call.long_only && start == 1 && opts.contains(&text[1]) {
            return LongResult::TryShort;
        }
        let mut m = b"unrecognized option '".to_vec();
        m.extend_from_slice(prefix);
        m.extend_from_slice(name);
        m.push(b'\'');
        call.complain(&m);
        *optind += 1;
        OPTOPT.set(0);
        return LongResult::Done(i32::from(b'?'));
    };
    *optind += 1;
    if k == AMBIGUOUS {
        OPTOPT.set(0);
        return LongResult::Done(i32::from(b'?'));
    }
    let o = &longs[k];
    if name_len < body.len() {
        if o.has_arg == NO_ARGUMENT {
            let mut m = b"option '".to_vec();
            m.extend_from_slice(prefix);
            m.extend_from_slice(&o.name);
            m.extend_from_slice(b"' doesn't allow an argument");
            call.complain(&m);
            OPTOPT.set(o.val);
            return LongResult::Done(i32::from(b'?'));
        }
        set_optarg(arg.offset((start + name_len + 1) as isize));
    } else if o.has_arg == REQUIRED_ARGUMENT {
        if *optind < call.argc {
            set_optarg(call.arg(*optind));
            *optind += 1;
        } else {
            let mut m = b"option '".to_vec();
            m.extend_from_slice(prefix);
            m.extend_from_slice(&o.name);
            m.extend_from_slice(b"' requires an argument");
            call.complain(&m);
            OPTOPT.set(o.val);
            return LongResult::Done(i32::from(if call.colon { b':' } else { b'?' }));
        }
    }
    if call.long_index.intval() != 0 {
        mem::write_int(call.long_index, &(k as i32).to_ne_bytes());
    }
    if o.flag.intval() != 0 {
        mem::write_int(o.flag, &o.val.to_ne_bytes());
        return LongResult::Done(0);
    }
    LongResult::Done(o.val)
}

fn getopt_common(
    argc: i32,
    argv: FlightPtr,
    optstring: FlightPtr,
    longopts: Option<FlightPtr>,
    long_index: FlightPtr,
    long_only: bool,
) -> i32 {
    let opts = mem::c_string(optstring);
    let body = opts.strip_prefix(b"+").or_else(|| opts.strip_prefix(b"-"));
    let colon = body.unwrap_or(&opts).first() == Some(&b':');
    let call = Call {
        argc: argc.max(0) as usize,
        argv,
        opts: &opts,
        longs: longopts.map(read_long_options),
        long_only,
        long_index,
        print: OPTERR.get() != 0 && !colon,
        colon,
    };
    let mut st = STATE.lock();
    next_option(&call, &mut st)
}

wrapper! {
    /// `int getopt(int argc, char *const argv[], const char *optstring)`.
    fn getopt(argc: i32, argv: FlightPtr, optstring: FlightPtr) -> i32 {
        getopt_common(argc, argv, optstring, None, FlightPtr::NULL, false)
    }
}

wrapper! {
    /// `int getopt_long(int argc, char *const argv[], const char *optstring,
    /// const struct option *longopts, int *longindex)`.
    fn getopt_long(argc: i32, argv: FlightPtr, optstring: FlightPtr, longopts: FlightPtr, longindex: FlightPtr) -> i32 {
        getopt_common(argc, argv, optstring, Some(longopts), longindex, false)
    }
}

wrapper! {
    /// `int getopt_long_only(...)`: long options may start with one dash.
    fn getopt_long_only(argc: i32, argv: FlightPtr, optstring: FlightPtr, longopts: FlightPtr, longindex: FlightPtr) -> i32 {
        getopt_common(argc, argv, optstring, Some(longopts), longindex, true)
    }
}
