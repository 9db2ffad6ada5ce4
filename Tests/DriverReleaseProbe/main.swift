// DriverReleaseProbe: launched by DriverThreadTests. An engine on OpenAL Soft's null backend
// (its own process, so ALSOFT_DRIVERS=null is in force before OpenAL starts) whose last
// reference is dropped by its session event handler while the driver thread is inside update():
// the engine's deinit, and so shutdown(), then run on the driver thread itself. Prints what
// happened; exits 0 once shutdown() has finished, 1 if it has not within 10 s (a deadlock) or
// something else fails.
import Foundation
@_spi(Tools) import Interlude
import Synchronization

/// The only strong reference to the engine once it is set up.
let box = Mutex<SoundEngine?>(nil)
/// True once the main thread holds no reference to the engine.
let mainLetGo = Atomic<Bool>(false)
let shutDown = DispatchSemaphore(value: 0)
let deadlockTimeoutSeconds = 10.0

func fail(_ message: String) -> Never {
    print("DriverReleaseProbe: FAIL: \(message)")
    exit(1)
}

/// Opens the engine and leaves it in `box` only; the returned stream ends when it shuts down.
func openEngine() throws -> AsyncStream<EngineEvent> {
    var configuration = SoundEngine.Configuration(output: .null)
    configuration.mediaRole = nil
    let engine = try SoundEngine(configuration: configuration)
    let events = engine.events()
    engine.setEventHandler { event in
        // Only the driver thread's update reopens a lost device: nothing here calls update()
        // or reconnectDevice().
        guard case .device(.rebuilt) = event else { return }
        guard !Thread.isMainThread else { fail("servicesReset raised on the main thread") }
        if mainLetGo.load(ordering: .acquiring) {
            print("released on the driver thread")
            box.withLock { $0 = nil }
        } else {
            // The main thread may still hold its call's reference: lose the device again, so
            // the next reopen comes back here.
            box.withLock { $0 }?.disconnectDevice()
        }
    }
    box.withLock { $0 = engine }
    return events
}

/// Loses the device; the driver thread reopens it about 100 ms later.
func disconnect() {
    box.withLock { $0 }?.disconnectDevice()
}

do {
    let events = try openEngine()
    // Detached: top-level code is on the main actor, and the main thread waits below.
    Task.detached {
        var isFirst = true
        for await event in events {
            // The stream was made after the engine's creation, which raised outputStarted: it
            // must come first all the same.
            if isFirst, case .device(.outputStarted) = event { print("outputStarted reached the stream") }
            isFirst = false
        }
        shutDown.signal()
    }
    disconnect()
    mainLetGo.store(true, ordering: .releasing)
    guard shutDown.wait(timeout: .now() + deadlockTimeoutSeconds) == .success else {
        fail("the engine did not shut down within \(deadlockTimeoutSeconds) s")
    }
    print("shut down")
    exit(0)
} catch {
    fail("\(error)")
}
