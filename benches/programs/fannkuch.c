/* fannkuch-redux (Computer Language Benchmarks Game style): permutations.
 * Usage: fannkuch [n] [repeat]   (default 10 4) */
#include <stdio.h>
#include <stdlib.h>

static int fannkuch(int n, int *max_out) {
    int *perm = malloc(n * sizeof(int)), *perm1 = malloc(n * sizeof(int));
    int *count = malloc(n * sizeof(int));
    int max_flips = 0, checksum = 0, perm_count = 0, r = n;
    for (int i = 0; i < n; i++)
        perm1[i] = i;
    for (;;) {
        while (r != 1) {
            count[r - 1] = r;
            r--;
        }
        for (int i = 0; i < n; i++)
            perm[i] = perm1[i];
        int flips = 0, k;
        while ((k = perm[0]) != 0) {
            for (int i = 0, j = k; i < j; i++, j--) {
                int t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            flips++;
        }
        if (flips > max_flips)
            max_flips = flips;
        checksum += (perm_count % 2 == 0) ? flips : -flips;
        for (;;) {
            if (r == n) {
                free(perm);
                free(perm1);
                free(count);
                *max_out = max_flips;
                return checksum;
            }
            int p0 = perm1[0];
            for (int i = 0; i < r; i++)
                perm1[i] = perm1[i + 1];
            perm1[r] = p0;
            if (--count[r] > 0)
                break;
            r++;
        }
        perm_count++;
    }
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10;
    int repeat = argc > 2 ? atoi(argv[2]) : 4;
    int checksum = 0, max_flips = 0;
    for (int i = 0; i < repeat; i++) {
        int m, c = fannkuch(n, &m);
        if (i > 0 && (c != checksum || m != max_flips)) {
            printf("inconsistent results\n");
            return 1;
        }
        checksum = c;
        max_flips = m;
    }
    printf("%d\nPfannkuchen(%d) = %d\n", checksum, n, max_flips);
    return 0;
}
