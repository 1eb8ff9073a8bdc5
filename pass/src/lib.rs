//! The LLVM 16 IR → IR pass and the `gimso-cc` driver. Filled by issue 4.
