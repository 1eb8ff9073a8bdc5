/* gimso-test
 * expect: run
 * stdout:
 * | ints: -7 0 3 3 9 12 42 100
 * | desc: 100 42 12 9 3 3 0 -7
 * | people by age: carol(19) alice(31) bob(45)
 * | people by name: alice bob carol
 * | strings: apple banana cherry date
 * | found 42 at 6, 5 missing
 * | found bob age 45
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_int_desc(const void *a, const void *b) { return cmp_int(b, a); }

struct person {
    const char *name;
    int age;
};

static int by_age(const void *a, const void *b) {
    return ((const struct person *)a)->age - ((const struct person *)b)->age;
}

static int by_name(const void *a, const void *b) {
    return strcmp(((const struct person *)a)->name, ((const struct person *)b)->name);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(void) {
    int v[] = {42, 3, -7, 100, 0, 12, 3, 9};
    qsort(v, 8, sizeof v[0], cmp_int);
    printf("ints:");
    for (int i = 0; i < 8; i++)
        printf(" %d", v[i]);
    printf("\n");
    int *d = malloc(sizeof v);
    memcpy(d, v, sizeof v);
    qsort(d, 8, sizeof *d, cmp_int_desc);
    printf("desc:");
    for (int i = 0; i < 8; i++)
        printf(" %d", d[i]);
    printf("\n");
    struct person *people = malloc(3 * sizeof *people);
    people[0] = (struct person){"bob", 45};
    people[1] = (struct person){"alice", 31};
    people[2] = (struct person){"carol", 19};
    qsort(people, 3, sizeof *people, by_age);
    printf("people by age:");
    for (int i = 0; i < 3; i++)
        printf(" %s(%d)", people[i].name, people[i].age);
    printf("\n");
    qsort(people, 3, sizeof *people, by_name);
    printf("people by name: %s %s %s\n", people[0].name, people[1].name, people[2].name);
    const char *words[] = {"date", "banana", "apple", "cherry"};
    qsort(words, 4, sizeof words[0], cmp_str);
    printf("strings: %s %s %s %s\n", words[0], words[1], words[2], words[3]);
    int key = 42, missing = 5;
    int *hit = bsearch(&key, v, 8, sizeof v[0], cmp_int);
    int *miss = bsearch(&missing, v, 8, sizeof v[0], cmp_int);
    printf("found %d at %d, %d %s\n", *hit, (int)(hit - v), missing, miss ? "present" : "missing");
    struct person probe = {"bob", 0};
    struct person *bob = bsearch(&probe, people, 3, sizeof *people, by_name);
    printf("found %s age %d\n", bob->name, bob->age);
    free(people);
    free(d);
    return 0;
}
