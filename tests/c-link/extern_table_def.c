/* The definition of the table `extern_table_use.c` declares: 16 entries,
 * whatever its users' declarations say. */
unsigned table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
