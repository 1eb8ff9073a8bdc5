; Non-zero address spaces wherever they can hide.
@g1 = addrspace(1) global i32 0
@gp = global ptr addrspace(2) null
@fine = global ptr null
@g3 = external addrspace(3) global i32
@ce = global i64 ptrtoint (ptr addrspace(3) @g3 to i64)

declare void @ext(ptr addrspace(4))

define void @param(ptr addrspace(1) %p) !dbg !5 {
  ret void, !dbg !20
}

define void @f(i64 %x) !dbg !3 {
  %p = inttoptr i64 %x to ptr addrspace(1), !dbg !10
  %v = load i32, ptr addrspace(1) @g1, !dbg !11
  %s = alloca ptr addrspace(1), !dbg !12
  %q = getelementptr { ptr addrspace(5), i32 }, ptr %s, i64 0, i32 1, !dbg !13
  %w = load i32, ptr %q, !dbg !14
  ret void, !dbg !14
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand-written", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "addrspace.c", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!4 = !DISubroutineType(types: !{null})
!10 = !DILocation(line: 2, column: 3, scope: !3)
!11 = !DILocation(line: 3, column: 5, scope: !3)
!12 = !DILocation(line: 4, column: 7, scope: !3)
!13 = !DILocation(line: 5, column: 9, scope: !3)
!14 = !DILocation(line: 6, column: 1, scope: !3)
!5 = distinct !DISubprogram(name: "param", scope: !1, file: !1, line: 9, type: !4, scopeLine: 9, spFlags: DISPFlagDefinition, unit: !0)
!20 = !DILocation(line: 10, column: 3, scope: !5)
