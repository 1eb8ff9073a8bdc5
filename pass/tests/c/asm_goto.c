int f(int x) {
  asm goto("" :::: fail); /* line 2: callbr, even with an empty template */
  return x;
fail:
  return -1;
}
