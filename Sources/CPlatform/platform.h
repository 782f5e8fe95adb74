#ifndef TRELLIS_CPLATFORM_H
#define TRELLIS_CPLATFORM_H

/* What an I/O loop needs of the OS and of libdispatch that differs between Linux and
   Darwin, or that Swift's Glibc/Darwin modules do not reach: a wake-up descriptor,
   thread names, CPU affinity, the main queue's run-loop hooks, and the Unix stream
   sockets of a link's lane. One call each, the platform's difference behind it. */

#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* pthread_setname_np */
#endif

#include <unistd.h>
#include <fcntl.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#if defined(__linux__)
#include <sys/eventfd.h>
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

/* A lane (docs/TRANSPORT.md, "Lanes"): a Unix stream socket between two processes,
   non-blocking and closed on exec. Each returns -1 with errno on failure;
   ENAMETOOLONG for a path sun_path cannot hold. */
static inline int trellis_lane_address(const char *path, struct sockaddr_un *addr) {
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof addr->sun_path) { errno = ENAMETOOLONG; return -1; }
    memset(addr, 0, sizeof *addr);
    addr->sun_family = AF_UNIX;
    memcpy(addr->sun_path, path, n);
    return 0;
}

static inline int trellis_lane_socket(void) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
}

/* Listens at `path`, which must not exist. */
static inline int trellis_lane_listen(const char *path) {
    struct sockaddr_un addr;
    if (trellis_lane_address(path, &addr) != 0) return -1;
    int fd = trellis_lane_socket();
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(fd, 64) != 0) {
        int e = errno; close(fd); errno = e; return -1;
    }
    return fd;
}

/* Connects to `path`. A Unix stream connect completes at once or fails (EAGAIN: the
   listener's backlog is full). */
static inline int trellis_lane_connect(const char *path) {
    struct sockaddr_un addr;
    if (trellis_lane_address(path, &addr) != 0) return -1;
    int fd = trellis_lane_socket();
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) { int e = errno; close(fd); errno = e; return -1; }
    return fd;
}

/* A waiting connection, or -1 (EAGAIN when none waits). */
static inline int trellis_lane_accept(int listener) {
    int fd = accept(listener, 0, 0);
    if (fd < 0) return -1;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
}

/* Writes up to three buffers in order with one call, without SIGPIPE: the bytes
   written, or -1 with errno (EAGAIN: the socket's buffer is full). */
static inline long trellis_lane_send(int fd, const void *a, size_t an, const void *b, size_t bn, const void *c, size_t cn) {
    struct iovec iov[3] = {{(void *)a, an}, {(void *)b, bn}, {(void *)c, cn}};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = iov;
    msg.msg_iovlen = 3;
#if defined(MSG_NOSIGNAL)
    return (long)sendmsg(fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
#else
    return (long)sendmsg(fd, &msg, MSG_DONTWAIT);
#endif
}

/* Reads what is there, up to `n` bytes: the count, 0 at the end of the stream, or -1
   with errno (EAGAIN: nothing yet). */
static inline long trellis_lane_receive(int fd, void *into, size_t n) {
    return (long)recv(fd, into, n, MSG_DONTWAIT);
}

static inline void trellis_lane_close(int fd) { close(fd); }

#if defined(__linux__)
#include <sys/epoll.h>
/* An I/O loop's epoll set (docs/TRANSPORT.md, "What a loop sleeps in"): descriptors
   registered once, each with the loop's id for its source; a wait returns only the
   ready ones. Level-triggered, as poll(2) is. */
static inline int trellis_poller_open(void) { return epoll_create1(EPOLL_CLOEXEC); }

/* op: 0 add, 1 change, 2 remove. */
static inline int trellis_poller_set(int set, int op, int fd, unsigned long long id, int writable) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = EPOLLIN | (writable ? EPOLLOUT : 0);
    event.data.u64 = id;
    int ops[3] = {EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL};
    return epoll_ctl(set, ops[op < 0 || op > 2 ? 0 : op], fd, &event);
}

/* Waits up to `timeout` ms (-1: no limit); fills ids[i] and flags[i] (1: readable, a
   hang-up or an error, which reading reports; 2: writable) and returns how many, or -1. */
static inline int trellis_poller_wait(int set, unsigned long long *ids, int *flags, int capacity, int timeout) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int n = epoll_wait(set, events, capacity, timeout);
    for (int i = 0; i < n; i++) {
        ids[i] = events[i].data.u64;
        flags[i] = ((events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) ? 1 : 0) | ((events[i].events & EPOLLOUT) ? 2 : 0);
    }
    return n;
}
#endif

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
