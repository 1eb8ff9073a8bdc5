/* gimso-test
 * expect: run
 * flags: -fexceptions
 * native: differs (gimso consults the stop function at frames with a personality)
 * stdout:
 * | stop 1: cleanup phase, forced
 * | cleanup level 0
 * | stop 2: cleanup phase, forced
 * | cleanup level 1
 * | stop 3: cleanup phase, forced
 * | cleanup level 2
 * | stop 4: cleanup phase, forced
 * | main cleanup
 * | stop: end of stack after 4 frames
 * | exception deleted (reason 1)
 */
/* _Unwind_ForcedUnwind: phase 2 only, the stop function consulted at every
 * frame before its cleanups run, and once more at the end of the stack,
 * where it ends the program (as pthread_exit's would end the thread). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

static struct _Unwind_Exception exc;

static void deleted(_Unwind_Reason_Code reason, struct _Unwind_Exception *e) {
    printf("exception deleted (reason %d)\n", (int)reason);
    (void)e;
}

static _Unwind_Reason_Code stop_fn(int version, _Unwind_Action actions,
                                   _Unwind_Exception_Class cls,
                                   struct _Unwind_Exception *e,
                                   struct _Unwind_Context *ctx, void *arg) {
    int *frames = arg;
    (void)version, (void)cls, (void)ctx;
    if (actions & _UA_END_OF_STACK) {
        printf("stop: end of stack after %d frames\n", *frames);
        _Unwind_DeleteException(e);
        fflush(stdout);
        exit(0);
    }
    ++*frames;
    printf("stop %d: %s%s\n", *frames,
           actions & _UA_CLEANUP_PHASE ? "cleanup phase" : "?",
           actions & _UA_FORCE_UNWIND ? ", forced" : "");
    return _URC_NO_REASON;
}

static int frames;

static void cleanup_level(int *level) { printf("cleanup level %d\n", *level); }

static __attribute__((noinline)) void dive(int level) {
    int mark __attribute__((cleanup(cleanup_level))) = level;
    if (level == 0) {
        memset(&exc, 0, sizeof exc);
        exc.exception_class = 0x474d534f46524345ULL;
        exc.exception_cleanup = deleted;
        _Unwind_ForcedUnwind(&exc, stop_fn, &frames);
        printf("forced unwind returned\n");
    } else {
        dive(level - 1);
    }
    printf("dive %d returns\n", mark);
}

static void main_cleanup(int *unused) {
    (void)unused;
    printf("main cleanup\n");
}

int main(void) {
    int m __attribute__((cleanup(main_cleanup))) = 0;
    dive(2);
    printf("not reached\n");
    return m;
}
