; No debug info: diagnostics fall back to the function name.
define void @h() {
  call void asm sideeffect "syscall", "~{flags}"()
  ret void
}

define void @k() {
entry:
  callbr void asm sideeffect "", "!i"()
          to label %ok [label %ok]
ok:
  ret void
}
