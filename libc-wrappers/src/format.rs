//! The `printf` engine: parses a C format, takes each argument from the
//! CC buffers (`...`) or a `va_list` object, checks what it dereferences
//! (`%s` strings, `%n` targets), and formats each conversion with glibc's
//! own `vsnprintf` so that the output is byte-identical to glibc's. The
//! commonest conversions (`%d`, `%i`, `%u`, `%s` with no flags, width or
//! precision) are formatted here instead, with the digits glibc prints:
//! a whole format of only those takes `format_plain`, which does not parse
//! conversions into a `Spec` at all.
//!
//! Supported: flags `-+ #0'I`, widths and precisions (numbers or `*`),
//! positional arguments (`%2$d`, `*1$`), length modifiers `hh h l ll L q
//! j z Z t`, conversions `d i o u x X e E f F g G a A c s p n m %` and the
//! wide `%lc`/`%ls` (`%C`/`%S`). Each conversion's argument is handed to
//! glibc in a hand-built x86-64 `va_list`, which is how an x87 `long
//! double` (which Rust cannot pass) reaches it intact.

use core::ffi::{c_char, c_int, c_void};

use gimso_abi::FlightPtr;
use gimso_shadow::check::Access;

use crate::cc::VarArgs;
use crate::mem;

/// Where the values of a format's arguments come from.
pub trait ArgSource {
    /// The next 8-byte slot (an `int` in its low half, a `long`, a
    /// `double`'s bits).
    fn word(&mut self) -> u64;
    /// The next pointer with its capability.
    fn ptr(&mut self) -> FlightPtr;
    /// The next `long double` (16 bytes, 16-aligned), as its two words.
    fn pair(&mut self) -> [u64; 2];
}

impl ArgSource for VarArgs {
    fn word(&mut self) -> u64 {
        self.args().next_word()
    }
    fn ptr(&mut self) -> FlightPtr {
        self.args().next_ptr()
    }
    fn pair(&mut self) -> [u64; 2] {
        self.args().next_pair()
    }
}

/// The arguments behind a compiled caller's `va_list` (x86-64 layout
/// `{i32 gp_offset, i32 fp_offset, ptr overflow_arg_area, ptr
/// reg_save_area}`, where gimso always keeps the arguments in the overflow
/// area: a read-only object holding the caller's CC buffer copy). Every
/// read is checked against that object's capability.
#[derive(Debug)]
pub struct VaList {
    cur: FlightPtr,
}

impl VaList {
    /// Opens the `va_list` that `ap` points to (checked).
    pub fn open(ap: FlightPtr) -> VaList {
        mem::check_access(ap, Access::read(24));
        VaList {
            cur: mem::load_ptr(ap.offset(8)),
        }
    }
}

impl ArgSource for VaList {
    fn word(&mut self) -> u64 {
        let v = u64::from_ne_bytes(mem::read_int::<8>(self.cur));
        self.cur = self.cur.offset(8);
        v
    }
    fn ptr(&mut self) -> FlightPtr {
        let v = mem::load_ptr(self.cur);
        self.cur = self.cur.offset(8);
        v
    }
    fn pair(&mut self) -> [u64; 2] {
        let misalign = self.cur.intval() & 15;
        if misalign != 0 {
            self.cur = self.cur.offset((16 - misalign) as isize);
        }
        let a = self.word();
        let b = self.word();
        [a, b]
    }
}

/// What a format needs from one argument slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `int` (and everything promoted to it).
    Int,
    /// 8-byte integers.
    Long,
    /// `double`.
    Double,
    /// `long double`.
    LongDouble,
    /// Pointers (`%s`, `%p`, `%n`).
    Ptr,
}

/// A fetched argument.
#[derive(Clone, Copy, Debug)]
enum Value {
    Word(u64),
    Double(f64),
    LongDouble([u64; 2]),
    Ptr(FlightPtr),
}

