/* gimso-test
 * expect: run
 * stdout:
 * | push 5
 * | push 7
 * | add -> 12
 * | push 3
 * | mul -> 36
 * | dup -> 36 36
 * | sub -> 0
 * | unknown 'frob'
 * | result 0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_UNKNOWN };

static const struct {
    const char *name;
    enum op op;
} ops[] = {
    {"push", OP_PUSH}, {"add", OP_ADD}, {"sub", OP_SUB}, {"mul", OP_MUL}, {"dup", OP_DUP},
};

static enum op lookup(const char *s) {
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, s) == 0)
            return ops[i].op;
    return OP_UNKNOWN;
}

int main(void) {
    char program[] = "push 5 push 7 add push 3 mul dup sub frob";
    long stack[16];
    int sp = 0;
    for (char *tok = strtok(program, " "); tok; tok = strtok(NULL, " ")) {
        switch (lookup(tok)) {
        case OP_PUSH:
            tok = strtok(NULL, " ");
            stack[sp++] = atol(tok);
            printf("push %ld\n", stack[sp - 1]);
            break;
        case OP_ADD: sp--; stack[sp - 1] += stack[sp]; printf("add -> %ld\n", stack[sp - 1]); break;
        case OP_SUB: sp--; stack[sp - 1] -= stack[sp]; printf("sub -> %ld\n", stack[sp - 1]); break;
        case OP_MUL: sp--; stack[sp - 1] *= stack[sp]; printf("mul -> %ld\n", stack[sp - 1]); break;
        case OP_DUP:
            stack[sp] = stack[sp - 1];
            sp++;
            printf("dup -> %ld %ld\n", stack[sp - 2], stack[sp - 1]);
            break;
        case OP_UNKNOWN: printf("unknown '%s'\n", tok); break;
        }
    }
    printf("result %ld\n", stack[sp - 1]);
    return 0;
}
