/* gimso-test
 * expect: run
 * exit: 134
 * flags: -fexceptions
 * native: differs (natively the unwinder passes nothrow frames)
 * stderr: which cannot unwind
 * stdout:
 * | search: handler in main
 * | cleanup in thrower
 */
/* An exception whose handler lies beyond a function that cannot unwind
 * (__attribute__((nothrow)), or C compiled without -fexceptions): phase 2
 * runs the cleanups up to that function, then stops the program with a
 * clear error instead of unwinding through it. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unwind.h>

#include "../../../include/gimso.h"

static struct _Unwind_Exception exc;

__attribute__((used)) static _Unwind_Reason_Code
catch_all(int version, _Unwind_Action actions, _Unwind_Exception_Class cls,
          struct _Unwind_Exception *e, struct _Unwind_Context *ctx) {
    (void)version, (void)cls;
    if (actions & _UA_SEARCH_PHASE) {
        printf("search: handler in main\n");
        return _URC_HANDLER_FOUND;
    }
    _Unwind_SetGR(ctx, 0, (uintptr_t)e);
    return _URC_INSTALL_CONTEXT;
}

static void note(int *unused) {
    (void)unused;
    printf("cleanup in thrower\n");
}

static __attribute__((noinline)) void thrower(void) {
    int guard __attribute__((cleanup(note))) = 0;
    memset(&exc, 0, sizeof exc);
    _Unwind_RaiseException(&exc);
    (void)guard;
}

static __attribute__((noinline, nothrow)) void wall(void) {
    thrower();
    printf("wall: not reached\n");
}

/* Called through a pointer the optimiser cannot see through, so outer
 * is not inferred nounwind and main keeps its landing pad at -O2. */
static void (*volatile wall_ptr)(void) = wall;

static __attribute__((noinline)) void outer(void) {
    wall_ptr();
    printf("outer: not reached\n");
}

static void handled(int *unused) {
    (void)unused;
    printf("main: not reached\n");
}

GIMSO_PERSONALITY(catch_all)
int main(void) {
    int guard __attribute__((cleanup(handled))) = 0;
    outer();
    return guard;
}
