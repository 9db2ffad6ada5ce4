import SoakScenario

/// One operation of a model-based sequence. Voice steps name a voice by the order it was played
/// in, modulo the voices there are, so a sequence stays meaningful when the shrinker removes
/// steps before them (with no voice yet, the step does nothing).
enum ModelStep: Equatable, CustomStringConvertible {
    case play(sound: Int, isLooping: Bool, group: Int, gain: Int)
    case stop(voice: Int)
    case pause(voice: Int)
    case resume(voice: Int)
    case setGain(voice: Int, gain: Int)
    case musicPlay(track: Int)
    case musicPause
    case musicResume
    case musicStop
    case musicCrossfade(track: Int, milliseconds: Int)
    case groupGain(group: Int, gain: Int)
    case listenerGain(gain: Int)
    /// Several threads move the listener at once, each by 1 m along x, many times.
    case listenerMovesFromThreads
    case begin(source: Int, reason: Int)
    case end(source: Int, shouldResume: Bool)
    case activate
    case deviceLost
    case deviceRestored
    case switchDevice
    case snapshotRestore
    case render(frames: Int)

    static let sources = ["game", "call", "sleep"]
    /// The reasons a begin gives; "deviceLost" is the engine's own and must be refused (rule 11).
    static let reasons = ["other", "call", "deviceLost"]
    /// Threads and moves per thread of ``listenerMovesFromThreads``.
    static let listenerThreads = 4
    static let listenerMovesPerThread = 25
    static let voiceGroups = ["sfx", "voice"]
    static let gainGroups = ["master", "music", "sfx", "voice"]
    /// The gains steps choose from: 0 (silent), 0.5, 1.
    static let gains: [Float] = [0, 0.5, 1]

    var description: String {
        switch self {
        case .play(let sound, let isLooping, let group, let gain):
            "play(s\(sound)\(isLooping ? ", loop" : ""), \(Self.voiceGroups[group]), gain \(Self.gains[gain]))"
        case .stop(let voice): "stop(v\(voice))"
        case .pause(let voice): "pause(v\(voice))"
        case .resume(let voice): "resume(v\(voice))"
        case .setGain(let voice, let gain): "set(v\(voice), gain \(Self.gains[gain]))"
        case .musicPlay(let track): "music.play(t\(track))"
        case .musicPause: "music.pause"
        case .musicResume: "music.resume"
        case .musicStop: "music.stop"
        case .musicCrossfade(let track, let milliseconds): "music.crossfade(t\(track), \(milliseconds) ms)"
        case .groupGain(let group, let gain): "group(\(Self.gainGroups[group]), \(Self.gains[gain]))"
        case .listenerGain(let gain): "listener(gain \(Self.gains[gain]))"
        case .listenerMovesFromThreads: "listener.x += 1 from \(Self.listenerThreads) threads x \(Self.listenerMovesPerThread)"
        case .begin(let source, let reason): "begin(\(Self.sources[source]), \(Self.reasons[reason]))"
        case .end(let source, let shouldResume): "end(\(Self.sources[source]), shouldResume: \(shouldResume))"
        case .activate: "activate"
        case .deviceLost: "device.lost"
        case .deviceRestored: "device.restored"
        case .switchDevice: "switchDevice"
        case .snapshotRestore: "snapshot+restore"
        case .render(let frames): "render(\(frames))"
        }
    }

    /// A random step. Renders are a third of the steps, so time passes between commands.
    static func random(using generator: inout SplitMix64) -> ModelStep {
        func pick(_ count: Int) -> Int { Int.random(in: 0..<count, using: &generator) }
        let voice = pick(8)
        switch pick(32) {
        case 0, 1: return .play(sound: pick(2), isLooping: Bool.random(using: &generator), group: pick(2), gain: 1 + pick(2))
        case 2: return .stop(voice: voice)
        case 3: return .pause(voice: voice)
        case 4: return .resume(voice: voice)
        case 5: return .setGain(voice: voice, gain: pick(gains.count))
        case 6: return .musicPlay(track: pick(2))
        case 7: return .musicPause
        case 8: return .musicResume
        case 9: return .musicStop
        case 10: return .musicCrossfade(track: pick(2), milliseconds: [0, 20, 60][pick(3)])
        case 11: return .groupGain(group: pick(gainGroups.count), gain: pick(gains.count))
        case 12, 13: return .begin(source: pick(sources.count), reason: pick(8) == 0 ? 2 : pick(2))
        case 14, 15: return .end(source: pick(sources.count), shouldResume: Bool.random(using: &generator))
        case 16: return .activate
        case 17: return .deviceLost
        case 18: return .deviceRestored
        case 19: return .switchDevice
        case 20: return .snapshotRestore
        case 21: return .listenerGain(gain: pick(gains.count))
        case 22: return .listenerMovesFromThreads
        default: return .render(frames: 16 + pick(600))
        }
    }

    /// Simpler versions of this step, simplest first, for the shrinker.
    var simplifications: [ModelStep] {
        switch self {
        case .play(let sound, let isLooping, let group, _):
            [.play(sound: 0, isLooping: isLooping, group: 0, gain: 2), .play(sound: sound, isLooping: isLooping, group: group, gain: 2)]
                .filter { $0 != self }
        case .stop(let voice) where voice > 0: [.stop(voice: 0)]
        case .pause(let voice) where voice > 0: [.pause(voice: 0)]
        case .resume(let voice) where voice > 0: [.resume(voice: 0)]
        case .setGain(let voice, let gain) where voice > 0: [.setGain(voice: 0, gain: gain)]
        case .musicPlay(let track) where track > 0: [.musicPlay(track: 0)]
        case .musicCrossfade(let track, let milliseconds):
            [.musicPlay(track: track), .musicCrossfade(track: 0, milliseconds: milliseconds)].filter { $0 != self }
        case .begin(let source, let reason) where source > 0 || reason == 1:
            [.begin(source: 0, reason: reason == 1 ? 0 : reason), .begin(source: source, reason: reason == 1 ? 0 : reason)].filter { $0 != self }
        case .end(let source, let shouldResume):
            [.end(source: 0, shouldResume: shouldResume), .end(source: source, shouldResume: true)].filter { $0 != self }
        case .render(let frames) where frames > 64: [.render(frames: 64), .render(frames: frames / 2)]
        default: []
        }
    }
}
