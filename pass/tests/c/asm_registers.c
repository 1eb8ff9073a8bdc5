/* Register-only inline asm with declared outputs and clobbers: accepted. */
unsigned f(unsigned x, const char *a, const char *b) {
  unsigned eax, ebx, ecx, edx;
  asm volatile("cpuid" : "=a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx) : "a"(x), "c"(0));
  asm("bswap %0" : "+r"(x));
  asm("cmp %1, %2\n\tcmova %3, %0" : "+r"(a) : "r"(x), "r"(eax), "r"(b));
  asm volatile(".p2align 5\n\tnop\n\tpause");
  asm("rdtsc" : "=a"(ecx), "=d"(edx));
  return eax + ebx + ecx + edx + x + (unsigned)*a;
}

int main(void) { return (int)f(0, "a", "b") & 0; }
