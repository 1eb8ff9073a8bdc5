#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "project.h"

void sb_init(struct strbuf *sb) {
    sb->cap = 16;
    sb->len = 0;
    sb->data = malloc(sb->cap);
    sb->data[0] = 0;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if (sb->len + (size_t)n < sb->cap) {
            sb->len += (size_t)n;
            return;
        }
        while (sb->len + (size_t)n >= sb->cap)
            sb->cap *= 2;
        sb->data = realloc(sb->data, sb->cap);
    }
}

void sb_free(struct strbuf *sb) {
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}
