#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A lock with a condition to wait on, as NSCondition is, on pthread_mutex and pthread_cond:
/// the engine keeps Foundation out of a game that does not import it.
final class ConditionLock: @unchecked Sendable {
    // Allocated once: a pthread mutex or condition must not move.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    func lock() {
        pthread_mutex_lock(mutex)
    }

    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Unlocks, waits for a ``broadcast()``, and locks again. The caller holds the lock, and
    /// checks its condition again in a loop (a wait may end without a broadcast).
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes every waiter. The caller holds the lock.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
