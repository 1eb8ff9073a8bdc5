//! The fault maps of LLVM's implicit null checks, made linkable.
//!
//! With `-enable-implicit-null-checks`, code generation folds a null test
//! marked `make.implicit` into the first load after it that faults when the
//! pointer is null, and records (function, faulting instruction, failure
//! block) in a `.llvm_faultmaps` section (see [`crate::translate`]'s
//! checks, which mark the null tests of capabilities). That section comes
//! out read-only with absolute addresses, which a position-independent
//! link refuses to relocate, and with a name that is not a C identifier,
//! so the linker defines no `__start_`/`__stop_` symbols the runtime could
//! find it by. [`retarget`] fixes both in the object file: it renames the
//! section in place to [`gimso_abi::FAULT_MAP_SECTION`] (the names have
//! the same length) and marks it writable and retained (`SHF_GNU_RETAIN`:
//! nothing refers to it, so `--gc-sections` would drop it).

use gimso_abi::{FAULT_MAP_SECTION, LLVM_FAULT_MAP_SECTION};

/// ELF's writable-section flag.
pub const SHF_WRITE: u64 = 0x1;
/// ELF's keep-under-`--gc-sections` flag.
pub const SHF_GNU_RETAIN: u64 = 0x20_0000;

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The flags and size of the section named `name` in the ELF64
/// little-endian object `obj`, if it has one.
pub fn find_section(obj: &[u8], name: &str) -> Option<(u64, u64)> {
    let (_, header) = sections(obj)
        .ok()?
        .into_iter()
        .find(|&(at, _)| named(obj, at, name))?;
    Some((u64_at(obj, header + 8)?, u64_at(obj, header + 0x20)?))
}

/// Renames and re-flags the fault map section of the ELF64 little-endian
/// object `obj`; returns whether it had one. A malformed object is an
/// error (the back end produced it, so that is a gimso bug).
pub fn retarget(obj: &mut [u8]) -> Result<bool, String> {
    let mut found = false;
    for (at, header) in sections(obj)? {
        // Another section's name may end with this one and share its
        // bytes (`.rela.llvm_faultmaps`): it is renamed along, harmlessly.
        if !named(obj, at, LLVM_FAULT_MAP_SECTION) {
            continue;
        }
        let flags = u64_at(obj, header + 8).ok_or_else(malformed)?;
        obj[at..at + FAULT_MAP_SECTION.len()].copy_from_slice(FAULT_MAP_SECTION.as_bytes());
        obj[header + 8..header + 16]
            .copy_from_slice(&(flags | SHF_WRITE | SHF_GNU_RETAIN).to_le_bytes());
        found = true;
    }
    Ok(found)
}

fn malformed() -> String {
    "the object file is not the ELF64 file code generation should write".to_owned()
}

/// Whether the NUL-terminated string at `at` is `name`.
fn named(obj: &[u8], at: usize, name: &str) -> bool {
    obj.get(at..at + name.len()) == Some(name.as_bytes()) && obj.get(at + name.len()) == Some(&0)
}

