//! The `scanf` engine. It reads characters from an [`Input`] (a checked
//! copy of `sscanf`'s string, or a libc stream read with `fgetc`/`ungetc`
//! so that the stream position stays right), converts them, and stores
//! each result through a destination pointer taken from the variadic
//! arguments (or a `va_list`) like the `printf` engine takes its
//! arguments. Every store is checked for exactly the bytes it writes:
//! `%d` writes 4 bytes (`%hhd` 1, `%hd` 2, `%ld`/`%lld`/`%jd`/`%zd`/`%td`
//! 8), `%f` 4 (`%lf` 8, `%Lf` 16), `%s` and `%[` the characters read and
//! a NUL, `%c` the characters read, `%n` the size its length modifier
//! gives, `%p` a pointer (with no capability). A destination that is no
//! pointer has no capability and its store is a safety error. The
//! program's pointers are never handed to libc.
//!
//! Supported: whitespace and ordinary characters, conversions `d i u o x
//! X c s [ n f e g a E G F A p %`, widths, `*` suppression, length
//! modifiers `hh h l ll q L j z t`, the POSIX `m` modifier (`%ms`, `%mc`,
//! `%m[`: a fresh GC object stored at a `char **`), wide `%lc`, `%ls`,
//! `%l[` (each byte becomes one `wchar_t`). Positional `%N$` conversions
//! are not supported (the scan stops there, as at a matching failure).
//! The result is the number of assignments, or `EOF` if the input ended
//! before any assignment (glibc's rule).

use gimso_abi::FlightPtr;
use gimso_shadow::check::Access;

use crate::format::ArgSource;
use crate::mem;

/// Where `scanf` reads characters from.
pub trait Input {
    /// The next character, or `None` at the end of the input.
    fn get(&mut self) -> Option<u8>;
    /// Pushes back `c`, the character [`Input::get`] just returned.
    fn unget(&mut self, c: u8);
    /// Characters consumed so far (`%n`).
    fn consumed(&self) -> usize;
}

/// The input of `sscanf`: a checked copy of the string.
#[derive(Debug)]
pub struct StrInput {
    bytes: Vec<u8>,
    pos: usize,
}

impl StrInput {
    /// Input from the bytes of a string (without its NUL).
    pub fn new(bytes: Vec<u8>) -> StrInput {
        StrInput { bytes, pos: 0 }
    }
}

impl Input for StrInput {
    fn get(&mut self) -> Option<u8> {
        let c = self.bytes.get(self.pos).copied();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }
    fn unget(&mut self, _c: u8) {
        self.pos -= 1;
    }
    fn consumed(&self) -> usize {
        self.pos
    }
}

/// C's `isspace` in the C locale.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Skips whitespace; false at the end of the input.
fn skip_space(input: &mut impl Input) -> bool {
    loop {
        match input.get() {
            None => return false,
            Some(c) if is_space(c) => {}
            Some(c) => {
                input.unget(c);
                return true;
            }
        }
    }
}

/// Reads the next character if `accept` takes it (and `len < max`).
fn take(input: &mut impl Input, len: usize, max: usize, accept: impl Fn(u8) -> bool) -> Option<u8> {
    if len >= max {
        return None;
    }
    let c = input.get()?;
    if accept(c) {
        Some(c)
    } else {
        input.unget(c);
        None
    }
}

/// Why a scan stopped early.
enum Stop {
    /// The input ended (an input failure).
    Input,
    /// The input did not match (a matching failure) or the format is bad.
    Match,
}

