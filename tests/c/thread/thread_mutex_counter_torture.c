/* gimso-test
 * expect: run
 * env: GIMSO_GC_TORTURE=200 GIMSO_GC_VERIFY=1
 * stdout:
 * | list 21328 nodes (length 21328), popped 10672
 * | list sum + popped sum = 511984000 (expected 511984000)
 * | counter 64000, bad tags 0
 * | destroy 0
 */
/* thread_mutex_counter.c (8 threads mutating a shared list under one
 * mutex) with a verified collection every 200 allocations of each thread:
 * the collector runs hundreds of times while the list changes hands. */
#include "thread_mutex_counter.c"
