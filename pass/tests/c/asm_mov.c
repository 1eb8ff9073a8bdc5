/* Inline asm that reaches memory: rejected at the asm statement's line. */
int f(int *p) {
  int x = 1;
  asm volatile("movl $0, (%0)" : : "r"(p) : "memory"); /* REJECTED */
  return x;
}
