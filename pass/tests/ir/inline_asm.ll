; Empty templates are safe; one writing memory is not.
define i32 @f(i32 %x) !dbg !3 {
  call void asm sideeffect "", "~{memory}"(), !dbg !10
  %y = call i32 asm "", "=r,0"(i32 %x), !dbg !11
  call void asm sideeffect "movl $$0, (%rsp)", "~{memory},~{flags}"(), !dbg !13
  ret i32 %y, !dbg !14
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand-written", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "asm.c", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!4 = !DISubroutineType(types: !{null})
!10 = !DILocation(line: 2, column: 3, scope: !3)
!11 = !DILocation(line: 3, column: 5, scope: !3)
!12 = !DILocation(line: 4, column: 7, scope: !3)
!13 = !DILocation(line: 5, column: 9, scope: !3)
!14 = !DILocation(line: 6, column: 1, scope: !3)
