/* Defined here; called from caller_ok.c with this prototype and from
 * caller_lying.c with a prototype that lies (tests/direct_call_link.rs). */
#include <stdio.h>

long add3(long a, long b, long c) { return a + b + c; }

char *pick(char *s, long i) { return s + i; }
