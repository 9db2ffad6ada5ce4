import Foundation
import Synchronization

/// The realtime driver: one background thread that calls the engine's update about every
/// interval, until stopped. Stopping wakes it at once and waits for it to finish.
final class DriverThread: Sendable {
    private let stopRequested = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(intervalSeconds: Double, tick: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
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

    /// Stops the thread and waits for it. Must not be called from the thread itself.
    func stop() {
        guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        finished.wait()
    }
}
