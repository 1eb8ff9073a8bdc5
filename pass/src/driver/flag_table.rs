//! Every option `gimso-cc` knows, in one table: how it is spelled and what
//! becomes of it. Refused (with the reason), a mode or a query, a setting
//! of the driver, or passed on: to the front half (clang compiling the
//! source to IR, and `-E`), the back half (code generation from the
//! translated IR) or the link.
//!
//! An argument is looked up by its exact spelling first, then by the
//! longest name it starts with, so a specific entry (`-fsanitize`, `-Wl,`,
//! `-fno-builtin`) overrides a general one (`-f`, `-W`). An option the
//! table does not know is refused rather than passed on blindly: it might
//! undo the guarantees (sanitizers, other runtimes, `-fno-...` that
//! re-enable UB folding) or ask for an output the pipeline cannot make.

/// How an entry matches an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The argument is exactly the name.
    Exact,
    /// The argument starts with the name; the whole argument is the option.
    Prefix,
    /// The name takes a value, glued (`-Ifoo`) or as the next argument
    /// (`-I foo`).
    Value(Forward),
    /// Exactly the name, with the value as the next argument.
    NextValue,
}

/// How a [`Form::Value`] option is passed on to clang.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forward {
    /// As one argument, `-Ifoo`.
    Glued,
    /// As two, `-MF foo.d`, however it was given.
    Split,
}

/// What the back half does with an option the front half gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Back {
    /// Not given to it: the option concerns only the source (preprocessing,
    /// language, warnings), or would make the object bitcode again
    /// (`-flto`).
    Skipped,
    /// Given to it, and the translated module already records the effect
    /// (function attributes, PIC/PIE level, debug info), so code
    /// generation can run in process.
    Recorded,
    /// Given to it, and it changes code generation beyond what the module
    /// records (target options, section layout, sanitizers, profiling), so
    /// the back half is a clang process.
    Clang,
}

/// What a `-c`, `-S`, `-E` or `--version` makes the invocation produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Produce {
    Compile,
    Assemble,
    Preprocess,
    Version,
}

/// A setting of the driver itself, not passed to clang.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    Verbose,
    DirectCalls(bool),
    ExposedProvenance(bool),
    EmitLlvm,
}

/// What becomes of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disposition {
    /// The front half gets it; the back half as [`Back`] says.
    Front(Back),
    /// The front half gets it, and it turns debug info on or off (which
    /// decides whether the pass strips the line tables the driver asks
    /// for).
    Debug(bool),
    /// `-fPIC`: the front half gets it; code for shared libraries keeps
    /// explicit null tests, since the fault handler reads the executable's
    /// fault map only.
    SharedCode,
    /// `-M`/`-MM`: the front half gets it, and the whole run is then
    /// clang's preprocessor (only the dependencies are written).
    DependenciesOnly,
    /// `-fuse-ld=`: the front half and the back half get it (clang ignores
    /// it there), the link uses that linker instead of the fastest one.
    ChoosesLinker,
    /// `-pthread`: both the front half (it defines `_REENTRANT`) and the
    /// link get it.
    FrontAndLink,
    /// Only the link gets it.
    Link,
    /// A link option that, with no inputs, asks the linker's version.
    LinkerVersion,
    /// `-o`.
    Output,
    /// `-l`: an input of the link, in order with the others.
    Library,
    /// `-x`: the language of the inputs that follow.
    Language,
    /// `--gimso-libdir`: where `libgimso.a` is.
    RuntimeDir,
    /// `-O…`: the level, for both halves and the pass.
    OptLevel,
    /// What the invocation produces.
    Produce(Produce),
    /// A question for clang alone (build systems' probes).
    Query,
    /// A setting of the driver.
    Setting(Setting),
    /// Refused, with the reason.
    Refused(&'static str),
}

impl Disposition {
    /// What the back half does with it when the front half gets it (`None`:
    /// the front half does not).
    pub fn back(self) -> Option<Back> {
        match self {
            Self::Front(back) => Some(back),
            Self::Debug(_) | Self::SharedCode => Some(Back::Recorded),
            Self::DependenciesOnly | Self::FrontAndLink => Some(Back::Skipped),
            Self::ChoosesLinker => Some(Back::Clang),
            _ => None,
        }
    }
}

