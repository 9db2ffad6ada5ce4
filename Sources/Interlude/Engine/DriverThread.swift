import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The realtime driver: one background thread that calls the engine's tick, then sleeps for as
/// long as the tick asks (the update interval while something plays, longer while the engine
/// is idle), until ``wakeUp()`` or ``stop()``. Stopping wakes it at once and waits for it to
/// finish, except on the thread itself.
final class DriverThread: Sendable {
    private let stopRequested = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// The thread's pthread ID, set before its first tick.
    private let threadID = AnnotatedMutex<pthread_t?>(nil)

    /// The thread's name as `top -H` and /proc show it (Linux keeps 15 bytes).
    static let threadName = "IL driver"

    /// Starts the thread. `tick` runs at once, then again each time the seconds it returned
    /// have passed, or sooner when ``wake()`` is called. Throws when no thread can be made.
    init(tick: @escaping @Sendable () -> Double) throws {
        try NamedThread.start(Self.threadName) { [self] in
            threadID.withLock { $0 = pthread_self() }
            while !stopRequested.load(ordering: .acquiring) {
                let waitSeconds = tick()
                _ = wake.wait(timeout: .now() + waitSeconds)
            }
            finished.signal()
        }
    }

    /// Ends the current wait at once: the next tick runs now. A wake made while a tick runs
    /// ends the wait after it.
    func wakeUp() {
        wake.signal()
    }

    /// Stops the thread and waits for it. Called by a tick on the thread itself (an engine whose
    /// last reference went during its update, deinit running there), it only marks the stop and
    /// returns: waiting there would wait forever, and the loop ends when that tick returns.
    func stop() {
        guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard !isCurrentThread else { return }
        wake.signal()
        finished.wait()
    }

    /// True when the caller is the driver thread.
    var isCurrentThread: Bool {
        threadID.withLock { id in id.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }
}