impl Value {
    fn word(self) -> u64 {
        match self {
            Value::Word(w) => w,
            Value::Double(d) => d.to_bits(),
            Value::LongDouble(w) => w[0],
            Value::Ptr(p) => p.intval() as u64,
        }
    }
    fn double(self) -> f64 {
        match self {
            Value::Double(d) => d,
            Value::LongDouble(w) => f80_to_f64(w),
            other => f64::from_bits(other.word()),
        }
    }
    fn long_double(self) -> [u64; 2] {
        match self {
            Value::LongDouble(w) => w,
            other => f64_to_f80(other.double()),
        }
    }
    fn ptr(self) -> FlightPtr {
        match self {
            Value::Ptr(p) => p,
            // A positional slot used as another type: no capability.
            other => FlightPtr::from_int(other.word() as usize),
        }
    }
}

fn fetch(src: &mut impl ArgSource, kind: Kind) -> Value {
    match kind {
        Kind::Int | Kind::Long => Value::Word(src.word()),
        Kind::Double => Value::Double(f64::from_bits(src.word())),
        Kind::LongDouble => Value::LongDouble(src.pair()),
        Kind::Ptr => Value::Ptr(src.ptr()),
    }
}

/// Converts an x87 80-bit extended value (low 10 bytes of `w`) to `f64`.
pub fn f80_to_f64(w: [u64; 2]) -> f64 {
    let mantissa = w[0];
    let se = (w[1] & 0xffff) as u32;
    let sign = if se & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = (se & 0x7fff) as i32;
    if exp == 0x7fff {
        return if mantissa << 1 == 0 {
            sign * f64::INFINITY
        } else {
            f64::NAN
        };
    }
    if mantissa == 0 {
        return sign * 0.0;
    }
    // value = mantissa * 2^(exp - 16383 - 63); scale in steps to avoid
    // overflowing the intermediate powers.
    let mut v = mantissa as f64;
    let mut e = exp - 16383 - 63;
    while e > 0 {
        let step = e.min(1000);
        v *= 2f64.powi(step);
        e -= step;
    }
    while e < 0 {
        let step = (-e).min(1000);
        v *= 2f64.powi(-step);
        e += step;
    }
    sign * v
}

/// Converts an `f64` to x87 80-bit extended (exact), as its two words.
pub fn f64_to_f80(d: f64) -> [u64; 2] {
    let bits = d.to_bits();
    let sign = (bits >> 63) << 15;
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1 << 52) - 1);
    let (e, m) = if exp == 0x7ff {
        (0x7fff, (1 << 63) | (frac << 11))
    } else if exp == 0 {
        if frac == 0 {
            (0, 0)
        } else {
            // Subnormal: normalise the fraction.
            let shift = frac.leading_zeros() as i64;
            (-1022 - (shift - 11) + 16383, frac << shift)
        }
    } else {
        (exp - 1023 + 16383, (1 << 63) | (frac << 11))
    };
    [m, sign | e as u64]
}

/// Width or precision: absent, a number, or from an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Amount {
    None,
    Fixed(usize),
    /// `*` (next argument) or `*N$` (argument N, 1-based).
    Arg(Option<usize>),
}

/// The flag characters glibc accepts, in the order they are re-emitted.
const FLAGS: &[u8] = b"-+ #0'I";

/// One parsed conversion (borrowing nothing: parsing allocates nothing).
#[derive(Clone, Copy, Debug)]
struct Spec {
    /// `N$` of the value, if positional.
    position: Option<usize>,
    /// Bit i set: flag `FLAGS[i]` given.
    flags: u8,
    width: Amount,
    precision: Amount,
    length: &'static [u8],
    conv: u8,
}

impl Spec {
    /// Length modifier that makes an integer conversion 8 bytes wide.
    fn wide_int(&self) -> bool {
        matches!(
            self.length,
            b"l" | b"ll" | b"q" | b"j" | b"z" | b"Z" | b"t" | b"L"
        )
    }

