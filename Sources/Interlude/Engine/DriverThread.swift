import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The realtime driver: one background thread that calls the engine's update about every
/// interval, until stopped. Stopping wakes it at once and waits for it to finish, except on the
/// thread itself.
final class DriverThread: Sendable {
    private let stopRequested = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// The thread's pthread ID, set before its first tick.
    private let threadID = AnnotatedMutex<pthread_t?>(nil)

    init(intervalSeconds: Double, tick: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            threadID.withLock { $0 = pthread_self() }
            while !stopRequested.load(ordering: .acquiring) {
                tick()
                _ = wake.wait(timeout: .now() + intervalSeconds)
            }
            finished.signal()
        }
        thread.name = "Interlude driver"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Stops the thread and waits for it. Called by a tick on the thread itself (an engine whose
    /// last reference went during its update, deinit running there), it only marks the stop and
    /// returns: waiting there would wait forever, and the loop ends when that tick returns.
    func stop() {
        guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard !isOnThread else { return }
        wake.signal()
        finished.wait()
    }

    /// True when the caller is the driver thread.
    private var isOnThread: Bool {
        threadID.withLock { id in id.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }
}
