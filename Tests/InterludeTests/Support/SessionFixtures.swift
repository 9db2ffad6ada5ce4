import COpenAL
import Foundation
import Synchronization
import Testing
@testable import Interlude
@testable import InterludeScene

/// The bundled assets the session tests play, found from this file's place in the repository.
enum SessionAssets {
    static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .path
    /// 20 s stereo sweep at 0.5, 44.1 kHz: f(t) = 200 + 100 t Hz.
    static let sweep = root + "/assets/music/sweep.ogg"
    /// 1 s 440 Hz mono sine at 0.5, loops seamlessly.
    static let tone440 = root + "/assets/sfx/tone440.wav"
    /// 0.25 s 880 Hz mono beep.
    static let beep = root + "/assets/sfx/beep.wav"

    /// The sweep's sample rate.
    static let sweepSampleRate = 44_100

    /// A temporary folder, removed by the caller.
    static func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-session-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// An offline engine plus everything it rendered, and the session events it raised.
final class SessionRig {
    let engine: SoundEngine
    let sampleRate: Int
    let channelCount: Int
    /// Every frame rendered so far, interleaved.
    private(set) var output: [Float] = []
    private let raised = SessionEventLog()

    init(policy: ResumePolicy = .alwaysResume, sampleRate: Int = 48_000, channelCount: Int = 2,
         statePath: String? = nil, configure: (inout SoundEngine.Configuration) -> Void = { _ in }) throws {
        var configuration = SoundEngine.Configuration(output: .offline(sampleRate: sampleRate, channelCount: channelCount))
        configuration.resumePolicy = policy
        configuration.mediaRole = nil
        configuration.statePath = statePath
        configure(&configuration)
        engine = try SoundEngine(configuration: configuration)
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        engine.setEventHandler { [raised] event in raised.append(event) }
    }

    /// The number of frames rendered so far.
    var frame: Int { output.count / channelCount }

    /// Renders more audio; returns the frames it covers.
    @discardableResult
    func render(seconds: Double) throws -> Range<Int> {
        try render(frames: Int((seconds * Double(sampleRate)).rounded()))
    }

    @discardableResult
    func render(frames: Int) throws -> Range<Int> {
        let start = frame
        output += try engine.render(frameCount: frames)
        return start..<frame
    }

    /// The events raised since the last call.
    func takeEvents() -> [EngineEvent] {
        raised.take()
    }

    /// True when every sample of every channel in `frames` is exactly 0.
    func isExactlySilent(_ frames: Range<Int>) -> Bool {
        output[frames.lowerBound * channelCount..<frames.upperBound * channelCount].allSatisfy { $0 == 0 }
    }

    /// The first frame in `frames` holding a non-zero sample, if any.
    func firstNonZeroFrame(in frames: Range<Int>) -> Int? {
        frames.first { frame in (0..<channelCount).contains { output[frame * channelCount + $0] != 0 } }
    }

    /// RMS of all channels over `frames`.
    func rms(_ frames: Range<Int>) -> Double {
        let slice = output[frames.lowerBound * channelCount..<frames.upperBound * channelCount]
        guard !slice.isEmpty else { return 0 }
        return (slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(slice.count)).squareRoot()
    }

    /// The sweep's track time, in seconds, at the first frame of `frames`, read off the frequency
    /// of channel 0 by interpolated rising zero crossings.
    func sweepSeconds(at frames: Range<Int>) -> Double {
        SessionSignal.sweepSeconds(channel0Of: output, channelCount: channelCount, frames: frames, sampleRate: sampleRate)
    }

    /// True when the engine's context is current, read under the engine's lock.
    var engineContextIsCurrent: Bool {
        engine.readCore { $0.device.isContextCurrent }
    }

    /// True when no context at all is current in the process.
    static var noContextIsCurrent: Bool { alcGetCurrentContext() == nil }
}

/// Session events collected from any thread.
final class SessionEventLog: Sendable {
    private let events = AnnotatedMutex<[EngineEvent]>([])

    func append(_ event: EngineEvent) {
        events.withLock { $0.append(event) }
    }

    /// The events so far, emptying the log.
    func take() -> [EngineEvent] {
        events.withLock { events in defer { events.removeAll() }; return events }
    }
}

/// Frequency measurements on rendered audio.
enum SessionSignal {
    /// Mean frequency of channel 0 over `frames` and the frame (fractional) at which the sweep
    /// has that frequency: for a linear sweep the mean between two crossings is the frequency at
    /// their midpoint.
    static func frequency(channel0Of samples: [Float], channelCount: Int, frames: Range<Int>,
                          sampleRate: Int) -> (hertz: Double, atFrame: Double)? {
        var crossings: [Double] = []
        var previous = samples[frames.lowerBound * channelCount]
        for frame in frames.dropFirst() {
            let sample = samples[frame * channelCount]
            if previous < 0 && sample >= 0 {
                crossings.append(Double(frame - 1) + Double(previous / (previous - sample)))
            }
            previous = sample
        }
        guard crossings.count >= 3, let first = crossings.first, let last = crossings.last else { return nil }
        return (Double(crossings.count - 1) / (last - first) * Double(sampleRate), (first + last) / 2)
    }

