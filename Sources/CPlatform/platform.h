#ifndef TRELLIS_CPLATFORM_H
#define TRELLIS_CPLATFORM_H

/* What an I/O loop needs of the OS and of libdispatch that differs between Linux and
   Darwin, or that Swift's Glibc/Darwin modules do not reach: a wake-up descriptor,
   thread names, CPU affinity, the main queue's run-loop hooks, and a descriptor for a
   process's end (a supervised process watches its supervisor's). One call each, the
   platform's difference behind it. (Sockets and epoll are called from Swift, through
   Glibc: included here, under _GNU_SOURCE, their headers would define fd_set apart from
   libdispatch's module, and a module importing both would not build.) */

#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* pthread_setname_np */
#endif

#include <unistd.h>
#include <fcntl.h>
#include <errno.h>
#include <pthread.h>
#if defined(__linux__)
#include <sys/eventfd.h>
#include <sys/syscall.h>
#endif

/* A wake-up descriptor for an I/O loop: eventfd on Linux, a pipe elsewhere.
   fds[0] is polled for reading; fds[1] is written to wake the loop. */
static inline int trellis_wakefd_open(int fds[2]) {
#if defined(__linux__)
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (fd < 0) return -1;
    fds[0] = fd; fds[1] = fd;
    return 0;
#else
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
    }
    return 0;
#endif
}

static inline void trellis_wakefd_signal(int fd) {
#if defined(__linux__)
    unsigned long long one = 1;
    ssize_t r = write(fd, &one, sizeof one);
#else
    char one = 1;
    ssize_t r = write(fd, &one, 1);
#endif
    (void)r; /* EAGAIN means a wake-up is already pending: nothing is lost. */
}

static inline void trellis_wakefd_drain(int fd) {
    unsigned char buf[64];
    while (read(fd, buf, sizeof buf) > 0) {}
}

static inline void trellis_wakefd_close(int fds[2]) {
    close(fds[0]);
    if (fds[1] != fds[0]) close(fds[1]);
}

/* A descriptor that becomes readable when process `pid` has ended (Linux 5.3's
   pidfd_open, close-on-exec), or -1 with errno set: ENOSYS on an older kernel and
   elsewhere, where the caller falls back to asking for its parent now and then. */
static inline int trellis_pidfd_open(int pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

/* Names the calling thread for ps, top -H, perf and gdb. Linux keeps 15 bytes
   and refuses a longer name outright, so the name is cut to fit. */
static inline void trellis_thread_set_name(const char *name) {
    char cut[16];
    size_t n = 0;
    while (n < sizeof cut - 1 && name[n] != 0) { cut[n] = name[n]; n++; }
    cut[n] = 0;
#if defined(__APPLE__)
    pthread_setname_np(cut);
#else
    pthread_setname_np(pthread_self(), cut);
#endif
}

static inline int trellis_errno(void) { return errno; }


/* The CPU the calling thread runs on, and a thread's (by kernel id) CPU mask: how
   an I/O loop keeps libzmq's I/O thread beside it. Elsewhere than Linux they fail
   with ENOSYS and the I/O thread stays where the system puts it. */
typedef struct { unsigned char bits[128]; } trellis_cpu_mask;

#if defined(__linux__)
#include <sched.h>
#include <string.h>
static inline int trellis_current_cpu(void) { return sched_getcpu(); }
static inline int trellis_get_cpu_mask(int tid, trellis_cpu_mask *mask) {
    cpu_set_t set;
    if (sched_getaffinity(tid, sizeof set, &set) != 0) return -1;
    memcpy(mask->bits, &set, sizeof mask->bits < sizeof set ? sizeof mask->bits : sizeof set);
    return 0;
}
static inline int trellis_set_cpu_mask(int tid, const trellis_cpu_mask *mask) {
    cpu_set_t set;
    CPU_ZERO(&set);
    memcpy(&set, mask->bits, sizeof mask->bits < sizeof set ? sizeof mask->bits : sizeof set);
    return sched_setaffinity(tid, sizeof set, &set);
}
static inline int trellis_pin_thread(int tid, int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(tid, sizeof set, &set);
}
#else
static inline int trellis_current_cpu(void) { return -1; }
static inline int trellis_get_cpu_mask(int tid, trellis_cpu_mask *mask) { (void)tid; (void)mask; errno = ENOSYS; return -1; }
static inline int trellis_set_cpu_mask(int tid, const trellis_cpu_mask *mask) { (void)tid; (void)mask; errno = ENOSYS; return -1; }
static inline int trellis_pin_thread(int tid, int cpu) { (void)tid; (void)cpu; errno = ENOSYS; return -1; }
#endif

#if defined(__linux__)
/* libdispatch's hooks for a run loop that serves the main queue on the main thread,
   the ones CoreFoundation's run loop uses: an eventfd that becomes readable when work
   is queued for the main queue, and the call that runs that work. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

static inline int trellis_main_queue_handle(void) { return _dispatch_get_main_queue_handle_4CF(); }

/* Call only when poll(2) said the handle is readable: libdispatch's eventfd is
   blocking, and one read resets its counter. */
static inline void trellis_main_queue_serve(int fd) {
    unsigned long long count;
    ssize_t r = read(fd, &count, sizeof count);
    (void)r;
    _dispatch_main_queue_callback_4CF(0);
}

/* Runs what the main queue holds, without reading the handle. */
static inline void trellis_main_queue_run(void) { _dispatch_main_queue_callback_4CF(0); }
#endif

#endif
