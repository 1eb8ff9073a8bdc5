//! Intrinsics: memory-free ones pass, handled ones pass (the translation
//! gives them a checked meaning), the rest are rejected by the checker.

use gimso_pass::intrinsics::{IntrinsicClass, Lowering, classify};
use gimso_pass::{check_module, parse_module};
use inkwell::context::Context;

const IR: &str = r#"
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare double @llvm.sqrt.f64(double)
declare i32 @llvm.ctpop.i32(i32)
declare void @llvm.assume(i1)
declare <4 x i32> @llvm.masked.load.v4i32.p0(ptr, i32, <4 x i1>, <4 x i32>)
declare <4 x i32> @llvm.masked.gather.v4i32.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x i32>)
declare void @llvm.x86.sse2.clflush(ptr)
declare i64 @llvm.objectsize.i64.p0(ptr, i1, i1, i1)
declare void @llvm.x86.sse2.pause()
declare void @not_an_intrinsic(ptr)

define i32 @f(ptr %p, ptr %q, <4 x i1> %m, <4 x ptr> %ps) {
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 16, i1 false)
  call void @llvm.lifetime.start.p0(i64 16, ptr %p)
  %s = call double @llvm.sqrt.f64(double 2.0)
  %c = call i32 @llvm.ctpop.i32(i32 7)
  call void @llvm.assume(i1 true)
  %v = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 4, <4 x i1> %m, <4 x i32> zeroinitializer)
  %g = call <4 x i32> @llvm.masked.gather.v4i32.v4p0(<4 x ptr> %ps, i32 4, <4 x i1> %m, <4 x i32> zeroinitializer)
  call void @llvm.x86.sse2.clflush(ptr %q)
  %o = call i64 @llvm.objectsize.i64.p0(ptr %p, i1 false, i1 false, i1 false)
  call void @llvm.x86.sse2.pause()
  call void @not_an_intrinsic(ptr %p)
  ret i32 %c
}
"#;

#[test]
fn intrinsics_are_classified_and_unsafe_ones_rejected() {
    let ctx = Context::create();
    let m = parse_module(&ctx, IR.as_bytes(), "intrinsics.ll").expect("fixture parses");
    let class = |name: &str| classify(gimso_pass::llvm::Func::of(m.get_function(name).unwrap()));
    assert!(matches!(
        class("llvm.memcpy.p0.p0.i64"),
        Some(IntrinsicClass::Handled(Lowering::MemTransfer, _))
    ));
    assert!(matches!(
        class("llvm.lifetime.start.p0"),
        Some(IntrinsicClass::Handled(Lowering::Dropped, _))
    ));
    assert!(matches!(
        class("llvm.assume"),
        Some(IntrinsicClass::Handled(Lowering::Dropped, _))
    ));
    assert!(matches!(
        class("llvm.objectsize.i64.p0"),
        Some(IntrinsicClass::Handled(Lowering::ObjectSize, _))
    ));
    assert_eq!(class("llvm.sqrt.f64"), Some(IntrinsicClass::NoMemory));
    assert_eq!(class("llvm.ctpop.i32"), Some(IntrinsicClass::NoMemory));
    assert!(matches!(
        class("llvm.masked.load.v4i32.p0"),
        Some(IntrinsicClass::Handled(Lowering::Masked, _))
    ));
    assert!(matches!(
        class("llvm.masked.gather.v4i32.v4p0"),
        Some(IntrinsicClass::Rejected(_))
    ));
    assert!(matches!(
        class("llvm.x86.sse2.clflush"),
        Some(IntrinsicClass::Rejected(_))
    ));
    assert!(matches!(
        class("llvm.x86.sse2.pause"),
        Some(IntrinsicClass::Handled(Lowering::Kept, _))
    ));
    assert_eq!(class("not_an_intrinsic"), None);

    let diags = check_module(&m);
    let named: Vec<String> = diags.iter().map(|d| d.message.clone()).collect();
    assert_eq!(diags.len(), 2, "{named:#?}");
    assert!(
        named[0].contains("`llvm.masked.gather.v4i32.v4p0`"),
        "{named:#?}"
    );
    assert!(named[1].contains("`llvm.x86.sse2.clflush`"), "{named:#?}");
    assert!(diags.iter().all(|d| d.construct == "intrinsic"));
}
