#ifndef TRELLIS_CEPOLL_H
#define TRELLIS_CEPOLL_H

/* Linux's epoll, which Swift's Glibc module does not bring: what an I/O loop sleeps in
   (docs/TRANSPORT.md, "What a loop sleeps in"). A module of its own, without CPlatform's
   _GNU_SOURCE: <sys/epoll.h> brings <sys/select.h>, whose fd_set names its field apart
   under _GNU_SOURCE, and a Swift module importing libdispatch's module and one with the
   other fd_set does not build. Elsewhere than Linux it is empty and the loop uses poll(2). */

#if defined(__linux__)
#include <sys/epoll.h>
#endif

#endif
