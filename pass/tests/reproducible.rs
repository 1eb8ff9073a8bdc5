//! The same source compiles to the same object, byte for byte, every time
//! (build caches and reproducible builds depend on it). The translation
//! keys many tables by LLVM value addresses, which change from run to run:
//! nothing it emits may follow their hash order. The program below has
//! what once did: locals whose address escapes (each a frame or stack
//! object made in the prologue) and locals that escape only on an error
//! path (each a lazily made object with a frame slot).

use std::fs;
use std::path::Path;

mod common;
use common::gimso_cc_object;

const SOURCE: &str = r#"
extern void use(void *p, int n);
extern void report(const char *what, void *where);

int many_locals(int k) {
    int a = k, b = k + 1, c = k + 2, d = k + 3, e = k + 4, f = k + 5;
    long g[4] = {k}, h[3] = {k}, i[2] = {k};
    char *j[2] = {0};
    use(&a, 1); use(&b, 2); use(&c, 3); use(&d, 4); use(&e, 5); use(&f, 6);
    use(g, 7); use(h, 8); use(i, 9); use(j, 10);
    return a + b + c + d + e + f + (int)g[0] + (int)h[0] + (int)i[0];
}

int on_error_only(int k) {
    int x = k, y = k * 2, z = k * 3, w = k * 4, v = k * 5, u = k * 6;
    if (k < 0) { report("x", &x); report("y", &y); report("z", &z); }
    if (k > 1000) { report("w", &w); report("v", &v); report("u", &u); }
    return x + y + z + w + v + u;
}
"#;

fn object(dir: &Path, run: usize) -> Vec<u8> {
    let src = dir.join("many_locals.c");
    let obj = dir.join(format!("many_locals.{run}.o"));
    gimso_cc_object(&src, &obj, &["-O2"])
}

#[test]
fn the_same_source_compiles_to_the_same_object() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reproducible");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("many_locals.c"), SOURCE).unwrap();
    let first = object(&dir, 0);
    for run in 1..4 {
        assert!(
            object(&dir, run) == first,
            "run {run} wrote a different object than run 0 (see {})",
            dir.display()
        );
    }
}
