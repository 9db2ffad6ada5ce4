#if canImport(Glibc)
import Glibc
#endif

/// A device just opened, from its opening until its output really runs (see
/// ``OutputStartWatch``). The engine waits for it, bounded, before it calls a device ready:
/// at creation, after a switch and after a rebuild.
///
/// `@unchecked Sendable`: a switch opens the device under the engine lock, waits for it outside
/// the lock on the caller's thread, and hands it back under the lock; one thread holds it at a
/// time, and the device's clock is read through OpenAL Soft's own device lock.
final class OutputStart: @unchecked Sendable {
    private let device: ALDevice
    private var watch: OutputStartWatch
    private let openedInstant: BootInstant
    /// Seconds from opening to a running output, once seen running.
    private var runningAfterSeconds: Double?

    /// How often a wait reads the device clock.
    static let pollIntervalSeconds = 0.002

    /// Starts watching `device`, whose backend buffer is `periodCount` periods of its refresh.
    /// A loopback device, or one without ALC_SOFT_device_clock, counts as running at once.
    init(device: ALDevice, periodCount: Int, now: BootInstant = .now) {
        self.device = device
        openedInstant = now
        watch = OutputStartWatch(bufferSeconds: Double(periodCount) / device.updatesPerSecond)
        if device.isLoopback || device.clockNanoseconds == nil {
            runningAfterSeconds = 0
        }
    }

    /// The device being started.
    var opened: ALDevice { device }
    /// Seconds from opening until the output ran; nil while it has not yet.
    var startSeconds: Double? { runningAfterSeconds }
    /// The output has been seen running.
    var isRunning: Bool { runningAfterSeconds != nil }

    /// Reads the device clock once; returns true when the output runs (now or before).
    @discardableResult
    func poll(now: BootInstant = .now) -> Bool {
        if runningAfterSeconds != nil { return true }
        guard let clock = device.clockNanoseconds else {
            runningAfterSeconds = now.seconds(since: openedInstant)
            return true
        }
        let wallSeconds = now.seconds(since: openedInstant)
        if watch.observe(clockSeconds: Double(clock) * 1e-9, wallSeconds: wallSeconds) {
            runningAfterSeconds = wallSeconds
        }
        return runningAfterSeconds != nil
    }

    /// Polls until the output runs or `timeoutSeconds` have passed since the device opened;
    /// returns whether it runs.
    func wait(timeoutSeconds: Double) -> Bool {
        while !poll() {
            if BootInstant.now.seconds(since: openedInstant) >= timeoutSeconds { return false }
            usleep(useconds_t(Self.pollIntervalSeconds * 1e6))
        }
        return true
    }

    /// Seconds since the device opened.
    func elapsedSeconds(now: BootInstant = .now) -> Double {
        now.seconds(since: openedInstant)
    }
}