    fn kind(&self) -> Option<Kind> {
        match self.conv {
            b'd' | b'i' | b'o' | b'u' | b'x' | b'X' => Some(if self.wide_int() {
                Kind::Long
            } else {
                Kind::Int
            }),
            b'c' | b'C' => Some(Kind::Int),
            b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A' => Some(if self.length == b"L" {
                Kind::LongDouble
            } else {
                Kind::Double
            }),
            b's' | b'S' | b'p' | b'n' => Some(Kind::Ptr),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Piece<'a> {
    Literal(&'a [u8]),
    Conv(Spec),
    /// A conversion glibc does not know: printed as written.
    Unknown(&'a [u8]),
}

fn parse_number(fmt: &[u8], i: &mut usize) -> Option<usize> {
    let start = *i;
    let mut n: usize = 0;
    while *i < fmt.len() && fmt[*i].is_ascii_digit() {
        n = n
            .saturating_mul(10)
            .saturating_add((fmt[*i] - b'0') as usize);
        *i += 1;
    }
    (*i > start).then_some(n)
}

/// `*` or `*N$` at `i` (after the `*`).
fn parse_star(fmt: &[u8], i: &mut usize) -> Amount {
    let save = *i;
    if let Some(n) = parse_number(fmt, i) {
        if *i < fmt.len() && fmt[*i] == b'$' && n > 0 {
            *i += 1;
            return Amount::Arg(Some(n));
        }
    }
    *i = save;
    Amount::Arg(None)
}

/// The pieces of a format, in order.
struct Pieces<'a> {
    fmt: &'a [u8],
    i: usize,
}

impl<'a> Pieces<'a> {
    fn new(fmt: &'a [u8]) -> Self {
        Pieces { fmt, i: 0 }
    }
}

impl<'a> Iterator for Pieces<'a> {
    type Item = Piece<'a>;

    fn next(&mut self) -> Option<Piece<'a>> {
        let fmt = self.fmt;
        let mut i = self.i;
        if i >= fmt.len() {
            return None;
        }
        if fmt[i] != b'%' {
            let end = fmt[i..]
                .iter()
                .position(|&b| b == b'%')
                .map_or(fmt.len(), |n| i + n);
            self.i = end;
            return Some(Piece::Literal(&fmt[i..end]));
        }
        let start = i;
        i += 1;
        let mut spec = Spec {
            position: None,
            flags: 0,
            width: Amount::None,
            precision: Amount::None,
            length: b"",
            conv: 0,
        };
        let save = i;
        match parse_number(fmt, &mut i) {
            Some(n) if n > 0 && i < fmt.len() && fmt[i] == b'$' => {
                spec.position = Some(n);
                i += 1;
            }
            _ => i = save,
        }
        while let Some(f) = fmt.get(i).and_then(|c| FLAGS.iter().position(|f| f == c)) {
            spec.flags |= 1 << f;
            i += 1;
        }
        if fmt.get(i) == Some(&b'*') {
            i += 1;
            spec.width = parse_star(fmt, &mut i);
        } else if let Some(n) = parse_number(fmt, &mut i) {
            spec.width = Amount::Fixed(n);
        }
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                spec.precision = parse_star(fmt, &mut i);
            } else {
                spec.precision = Amount::Fixed(parse_number(fmt, &mut i).unwrap_or(0));
            }
        }
        const LENGTHS: [&[u8]; 10] = [b"hh", b"ll", b"h", b"l", b"L", b"q", b"j", b"z", b"Z", b"t"];
        if let Some(m) = LENGTHS
            .iter()
            .find(|m| fmt[i.min(fmt.len())..].starts_with(m))
        {
            spec.length = m;
            i += m.len();
        }
        let Some(&conv) = fmt.get(i) else {
            // A format ending inside a conversion: glibc prints nothing
            // for it.
            self.i = fmt.len();
            return None;
        };
        spec.conv = conv;
        i += 1;
        self.i = i;
        Some(if conv == b'%' && spec.position.is_none() {
            Piece::Literal(b"%")
        } else if spec.kind().is_some() || conv == b'm' {
            Piece::Conv(spec)
        } else {
            Piece::Unknown(&fmt[start..i])
        })
    }
}

/// A formatting failure glibc reports by returning -1 (with errno set).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatError {
    /// The errno value.
    pub errno: i32,
}

/// Formats `fmt` with arguments from `src`. `%n` conversions store the
/// count of bytes produced so far (checked writes).
pub fn format(fmt: &[u8], src: &mut impl ArgSource) -> Result<Vec<u8>, FormatError> {
    if let Some(out) = format_plain(fmt, src) {
        return Ok(out);
    }
    let mut out = Vec::with_capacity(fmt.len() + 32);
    format_into(fmt, src, &mut out, |out, l| out.extend_from_slice(l))?;
    Ok(out)
}