/// Scans an integer in `base` (0: C's prefixes decide) of at most `max`
/// characters: `(negative, magnitude)`, the magnitude saturated.
fn scan_int(input: &mut impl Input, max: usize, mut base: u32) -> Result<(bool, u128), Stop> {
    let mut len = 0;
    let mut negative = false;
    if let Some(c) = take(input, len, max, |c| c == b'+' || c == b'-') {
        negative = c == b'-';
        len += 1;
    }
    let mut digits = false;
    if (base == 0 || base == 16) && take(input, len, max, |c| c == b'0').is_some() {
        len += 1;
        digits = true;
        if take(input, len, max, |c| c == b'x' || c == b'X').is_some() {
            len += 1;
            base = 16;
        } else if base == 0 {
            base = 8;
        }
    }
    if base == 0 {
        base = 10;
    }
    let mut value: u128 = 0;
    while let Some(c) = take(input, len, max, |c| (c as char).is_digit(base)) {
        len += 1;
        digits = true;
        let d = (c as char).to_digit(base).unwrap_or(0);
        value = value
            .saturating_mul(u128::from(base))
            .saturating_add(u128::from(d));
    }
    if digits {
        Ok((negative, value))
    } else if len == 0 && input_at_end(input) {
        Err(Stop::Input)
    } else {
        Err(Stop::Match)
    }
}

/// Whether the input is at its end (without consuming anything).
fn input_at_end(input: &mut impl Input) -> bool {
    match input.get() {
        None => true,
        Some(c) => {
            input.unget(c);
            false
        }
    }
}

/// `strtol`'s value of a scanned integer.
fn signed_value(negative: bool, m: u128) -> u64 {
    if negative {
        if m > 1u128 << 63 {
            i64::MIN as u64
        } else {
            (m as u64).wrapping_neg()
        }
    } else {
        m.min(i64::MAX as u128) as u64
    }
}

/// `strtoul`'s value of a scanned integer.
fn unsigned_value(negative: bool, m: u128) -> u64 {
    if m > u128::from(u64::MAX) {
        u64::MAX
    } else if negative {
        (m as u64).wrapping_neg()
    } else {
        m as u64
    }
}

/// Scans the characters of a floating-point number (at most `max`) in
/// the syntax `strtod` accepts.
fn scan_float(input: &mut impl Input, max: usize) -> Result<Vec<u8>, Stop> {
    let mut s = Vec::new();
    if let Some(c) = take(input, s.len(), max, |c| c == b'+' || c == b'-') {
        s.push(c);
    }
    // inf, infinity, nan, nan(chars)
    let letter = |word: &'static [u8], i: usize| move |c: u8| c.eq_ignore_ascii_case(&word[i]);
    for word in [&b"inf"[..], &b"nan"[..]] {
        if let Some(c) = take(input, s.len(), max, letter(word, 0)) {
            s.push(c);
            for i in 1..3 {
                match take(input, s.len(), max, letter(word, i)) {
                    Some(c) => s.push(c),
                    None => return Err(Stop::Match),
                }
            }
            if word == b"inf" {
                // "infinity"; when broken off ("infi…"), strtod reads
                // the "inf" and the rest is lost, as in glibc.
                for want in b"inity" {
                    match take(input, s.len(), max, |c| c.eq_ignore_ascii_case(want)) {
                        Some(c) => s.push(c),
                        None => break,
                    }
                }
            } else if take(input, s.len(), max, |c| c == b'(').is_some() {
                s.push(b'(');
                while let Some(c) = take(input, s.len(), max, |c| {
                    c.is_ascii_alphanumeric() || c == b'_'
                }) {
                    s.push(c);
                }
                match take(input, s.len(), max, |c| c == b')') {
                    Some(c) => s.push(c),
                    None => return Err(Stop::Match),
                }
            }
            return Ok(s);
        }
    }
    let mut hex = false;
    let mut digits = false;
    if take(input, s.len(), max, |c| c == b'0').is_some() {
        s.push(b'0');
        digits = true;
        if let Some(c) = take(input, s.len(), max, |c| c == b'x' || c == b'X') {
            s.push(c);
            hex = true;
        }
    }
    let is_digit = move |c: u8| {
        if hex {
            c.is_ascii_hexdigit()
        } else {
            c.is_ascii_digit()
        }
    };
    while let Some(c) = take(input, s.len(), max, is_digit) {
        s.push(c);
        digits = true;
    }
    if take(input, s.len(), max, |c| c == b'.').is_some() {
        s.push(b'.');
        while let Some(c) = take(input, s.len(), max, is_digit) {
            s.push(c);
            digits = true;
        }
    }
    if !digits {
        return Err(if s.is_empty() && input_at_end(input) {
            Stop::Input
        } else {
            Stop::Match
        });
    }
    let exp: &[u8] = if hex { b"pP" } else { b"eE" };
    if let Some(c) = take(input, s.len(), max, |c| exp.contains(&c)) {
        s.push(c);
        if let Some(c) = take(input, s.len(), max, |c| c == b'+' || c == b'-') {
            s.push(c);
        }
        while let Some(c) = take(input, s.len(), max, |c| c.is_ascii_digit()) {
            s.push(c);
        }
    }
    Ok(s)
}

