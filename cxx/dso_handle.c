/* The handle C++ static destructors are registered under
 * (__cxa_atexit's third argument). A gimso program is one module, so its
 * value only needs to be an address of its own. */
void *__dso_handle = &__dso_handle;
