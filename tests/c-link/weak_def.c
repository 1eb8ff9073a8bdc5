/* The definitions weak_use.c declares weak. */
#include <stdio.h>

int weak_counter = 41;

void hook(int x) { printf("hook called %d\n", x); }