/// The bytes a floating-point conversion of `size` bytes stores for the
/// number `text` (as `strtof`/`strtod`/`strtold` convert it).
fn float_bytes(text: &[u8], size: usize) -> Vec<u8> {
    let mut c = text.to_vec();
    c.push(0);
    match size {
        4 => {
            // SAFETY: `c` is NUL-terminated.
            let v = unsafe { libc::strtof(c.as_ptr().cast(), core::ptr::null_mut()) };
            v.to_ne_bytes().to_vec()
        }
        8 => {
            // SAFETY: `c` is NUL-terminated.
            let v = unsafe { libc::strtod(c.as_ptr().cast(), core::ptr::null_mut()) };
            v.to_ne_bytes().to_vec()
        }
        _ => {
            // Rust has no x87 `long double`: libc's own sscanf converts
            // the private copy into a private 16-byte buffer.
            #[repr(C, align(16))]
            struct LongDouble([u8; 16]);
            let mut out = LongDouble([0; 16]);
            // SAFETY: `c` is NUL-terminated, "%Lg" stores one long double
            // (16 bytes on x86-64) into `out`.
            unsafe {
                libc::sscanf(c.as_ptr().cast(), c"%Lg".as_ptr(), out.0.as_mut_ptr());
            }
            out.0.to_vec()
        }
    }
}

/// The set of a `%[` conversion; `fmt[*i]` is just after the `[`.
fn parse_set(fmt: &[u8], i: &mut usize) -> Option<[bool; 256]> {
    let mut set = [false; 256];
    let negate = fmt.get(*i) == Some(&b'^');
    if negate {
        *i += 1;
    }
    let start = *i;
    loop {
        let c = *fmt.get(*i)?;
        if c == b']' && *i > start {
            *i += 1;
            break;
        }
        if fmt.get(*i + 1) == Some(&b'-') && fmt.get(*i + 2).is_some_and(|&e| e != b']' && e >= c) {
            let end = fmt[*i + 2];
            for b in c..=end {
                set[b as usize] = true;
            }
            *i += 3;
        } else {
            set[c as usize] = true;
            *i += 1;
        }
    }
    if negate {
        for b in &mut set {
            *b = !*b;
        }
    }
    Some(set)
}

/// One parsed conversion.
struct Spec {
    suppress: bool,
    width: Option<usize>,
    alloc: bool,
    length: &'static [u8],
    conv: u8,
}

impl Spec {
    /// Bytes an integer conversion stores.
    fn int_size(&self) -> usize {
        match self.length {
            b"hh" => 1,
            b"h" => 2,
            b"" => 4,
            _ => 8,
        }
    }

    /// Bytes a floating-point conversion stores.
    fn float_size(&self) -> usize {
        match self.length {
            b"" => 4,
            b"l" => 8,
            _ => 16,
        }
    }

    fn wide(&self) -> bool {
        self.length == b"l"
    }
}

/// Stores `bytes` (a string conversion's result) at the next destination,
/// or in a fresh object whose address is stored there (`m`).
fn store_chars(args: &mut impl ArgSource, spec: &Spec, bytes: &[u8], nul: bool) {
    let mut data = Vec::with_capacity(bytes.len() * 4 + 4);
    for &b in bytes {
        if spec.wide() {
            data.extend_from_slice(&u32::from(b).to_ne_bytes());
        } else {
            data.push(b);
        }
    }
    if nul {
        let zero: &[u8] = if spec.wide() { &[0; 4] } else { &[0] };
        data.extend_from_slice(zero);
    }
    let dest = args.ptr();
    if spec.alloc {
        mem::check_access(dest, Access::POINTER_WRITE);
        let p = mem::alloc(data.len().max(1), 16, 0);
        mem::write_bytes(p, &data);
        mem::store_ptr(dest, p);
    } else {
        mem::write_bytes(dest, &data);
    }
}

