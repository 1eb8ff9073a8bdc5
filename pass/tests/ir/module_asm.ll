; Module-level asm can define arbitrary code.
module asm ".globl sneaky"
module asm "sneaky: ret"

define void @f() {
  ret void
}