/// Formats the wide format `fmt` (`wchar_t` units, without the
/// terminator) as `swprintf` does, into wide units. `%s` and `%c` convert
/// from the locale's multibyte encoding, `%ls` and `%lc` take wide
/// characters; `%n` stores the count of wide characters produced so far.
pub fn format_wide(fmt: &[i32], src: &mut impl ArgSource) -> Result<Vec<i32>, FormatError> {
    // The conversion syntax is ASCII: parse a byte image of the format in
    // which every other unit is a byte no conversion contains, and take
    // literal text from the wide format by position.
    let image: Vec<u8> = fmt
        .iter()
        .map(|&u| {
            if (1..0x80).contains(&u) {
                u as u8
            } else {
                0x80
            }
        })
        .collect();
    let base = image.as_ptr() as usize;
    let mut out = WideOut(Vec::with_capacity(fmt.len() + 32));
    format_into(&image, src, &mut out, |out, l| {
        let at = (l.as_ptr() as usize).wrapping_sub(base);
        if at < fmt.len() {
            out.0.extend_from_slice(&fmt[at..at + l.len()]);
        } else {
            // Text the parser made itself ("%" of "%%").
            out.0.extend(l.iter().map(|&b| i32::from(b)));
        }
    })?;
    Ok(out.0)
}

/// The loop of [`format`] and [`format_wide`]: literal text goes through
/// `literal`, conversions through the sink.
fn format_into<S: Sink>(
    fmt: &[u8],
    src: &mut impl ArgSource,
    out: &mut S,
    mut literal: impl FnMut(&mut S, &[u8]),
) -> Result<(), FormatError> {
    // Positions are written `%N$`: no '$', no second parse.
    let positional = fmt.contains(&b'$')
        && Pieces::new(fmt).any(|p| match p {
            Piece::Conv(s) => s.position.is_some(),
            _ => false,
        });
    let mut values = if positional {
        Some(fetch_positional(fmt, src))
    } else {
        None
    };
    let mut scratch = Vec::new();
    for piece in Pieces::new(fmt) {
        match piece {
            Piece::Literal(l) | Piece::Unknown(l) => literal(out, l),
            Piece::Conv(spec) => {
                let mut next = |kind: Kind, pos: Option<usize>| match (&mut values, pos) {
                    (Some(vals), Some(n)) => {
                        vals.get(n - 1).copied().flatten().unwrap_or(Value::Word(0))
                    }
                    _ => fetch(src, kind),
                };
                convert(&spec, &mut next, out, &mut scratch)?;
            }
        }
    }
    Ok(())
}

/// Where [`convert`] puts a conversion's output.
trait Sink {
    /// Wide output (`swprintf`): `%s` strings are multibyte text.
    const WIDE: bool;
    /// Characters produced so far (what `%n` stores).
    fn produced(&self) -> usize;
    /// Appends the commonest conversions directly (see [`plain`]); false
    /// if the sink leaves them to glibc.
    fn plain(&mut self, conv: u8, length: &[u8], value: CValue) -> bool;
    /// Formats one conversion with glibc and appends it.
    fn glibc(&mut self, spec: &[u8], value: CValue) -> Result<(), FormatError>;
}

impl Sink for Vec<u8> {
    const WIDE: bool = false;
    fn produced(&self) -> usize {
        self.len()
    }
    fn plain(&mut self, conv: u8, length: &[u8], value: CValue) -> bool {
        plain(conv, length, value, self)
    }
    fn glibc(&mut self, spec: &[u8], value: CValue) -> Result<(), FormatError> {
        c_format(spec, value, self)
    }
}

/// Wide output.
struct WideOut(Vec<i32>);

