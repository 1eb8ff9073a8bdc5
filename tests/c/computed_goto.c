/* gimso-test
 * expect: run
 * stdout:
 * | fib(20) = 6765
 * | steps 84
 * | labels: A B C B A
 */
#include <stdio.h>

enum { OP_LOADI, OP_ADD, OP_MOV, OP_DECJNZ, OP_HALT };

struct insn {
    int op, a, b;
};

static long run(const struct insn *code, long *regs, int *steps) {
    static void *dispatch[] = {&&loadi, &&add, &&mov, &&decjnz, &&halt};
    const struct insn *pc = code;
    int n = 0;
#define NEXT                                                                                       \
    do {                                                                                           \
        n++;                                                                                       \
        goto *dispatch[pc->op];                                                                    \
    } while (0)
    NEXT;
loadi:
    regs[pc->a] = pc->b;
    pc++;
    NEXT;
add:
    regs[pc->a] += regs[pc->b];
    pc++;
    NEXT;
mov:
    regs[pc->a] = regs[pc->b];
    pc++;
    NEXT;
decjnz:
    if (--regs[pc->a])
        pc = code + pc->b;
    else
        pc++;
    NEXT;
halt:
    *steps = n;
    return regs[0];
#undef NEXT
}

int main(void) {
    struct insn code[] = {
        {OP_LOADI, 0, 0}, {OP_LOADI, 1, 1}, {OP_LOADI, 3, 20},
        {OP_MOV, 2, 1},   {OP_ADD, 1, 0},   {OP_MOV, 0, 2},
        {OP_DECJNZ, 3, 3}, {OP_HALT, 0, 0},
    };
    long regs[4] = {0};
    int steps = 0;
    long r = run(code, regs, &steps);
    printf("fib(20) = %ld\n", r);
    printf("steps %d\n", steps);
    void *labels[] = {&&la, &&lb, &&lc};
    int seq[] = {0, 1, 2, 1, 0};
    int i = 0;
    printf("labels:");
    goto *labels[seq[i]];
la:
    printf(" A");
    goto next;
lb:
    printf(" B");
    goto next;
lc:
    printf(" C");
next:
    if (++i < 5)
        goto *labels[seq[i]];
    printf("\n");
    return 0;
}