/// One row of [`FLAGS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    pub name: &'static str,
    pub form: Form,
    pub disposition: Disposition,
}

const fn exact(name: &'static str, disposition: Disposition) -> Flag {
    Flag {
        name,
        form: Form::Exact,
        disposition,
    }
}

const fn prefix(name: &'static str, disposition: Disposition) -> Flag {
    Flag {
        name,
        form: Form::Prefix,
        disposition,
    }
}

const fn glued(name: &'static str, disposition: Disposition) -> Flag {
    Flag {
        name,
        form: Form::Value(Forward::Glued),
        disposition,
    }
}

const fn split(name: &'static str, disposition: Disposition) -> Flag {
    Flag {
        name,
        form: Form::Value(Forward::Split),
        disposition,
    }
}

const fn refused(name: &'static str, why: &'static str) -> Flag {
    prefix(name, Disposition::Refused(why))
}

use Back::{Clang, Recorded, Skipped};
use Disposition::*;

const SOURCE: Disposition = Front(Skipped);
const RECORDED: Disposition = Front(Recorded);

/// The table. Its order does not matter to lookups; it is grouped by what
/// the options are for.
pub const FLAGS: &[Flag] = &[
    // Modes, outputs and inputs.
    exact("-c", Produce(Produce::Compile)),
    exact("-S", Produce(Produce::Assemble)),
    exact("-E", Produce(Produce::Preprocess)),
    exact("--version", Produce(Produce::Version)),
    glued("-o", Output),
    glued("-l", Library),
    glued("-x", Language),
    prefix("-O", OptLevel),
    // Autoconf's and CMake's probes, Makefiles reading `$(CC) -dumpversion`.
    exact("-dumpversion", Query),
    exact("-dumpfullversion", Query),
    exact("-dumpmachine", Query),
    prefix("-print-", Query),
    prefix("--print-", Query),
    // The driver's own.
    exact("-v", Setting(Setting::Verbose)),
    exact("-fgimso-direct-calls", Setting(Setting::DirectCalls(true))),
    exact(
        "-fno-gimso-direct-calls",
        Setting(Setting::DirectCalls(false)),
    ),
    exact(
        "-fgimso-exposed-provenance",
        Setting(Setting::ExposedProvenance(true)),
    ),
    exact(
        "-fno-gimso-exposed-provenance",
        Setting(Setting::ExposedProvenance(false)),
    ),
    exact("-emit-llvm", Setting(Setting::EmitLlvm)),
    Flag {
        name: "--gimso-libdir",
        form: Form::NextValue,
        disposition: RuntimeDir,
    },
    prefix("--gimso-libdir=", RuntimeDir),
    // Preprocessing, language, warnings: the source only.
    glued("-I", SOURCE),
    glued("-D", SOURCE),
    glued("-U", SOURCE),
    split("-include", SOURCE),
    split("-isystem", SOURCE),
    prefix("-std=", SOURCE),
    exact("-nostdinc", SOURCE),
    exact("-nostdinc++", SOURCE),
    exact("-stdlib=libc++", SOURCE),
    refused(
        "-stdlib=libstdc++",
        "gimso-c++ uses its own libc++, compiled by gimso-c++; the system's libstdc++ is not checked",
    ),
    split("-idirafter", SOURCE),
    split("-iquote", SOURCE),
    exact("-ansi", SOURCE),
    exact("-pedantic", SOURCE),
    exact("-pedantic-errors", SOURCE),
    exact("-w", SOURCE),
    prefix("-W", SOURCE),
    // Dependency files.
    exact("-MD", SOURCE),
    exact("-MMD", SOURCE),
    exact("-MP", SOURCE),
    exact("-M", DependenciesOnly),
    exact("-MM", DependenciesOnly),
    split("-MF", SOURCE),
    split("-MT", SOURCE),
    split("-MQ", SOURCE),
    // The link.
    glued("-L", Link),
    prefix("-Wl,", Link),
    exact("-Wl,--version", LinkerVersion),
    exact("-Wl,-v", LinkerVersion),
    exact("-Wl,-V", LinkerVersion),
    exact("-static", Link),
    exact("-rdynamic", Link),
    exact("-shared", Link),
    exact("-pthread", FrontAndLink),
    prefix("-fuse-ld=", ChoosesLinker),
    prefix("--ld-path=", ChoosesLinker),
    // Debug info: recorded in the module, except split DWARF and
    // compressed sections, which are the object file's business.
    prefix("-g", RECORDED),
    exact("-g", Debug(true)),
    exact("-g1", Debug(true)),
    exact("-g2", Debug(true)),
    exact("-g3", Debug(true)),
    exact("-gfull", Debug(true)),
    exact("-gused", Debug(true)),
    prefix("-ggdb", Debug(true)),
    prefix("-gdwarf", Debug(true)),
    prefix("-gline-", Debug(true)),
    exact("-g0", Debug(false)),
    exact("-ggdb0", Debug(false)),
    prefix("-gsplit-dwarf", Front(Clang)),
    prefix("-gz", Front(Clang)),
    // Code generation: target options, and any `-f…` not below.
    prefix("-m", Front(Clang)),
    prefix("-f", Front(Clang)),
    // The object would be bitcode again, which the pass has already seen.
    prefix("-flto", SOURCE),
    prefix("-fno-lto", SOURCE),
    // Options that would undo gimso's guarantees or its pipeline.
    refused(
        "-fsanitize",
        "gimso is itself the memory-safety runtime; it does not combine with sanitizers",
    ),
    refused(
        "-fdelete-null-pointer-checks",
        "it lets the optimiser delete the checks gimso must keep",
    ),
    refused(
        "-fprofile-instr-generate",
        "instrumented profiling runtimes are not supported",
    ),
    refused("-fcoverage-mapping", "coverage runtimes are not supported"),
    refused("-fxray", "XRay is not supported"),
    // What the module records: the in-process back half serves.
    exact("-fPIC", SharedCode),
    exact("-fpic", SharedCode),
    exact("-fPIE", RECORDED),
    exact("-fpie", RECORDED),
    exact("-fno-pic", RECORDED),
    exact("-fno-pie", RECORDED),
    exact("-fno-PIC", RECORDED),
    exact("-fno-PIE", RECORDED),
    exact("-fno-omit-frame-pointer", RECORDED),
    exact("-fomit-frame-pointer", RECORDED),
    exact("-fstrict-aliasing", RECORDED),
    exact("-fno-strict-aliasing", RECORDED),
    exact("-fwrapv", RECORDED),
    exact("-fno-wrapv", RECORDED),
    exact("-fcommon", RECORDED),
    exact("-fno-common", RECORDED),
    exact("-fsigned-char", RECORDED),
    exact("-funsigned-char", RECORDED),
    exact("-finline", RECORDED),
    exact("-fno-inline", RECORDED),
    exact("-funroll-loops", RECORDED),
    exact("-fno-unroll-loops", RECORDED),
    exact("-fno-delete-null-pointer-checks", RECORDED),
    exact("-fexceptions", RECORDED),
    exact("-fno-exceptions", RECORDED),
    exact("-funwind-tables", RECORDED),
    exact("-fasynchronous-unwind-tables", RECORDED),
    exact("-fcolor-diagnostics", RECORDED),
    exact("-fno-color-diagnostics", RECORDED),
    prefix("-fno-builtin", RECORDED),
    prefix("-fbuiltin", RECORDED),
    prefix("-fdiagnostics-", RECORDED),
    prefix("-fmessage-length", RECORDED),
    prefix("-fvisibility", RECORDED),
    prefix("-fstack-protector", RECORDED),
    prefix("-fno-stack-protector", RECORDED),
    prefix("-ftrivial-auto-var-init", RECORDED),
    prefix("-fno-fast-math", RECORDED),
    prefix("-fmacro-prefix-map", RECORDED),
    prefix("-fdebug-prefix-map", RECORDED),
    prefix("-ffile-prefix-map", RECORDED),
];