impl Sink for WideOut {
    const WIDE: bool = true;
    fn produced(&self) -> usize {
        self.0.len()
    }
    fn plain(&mut self, _: u8, _: &[u8], _: CValue) -> bool {
        false
    }
    fn glibc(&mut self, spec: &[u8], value: CValue) -> Result<(), FormatError> {
        let mut wspec: Vec<i32> = spec.iter().map(|&b| i32::from(b)).collect();
        if wspec.last() != Some(&0) {
            wspec.push(0);
        }
        let mut cap = 256;
        loop {
            let mut buf = vec![0i32; cap];
            // SAFETY: __errno_location returns the calling thread's errno.
            unsafe { *libc::__errno_location() = 0 };
            let n = vswprintf_one(&mut buf, &wspec, value);
            if n >= 0 {
                self.0.extend_from_slice(&buf[..n as usize]);
                return Ok(());
            }
            // SAFETY: as above.
            let e = unsafe { *libc::__errno_location() };
            // glibc returns -1 both when the output does not fit (errno
            // untouched) and for an unconvertible character.
            if e != 0 || cap >= 1 << 28 {
                return Err(FormatError {
                    errno: if e != 0 { e } else { libc::EOVERFLOW },
                });
            }
            cap *= 4;
        }
    }
}

/// The commonest formats, formatted without parsing each conversion into
/// a [`Spec`]: literal text, `%%`, and `%d`/`%i`/`%u` (no length modifier,
/// or one of `l ll j z t`) and `%s`, none with flags, width, precision or a
/// position (Lua's `tostring` of an integer is `snprintf("%lld")`). `None`,
/// having taken no argument, for any other format.
fn format_plain(fmt: &[u8], src: &mut impl ArgSource) -> Option<Vec<u8>> {
    let mut i = 0;
    while i < fmt.len() {
        i = if fmt[i] == b'%' {
            plain_conversion(fmt, i)?.2
        } else {
            i + 1
        };
    }
    let mut out = Vec::with_capacity(fmt.len() + 32);
    let mut i = 0;
    loop {
        let start = i;
        while i < fmt.len() && fmt[i] != b'%' {
            i += 1;
        }
        out.extend_from_slice(&fmt[start..i]);
        if i == fmt.len() {
            return Some(out);
        }
        let (wide, conv, next) = plain_conversion(fmt, i)?;
        i = next;
        match conv {
            b'%' => out.push(b'%'),
            b's' => {
                let p = src.ptr();
                if p.intval() == 0 {
                    out.extend_from_slice(b"(null)");
                } else {
                    let n = mem::c_strlen(p);
                    // SAFETY: c_strlen checked n bytes at p.
                    out.extend_from_slice(unsafe { mem::bytes(p, n) });
                }
            }
            _ => integer(conv, wide, src.word(), &mut out),
        }
    }
}

/// For the `%` at `fmt[at]`, if [`format_plain`] handles its conversion:
/// whether the integer is 8 bytes wide, the conversion character, and the
/// index after it.
fn plain_conversion(fmt: &[u8], at: usize) -> Option<(bool, u8, usize)> {
    let mut i = at + 1;
    let wide = match fmt.get(i) {
        Some(b'l') if fmt.get(i + 1) == Some(&b'l') => 2,
        Some(b'l' | b'j' | b'z' | b't') => 1,
        _ => 0,
    };
    i += wide;
    let conv = *fmt.get(i)?;
    match conv {
        b'd' | b'i' | b'u' => {}
        b's' | b'%' if wide == 0 => {}
        _ => return None,
    }
    Some((wide != 0, conv, i + 1))
}

/// Fetches every argument a positional format refers to, in order, by the
/// types the format gives them.
fn fetch_positional(fmt: &[u8], src: &mut impl ArgSource) -> Vec<Option<Value>> {
    let mut kinds: Vec<Option<Kind>> = Vec::new();
    let mut set = |n: usize, k: Kind| {
        if kinds.len() < n {
            kinds.resize(n, None);
        }
        kinds[n - 1].get_or_insert(k);
    };
    for p in Pieces::new(fmt) {
        if let Piece::Conv(s) = p {
            if let Amount::Arg(Some(n)) = s.width {
                set(n, Kind::Int);
            }
            if let Amount::Arg(Some(n)) = s.precision {
                set(n, Kind::Int);
            }
            if let (Some(n), Some(k)) = (s.position, s.kind()) {
                set(n, k);
            }
        }
    }
    // An unreferenced position is taken as an 8-byte slot, as glibc does.
    kinds
        .into_iter()
        .map(|k| Some(fetch(src, k.unwrap_or(Kind::Long))))
        .collect()
}

