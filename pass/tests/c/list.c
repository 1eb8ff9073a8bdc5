/* Heap, function pointers, varargs, struct copies, strings: all accepted. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
  struct node *next;
  int value;
  char name[8];
};

static struct node *push(struct node *head, int value) {
  struct node *n = malloc(sizeof *n);
  if (!n)
    abort();
  n->next = head;
  n->value = value;
  snprintf(n->name, sizeof n->name, "n%d", value);
  return n;
}

static int cmp(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

static int sum(int count, ...) {
  va_list ap;
  va_start(ap, count);
  int total = 0;
  for (int i = 0; i < count; i++)
    total += va_arg(ap, int);
  va_end(ap);
  return total;
}

int main(int argc, char **argv) {
  struct node *head = NULL;
  for (int i = 0; i < argc + 3; i++)
    head = push(head, i);
  int values[16];
  int n = 0;
  for (struct node *p = head; p && n < 16; p = p->next)
    values[n++] = p->value;
  qsort(values, (size_t)n, sizeof values[0], cmp);
  struct node copy = *head;
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  int (*fp)(int, ...) = sum;
  printf("%s %d %zu %s\n", copy.name, fp(3, values[0], 2, 3), strlen(argv[0]), argv[0]);
  return 0;
}