/// (name offset, section header offset) of every section of `obj`.
fn sections(obj: &[u8]) -> Result<Vec<(usize, usize)>, String> {
    if obj.get(0..6) != Some(b"\x7fELF\x02\x01".as_slice()) {
        return Err(malformed());
    }
    let field = |v: Option<u64>| v.map(|v| v as usize).ok_or_else(malformed);
    let shoff = field(u64_at(obj, 0x28))?;
    let shentsize = field(u16_at(obj, 0x3a).map(u64::from))?;
    let mut shnum = field(u16_at(obj, 0x3c).map(u64::from))?;
    let mut shstrndx = field(u16_at(obj, 0x3e).map(u64::from))?;
    if shentsize < 0x40 {
        return Err(malformed());
    }
    // Extended numbering keeps the real counts in section 0.
    if shnum == 0 && shoff != 0 {
        shnum = field(u64_at(obj, shoff + 0x20))?;
    }
    if shstrndx == 0xffff {
        shstrndx = field(u32_at(obj, shoff + 0x28).map(u64::from))?;
    }
    if shstrndx >= shnum {
        return Err(malformed());
    }
    let header = |i: usize| shoff + i * shentsize;
    let strtab = field(u64_at(obj, header(shstrndx) + 0x18))?;
    let strtab_size = field(u64_at(obj, header(shstrndx) + 0x20))?;
    (0..shnum)
        .map(|i| {
            let name = field(u32_at(obj, header(i)).map(u64::from))?;
            if name >= strtab_size {
                return Err(malformed());
            }
            Ok((strtab + name, header(i)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal ELF64 object: the null section, `.shstrtab` and a
    /// read-only `.llvm_faultmaps` whose relocation section shares its name.
    fn object() -> Vec<u8> {
        let names = b"\0.shstrtab\0.rela.llvm_faultmaps\0";
        let mut o = vec![0u8; 0x40];
        o[0..6].copy_from_slice(b"\x7fELF\x02\x01");
        let strtab = o.len();
        o.extend_from_slice(names);
        while o.len() % 8 != 0 {
            o.push(0);
        }
        let shoff = o.len();
        o[0x28..0x30].copy_from_slice(&(shoff as u64).to_le_bytes());
        o[0x3a..0x3c].copy_from_slice(&0x40u16.to_le_bytes());
        o[0x3c..0x3e].copy_from_slice(&4u16.to_le_bytes());
        o[0x3e..0x40].copy_from_slice(&1u16.to_le_bytes());
        let mut sh = |name: u32, flags: u64, off: u64, size: u64| {
            let mut h = vec![0u8; 0x40];
            h[0..4].copy_from_slice(&name.to_le_bytes());
            h[8..16].copy_from_slice(&flags.to_le_bytes());
            h[0x18..0x20].copy_from_slice(&off.to_le_bytes());
            h[0x20..0x28].copy_from_slice(&size.to_le_bytes());
            o.extend_from_slice(&h);
        };
        sh(0, 0, 0, 0);
        sh(1, 0, strtab as u64, names.len() as u64);
        sh(16, 0x2, 0, 0); // .llvm_faultmaps: SHF_ALLOC
        sh(11, 0x40, 0, 0); // .rela.llvm_faultmaps: SHF_INFO_LINK
        o
    }

    fn name_of(o: &[u8], i: usize) -> String {
        let shoff = u64_at(o, 0x28).unwrap() as usize;
        let strtab = u64_at(o, shoff + 0x40 + 0x18).unwrap() as usize;
        let at = strtab + u32_at(o, shoff + i * 0x40).unwrap() as usize;
        let end = o[at..].iter().position(|&b| b == 0).unwrap();
        String::from_utf8(o[at..at + end].to_vec()).unwrap()
    }

    #[test]
    fn renames_and_makes_writable_and_retained() {
        let mut o = object();
        assert_eq!(name_of(&o, 2), ".llvm_faultmaps");
        assert_eq!(retarget(&mut o), Ok(true));
        assert_eq!(name_of(&o, 2), FAULT_MAP_SECTION);
        let shoff = u64_at(&o, 0x28).unwrap() as usize;
        assert_eq!(
            u64_at(&o, shoff + 2 * 0x40 + 8),
            Some(0x2 | SHF_WRITE | SHF_GNU_RETAIN)
        );
        // The relocation section keeps its flags.
        assert_eq!(u64_at(&o, shoff + 3 * 0x40 + 8), Some(0x40));
        // A second pass finds nothing left to do.
        assert_eq!(retarget(&mut o), Ok(false));
    }

    #[test]
    fn refuses_what_is_not_elf64() {
        assert!(retarget(&mut b"not an object".to_vec()).is_err());
        let mut o = object();
        o.truncate(0x50);
        assert!(retarget(&mut o).is_err());
    }
}
