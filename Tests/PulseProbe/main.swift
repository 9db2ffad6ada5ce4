// PulseProbe: runs a SoundEngine on the system default device (a private PulseAudio server in
// the integration tests) in its own process, since OpenAL Soft picks its backend once per
// process. Prints JSON lines, flushed: session events as they happen, and every 50 ms the
// soundtrack's position (or every --tick-ms), the engine's statistics (with its device reopen
// tries) and the process's thread and fd counts.
// Exits after --seconds, on stdin EOF or on SIGTERM, with a clean shutdown whose duration it
// prints. Stdin lines are commands: `switch NAME`, `switch-default`, `pause`, `resume`, `activate`,
// `rebuild` (disconnectDevice then reconnectDevice), `clicks` (the --clicks sound, again),
// `spin` (a game thread calling setPosition and play in a loop, counting the calls that began
// and ended while one and the same device reopen attempt was under way, until the device is back),
// `tone` / `stop-tone` (a looping 440 Hz voice, whose position each tick prints), and in debug
// builds `lose-failing-opens N` (the next N device opens fail, then disconnectDevice: the
// engine's own retries rebuild); debug builds' ticks also say whether the driver is parked.
// With --clicks, the sound at PATH is played --click-count times, --click-ms apart, as soon as
// the engine's init returns, before anything else; with --click-pair-ms each click has a partner
// played that many ms after it, and each play of a pair's first click prints `clickPair` with
// whether the output was paused for idleness just before.
//
// --start-timeout sets Configuration.outputStartTimeoutSeconds, --latency low|balanced|safe|none
// Configuration.outputLatency (none: nil), --duck-db makes phone streams duck by DB instead,
// --device NAME plays to the named device instead of the default, --named-loss wait|follow
// sets Configuration.whenNamedDeviceDisappears, and --job-control sets
// Configuration.handlesJobControl (SIGTSTP interrupts and stops, SIGCONT resumes).
// --default-or-null opens OutputDevice.systemDefaultOrNull instead of .systemDefault,
// --log-debug shows the engine's log down to debug level (by default swift-log's: info), and
// --async-start creates the engine with `await SoundEngine.start(configuration:)` instead of
// the blocking init (the main thread waits for it, as a game would await it off its frames).
// --idle-pause S|none sets Configuration.idleOutputPauseSeconds. Every tick prints whether the
// output is paused for idleness (`outputPaused`); debug builds' ticks also print the device's
// clock (ALC_SOFT_device_clock, `deviceClockMs`), which stands still while its mixer is stopped;
// their `opened` line names the OpenAL Soft release the device runs on (`openALRelease`).
//
// Usage: PulseProbe [--music PATH] [--clicks PATH [--click-count N] [--click-ms MS] [--click-pair-ms MS]] [--start-timeout S]
//                   [--latency L] [--seconds S] [--tick-ms MS] [--duck-db DB] [--device NAME]
//                   [--named-loss wait|follow] [--job-control] [--default-or-null] [--log-debug] [--async-start]
//                   [--idle-pause S|none]
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging
#if DEBUG
@_spi(Tools) @testable import Interlude
#else
@_spi(Tools) import Interlude
#endif
import Synchronization

let start = ContinuousClock.now
let outputLock = Mutex(())

func milliseconds(since instant: ContinuousClock.Instant = start) -> Double {
    let parts = (ContinuousClock.now - instant).components
    return (Double(parts.seconds) + Double(parts.attoseconds) * 1e-18) * 1000
}

