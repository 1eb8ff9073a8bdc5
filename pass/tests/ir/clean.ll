; Itanium EH, atomics, varargs, blockaddress, vector GEPs: all accepted.
@table = global [2 x ptr] [ptr @f, ptr blockaddress(@f, %ok)]
@s = private constant [3 x i8] c"hi\00"

declare void @g()
declare i32 @__gxx_personality_v0(...)
declare i32 @printf(ptr, ...)

define i32 @f(ptr %p, <2 x ptr> %vp) personality ptr @__gxx_personality_v0 {
entry:
  %a = alloca [4 x i32], align 16
  %old = atomicrmw xchg ptr %p, ptr null seq_cst
  %c = cmpxchg ptr %p, ptr %old, ptr %a acq_rel monotonic
  %vq = getelementptr i8, <2 x ptr> %vp, <2 x i64> <i64 1, i64 2>
  invoke void @g() to label %ok unwind label %lp
ok:
  %n = call i32 (ptr, ...) @printf(ptr @s, i32 1)
  ret i32 %n
lp:
  %e = landingpad { ptr, i32 } cleanup catch ptr null
  resume { ptr, i32 } %e
}
