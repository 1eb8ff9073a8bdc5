//! The collector's environment switches: GIMSO_HEAP_MAX, GIMSO_GC_TRACE,
//! and bad values, each checked in a child process.

use std::hint::black_box;
use std::process::{Command, Output};

use gimso::capi::*;

fn child(scenario: &str, env: &[(&str, &str)]) -> Output {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "scenario", "--nocapture"])
        .env("GIMSO_SWITCH_CHILD", scenario)
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

#[test]
fn scenario() {
    match std::env::var("GIMSO_SWITCH_CHILD").as_deref() {
        Ok("grow") => {
            // Keep 64 MiB live in a linked list.
            let mut head = gimso_alloc(8);
            for _ in 0..(64 << 20) / 4096 {
                let n = gimso_alloc(4096);
                // SAFETY: runtime-issued capabilities.
                unsafe { gimso_store_ptr(n, head) };
                head = n;
            }
            black_box(head);
            gimso_gc_collect();
            println!("GREW");
        }
        Ok("collect") => {
            for _ in 0..1000 {
                black_box(gimso_alloc(100));
            }
            gimso_gc_collect();
            println!("COLLECTED");
        }
        _ => {}
    }
}

#[test]
fn heap_limit_is_a_clean_fatal_error() {
    let out = child("grow", &[("GIMSO_HEAP_MAX", "16M")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(134), "{stderr}");
    assert!(
        stderr.contains("gimso: fatal error: heap limit exceeded"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("GREW"));
    // The same program within the limit runs.
    let out = child("grow", &[("GIMSO_HEAP_MAX", "1G")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("GREW"));
}

#[test]
fn trace_prints_one_line_per_cycle() {
    let out = child(
        "collect",
        &[("GIMSO_GC_TRACE", "1"), ("GIMSO_GC_THRESHOLD", "1G")],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("gimso-gc: cycle "))
        .collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    for field in [
        "heap ",
        " MiB -> ",
        "live ",
        "mark ",
        "sweep ",
        "max pause ",
        "threads ",
    ] {
        assert!(
            lines[0].contains(field),
            "{field:?} missing in {:?}",
            lines[0]
        );
    }
    let quiet = child("collect", &[("GIMSO_GC_THRESHOLD", "1G")]);
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("gimso-gc:"));
}

#[test]
fn bad_switch_values_are_clean_fatal_errors() {
    for (var, value) in [
        ("GIMSO_GC_TORTURE", "often"),
        ("GIMSO_HEAP_MAX", "12Q"),
        ("GIMSO_GC_STW", "2"),
    ] {
        let out = child("collect", &[(var, value)]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(134), "{var}={value}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "gimso: fatal error: bad value \"{value}\" for {var}"
            )),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