/// A value passed to glibc for one conversion.
#[derive(Clone, Copy)]
enum CValue {
    None,
    Int(c_int),
    Long(i64),
    Double(f64),
    /// An x87 `long double`'s 16 bytes.
    LongDouble([u64; 2]),
    Ptr(*const c_void),
}

/// A single-conversion C format built on the stack.
struct CSpec {
    buf: [u8; 64],
    len: usize,
}

impl CSpec {
    fn push(&mut self, b: u8) {
        self.buf[self.len] = b;
        self.len += 1;
    }

    fn number(&mut self, n: usize) {
        let mut digits = [0u8; 20];
        for &d in decimal(n as u64, &mut digits) {
            self.push(d);
        }
    }
}

/// The decimal digits of `n`, written at the end of `buf` two at a time.
fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let mut at = buf.len();
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[n as usize * 2..n as usize * 2 + 2]);
    } else {
        at -= 1;
        buf[at] = b'0' + n as u8;
    }
    &buf[at..]
}

fn convert<S: Sink>(
    spec: &Spec,
    next: &mut impl FnMut(Kind, Option<usize>) -> Value,
    out: &mut S,
    scratch: &mut Vec<u8>,
) -> Result<(), FormatError> {
    let mut flags = spec.flags;
    let width = match spec.width {
        Amount::None => None,
        Amount::Fixed(n) => Some(n),
        Amount::Arg(pos) => {
            let w = next(Kind::Int, pos).word() as i32;
            if w < 0 {
                flags |= 1; // '-'
            }
            Some(w.unsigned_abs() as usize)
        }
    };
    let precision = match spec.precision {
        Amount::None => None,
        Amount::Fixed(n) => Some(n),
        Amount::Arg(pos) => {
            let p = next(Kind::Int, pos).word() as i32;
            (p >= 0).then_some(p as usize)
        }
    };
    let mut length = spec.length;
    let mut conv = spec.conv;
    // Owned storage a CValue::Ptr may point into.
    let wide: Vec<i32>;
    let value = match conv {
        b'n' => {
            let p = next(Kind::Ptr, spec.position).ptr();
            let count = out.produced() as u64;
            let bytes = count.to_ne_bytes();
            let size = match length {
                b"hh" => 1,
                b"h" => 2,
                b"" => 4,
                _ => 8,
            };
            mem::write_int(p, &bytes[..size]);
            return Ok(());
        }
        b'm' => {
            scratch.clear();
            scratch.extend_from_slice(&crate::errno::message(crate::errno::get()));
            scratch.push(0);
            conv = b's';
            length = b"";
            CValue::Ptr(scratch.as_ptr().cast())
        }
        b's' | b'S' if conv == b'S' || length == b"l" => {
            let p = next(Kind::Ptr, spec.position).ptr();
            if p.intval() == 0 {
                CValue::Ptr(core::ptr::null())
            } else {
                wide = wide_string(p);
                CValue::Ptr(wide.as_ptr().cast())
            }
        }
        b's' => {
            let p = next(Kind::Ptr, spec.position).ptr();
            if p.intval() == 0 {
                // glibc prints "(null)" (or nothing under a short precision).
                CValue::Ptr(core::ptr::null())
            } else {
                let n = match precision {
                    // A wide precision counts wide characters, each up
                    // to MB_CUR_MAX bytes of the string.
                    Some(max) if S::WIDE => mem::c_strnlen(p, max.saturating_mul(mb_cur_max())),
                    Some(max) => mem::c_strnlen(p, max),
                    None => mem::c_strlen(p),
                };
                // A private copy: another thread may change the string,
                // but glibc only ever reads this NUL-terminated copy.
                scratch.clear();
                // SAFETY: c_strlen/c_strnlen checked n bytes at p.
                scratch.extend_from_slice(unsafe { mem::bytes(p, n) });
                scratch.push(0);
                CValue::Ptr(scratch.as_ptr().cast())
            }
        }
        b'p' => CValue::Ptr(next(Kind::Ptr, spec.position).ptr().intval() as *const c_void),
        _ => match spec.kind() {
            Some(Kind::Int) => CValue::Int(next(Kind::Int, spec.position).word() as c_int),
            Some(Kind::Long) => CValue::Long(next(Kind::Long, spec.position).word() as i64),
            Some(Kind::Double) => CValue::Double(next(Kind::Double, spec.position).double()),
            Some(Kind::LongDouble) => {
                CValue::LongDouble(next(Kind::LongDouble, spec.position).long_double())
            }
            Some(Kind::Ptr) | None => CValue::None,
        },
    };
    if flags == 0 && width.is_none() && precision.is_none() && out.plain(conv, length, value) {
        return Ok(());
    }
    if let CValue::Long(_) = value {
        // Every 8-byte integer modifier means `long` to glibc on x86-64;
        // `L` with an integer conversion is `long long`.
        if length == b"L" {
            length = b"ll";
        }
    }
    let mut c = CSpec {
        buf: [0; 64],
        len: 0,
    };
    c.push(b'%');
    for (i, &f) in FLAGS.iter().enumerate() {
        if flags & (1 << i) != 0 {
            c.push(f);
        }
    }
    if let Some(w) = width {
        c.number(w);
    }
    if let Some(p) = precision {
        c.push(b'.');
        c.number(p);
    }
    for &b in length {
        c.push(b);
    }
    c.push(conv);
    c.push(0);
    out.glibc(&c.buf[..c.len], value)
}

