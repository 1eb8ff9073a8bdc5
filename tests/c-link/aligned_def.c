/* Defines over-aligned globals for aligned_use.c. */
_Alignas(256) char shared_buf[40] = "defined elsewhere";
static int counter;
_Alignas(64) struct {
    int *p;
    int n;
} shared_table = {&counter, 7};
