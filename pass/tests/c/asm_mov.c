/* Non-empty inline asm: rejected at the asm statement's line. */
int f(void) {
  int x = 1;
  asm volatile("mov $0, %%eax" ::: "eax"); /* REJECTED */
  return x;
}