/// Runs the scan of `fmt` over `input`, storing through pointers from
/// `args`: the number of assignments, or `EOF` if the input ended before
/// the first one.
pub fn scan(fmt: &[u8], input: &mut impl Input, args: &mut impl ArgSource) -> i32 {
    let mut done: i32 = 0;
    let input_failure = |done: i32| if done == 0 { libc::EOF } else { done };
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        if is_space(c) {
            while i < fmt.len() && is_space(fmt[i]) {
                i += 1;
            }
            skip_space(input);
            continue;
        }
        if c != b'%' {
            i += 1;
            match input.get() {
                None => return input_failure(done),
                Some(x) if x == c => continue,
                Some(x) => {
                    input.unget(x);
                    return done;
                }
            }
        }
        i += 1;
        let Some(spec) = parse_spec(fmt, &mut i) else {
            return done;
        };
        if !matches!(spec.conv, b'[' | b'c' | b'n') && !skip_space(input) {
            return input_failure(done);
        }
        match convert(&spec, fmt, &mut i, input, args) {
            Ok(assigned) => done += i32::from(assigned),
            Err(Stop::Input) => return input_failure(done),
            Err(Stop::Match) => return done,
        }
    }
    done
}

/// The conversion specification after a `%` at `fmt[*i]` (flags, width,
/// `m`, length, conversion), moving `*i` past it; `None` at the end of
/// the format or for a positional (`n$`) conversion, which is not
/// supported.
fn parse_spec(fmt: &[u8], i: &mut usize) -> Option<Spec> {
    let mut spec = Spec {
        suppress: false,
        width: None,
        alloc: false,
        length: b"",
        conv: 0,
    };
    if fmt.get(*i) == Some(&b'*') {
        spec.suppress = true;
        *i += 1;
    }
    let mut width = 0usize;
    let mut has_width = false;
    while let Some(d) = fmt.get(*i).filter(|d| d.is_ascii_digit()) {
        width = width.saturating_mul(10).saturating_add((d - b'0') as usize);
        has_width = true;
        *i += 1;
    }
    if fmt.get(*i) == Some(&b'$') {
        return None;
    }
    if has_width && width > 0 {
        spec.width = Some(width);
    }
    if fmt.get(*i) == Some(&b'm') {
        spec.alloc = true;
        *i += 1;
    }
    const LENGTHS: [&[u8]; 9] = [b"hh", b"ll", b"h", b"l", b"L", b"q", b"j", b"z", b"t"];
    if let Some(m) = LENGTHS
        .iter()
        .find(|m| fmt[(*i).min(fmt.len())..].starts_with(m))
    {
        spec.length = m;
        *i += m.len();
    }
    spec.conv = *fmt.get(*i)?;
    *i += 1;
    Some(spec)
}