/// `MB_CUR_MAX` of the calling thread's locale.
fn mb_cur_max() -> usize {
    unsafe extern "C" {
        fn __ctype_get_mb_cur_max() -> usize;
    }
    // SAFETY: no arguments.
    unsafe { __ctype_get_mb_cur_max() }
}

/// Appends `%d`, `%i`, `%u` (of an `int` or wider: `h`/`hh` truncate) or a
/// narrow `%s` of `value` with no flags, width or precision, the commonest
/// conversions (Lua's `tostring` of an integer is `snprintf("%lld")`),
/// without a round trip through glibc. False for anything else, which
/// glibc formats.
fn plain(conv: u8, length: &[u8], value: CValue, out: &mut Vec<u8>) -> bool {
    let int_length = matches!(length, b"" | b"l" | b"ll" | b"j" | b"z" | b"t");
    if !(int_length && (conv != b's' || length.is_empty())) {
        return false;
    }
    match (conv, value) {
        (b'd' | b'i' | b'u', CValue::Int(v)) => integer(conv, false, v as u32 as u64, out),
        (b'd' | b'i' | b'u', CValue::Long(v)) => integer(conv, true, v as u64, out),
        (b's', CValue::Ptr(p)) if !p.is_null() => {
            // SAFETY: a `%s` argument reaching here is the NUL-terminated
            // private copy `convert` made in `scratch`.
            let s = unsafe { core::ffi::CStr::from_ptr(p.cast()) };
            out.extend_from_slice(s.to_bytes());
        }
        _ => return false,
    }
    true
}

/// Appends `%d`/`%i` (signed) or `%u` of an argument slot `word`: its low
/// four bytes, or all eight when `wide`.
fn integer(conv: u8, wide: bool, word: u64, out: &mut Vec<u8>) {
    let (negative, magnitude) = match (conv, wide) {
        (b'u', false) => (false, u64::from(word as u32)),
        (b'u', true) => (false, word),
        (_, false) => {
            let v = word as u32 as i32;
            (v < 0, i64::from(v).unsigned_abs())
        }
        (_, true) => {
            let v = word as i64;
            (v < 0, v.unsigned_abs())
        }
    };
    if negative {
        out.push(b'-');
    }
    out.extend_from_slice(decimal(magnitude, &mut [0; 20]));
}

/// The `wchar_t` string at `p` (checked up to and including its NUL).
fn wide_string(p: FlightPtr) -> Vec<i32> {
    let mut out = Vec::new();
    let mut at = p;
    loop {
        let c = i32::from_ne_bytes(mem::read_int::<4>(at));
        out.push(c);
        if c == 0 {
            return out;
        }
        at = at.offset(4);
    }
}

