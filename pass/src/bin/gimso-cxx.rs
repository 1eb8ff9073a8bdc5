//! `gimso-cxx` (also reachable as `gimso-c++`, a link to `gimso-cc`): the
//! C++ driver, `gimso-cc` compiling its sources as C++.

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
                    "gimso-c++: error: argument {} is not valid UTF-8",
                    raw.to_string_lossy()
                );
                std::process::exit(1);
            }
        }
    }
    std::process::exit(gimso_pass::driver::main_as(&args, true));
}