func emit(_ fields: [String: Any]) {
    var object = fields
    object["t"] = (milliseconds() * 10).rounded() / 10
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
          let line = String(data: data, encoding: .utf8) else { return }
    outputLock.withLock { _ in
        // Unbuffered: each line reaches the test as soon as it happens.
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

func count(_ directory: String) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: directory).count) ?? -1
}
var musicPath: String?
var clickPath: String?
var clickCount = 10
var clickSeconds = 0.25
var clickPairSeconds: Double?
var idlePauseSeconds: Double??
var startTimeoutSeconds: Double?
var latency: OutputLatency??
var seconds = 30.0
var tickSeconds = 0.05
var duckDecibels: Float?
var deviceName: String?
var namedLoss = NamedDeviceLoss.waitForIt
var handlesJobControl = false
var defaultOrNull = false
var startsAsync = false
var updateTiming: UpdateTiming?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--music": musicPath = arguments.popFirst()
    case "--seconds": seconds = Double(arguments.popFirst() ?? "") ?? seconds
    case "--tick-ms": tickSeconds = (Double(arguments.popFirst() ?? "") ?? 50) / 1000
    case "--duck-db": duckDecibels = Float(arguments.popFirst() ?? "")
    case "--device": deviceName = arguments.popFirst()
    case "--named-loss": namedLoss = arguments.popFirst() == "follow" ? .followSystemDefault : .waitForIt
    case "--job-control": handlesJobControl = true
    case "--default-or-null": defaultOrNull = true
    case "--log-debug":
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .debug
            return handler
        }
    case "--async-start": startsAsync = true
    case "--start-timeout": startTimeoutSeconds = Double(arguments.popFirst() ?? "")
    case "--latency":
        let name = arguments.popFirst() ?? ""
        latency = name == "none" ? .some(nil) : OutputLatency(rawValue: name)
    case "--clicks": clickPath = arguments.popFirst()
    case "--click-count": clickCount = Int(arguments.popFirst() ?? "") ?? clickCount
    case "--click-ms": clickSeconds = (Double(arguments.popFirst() ?? "") ?? 250) / 1000
    case "--click-pair-ms": clickPairSeconds = Double(arguments.popFirst() ?? "").map { $0 / 1000 }
    case "--idle-pause":
        let value = arguments.popFirst() ?? ""
        idlePauseSeconds = value == "none" ? .some(nil) : Double(value)
    case "--update-timing": updateTiming = UpdateTiming(rawValue: arguments.popFirst() ?? "")
    default:
        FileHandle.standardError.write(Data("PulseProbe: unknown argument \(argument)\n".utf8))
        exit(2)
    }
}

/// Why the probe stops: 0 not yet, 1 SIGTERM, 2 stdin closed.
enum Stop {
    static let requested = Atomic<Int>(0)
}

/// SIGTERM's handler. A function, not a closure written in this top-level code: such a closure
/// is main-actor isolated, and the signal lands on whichever thread has it unblocked (an engine
/// thread in the middle of a rebuild, say), where Swift 6's isolation check traps (SIGILL).
func handleTerminate(_: Int32) {
    Stop.requested.store(1, ordering: .relaxed)
}
signal(SIGTERM, handleTerminate)
// A parent may have spawned us with signals blocked: take SIGTERM whatever the inherited mask.
var terminate = sigset_t()
sigemptyset(&terminate)
sigaddset(&terminate, SIGTERM)
pthread_sigmask(SIG_UNBLOCK, &terminate, nil)
signal(SIGPIPE, SIG_IGN)

