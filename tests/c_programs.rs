//! C and C++ programs with expected outcomes (docs/testing.md): every
//! `tests/c/**/*.c` is compiled with `gimso-cc`, every `tests/cxx/*.cpp` with
//! `gimso-c++`, at `-O0` and `-O2` (both with `-g`), run, and checked
//! against the header comment at the top of the file:
//!
//! ```text
//! /* gimso-test
//!  * expect: run                    (or: expect: error <safety error title>)
//!  * exit: 0                        (run only; default 0)
//!  * line: 17                       (error only: the report names <file>.c:17)
//!  * stderr: Assertion              (optional: stderr must contain this text)
//!  * flags: -fexceptions            (optional: extra compiler flags)
//!  * env: GIMSO_GC_TORTURE=50       (optional: environment of the run)
//!  * native: no-asan (why)          (optional note for tests/c/verify_native.py)
//!  * stdout:                        (optional for error programs: the output
//!  * | first line of stdout           printed before the report)
//!  * | second line
//!  */
//! ```
//!
//! A `run` program must exit with `exit` and print exactly the `stdout` lines
//! (no `stdout:` means no output). An `error` program must exit with status
//! 134 and the first line of its stderr must start with
//! `gimso: safety error: <kind>`.
//!
//! Environment: `GIMSO_CC` names the compiler (otherwise `gimso-cc` and
//! `libgimso.a` are built in release mode); `GIMSO_C_TESTS` restricts the run
//! to programs whose file name contains one of its comma-separated words;
//! `GIMSO_C_OPT` restricts the optimisation levels (e.g. `O0` or `O0,O2`).

mod support;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs::File;
use std::os::unix::process::ExitStatusExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Exit status of a program stopped by a safety error (and of `abort()`).
const SAFETY_EXIT: i32 = 134;
/// The prefix of the first report line.
const REPORT_PREFIX: &str = "gimso: safety error:";
/// Optimisation levels every program is checked at.
const OPT_LEVELS: [&str; 2] = ["-O0", "-O2"];
/// Worker threads (the build machine has two cores).
const WORKERS: usize = 2;
const RUN_TIMEOUT: Duration = Duration::from_secs(60);
const COMPILE_TIMEOUT: Duration = Duration::from_secs(300);
/// Safety-error kinds that the pass reports but `shadow/src/report.rs` does
/// not list (yet).
const EXTRA_KINDS: [&str; 3] = [
    "argument size mismatch",
    "return size mismatch",
    "unreachable executed",
];

#[derive(Debug, Clone, PartialEq, Eq)]
enum Expect {
    Run,
    Error(String),
}

#[derive(Debug, Clone)]
struct Header {
    expect: Expect,
    exit: i32,
    line: Option<u32>,
    stdout: Option<String>,
    stderr: Option<String>,
    /// Extra compiler flags (`flags: -fexceptions`).
    flags: Vec<String>,
    /// Environment of the run (`env: GIMSO_GC_TORTURE=50`).
    env: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
struct Program {
    /// C++ (`tests/cxx/*.cpp`, compiled with `gimso-c++`).
    cxx: bool,
    path: PathBuf,
    name: String,
    header: Header,
}

fn c_dir() -> PathBuf {
    support::root().join("tests/c")
}

/// Every `tests/c/*.c` and `tests/c/<group>/*.c`, then every
/// `tests/cxx/*.cpp`, each sorted by path.
fn program_paths() -> Vec<PathBuf> {
    let mut all = Vec::new();
    for (dir, ext) in [(c_dir(), "c"), (support::root().join("tests/cxx"), "cpp")] {
        let mut paths = Vec::new();
        let mut dirs = vec![dir];
        while let Some(dir) = dirs.pop() {
            for entry in
                std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
            {
                let p = entry.expect("dir entry").path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|e| e == ext) {
                    paths.push(p);
                }
            }
        }
        paths.sort();
        all.extend(paths);
    }
    all
}