/// Runs one conversion (leading white space already skipped where it
/// applies); whether it assigned. A scan set's `]` is read from `fmt` at
/// `*i`.
fn convert(
    spec: &Spec,
    fmt: &[u8],
    i: &mut usize,
    input: &mut impl Input,
    args: &mut impl ArgSource,
) -> Result<bool, Stop> {
    let max = spec.width.unwrap_or(usize::MAX);
    let conv = spec.conv;
    match conv {
        b'%' => match input.get() {
            None => Err(Stop::Input),
            Some(b'%') => Ok(false),
            Some(x) => {
                input.unget(x);
                Err(Stop::Match)
            }
        },
        b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'p' => {
            let base = match conv {
                b'd' | b'u' => 10,
                b'i' => 0,
                b'o' => 8,
                _ => 16,
            };
            let (negative, m) = scan_int(input, max, base)?;
            if spec.suppress {
                return Ok(false);
            }
            let v = if matches!(conv, b'd' | b'i') {
                signed_value(negative, m)
            } else {
                unsigned_value(negative, m)
            };
            let dest = args.ptr();
            if conv == b'p' {
                mem::store_ptr(dest, FlightPtr::from_int(v as usize));
            } else {
                mem::write_int(dest, &v.to_ne_bytes()[..spec.int_size()]);
            }
            Ok(true)
        }
        b'f' | b'e' | b'g' | b'a' | b'E' | b'G' | b'F' | b'A' => {
            let text = scan_float(input, max)?;
            if spec.suppress {
                return Ok(false);
            }
            let bytes = float_bytes(&text, spec.float_size());
            mem::write_int(args.ptr(), &bytes);
            Ok(true)
        }
        b'c' => {
            let want = spec.width.unwrap_or(1);
            let mut got = Vec::new();
            while got.len() < want {
                match input.get() {
                    Some(c) => got.push(c),
                    None => break,
                }
            }
            if got.is_empty() {
                return Err(Stop::Input);
            }
            if !spec.suppress {
                store_chars(args, spec, &got, false);
            }
            Ok(!spec.suppress)
        }
        b's' => {
            let mut got = Vec::new();
            while let Some(c) = take(input, got.len(), max, |c| !is_space(c)) {
                got.push(c);
            }
            if !spec.suppress {
                store_chars(args, spec, &got, true);
            }
            Ok(!spec.suppress)
        }
        b'[' => {
            let set = parse_set(fmt, i).ok_or(Stop::Match)?;
            let mut got = Vec::new();
            while let Some(c) = take(input, got.len(), max, |c| set[c as usize]) {
                got.push(c);
            }
            if got.is_empty() {
                return Err(if input_at_end(input) {
                    Stop::Input
                } else {
                    Stop::Match
                });
            }
            if !spec.suppress {
                store_chars(args, spec, &got, true);
            }
            Ok(!spec.suppress)
        }
        b'n' => {
            if !spec.suppress {
                let n = input.consumed() as u64;
                mem::write_int(args.ptr(), &n.to_ne_bytes()[..spec.int_size()]);
            }
            Ok(false)
        }
        _ => Err(Stop::Match),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_int(s: &str, base: u32) -> Option<(bool, u128, usize)> {
        let mut input = StrInput::new(s.as_bytes().to_vec());
        let r = scan_int(&mut input, usize::MAX, base).ok()?;
        Some((r.0, r.1, input.consumed()))
    }

    #[test]
    fn integers() {
        assert_eq!(parse_int("-42x", 10), Some((true, 42, 3)));
        assert_eq!(parse_int("0x1fg", 0), Some((false, 31, 4)));
        assert_eq!(parse_int("017", 0), Some((false, 15, 3)));
        assert_eq!(parse_int("0x", 16), Some((false, 0, 2)));
        assert_eq!(parse_int("abc", 10), None);
        assert_eq!(signed_value(true, 1 << 70), i64::MIN as u64);
        assert_eq!(unsigned_value(true, 1), u64::MAX);
    }

    #[test]
    fn floats() {
        let mut input = StrInput::new(b"-1.5e3x".to_vec());
        assert_eq!(
            scan_float(&mut input, usize::MAX).ok(),
            Some(b"-1.5e3".to_vec())
        );
        let mut input = StrInput::new(b"INFINITY".to_vec());
        assert_eq!(
            scan_float(&mut input, usize::MAX).ok(),
            Some(b"INFINITY".to_vec())
        );
        let mut input = StrInput::new(b"0x1p4".to_vec());
        assert_eq!(
            float_bytes(&scan_float(&mut input, 9).ok().unwrap(), 8),
            16f64.to_ne_bytes()
        );
    }

    #[test]
    fn sets() {
        let mut i = 0;
        let set = parse_set(b"]a-c]", &mut i).unwrap();
        assert_eq!(i, 5);
        assert!(set[b']' as usize] && set[b'b' as usize] && !set[b'd' as usize]);
        let mut i = 0;
        let set = parse_set(b"^,]", &mut i).unwrap();
        assert!(!set[b',' as usize] && set[b'x' as usize]);
    }
}