/// The engine, made by the blocking init or, with --async-start, by `SoundEngine.start`.
func startEngine(_ configuration: SoundEngine.Configuration, asynchronously: Bool) throws -> SoundEngine {
    guard asynchronously else { return try SoundEngine(configuration: configuration) }
    let outcome = Mutex<Result<SoundEngine, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do {
            let engine = try await SoundEngine.start(configuration: configuration)
            outcome.withLock { $0 = .success(engine) }
        } catch {
            outcome.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    return try outcome.withLock { $0! }.get()
}

let roleBefore = getenv("PULSE_PROP_media.role").map { String(cString: $0) }
let engine: SoundEngine
do {
    var configuration = SoundEngine.Configuration(output: deviceName.map { .named($0) } ?? (defaultOrNull ? .systemDefaultOrNull : .systemDefault))
    configuration.whenNamedDeviceDisappears = namedLoss
    if let duckDecibels { configuration.audioServer.callResponse = .duck(byDecibels: duckDecibels) }
    if let startTimeoutSeconds { configuration.outputStartTimeoutSeconds = startTimeoutSeconds }
    if let latency { configuration.outputLatency = latency }
    configuration.handlesJobControl = handlesJobControl
    if let updateTiming { configuration.updateTiming = updateTiming }
    if let idlePauseSeconds { configuration.idleOutputPauseSeconds = idlePauseSeconds }
    engine = try startEngine(configuration, asynchronously: startsAsync)
} catch {
    emit(["event": "openFailed", "error": "\(error)"])
    exit(1)
}
let roleAfter = getenv("PULSE_PROP_media.role").map { String(cString: $0) }
let openedStatistics = engine.statistics

let clicks = (path: clickPath, count: clickCount, intervalSeconds: clickSeconds, pairSeconds: clickPairSeconds)

/// Plays the --clicks sound --click-count times, --click-ms apart; emits `clicksDone`.
func playClicks() {
    guard let path = clicks.path else { return }
    do {
        let click = try engine.loadSound(path: path)
        for index in 0..<clicks.count {
            if let pairSeconds = clicks.pairSeconds {
                let wasPaused = engine.statistics.isOutputPausedWhileIdle
                _ = try engine.play(click)
                emit(["event": "clickPair", "index": index, "outputWasPaused": wasPaused])
                Thread.sleep(forTimeInterval: pairSeconds)
            }
            _ = try engine.play(click)
            Thread.sleep(forTimeInterval: clicks.intervalSeconds)
        }
        emit(["event": "clicksDone", "count": clicks.count])
    } catch {
        emit(["event": "clicksFailed", "error": "\(error)"])
    }
}
var openedDebugFields: [String: Any] = [:]
#if DEBUG
// The release of the OpenAL Soft the device runs on (AL_VERSION), for tests whose facts differ by it.
openedDebugFields["openALRelease"] = engine.readCore { $0.device.openDevice?.release }.map { "\($0)" } ?? NSNull()
#endif
emit(openedDebugFields.merging(["event": "opened", "roleBefore": roleBefore ?? NSNull(), "roleAfter": roleAfter ?? NSNull(),
      "device": engine.statistics.deviceName ?? NSNull(), "sampleRate": engine.statistics.sampleRate,
      "output": "\(engine.currentOutput)",
      "outputPeriodMs": openedStatistics.outputPeriodMilliseconds ?? NSNull(),
      "alsoftConf": getenv("ALSOFT_CONF").map { String(cString: $0) } ?? NSNull(),
      "outputRunning": openedStatistics.isOutputRunning, "outputStartSeconds": openedStatistics.outputStartSeconds ?? NSNull()]) { $1 })
// Right after init returns: a game's title screen sounds.
playClicks()

/// Set while the `spin` game thread runs: its thousands of deferred and dropped commands are
/// counted, not printed.
let spinning = Atomic<Bool>(false)

engine.setEventHandler { event in
    if spinning.load(ordering: .relaxed) {
        switch event {
        case .session(.commandDeferred), .session(.commandDropped): return
        default: break
        }
    }
    var fields: [String: Any] = ["position": engine.music().flatMap { engine.positionInFrames(of: $0) } ?? -1]
    switch event {
    case .session(.began(let reason, let source)): fields["event"] = "began"; fields["reason"] = "\(reason)"; fields["source"] = "\(source)"
    case .session(.ended(let shouldResume, let resumed, let source)):
        fields["event"] = "ended"; fields["shouldResume"] = shouldResume; fields["music"] = resumed.music
        fields["source"] = "\(source)"
    case .session(.activated): fields["event"] = "activated"
    case .session(.absorbed(let reason)): fields["event"] = "absorbed"; fields["reason"] = "\(reason)"
    case .session(.ignored): fields["event"] = "ignored"
    case .session(.commandDeferred(let command)): fields["event"] = "commandDeferred"; fields["command"] = "\(command)"
    case .session(.commandDropped(let command)): fields["event"] = "commandDropped"; fields["command"] = "\(command)"
    case .music(.suspended(let frame)): fields["event"] = "musicSuspended"; fields["frame"] = frame
    case .music(.resumed(let frame)): fields["event"] = "musicResumed"; fields["frame"] = frame
    case .voice(.resumed(_, let frame)): fields["event"] = "voiceResumed"; fields["frame"] = frame
    case .device(.lost): fields["event"] = "servicesLost"
    case .device(.rebuilt): fields["event"] = "servicesReset"
    case .device(.outputStarted(let seconds)): fields["event"] = "outputStarted"; fields["seconds"] = seconds
    case .session(.holdAdded(let reason, let source)): fields["event"] = "holdAdded"; fields["reason"] = "\(reason)"; fields["source"] = "\(source)"
    case .session(.holdReleased(let source)): fields["event"] = "holdReleased"; fields["source"] = "\(source)"
    case .session(.holdKept(let source)): fields["event"] = "holdKept"; fields["source"] = "\(source)"
    case .device(.routeChanged(let from, let to)): fields["event"] = "routeChanged"; fields["from"] = from; fields["to"] = to
    case .session(.reactivationFailed(let message)): fields["event"] = "reactivationFailed"; fields["message"] = message
    case .music(.damageSkipped(_, let startFrame, let skippedFrames)):
        fields["event"] = "musicDamageSkipped"; fields["frame"] = startFrame; fields["skippedFrames"] = skippedFrames
    case .music(.underrun(_, let frame)): fields["event"] = "musicUnderrun"; fields["frame"] = frame
    case .music(.recovered(_, let frame)): fields["event"] = "musicRecovered"; fields["frame"] = frame
    case .music(.ended(_, let frame)): fields["event"] = "musicEnded"; fields["frame"] = frame
    case .music(.fadeFinished): fields["event"] = "musicFadeFinished"
    case .music(.beat), .music(.transitioned), .music(.transitionReplaced), .music(.transitionUnchanged),
         .music(.quantizeUnavailable), .music(.stingerPlayed), .music(.stingerCancelled):
        fields["event"] = "musicTime"
    case .device(.soundLost(let name, _)): fields["event"] = "soundLost"; fields["name"] = name
    case .savedStateWriteFailed(_, let error): fields["event"] = "snapshotWriteFailed"; fields["message"] = error.message
    case .voice(.finished), .voice(.fadeFinished): return
    case .design: fields["event"] = "design"
    }
    emit(fields)
}

if let musicPath {
    do {
        try engine.playMusic(path: musicPath, isLooping: true)
        emit(["event": "musicStarted", "sampleRate": engine.music().flatMap { engine.duration(of: $0) }?.sampleRate ?? 0])
    } catch {
        emit(["event": "musicFailed", "error": "\(error)"])
    }
}

/// Calls made by the `spin` game thread: all of them, and those made entirely within one
/// device reopen attempt (statistics read before and after the call say so, by order).
let spinCalls = Atomic<Int>(0)
let spinCallsDuringReopen = Atomic<Int>(0)

/// The `spin` command: a game thread loads a sound (while the device is lost, so it is
/// uploaded when the new device is installed), plays it looping, then calls setPosition and
/// play in a loop until the device is back.
func spin() {
    Thread.detachNewThread {
        do {
            let rate = 48_000
            let samples = (0..<rate).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
            let tone = try engine.makeSound(name: "spin", format: AudioFormat(sampleRate: rate, channelCount: 1), samples: samples)
            let voice = try engine.play(tone, parameters: VoiceParameters(position: Vector3(0, 0, -1), isLooping: true))
            spinning.store(true, ordering: .relaxed)
            defer { spinning.store(false, ordering: .relaxed) }
            emit(["event": "spinStarted"])
            var index = 0
            while Stop.requested.load(ordering: .relaxed) == 0 {
                let before = engine.statistics
                if before.deviceName != nil && !before.isDeviceReopening { break }
                try? engine.setPosition(Vector3(Float(index % 7), 0, -1), of: voice)
                if index % 10 == 0 { _ = try? engine.play(tone) }
                let after = engine.statistics
                spinCalls.wrappingAdd(1, ordering: .relaxed)
                if before.isDeviceReopening && after.isDeviceReopening && before.deviceReopenAttemptCount == after.deviceReopenAttemptCount {
                    spinCallsDuringReopen.wrappingAdd(1, ordering: .relaxed)
                }
                index += 1
                usleep(200)
            }
            emit(["event": "spinDone", "calls": spinCalls.load(ordering: .relaxed),
                  "duringReopen": spinCallsDuringReopen.load(ordering: .relaxed)])
        } catch {
            emit(["event": "spinFailed", "error": "\(error)"])
        }
    }
}

/// The `tone` command's looping voice.
let toneVoice = Mutex<VoiceHandle?>(nil)

/// The `tone` command: a looping 440 Hz voice.
func playTone() {
    do {
        let rate = 48_000
        let samples = (0..<rate).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
        let tone = try engine.makeSound(name: "tone", format: AudioFormat(sampleRate: rate, channelCount: 1), samples: samples)
        let voice = try engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true))
        toneVoice.withLock { $0 = voice }
        emit(["event": "toneStarted"])
    } catch {
        emit(["event": "toneFailed", "error": "\(error)"])
    }
}