/// The C++ driver next to `cc` (`gimso-c++`), or `cc -x c++`.
fn cxx_command(cc: &Path) -> Command {
    let cxx = cc.with_file_name("gimso-c++");
    if cxx.exists() {
        Command::new(cxx)
    } else {
        let mut c = Command::new(cc);
        c.args(["-x", "c++"]);
        c
    }
}

/// Safety-error titles: those in `shadow/src/report.rs` plus [`EXTRA_KINDS`].
fn known_kinds() -> BTreeSet<String> {
    let report = std::fs::read_to_string(support::root().join("shadow/src/report.rs"))
        .expect("read shadow/src/report.rs");
    let mut kinds: BTreeSet<String> = report
        .lines()
        .filter_map(|l| {
            let (lhs, rhs) = l.trim().split_once("=>")?;
            if !lhs.trim().starts_with("SafetyError::") {
                return None;
            }
            let rhs = rhs.trim().trim_end_matches(',');
            Some(rhs.strip_prefix('"')?.strip_suffix('"')?.to_owned())
        })
        .collect();
    assert!(
        kinds.len() >= 10,
        "could not read the safety error titles from report.rs: {kinds:?}"
    );
    kinds.extend(EXTRA_KINDS.iter().map(|s| (*s).to_owned()));
    kinds
}

/// Parses the `gimso-test` header of `text`.
fn parse_header(text: &str) -> Result<Header, String> {
    let rest = text
        .strip_prefix("/* gimso-test")
        .ok_or("the file does not start with `/* gimso-test`")?;
    let end = rest.find("*/").ok_or("unterminated header comment")?;
    let mut expect = None;
    let mut exit = None;
    let mut line = None;
    let mut stdout: Option<String> = None;
    let mut stderr = None;
    let mut flags = Vec::new();
    let mut env = Vec::new();
    let mut in_stdout = false;
    let mut seen = BTreeSet::new();
    for raw in rest[..end].lines().skip(1) {
        let mut l = raw.trim_start();
        l = l.strip_prefix('*').unwrap_or(l);
        l = l.strip_prefix(' ').unwrap_or(l);
        if let Some(out) = l.strip_prefix('|') {
            if !in_stdout {
                return Err(format!("`|` line outside `stdout:`: {raw:?}"));
            }
            let out = out.strip_prefix(' ').unwrap_or(out);
            let s = stdout.get_or_insert_with(String::new);
            s.push_str(out);
            s.push('\n');
            continue;
        }
        in_stdout = false;
        if l.trim().is_empty() {
            continue;
        }
        let (key, value) = l
            .split_once(':')
            .ok_or_else(|| format!("header line without `key:`: {raw:?}"))?;
        let (key, value) = (key.trim(), value.trim());
        if !seen.insert(key.to_owned()) {
            return Err(format!("duplicate key `{key}`"));
        }
        match key {
            "expect" => {
                expect = Some(if value == "run" {
                    Expect::Run
                } else if let Some(kind) = value.strip_prefix("error ") {
                    Expect::Error(kind.trim().to_owned())
                } else {
                    return Err(format!("bad expect `{value}` (run | error <kind>)"));
                });
            }
            "exit" => {
                exit = Some(
                    value
                        .parse::<i32>()
                        .map_err(|_| format!("bad exit `{value}`"))?,
                );
            }
            "line" => {
                line = Some(
                    value
                        .parse::<u32>()
                        .map_err(|_| format!("bad line `{value}`"))?,
                );
            }
            "stdout" => {
                if !value.is_empty() {
                    return Err("`stdout:` takes `|` lines below it".to_owned());
                }
                stdout = Some(String::new());
                in_stdout = true;
            }
            "stderr" => {
                if value.is_empty() {
                    return Err("empty `stderr:`".to_owned());
                }
                stderr = Some(value.to_owned());
            }
            "flags" => {
                flags = value.split_whitespace().map(str::to_owned).collect();
            }
            "env" => {
                for pair in value.split_whitespace() {
                    let (k, v) = pair
                        .split_once('=')
                        .ok_or_else(|| format!("`env:` wants NAME=VALUE, got {pair:?}"))?;
                    env.push((k.to_owned(), v.to_owned()));
                }
            }
            // A note for tests/c/verify_native.py; the harness ignores it.
            "native" => {}
            _ => return Err(format!("unknown key `{key}`")),
        }
    }
    let expect = expect.ok_or("missing `expect:`")?;
    match expect {
        Expect::Run if line.is_some() => return Err("`line:` needs `expect: error`".to_owned()),
        Expect::Error(_) if exit.is_some() => {
            return Err(format!(
                "error programs exit with {SAFETY_EXIT}; drop `exit:`"
            ));
        }
        _ => {}
    }
    Ok(Header {
        expect,
        exit: exit.unwrap_or(0),
        line,
        stdout,
        stderr,
        flags,
        env,
    })
}

