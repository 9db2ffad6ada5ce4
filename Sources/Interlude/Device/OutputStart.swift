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
        watch = OutputStartWatch(bufferSeconds: Self.bufferSeconds(of: device, periodCount: periodCount),
                                 periodSeconds: 1 / device.updatesPerSecond)
        if runsAtOnce || device.isLoopback || device.clockNanoseconds == nil {
            runningAfterSeconds = 0
        }
    }

    /// How much audio `device` queues ahead: `periodCount` periods of its refresh.
    static func bufferSeconds(of device: ALDevice, periodCount: Int) -> Double {
        Double(periodCount) / device.updatesPerSecond
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
/// - PulseAudio, through OpenAL Soft's pulse backend (1.19 and 1.24 alike), on a sink that is not
///   running (idle or suspended: nothing else plays): the new stream may sit with one buffer
///   written until the sink gets to it (a null sink renders 2 s blocks when idle), and a sound
///   played meanwhile is lost (raw OpenAL loses its first clicks). The engine waits, bounded,
///   for the clock to run.
/// - PulseAudio on a sink already running on blocks shorter than the engine's buffer (another
///   stream plays on it at a low latency, as a desktop's sink does while anything plays): the
///   sink takes the new stream in before the buffer written ahead runs out, and raw OpenAL loses
///   nothing. The engine does not wait. A sink that runs on longer blocks, or still renders a
///   long block it began while idle, may hold the new stream as an idle one does. This holds
///   for the default sink, where `.systemDefault` plays; a named device, and a default the
///   process points elsewhere (`PULSE_SINK`, `ALSOFT_PULSE_DEFAULT`), are waited for.
/// - PipeWire, through pipewire-pulse (1.19's and 1.24's pulse backend) or through 1.24's native
///   PipeWire backend: the stream runs from the open and raw OpenAL loses nothing. The engine
///   does not wait.
/// - No server answering libpulse (ALSA, or PipeWire without pipewire-pulse): it waits, as the
///   clock shows when the output runs whatever the backend.
enum OutputStartRule {
    /// How long the server may take to answer the question; one that stalls costs this.
    static let probeTimeoutSeconds = 0.5

    /// Whether a new stream runs as soon as it is made, from what the server said (nil: no
    /// server answered): on a PipeWire server (pipewire-pulse names itself "PulseAudio (on
    /// PipeWire x.y.z)"), or, for a stream to the default sink (`toDefaultSink`), when that sink
    /// is running and renders no further ahead than the engine's buffer of `bufferSeconds`.
    static func runsAtOnce(_ facts: AudioServerProbe.Facts?, toDefaultSink: Bool, bufferSeconds: Double) -> Bool {
        guard let facts else { return false }
        // strstr, not String's `contains`, whose first call (loading its search code) slowed
        // the engine's start.
        if strstr(facts.serverName, "PipeWire") != nil { return true }
        return toDefaultSink && facts.defaultSinkIsRunning
            && facts.defaultSinkLatencySeconds > 0 && facts.defaultSinkLatencySeconds <= bufferSeconds
    }

    /// Asks the server for its ``AudioServerProbe/Facts`` on a thread of its own, so that the
    /// question is answered while the caller opens the device, not after. A plain thread, not
    /// Dispatch's pool, whose first use slows the engine's start. Where
    /// no thread can be made, the answer is "no server answered": the engine then waits for
    /// the output to run, which is always safe.
    static func ask() -> Answer {
        let answer = Answer()
        do {
            try NamedThread.start("IL probe") { answer.set(AudioServerProbe.facts(timeoutSeconds: probeTimeoutSeconds)) }
        } catch {
            answer.set(nil)
        }
        return answer
    }

    /// The answer of ``ask()``: written once, before its semaphore is signalled, and read only
    /// after waiting on it (hence `@unchecked Sendable`).
    final class Answer: @unchecked Sendable {
        private let answered = DispatchSemaphore(value: 0)
        private var facts: AudioServerProbe.Facts?

        fileprivate func set(_ value: AudioServerProbe.Facts?) {
            facts = value
            answered.signal()
        }

        /// Waits for the answer (the probe's connection and each of its two questions wait up
        /// to ``OutputStartRule/probeTimeoutSeconds``): nil when no server answered.
        func wait() -> AudioServerProbe.Facts? {
            answered.wait()
            return facts
        }
    }
}
