#if canImport(Glibc)
import Glibc
#endif
import Logging

/// Opens devices with an engine's configuration: source counts, HRTF, media role and latency.
/// It holds no engine state, so it runs without the engine lock: opening a device
/// (`alcOpenDevice`, which on PulseAudio waits for the server) never holds up a game's call.
/// The device it opens belongs to its caller until ``DeviceHost`` takes it (installed, or
/// adopted as the device starting after a loss); a caller off the lock goes through
/// ``OutputChanges``, which closes it when the host does not.
struct DeviceOpener: Sendable {
    private let configuration: SoundEngine.Configuration
    private let logger: Logger

    init(configuration: SoundEngine.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Opens `output` with the configuration's source counts, HRTF and media role.
    func open(_ output: OutputDevice) throws -> ALDevice {
        if let role = configuration.mediaRole, getenv("PULSE_PROP_media.role") == nil {
            setenv("PULSE_PROP_media.role", role, 0)
        }
        let kind: ALDevice.Kind
        switch output {
        case .offline(let sampleRate, let channelCount):
            kind = .loopback(format: AudioFormat(sampleRate: sampleRate, channelCount: channelCount))
        case .systemDefault:
            kind = .playback(name: nil)
        case .named(let name):
            kind = .playback(name: name)
        case .systemDefaultOrNull:
            return try open(NullBackend.resolve(output, logger: logger))
        case .null:
            guard NullBackend.select() else {
                throw InterludeError(.deviceUnavailable, "OutputDevice.null: OpenAL Soft already started in this process with other drivers, and takes its null backend only before it starts. To fall back to no output when no device opens, make the engine with `.systemDefaultOrNull` instead of `.systemDefault`, which chooses before OpenAL Soft starts (or set ALSOFT_DRIVERS=null before launch)")
            }
            kind = .playback(name: nil)
        }
        let latency = output.isOffline ? nil : configuration.outputLatency
        if !NullBackend.openALStarted.load(ordering: .acquiring) {
            let written = OpenALConfigFile.prepare(latency, allowsMoves: configuration.audioServer.letsServerMoveStream(on: output))
            if let latency, !written.periods {
                logger.info("outputLatency \(latency.rawValue) not applied: an alsoft.conf sets period_size or periods itself, or the generated one could not be written")
            }
        }
        NullBackend.markOpenALStarted()
        defer { OpenALConfigFile.finish() }
        return try ALDevice(kind: kind, attributes: ALDevice.Attributes(
            monoSourceCount: configuration.monoSourceCount,
            stereoSourceCount: configuration.stereoSourceCount,
            hrtf: configuration.hrtf,
            limiter: configuration.limitsOutput(on: output),
            updatesPerSecond: latency?.updatesPerSecond))
    }

    /// Opens `output` and starts watching its output start; a real device whose stream runs at
    /// once (``OutputStartRule``, asked while the device opens) counts as running at once.
    func start(_ output: OutputDevice) throws -> OutputStart {
        let server = output.isOffline ? nil : OutputStartRule.ask()
        let device = try open(output)
        let periodCount = configuration.outputLatency?.periodCount ?? DeviceHost.defaultPeriodCount
        // The stream goes to the server's default sink unless the process names another.
        let namesItsOwnSink = ["PULSE_SINK", "ALSOFT_PULSE_DEFAULT"].contains { (name: String) in getenv(name).map { $0.pointee != 0 } ?? false }
        let toDefaultSink = switch output {
        case .systemDefault, .systemDefaultOrNull: !namesItsOwnSink
        default: false
        }
        let bufferSeconds = OutputStart.bufferSeconds(of: device, periodCount: periodCount)
        // No server was asked for an offline engine's loopback device.
        let facts = server?.wait()
        let runsAtOnce = OutputStartRule.runsAtOnce(facts, toDefaultSink: toDefaultSink, bufferSeconds: bufferSeconds)
        if let facts {
            logger.debug("\(facts.serverName): default sink \(facts.defaultSinkIsRunning ? "running" : "not running") at \(Int((facts.defaultSinkLatencySeconds * 1000).rounded())) ms, buffer \(Int((bufferSeconds * 1000).rounded())) ms: \(runsAtOnce ? "the stream runs at once" : "waiting for the output to run")")
        }
        return OutputStart(device: device, periodCount: periodCount, runsAtOnce: runsAtOnce)
    }
}