/// Parses and validates every program; returns them or every problem found.
fn load_programs() -> Result<Vec<Program>, Vec<String>> {
    let kinds = known_kinds();
    let mut programs = Vec::new();
    let mut problems = Vec::new();
    for path in program_paths() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{name}: {e}"));
                continue;
            }
        };
        match parse_header(&text) {
            Ok(header) => {
                if let Expect::Error(kind) = &header.expect
                    && !kinds.contains(kind)
                {
                    problems.push(format!(
                        "{name}: unknown safety error kind `{kind}` (known: {kinds:?})"
                    ));
                }
                if let Some(l) = header.line
                    && (l == 0 || l as usize > text.lines().count())
                {
                    problems.push(format!("{name}: `line: {l}` is not a line of the file"));
                }
                let cxx = path.extension().is_some_and(|e| e == "cpp");
                programs.push(Program {
                    cxx,
                    path,
                    name,
                    header,
                });
            }
            Err(e) => problems.push(format!("{name}: {e}")),
        }
    }
    if problems.is_empty() {
        Ok(programs)
    } else {
        Err(problems)
    }
}

#[test]
fn headers_are_valid() {
    let programs = match load_programs() {
        Ok(p) => p,
        Err(problems) => panic!("invalid test headers:\n{}", problems.join("\n")),
    };
    assert!(
        programs.len() >= 80,
        "only {} programs in tests/c (want at least 80)",
        programs.len()
    );
    let runs = programs
        .iter()
        .filter(|p| p.header.expect == Expect::Run)
        .count();
    let kinds: BTreeSet<&str> = programs
        .iter()
        .filter_map(|p| match &p.header.expect {
            Expect::Error(k) => Some(k.as_str()),
            Expect::Run => None,
        })
        .collect();
    assert!(runs > 0, "no `expect: run` programs");
    for kind in [
        "out-of-bounds read",
        "out-of-bounds write",
        "use after free",
        "double free",
        "access through pointer with null capability",
    ] {
        assert!(kinds.contains(kind), "no program expects `{kind}`");
    }
}

/// The header parser accepts what the programs use and rejects mistakes.
#[test]
fn header_parser() {
    let h = parse_header(
        "/* gimso-test\n * expect: error out-of-bounds read\n * line: 9\n * stdout:\n * | a\n * |\n * | b c\n */\nint main;\n",
    )
    .unwrap();
    assert_eq!(h.expect, Expect::Error("out-of-bounds read".into()));
    assert_eq!(h.line, Some(9));
    assert_eq!(h.stdout.as_deref(), Some("a\n\nb c\n"));
    let h = parse_header("/* gimso-test\n * expect: run\n * exit: 3\n */\n").unwrap();
    assert_eq!((h.expect, h.exit, h.stdout), (Expect::Run, 3, None));
    for bad in [
        "/* not a test */",
        "/* gimso-test\n * exit: 1\n */",
        "/* gimso-test\n * expect: maybe\n */",
        "/* gimso-test\n * expect: run\n * colour: red\n */",
        "/* gimso-test\n * expect: run\n * line: 4\n */",
        "/* gimso-test\n * expect: error double free\n * exit: 1\n */",
        "/* gimso-test\n * expect: run\n * | stray\n */",
    ] {
        assert!(parse_header(bad).is_err(), "accepted {bad:?}");
    }
}

