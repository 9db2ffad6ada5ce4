#if canImport(Glibc)
import Glibc
#endif
import Dispatch

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
    /// A loopback device, one without ALC_SOFT_device_clock, or one whose server runs a new
    /// stream at once (`runsAtOnce`, see ``OutputStartRule``) counts as running at once.
    init(device: ALDevice, periodCount: Int, runsAtOnce: Bool = false, now: BootInstant = .now) {
        self.device = device
        openedInstant = now
        watch = OutputStartWatch(bufferSeconds: Double(periodCount) / device.updatesPerSecond,
                                 periodSeconds: 1 / device.updatesPerSecond)
        if runsAtOnce || device.isLoopback || device.clockNanoseconds == nil {
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

/// Where the engine waits for a new device's output to run, by the audio server behind it,
/// as scenario 10 of `make bench --click-servers` measures it on each stack:
/// - PulseAudio, through OpenAL Soft's pulse backend (1.19 and 1.24 alike): the new stream
///   sits with one buffer written until the server starts it, and a sound played meanwhile is
///   lost (raw OpenAL loses its first clicks). The engine waits, bounded, for the clock to run.
/// - PipeWire, through pipewire-pulse (1.19's and 1.24's pulse backend) or through 1.24's native
///   PipeWire backend: the stream runs from the open and raw OpenAL loses nothing. The engine
///   does not wait.
/// - No server answering libpulse (ALSA, or PipeWire without pipewire-pulse): it waits, as the
///   clock shows when the output runs whatever the backend.
enum OutputStartRule {
    /// How long the server may take to answer the question; one that stalls costs this.
    static let probeTimeoutSeconds = 0.5

    /// Whether the audio server libpulse reaches is PipeWire (pipewire-pulse names itself
    /// "PulseAudio (on PipeWire x.y.z)"), whose streams run as soon as they are made.
    static func serverRunsStreamsAtOnce() -> Bool {
        AudioServerProbe.serverName(timeoutSeconds: probeTimeoutSeconds)?.contains("PipeWire") ?? false
    }

    /// Asks ``serverRunsStreamsAtOnce()`` on a thread of its own, so that the question is
    /// answered while the caller opens the device, not after.
    static func ask() -> Answer {
        let answer = Answer()
        DispatchQueue.global().async { answer.set(serverRunsStreamsAtOnce()) }
        return answer
    }

    /// The answer of ``ask()``: written once, before its semaphore is signalled, and read only
    /// after waiting on it (hence `@unchecked Sendable`).
    final class Answer: @unchecked Sendable {
        private let answered = DispatchSemaphore(value: 0)
        private var runsAtOnce = false

        fileprivate func set(_ value: Bool) {
            runsAtOnce = value
            answered.signal()
        }

        /// Waits for the answer (at most the probe's timeout, and a moment).
        func wait() -> Bool {
            answered.wait()
            return runsAtOnce
        }
    }
}