/// The entry for `arg`: the one spelled exactly `arg`, else the longest
/// whose name `arg` starts with.
pub fn lookup(arg: &str) -> Option<&'static Flag> {
    lookup_among(arg, |_| true)
}

/// What the back half does with `arg` when it is among the front half's
/// options. A value given with an option (`-MF deps.d`) is read as an
/// option too: such values rarely start with `-`.
pub fn back_of(arg: &str) -> Back {
    front_entry(arg)
        .and_then(|f| f.disposition.back())
        .unwrap_or(Back::Skipped)
}

/// Whether `arg`, among the front half's options, turns debug info on
/// (`Some(true)`), off, or neither.
pub fn debug_of(arg: &str) -> Option<bool> {
    match front_entry(arg)?.disposition {
        Debug(on) => Some(on),
        _ => None,
    }
}

/// Whether the front half's `arg` has `disposition` (`-M`, `-fPIC`, …).
pub fn front_has(arg: &str, disposition: Disposition) -> bool {
    front_entry(arg).is_some_and(|f| f.disposition == disposition)
}

/// The entry for `arg` among those the front half gets: a string among
/// its options is never a mode or a refused option.
fn front_entry(arg: &str) -> Option<&'static Flag> {
    lookup_among(arg, |f| f.disposition.back().is_some())
}

