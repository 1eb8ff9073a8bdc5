/* gimso-test
 * expect: run
 * flags: -fexceptions
 * native: differs (glibc's qsort lets exceptions through)
 * stdout:
 * | comparator: raise returned 5 (end of stack)
 * | sorted: 1 2 3
 * | main cleanup
 */
/* An exception raised inside a qsort comparator cannot be caught beyond
 * qsort: the runtime calls compiled code behind an unwind barrier, so
 * phase 1 ends there with _URC_END_OF_STACK (C++ then terminates) although
 * main would catch it, and no cleanup runs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

#include "../../../include/gimso.h"

static struct _Unwind_Exception exc;
static int raised;

__attribute__((used)) static _Unwind_Reason_Code
catch_all(int version, _Unwind_Action actions, _Unwind_Exception_Class cls,
          struct _Unwind_Exception *e, struct _Unwind_Context *ctx) {
    (void)version, (void)cls, (void)e, (void)ctx;
    printf("personality of main: must not be asked (actions %d)\n", (int)actions);
    return _URC_CONTINUE_UNWIND;
}

static int cmp(const void *a, const void *b) {
    if (!raised) {
        raised = 1;
        memset(&exc, 0, sizeof exc);
        int r = _Unwind_RaiseException(&exc);
        printf("comparator: raise returned %d (end of stack)\n", r);
    }
    return *(const int *)a - *(const int *)b;
}

static void main_cleanup(int *unused) {
    (void)unused;
    printf("main cleanup\n");
}

GIMSO_PERSONALITY(catch_all)
int main(void) {
    int guard __attribute__((cleanup(main_cleanup))) = 0;
    int v[3] = {3, 1, 2};
    qsort(v, 3, sizeof v[0], cmp);
    printf("sorted: %d %d %d\n", v[0], v[1], v[2]);
    return guard;
}