    static func sweepSeconds(channel0Of samples: [Float], channelCount: Int, frames: Range<Int>, sampleRate: Int) -> Double {
        guard let measured = frequency(channel0Of: samples, channelCount: channelCount, frames: frames, sampleRate: sampleRate) else {
            return .nan
        }
        let secondsAtMid = (measured.hertz - 200) / 100
        return secondsAtMid - (measured.atFrame - Double(frames.lowerBound)) / Double(sampleRate)
    }
}

extension EngineEvent {
    /// The event's name as the scene log spells it.
    var sessionLogName: String {
        switch self {
        case .session(.began): "interruptionBegan"
        case .session(.ended): "interruptionEnded"
        case .session(.activated): "sessionActivated"
        case .session(.absorbed): "interruptionAbsorbed"
        case .session(.ignored): "interruptionEndIgnored"
        case .session(.commandDeferred): "commandDeferred"
        case .session(.commandDropped): "commandDropped"
        case .music(.suspended): "musicSuspended"
        case .music(.resumed): "musicResumed"
        case .voice(.resumed): "voiceResumed"
        case .device(.lost): "deviceLost"
        case .device(.rebuilt): "deviceRestored"
        case .device(.outputStarted): "outputStarted"
        case .session(.reactivationFailed): "reactivationFailed"
        case .session(.holdAdded): "interruptionHoldAdded"
        case .session(.holdReleased): "interruptionHoldReleased"
        case .music(.damageSkipped): "musicDamageSkipped"
        case .music(.underrun): "musicUnderrun"
        case .music(.recovered): "musicRecovered"
        case .music(.ended): "musicEnded"
        case .music(.fadeFinished): "musicFadeFinished"
        case .music(.beat): "musicBeat"
        case .music(.transitioned): "musicTransitioned"
        case .music(.transitionReplaced): "musicTransitionReplaced"
        case .music(.transitionUnchanged): "musicTransitionUnchanged"
        case .music(.quantizeUnavailable): "musicQuantizeUnavailable"
        case .music(.stingerPlayed): "stingerPlayed"
        case .music(.stingerCancelled): "stingerCancelled"
        case .device(.soundLost): "soundLost"
        case .session(.holdKept): "interruptionHoldKept"
        case .device(.routeChanged): "routeChanged"
        case .savedStateWriteFailed: "snapshotWriteFailed"
        case .voice(.finished): "voiceFinished"
        case .voice(.fadeFinished): "voiceFadeFinished"
        case .design: "design"
        }
    }
}

/// A scene rendered in memory: its samples and its log, parsed.
struct SessionSceneRender {
    let samples: [Float]
    let channelCount: Int
    let sampleRate: Int
    let logLines: [String]
    /// Each log line as a dictionary.
    let log: [[String: Any]]

    /// Parses `json` (sound paths absolute) and renders it through SceneRenderer.
    init(json: String) throws {
        let scene = try SceneParser.parse(data: Data(json.utf8), sceneFolder: SessionAssets.root, fileName: "session-scene.json")
        var samples: [Float] = []
        let result = try SceneRenderer(scene: scene, sceneName: "session-scene.json").render { block in
            samples.append(contentsOf: block)
        }
        self.samples = samples
        self.channelCount = scene.channelCount
        self.sampleRate = scene.sampleRate
        self.logLines = result.logLines
        self.log = try result.logLines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    func frame(_ seconds: Double) -> Int { Int((seconds * Double(sampleRate)).rounded()) }

    func isExactlySilent(_ frames: Range<Int>) -> Bool {
        samples[frames.lowerBound * channelCount..<frames.upperBound * channelCount].allSatisfy { $0 == 0 }
    }

    func rms(_ frames: Range<Int>) -> Double {
        let slice = samples[frames.lowerBound * channelCount..<frames.upperBound * channelCount]
        return (slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, slice.count))).squareRoot()
    }

    func sweepSeconds(at frames: Range<Int>) -> Double {
        SessionSignal.sweepSeconds(channel0Of: samples, channelCount: channelCount, frames: frames, sampleRate: sampleRate)
    }

    /// The session log lines (not the played events) as (frame, event, line).
    var sessionLines: [(frame: Int, event: String, fields: [String: Any])] {
        log.compactMap { line in
            guard line["do"] == nil || line["event"] as? String == "commandDeferred" || line["event"] as? String == "commandDropped",
                  let frame = line["frame"] as? Int, let event = line["event"] as? String else { return nil }
            return (frame, event, line)
        }
    }
}
