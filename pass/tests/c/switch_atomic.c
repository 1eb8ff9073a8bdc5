/* Switches, computed gotos, atomics, threads-local and globals of pointers. */
#include <stdatomic.h>
#include <stddef.h>

static _Atomic(int *) shared;
static _Thread_local int counter;
static const char *names[] = {"zero", "one", "two"};

const char *name(int i) {
  switch (i) {
  case 0:
  case 1:
  case 2:
    return names[i];
  default:
    return NULL;
  }
}

int dispatch(int op) {
  static void *labels[] = {&&add, &&sub};
  int acc = 10;
  goto *labels[op & 1];
add:
  return acc + 1;
sub:
  return acc - 1;
}

int publish(int *p) {
  int *old = atomic_exchange(&shared, p);
  counter++;
  return old ? *old : counter;
}
