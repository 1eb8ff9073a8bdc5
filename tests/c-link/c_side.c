/* The C half of a mixed C/C++ program: main and a helper the C++ half
 * calls back. */
#include <stdio.h>
#include <string.h>

int cxx_total(const char *const *words, int n);

int c_weight(const char *word) { return (int)strlen(word); }

int main(void) {
    const char *words[] = {"pear", "fig", "banana"};
    printf("total %d\n", cxx_total(words, 3));
    return 0;
}
