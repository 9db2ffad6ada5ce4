import Foundation
@testable import Interlude
import Synchronization
import Testing

/// The driver thread, and an engine released on it. The timeouts here only detect a deadlock:
/// a finished run takes milliseconds, a deadlocked one never ends.
@Suite struct DriverThreadTests {
    /// How long a stop may take before the test calls it a deadlock.
    static let deadlockTimeoutSeconds = 10.0

    @Test("a tick that stops its own driver thread returns, and the thread ticks no more")
    func stopFromItsOwnTick() throws {
        let driver = AnnotatedMutex<DriverThread?>(nil)
        let tickCount = Atomic<Int>(0)
        let stopReturned = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let thread = try DriverThread {
            tickCount.add(1, ordering: .relaxed)
            // The first tick may run before `driver` is set: wait for it.
            started.wait()
            driver.withLock { $0 }?.stop()
            stopReturned.signal()
            return 0.001
        }
        driver.withLock { $0 = thread }
        started.signal()
        let returned = stopReturned.wait(timeout: .now() + Self.deadlockTimeoutSeconds) == .success
        #expect(returned, "stop() called on the driver thread did not return within \(Self.deadlockTimeoutSeconds) s: a self-join deadlock")
        guard returned else { return }
        // Fewer ticks on a loaded machine, never more: the loop ended after the stopping tick.
        Thread.sleep(forTimeInterval: 0.05)
        #expect(tickCount.load(ordering: .relaxed) == 1)
    }

    @Test("an engine whose last reference goes while its driver thread is inside update() shuts down there")
    func engineReleasedOnDriverThread() throws {
        let run = try ProductProcess.run("DriverReleaseProbe", [], environment: ["ALSOFT_DRIVERS": "null"],
                                         limitSeconds: 3 * Self.deadlockTimeoutSeconds)
        #expect(!run.wasKilled && run.status == 0, "DriverReleaseProbe: status \(run.status)\n\(run.standardOutput)\n\(run.standardError)")
        #expect(run.standardOutput.contains("released on the driver thread"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("shut down"), "\(run.standardOutput)")
        // Raised inside the engine's creation, before the stream existed, and delivered to it.
        #expect(run.standardOutput.contains("outputStarted reached the stream"), "\(run.standardOutput)")
    }
}
