/* The two safe forms of inline asm (spec "Inline Assembly"). */
int f(int value) {
  asm volatile("" ::: "memory");
  asm("" : "+r"(value));
  return value;
}

int main(void) { return f(0); }
