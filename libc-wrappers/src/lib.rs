//! The memory-safe C library surface. Filled by issues 4 and 6.