/// Formats one conversion with glibc's `vsnprintf` and appends it.
fn c_format(spec: &[u8], value: CValue, out: &mut Vec<u8>) -> Result<(), FormatError> {
    let mut buf = [0u8; 256];
    let n = vsnprintf_one(&mut buf, spec, value);
    if n < 0 {
        return Err(FormatError {
            // SAFETY: __errno_location returns the calling thread's errno.
            errno: unsafe { *libc::__errno_location() },
        });
    }
    let n = n as usize;
    if n < buf.len() {
        out.extend_from_slice(&buf[..n]);
        return Ok(());
    }
    let mut big = vec![0u8; n + 1];
    vsnprintf_one(&mut big, spec, value);
    out.extend_from_slice(&big[..n]);
    Ok(())
}

/// The x86-64 `va_list` element (`__va_list_tag`).
#[repr(C)]
struct VaListTag {
    gp_offset: u32,
    fp_offset: u32,
    overflow_arg_area: *mut c_void,
    reg_save_area: *mut c_void,
}

/// The argument area of a hand-built `va_list`: one 16-aligned slot.
#[repr(C, align(16))]
struct OverflowArea([u64; 2]);

unsafe extern "C" {
    /// glibc's `vsnprintf`; `va_list` is an array type on x86-64, so it is
    /// passed as a pointer to its single tag.
    #[link_name = "vsnprintf"]
    fn c_vsnprintf(s: *mut c_char, n: usize, format: *const c_char, ap: *mut VaListTag) -> c_int;
}

unsafe extern "C" {
    /// glibc's `vswprintf`, `va_list` passed as in [`c_vsnprintf`].
    #[link_name = "vswprintf"]
    fn c_vswprintf(s: *mut i32, n: usize, format: *const i32, ap: *mut VaListTag) -> c_int;
}

/// [`vsnprintf_one`] for wide output: glibc's `vswprintf`, -1 when the
/// output does not fit `buf` with its terminator.
fn vswprintf_one(buf: &mut [i32], spec: &[i32], value: CValue) -> c_int {
    let mut area = OverflowArea(value_words(value));
    let mut tag = overflow_only(&mut area);
    // SAFETY: as in vsnprintf_one, with a terminated wide spec; narrow
    // string arguments are NUL-terminated and wide ones terminated Rust
    // buffers.
    unsafe { c_vswprintf(buf.as_mut_ptr(), buf.len(), spec.as_ptr(), &mut tag) }
}

/// A `va_list` whose register areas are used up, so that every `va_arg`
/// reads from `area`.
fn overflow_only(area: &mut OverflowArea) -> VaListTag {
    VaListTag {
        gp_offset: 48,
        fp_offset: 176,
        overflow_arg_area: area.0.as_mut_ptr().cast(),
        reg_save_area: core::ptr::null_mut(),
    }
}

/// A conversion's argument as the two words of a `va_list` slot.
fn value_words(value: CValue) -> [u64; 2] {
    match value {
        CValue::None => [0, 0],
        CValue::Int(v) => [v as i64 as u64, 0],
        CValue::Long(v) => [v as u64, 0],
        CValue::Double(v) => [v.to_bits(), 0],
        CValue::LongDouble(w) => w,
        CValue::Ptr(p) => [p as usize as u64, 0],
    }
}

/// Runs glibc's formatter for one conversion whose argument is `value`,
/// passed in a `va_list` whose register areas are marked used up, so that
/// glibc's `va_arg` takes every argument (including an x87 `long double`,
/// which Rust cannot pass itself) from the overflow area.
fn vsnprintf_one(buf: &mut [u8], spec: &[u8], value: CValue) -> c_int {
    let mut area = OverflowArea(value_words(value));
    let mut tag = overflow_only(&mut area);
    // SAFETY: `spec` is a NUL-terminated single conversion whose argument
    // type matches `value` (built by `convert`), laid out as the x86-64
    // va_arg reads it from the overflow area; `buf` is writable for its
    // length; string arguments point at NUL-terminated Rust buffers.
    unsafe {
        c_vsnprintf(
            buf.as_mut_ptr().cast(),
            buf.len(),
            spec.as_ptr().cast(),
            &mut tag,
        )
    }
}