struct Outcome {
    /// Exit code, or 128 + signal.
    status: i32,
    stdout: String,
    stderr: String,
    timed_out: bool,
}

/// Runs `cmd` with stdin null and output captured in files under `dir`,
/// killing it after `timeout`.
fn run_with_timeout(mut cmd: Command, dir: &Path, tag: &str, timeout: Duration) -> Outcome {
    let out_path = dir.join(format!("{tag}.stdout"));
    let err_path = dir.join(format!("{tag}.stderr"));
    let out = File::create(&out_path).expect("create stdout file");
    let err = File::create(&err_path).expect("create stderr file");
    cmd.stdin(Stdio::null())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err));
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Outcome {
                status: -1,
                stdout: String::new(),
                stderr: format!("could not start {cmd:?}: {e}"),
                timed_out: false,
            };
        }
    };
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait().expect("wait for child") {
            Some(s) => break s,
            None if start.elapsed() > timeout => {
                timed_out = true;
                let _ = child.kill();
                break child.wait().expect("wait for killed child");
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let code = status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(-1);
    let read =
        |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    Outcome {
        status: code,
        stdout: read(&out_path),
        stderr: read(&err_path),
        timed_out,
    }
}

fn first_lines(s: &str, n: usize) -> String {
    let mut out = String::new();
    for l in s.lines().take(n) {
        let _ = writeln!(out, "    | {l}");
    }
    if s.lines().count() > n {
        out.push_str("    | ...\n");
    }
    out
}

/// `haystack` contains `needle` not followed by another digit.
fn contains_line_ref(haystack: &str, needle: &str) -> bool {
    haystack.match_indices(needle).any(|(i, m)| {
        !haystack[i + m.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    })
}

/// What is wrong with `o` for `p`, if anything.
fn judge(p: &Program, o: &Outcome) -> Vec<String> {
    let h = &p.header;
    let mut problems = Vec::new();
    if o.timed_out {
        problems.push(format!("timed out after {}s", RUN_TIMEOUT.as_secs()));
        return problems;
    }
    match &h.expect {
        Expect::Run => {
            if o.status != h.exit {
                problems.push(format!("exit status {} (want {})", o.status, h.exit));
            }
            let want = h.stdout.as_deref().unwrap_or("");
            if o.stdout != want {
                problems.push(format!(
                    "stdout differs\n  want:\n{}  got:\n{}",
                    first_lines(want, 20),
                    first_lines(&o.stdout, 20)
                ));
            }
        }
        Expect::Error(kind) => {
            if o.status != SAFETY_EXIT {
                problems.push(format!("exit status {} (want {SAFETY_EXIT})", o.status));
            }
            let want = format!("{REPORT_PREFIX} {kind}");
            let first = o.stderr.lines().next().unwrap_or("");
            if !first.starts_with(&want) {
                problems.push(format!(
                    "stderr's first line is {first:?} (want it to start with {want:?})"
                ));
            }
            if let Some(line) = h.line {
                let needle = format!("{}:{line}", p.name);
                if !contains_line_ref(&o.stderr, &needle) {
                    problems.push(format!("the report does not name {needle}"));
                }
            }
            if let Some(want) = &h.stdout
                && &o.stdout != want
            {
                problems.push(format!(
                    "stdout before the report differs\n  want:\n{}  got:\n{}",
                    first_lines(want, 20),
                    first_lines(&o.stdout, 20)
                ));
            }
        }
    }
    if let Some(s) = &h.stderr
        && !o.stderr.contains(s.as_str())
    {
        problems.push(format!("stderr does not contain {s:?}"));
    }
    problems
}

/// Compiles and runs `p` at `opt`; returns a failure description.
fn check_program(cc: &Path, dir: &Path, p: &Program, opt: &str) -> Option<String> {
    let stem = p.path.file_stem().unwrap().to_string_lossy();
    let tag = format!("{stem}{opt}");
    let exe = dir.join(&tag);
    let _ = std::fs::remove_file(&exe);
    let mut compile = if p.cxx {
        cxx_command(cc)
    } else {
        Command::new(cc)
    };
    compile
        .current_dir(dir)
        .args([opt, "-g"])
        .args(&p.header.flags)
        .arg(&p.path)
        .arg("-o")
        .arg(&exe);
    let c = run_with_timeout(compile, dir, &format!("{tag}.cc"), COMPILE_TIMEOUT);
    if c.timed_out || c.status != 0 || !exe.exists() {
        return Some(format!(
            "{} {opt}: compilation failed (status {}{})\n  compiler stderr:\n{}",
            p.name,
            c.status,
            if c.timed_out { ", timed out" } else { "" },
            first_lines(&c.stderr, 20)
        ));
    }
    let mut run = Command::new(&exe);
    run.current_dir(dir)
        .env_remove("GIMSO_ERROR_EXIT_CODE")
        .envs(p.header.env.iter().map(|(k, v)| (k, v)));
    let o = run_with_timeout(run, dir, &format!("{tag}.run"), RUN_TIMEOUT);
    let problems = judge(p, &o);
    if problems.is_empty() {
        // A passing program's executable (~9 MB, mostly the runtime's debug
        // information) is not kept: ~480 of them filled CI's disk. A failing
        // one stays for debugging.
        let _ = std::fs::remove_file(&exe);
        return None;
    }
    let mut msg = format!("{} {opt}:\n", p.name);
    for pr in problems {
        let _ = writeln!(msg, "  {pr}");
    }
    let _ = write!(
        msg,
        "  stderr (first 20 lines):\n{}",
        first_lines(&o.stderr, 20)
    );
    Some(msg)
}

fn selected(p: &Program) -> bool {
    match std::env::var("GIMSO_C_TESTS") {
        Ok(filter) if !filter.trim().is_empty() => filter
            .split(',')
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .any(|w| p.name.contains(w)),
        _ => true,
    }
}

fn opt_levels() -> Vec<&'static str> {
    match std::env::var("GIMSO_C_OPT") {
        Ok(v) if !v.trim().is_empty() => OPT_LEVELS
            .iter()
            .copied()
            .filter(|o| {
                v.split(',')
                    .any(|w| w.trim().trim_start_matches('-') == &o[1..])
            })
            .collect(),
        _ => OPT_LEVELS.to_vec(),
    }
}

#[test]
fn programs_behave_as_declared() {
    let programs = match load_programs() {
        Ok(p) => p,
        Err(problems) => panic!("invalid test headers:\n{}", problems.join("\n")),
    };
    let cc = support::gimso_cc();
    let dir = support::scratch("c_programs");
    let jobs: Vec<(&Program, &str)> = programs
        .iter()
        .filter(|p| selected(p))
        .flat_map(|p| opt_levels().into_iter().map(move |o| (p, o)))
        .collect();
    assert!(!jobs.is_empty(), "no programs selected");
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..WORKERS {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(p, opt)) = jobs.get(i) else { break };
                    if let Some(f) = check_program(cc, &dir, p, opt) {
                        failures.lock().unwrap().push((i, f));
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort_by_key(|(i, _)| *i);
    if !failures.is_empty() {
        let mut msg = format!(
            "{} of {} C program runs failed (compiler {}):\n\n",
            failures.len(),
            jobs.len(),
            cc.display()
        );
        for (_, f) in &failures {
            msg.push_str(f);
            msg.push('\n');
        }
        panic!("{msg}");
    }
}
