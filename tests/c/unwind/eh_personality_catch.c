/* gimso-test
 * expect: run
 * flags: -fexceptions
 * native: differs (GIMSO_PERSONALITY is a gimso extension)
 * stdout:
 * | search probe: other class, continue
 * | raise returned 5
 * | probe cleanup
 * | search catcher: my class, handler found
 * | cleanup level 0
 * | cleanup level 1
 * | cleanup level 2
 * | catcher: caught my class, register 1 = 42
 */
/* A personality written in C that catches by exception class (chosen with
 * GIMSO_PERSONALITY). An exception of another class finds no handler:
 * _Unwind_RaiseException returns _URC_END_OF_STACK and no cleanup has run
 * (the probe's cleanup runs later, when its scope ends normally). One of
 * its class runs the cleanups of the frames in between innermost first
 * (their personality is __gcc_personality_v0, which never catches), then
 * the catcher's landing pad with the registers the personality set, and
 * never the cleanup of main beyond it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

#include "../../../include/gimso.h"

#define MY_CLASS 0x474d534f4d494e45ULL    /* "GMSOMINE" */
#define OTHER_CLASS 0x474d534f4f544852ULL /* "GMSOOTHR" */

static struct _Unwind_Exception exc;
static uintptr_t landed_with;

__attribute__((used)) static _Unwind_Reason_Code
catch_mine(int version, _Unwind_Action actions, _Unwind_Exception_Class cls,
           struct _Unwind_Exception *e, struct _Unwind_Context *ctx) {
    const gimso_eh_landing_pad *lsda = _Unwind_GetLanguageSpecificData(ctx);
    if (version != 1 || lsda == NULL || !lsda->cleanup)
        return _URC_FATAL_PHASE1_ERROR;
    if (actions & _UA_SEARCH_PHASE) {
        int mine = cls == MY_CLASS;
        printf("search %s: %s\n", e == &exc ? (mine ? "catcher" : "probe") : "?",
               mine ? "my class, handler found" : "other class, continue");
        return mine ? _URC_HANDLER_FOUND : _URC_CONTINUE_UNWIND;
    }
    if (actions & _UA_HANDLER_FRAME) {
        _Unwind_SetGR(ctx, 0, (uintptr_t)e);
        _Unwind_SetGR(ctx, 1, 42);
        landed_with = _Unwind_GetGR(ctx, 1);
        return _URC_INSTALL_CONTEXT;
    }
    return _URC_CONTINUE_UNWIND;
}

static void raise_class(uint64_t cls) {
    memset(&exc, 0, sizeof exc);
    exc.exception_class = cls;
    _Unwind_Reason_Code r = _Unwind_RaiseException(&exc);
    printf("raise returned %d\n", (int)r);
}

static void probe_done(int *unused) {
    (void)unused;
    printf("probe cleanup\n");
}

GIMSO_PERSONALITY(catch_mine)
static __attribute__((noinline)) void probe(void) {
    int guard __attribute__((cleanup(probe_done))) = 0;
    raise_class(OTHER_CLASS);
    (void)guard;
}

static void cleanup_level(int *level) { printf("cleanup level %d\n", *level); }

static __attribute__((noinline)) void dive(int level) {
    int mark __attribute__((cleanup(cleanup_level))) = level;
    if (level == 0)
        raise_class(MY_CLASS);
    else
        dive(level - 1);
    printf("dive %d returns\n", mark);
}

/* The catcher's landing pad is this cleanup: it runs as the handler. */
static void handled(int *unused) {
    (void)unused;
    printf("catcher: caught my class, register 1 = %d\n", (int)landed_with);
    fflush(stdout);
    exit(0);
}

GIMSO_PERSONALITY(catch_mine)
static __attribute__((noinline)) void catcher(void) {
    int guard __attribute__((cleanup(handled))) = 0;
    dive(2);
    (void)guard;
}

static void main_cleanup(int *unused) {
    (void)unused;
    printf("main cleanup: must not run\n");
}

int main(void) {
    int m __attribute__((cleanup(main_cleanup))) = 0;
    probe();
    catcher();
    printf("not reached\n");
    return m;
}
