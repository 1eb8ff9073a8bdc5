/* gimso's <bits/epoll.h>, found before glibc's (gimso-cc passes this
   directory as -isystem).

   glibc's version defines __EPOLL_PACKED as __attribute__((packed)) on
   x86-64, which puts epoll_event's data 4 bytes into the struct, where a
   pointer cannot be stored with its capability. Leaving the macro
   undefined makes <sys/epoll.h> declare the struct unpacked (16 bytes,
   data at offset 8); gimso's epoll wrappers convert to and from the
   kernel's packed layout. */

#ifndef _SYS_EPOLL_H
# error "Never use <bits/epoll.h> directly; include <sys/epoll.h> instead."
#endif

enum
  {
    EPOLL_CLOEXEC = 02000000
#define EPOLL_CLOEXEC EPOLL_CLOEXEC
  };