fn lookup_among(arg: &str, keep: impl Fn(&Flag) -> bool) -> Option<&'static Flag> {
    let whole = |f: &&Flag| matches!(f.form, Form::Exact | Form::NextValue) && f.name == arg;
    let start =
        |f: &&Flag| matches!(f.form, Form::Prefix | Form::Value(_)) && arg.starts_with(f.name);
    let candidates = || FLAGS.iter().filter(|f| keep(f));
    candidates()
        .find(whole)
        .or_else(|| candidates().filter(start).max_by_key(|f| f.name.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disposition(arg: &str) -> Option<Disposition> {
        lookup(arg).map(|f| f.disposition)
    }

    #[test]
    fn representative_flags() {
        assert_eq!(disposition("-c"), Some(Produce(Produce::Compile)));
        assert_eq!(disposition("-print-file-name=libc.so"), Some(Query));
        assert_eq!(disposition("-dumpversion"), Some(Query));
        assert_eq!(
            disposition("-fno-gimso-direct-calls"),
            Some(Setting(Setting::DirectCalls(false)))
        );
        assert_eq!(disposition("-O2"), Some(OptLevel));
        assert_eq!(disposition("-Iinclude"), Some(SOURCE));
        assert_eq!(disposition("-Wall"), Some(SOURCE));
        assert_eq!(disposition("-Wl,--as-needed"), Some(Link));
        assert_eq!(disposition("-Wl,--version"), Some(LinkerVersion));
        assert_eq!(disposition("-pthread"), Some(FrontAndLink));
        assert_eq!(disposition("-MM"), Some(DependenciesOnly));
        assert_eq!(disposition("-fPIC"), Some(SharedCode));
        assert_eq!(disposition("-fno-builtin-memcpy"), Some(RECORDED));
        assert_eq!(disposition("-ffunction-sections"), Some(Front(Clang)));
        assert_eq!(disposition("-march=native"), Some(Front(Clang)));
        assert_eq!(disposition("-flto=thin"), Some(SOURCE));
        assert_eq!(disposition("-ggdb0"), Some(Debug(false)));
        assert_eq!(disposition("-gdwarf-4"), Some(Debug(true)));
        assert_eq!(disposition("-gsplit-dwarf"), Some(Front(Clang)));
        assert!(matches!(
            disposition("-fsanitize=address"),
            Some(Refused(why)) if why.contains("sanitizers")
        ));
        assert_eq!(disposition("--frobnicate"), None);
        assert_eq!(disposition("--ld-path=/usr/bin/ld"), Some(ChoosesLinker));
        assert_eq!(disposition("-static-libgcc"), None);
        // How values are taken and passed on.
        assert_eq!(
            lookup("-MFdeps.d").unwrap().form,
            Form::Value(Forward::Split)
        );
        assert_eq!(lookup("-I").unwrap().form, Form::Value(Forward::Glued));
        assert_eq!(lookup("--gimso-libdir").unwrap().form, Form::NextValue);
        assert_eq!(lookup("--gimso-libdir=x").unwrap().form, Form::Prefix);
    }

    #[test]
    fn among_the_front_half_options() {
        // Options the parser never gives the front half are read as the
        // general entry they would fall under.
        assert_eq!(back_of("-fsanitize=address"), Clang);
        assert_eq!(back_of("-fgimso-direct-calls"), Clang);
        assert_eq!(back_of("-Wl,-z,now"), Skipped);
        assert_eq!(back_of("deps.d"), Skipped);
        assert_eq!(back_of("-fno-lto"), Skipped);
        assert_eq!(back_of("-fvisibility=hidden"), Recorded);
        assert_eq!(back_of("-fuse-ld=lld"), Clang);
        assert_eq!(debug_of("-g"), Some(true));
        assert_eq!(debug_of("-gz"), None);
        assert!(front_has("-fpic", SharedCode));
        assert!(!front_has("-fPIE", SharedCode));
    }

    /// Entries that another entry's name starts with, other than the
    /// general `-f`, `-g` and `-W`: a more specific entry overrides them.
    fn shadowing(f: &Flag) -> impl Iterator<Item = &'static Flag> + '_ {
        FLAGS.iter().filter(move |g| {
            !std::ptr::eq(*g, f)
                && matches!(f.form, Form::Prefix | Form::Value(_))
                && g.name.starts_with(f.name)
        })
    }

    #[test]
    fn no_two_entries_conflict() {
        for (i, f) in FLAGS.iter().enumerate() {
            for g in &FLAGS[i + 1..] {
                let whole = |x: &Flag| matches!(x.form, Form::Exact | Form::NextValue);
                assert!(
                    f.name != g.name || whole(f) != whole(g),
                    "{} is in the table twice",
                    f.name
                );
            }
        }
        for f in FLAGS {
            let overrides: Vec<_> = shadowing(f).map(|g| g.name).collect();
            match f.disposition {
                // An option with a value takes what follows it, whatever
                // else that might spell.
                _ if matches!(f.form, Form::Value(_)) => {
                    assert!(overrides.is_empty(), "{} shadows {overrides:?}", f.name)
                }
                // What is refused stays refused.
                Refused(_) => assert!(overrides.is_empty(), "{} lets {overrides:?} in", f.name),
                _ => {
                    for g in shadowing(f) {
                        let same_half =
                            g.disposition.back().is_some() == f.disposition.back().is_some();
                        // Refusing part of what a general entry accepts is
                        // always safe; the driver's own `-f` options and
                        // `-Wl,` are deliberately not the front half's.
                        let intended = matches!(g.disposition, Refused(_))
                            || (f.name == "-f" && matches!(g.disposition, Setting(_)))
                            || (f.name == "-W" && g.name.starts_with("-Wl,"));
                        assert!(
                            same_half || intended,
                            "{} overrides {} with another destination",
                            g.name,
                            f.name
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_parser_does_what_the_table_says() {
        use crate::driver::args::parse;
        let parse = |flag: &str| parse(&[flag.to_owned(), "a.c".to_owned()]);
        for f in FLAGS
            .iter()
            .filter(|f| matches!(f.form, Form::Exact | Form::Prefix))
        {
            match f.disposition {
                Refused(why) => assert_eq!(
                    parse(f.name).unwrap_err().to_string(),
                    format!(
                        "gimso-cc: error: option '{}' is not supported: {why}",
                        f.name
                    )
                ),
                d if d.back().is_some() => {
                    let inv = parse(f.name).unwrap();
                    assert_eq!(inv.compile_flags, [f.name], "{}", f.name);
                    let link: &[&str] = if d == FrontAndLink { &[f.name] } else { &[] };
                    assert_eq!(inv.link_flags, link, "{}", f.name);
                }
                Link | LinkerVersion => assert_eq!(parse(f.name).unwrap().link_flags, [f.name]),
                _ => {}
            }
        }
    }

    #[test]
    fn the_driver_s_own_front_half_flags_are_recorded() {
        // If the user gives them too, nothing changes: they are accepted
        // and the back half can still run in process.
        let added = crate::driver::flags::FRONT_HALF_FLAGS
            .iter()
            .chain(crate::driver::flags::PREPROCESSOR_FLAGS);
        for flag in added {
            let back = lookup(flag).and_then(|f| f.disposition.back());
            assert!(
                matches!(back, Some(Recorded | Skipped)),
                "{flag}: {:?}",
                lookup(flag)
            );
        }
    }
}
