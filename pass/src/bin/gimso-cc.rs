//! `gimso-cc`: a drop-in C compiler that makes the program memory safe
//! (docs/gimso-cc.md). All the work is in [`gimso_pass::driver`].

#[path = "common/malloc.rs"]
mod malloc;

fn main() {
    // Arguments that are not UTF-8 are refused by name rather than panicking.
    let mut args = Vec::new();
    for arg in std::env::args_os().skip(1) {
        match arg.into_string() {
            Ok(a) => args.push(a),
            Err(raw) => {
                eprintln!(
                    "gimso-cc: error: argument {} is not valid UTF-8",
                    raw.to_string_lossy()
                );
                std::process::exit(1);
            }
        }
    }
    std::process::exit(gimso_pass::driver::main(&args));
}