// Stdin: commands, and EOF means stop.
let stdinThread = Thread {
    while let line = readLine() {
        let words = line.split(separator: " ", maxSplits: 1).map(String.init)
        switch words.first {
        case "switch" where words.count == 2:
            do {
                try engine.switchDevice(to: .named(words[1]))
                emit(["event": "switched", "device": engine.statistics.deviceName ?? NSNull()])
            } catch {
                emit(["event": "switchFailed", "error": "\(error)", "device": engine.statistics.deviceName ?? NSNull()])
            }
        case "switch-default":
            do {
                try engine.switchDevice(to: .systemDefault)
                emit(["event": "switched", "device": engine.statistics.deviceName ?? NSNull()])
            } catch {
                emit(["event": "switchFailed", "error": "\(error)"])
            }
        case "activate": try? engine.activate()
        case "rebuild":
            engine.disconnectDevice()
            do {
                try engine.reconnectDevice()
                let statistics = engine.statistics
                emit(["event": "rebuilt", "outputRunning": statistics.isOutputRunning,
                      "outputStartSeconds": statistics.outputStartSeconds ?? NSNull()])
            } catch {
                emit(["event": "rebuildFailed", "error": "\(error)"])
            }
        case "clicks": playClicks()
        case "spin": spin()
        case "tone": playTone()
        case "stop-tone":
            if let voice = toneVoice.withLock({ $0 }) { try? engine.stop(voice) }
            emit(["event": "toneStopped"])
        #if DEBUG
        case "lose-failing-opens" where words.count == 2:
            ALFaults.arm(.openDevice, count: Int(words[1]) ?? 0)
            engine.disconnectDevice()
        #endif
        case "pause": if let music = engine.music() { try? engine.pause(music) }
        case "resume": if let music = engine.music() { try? engine.resume(music) }
        default: emit(["event": "unknownCommand", "line": line])
        }
    }
    Stop.requested.store(2, ordering: .relaxed)
}
stdinThread.start()

