//! Links `gimso-c++` to `gimso-cc` in the profile directory
//! (`target/<profile>/`), so both drivers run from the build tree: cargo
//! cannot name a binary with `+`. `gimso-cc` started under a name ending in
//! `++` compiles C++.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let Some(out) = std::env::var_os("OUT_DIR") else {
        return;
    };
    // OUT_DIR is target/<profile>/build/<pkg>-<hash>/out.
    let Some(profile) = std::path::Path::new(&out).ancestors().nth(3) else {
        return;
    };
    let link = profile.join("gimso-c++");
    if std::fs::symlink_metadata(&link).is_err() {
        // Best effort: the `gimso-cxx` binary does the same job.
        let _ = std::os::unix::fs::symlink("gimso-cc", &link);
    }
}
