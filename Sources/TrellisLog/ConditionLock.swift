import Foundation

/// A pthread mutex and condition variable. Unlike `NSCondition` it offers
/// `tryLock`, which a crash-signal handler needs: the crashed thread may hold the lock.
final class ConditionLock: @unchecked Sendable {
    // @unchecked: the pthread objects are heap-allocated once, never moved, and
    // only used through the pthread API, which is thread-safe by contract.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        #if os(Linux)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }
    func signal() { pthread_cond_signal(cond) }
    func broadcast() { pthread_cond_broadcast(cond) }
    func wait() { pthread_cond_wait(cond, mutex) }

    /// Waits at most `nanoseconds`; spurious wake-ups are the caller's to handle.
    func wait(nanoseconds: UInt64) {
        #if os(Linux)
        let deadline = MonotonicClock.nanoseconds() + nanoseconds
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        pthread_cond_timedwait(cond, mutex, &ts)
        #else
        var ts = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        pthread_cond_timedwait_relative_np(cond, mutex, &ts)
        #endif
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