while milliseconds() < seconds * 1000 && Stop.requested.load(ordering: .relaxed) == 0 {
    let statistics = engine.statistics
    var debugFields: [String: Any] = [:]
    #if DEBUG
    debugFields["driverParked"] = engine.isDriverParked
    debugFields["deviceClockMs"] = engine.readCore { $0.device.openDevice?.clockNanoseconds }.map { Double($0) / 1e6 } ?? NSNull()
    #endif
    emit(debugFields.merging(["event": "tick", "outputPaused": statistics.isOutputPausedWhileIdle, "tonePosition": toneVoice.withLock({ $0 }).flatMap { engine.positionInFrames(of: $0) } ?? -1, "position": engine.music().flatMap { engine.positionInFrames(of: $0) } ?? -1,
          "playing": (engine.music().map { engine.isPlaying($0) } ?? false), "state": "\(engine.sessionState)",
          "sources": statistics.alSourceCount, "buffers": statistics.alBufferCount,
          "device": statistics.deviceName ?? NSNull(), "errors": statistics.internalErrorCount,
          "reopenAttempts": statistics.deviceReopenAttemptCount, "reopening": statistics.isDeviceReopening,
          "realVoices": statistics.realVoiceCount, "spinCalls": spinCalls.load(ordering: .relaxed),
          "spinDuringReopen": spinCallsDuringReopen.load(ordering: .relaxed),
          "threads": count("/proc/self/task"), "fds": count("/proc/self/fd")]) { $1 })
    Thread.sleep(forTimeInterval: tickSeconds)
}
let why = ["time", "SIGTERM", "stdin closed"][Stop.requested.load(ordering: .relaxed)]
let shutdownStart = ContinuousClock.now
engine.shutdown()
emit(["event": "shutdown", "why": why, "ms": milliseconds(since: shutdownStart)])
exit(0)
