import BenchBaseline
import Interlude

/// One scene, rendered by the engine or by the raw C baseline: `emitterCount` positional
/// looping emitters moved every 10 ms, and the streamed soundtrack.
public struct SceneSpec: Sendable {
    public var emitterCount: Int
    public var seconds: Double
    /// The engine's real-voice budget (nil: every source the context has).
    public var engineRealVoiceBudget: Int?
    /// Real sources the baseline may use (raw OpenAL has no virtual voices).
    public var baselineSourceLimit = 255
    public var musicPath: String?
    /// The engine moves its voices with one setPositions call per update instead of one
    /// setPosition per voice.
    public var movesInBatches = false
    /// How every source resamples on both sides; nil: OpenAL Soft's own default.
    public var resampler: Resampler?

    public init(emitterCount: Int, seconds: Double, engineRealVoiceBudget: Int? = nil, musicPath: String?) {
        self.emitterCount = emitterCount
        self.seconds = seconds
        self.engineRealVoiceBudget = engineRealVoiceBudget
        self.musicPath = musicPath
    }

    public var frameCount: Int { Int(seconds * Double(BenchAssets.outputSampleRate)) }
}

/// Renders scenes on both sides from the same sounds.
public final class SceneRunner {
    public let sounds: [[Float]]
    /// Copies of ``sounds`` for C, freed with the runner.
    private let soundPointers: [UnsafeMutablePointer<Float>]

    public init(sounds: [[Float]]) {
        self.sounds = sounds
        soundPointers = sounds.map { samples in
            let pointer = UnsafeMutablePointer<Float>.allocate(capacity: samples.count)
            pointer.initialize(from: samples, count: samples.count)
            return pointer
        }
    }

    deinit {
        for pointer in soundPointers { pointer.deallocate() }
    }

    static func emitterPosition(_ index: Int, frame: Int) -> Vector3 {
        var xyz: (Float, Float, Float) = (0, 0, 0)
        withUnsafeMutablePointer(to: &xyz) { tuple in
            tuple.withMemoryRebound(to: Float.self, capacity: 3) { bb_emitter_position(Int32(index), Int64(frame), Int32(BenchAssets.outputSampleRate), $0) }
        }
        return Vector3(xyz.0, xyz.1, xyz.2)
    }

    /// An offline engine at 48 kHz stereo.
    public static func offlineEngine(_ adjust: (inout SoundEngine.Configuration) -> Void = { _ in }) throws -> SoundEngine {
        var configuration = SoundEngine.Configuration(output: .offline(sampleRate: BenchAssets.outputSampleRate, channelCount: 2))
        configuration.mediaRole = nil
        adjust(&configuration)
        return try SoundEngine(configuration: configuration)
    }

    /// Renders `spec` through the engine; returns the samples when `keep`, else an empty array.
    /// Also returns how many voices held a real source at the end.
    @discardableResult
    public func renderEngine(_ spec: SceneSpec, keep: Bool = false) throws -> (samples: [Float], realVoiceCount: Int) {
        let engine = try Self.offlineEngine {
            $0.realVoiceBudget = spec.engineRealVoiceBudget
            $0.resampler = spec.resampler
        }
        defer { engine.shutdown() }
        let format = AudioFormat(sampleRate: BenchAssets.soundSampleRate, channelCount: 1)
        let loaded = try sounds.enumerated().map { try engine.makeSound(name: "sound\($0.offset)", format: format, samples: $0.element) }
        if let musicPath = spec.musicPath { try engine.playMusic(path: musicPath) }
        var voices: [VoiceHandle] = []
        voices.reserveCapacity(spec.emitterCount)
        for index in 0..<spec.emitterCount {
            var parameters = VoiceParameters(position: Self.emitterPosition(index, frame: 0), gain: bb_emitter_gain(Int32(index)), isLooping: true)
            parameters.group = .sfx
            voices.append(try engine.play(loaded[index % loaded.count], parameters: parameters))
        }
        var output: [Float] = []
        if keep { output.reserveCapacity(spec.frameCount * 2) }
        var positions: [Vector3] = []
        positions.reserveCapacity(voices.count)
        var samples: [Float] = []
        var frame = 0
        while frame < spec.frameCount {
            if frame > 0 && spec.movesInBatches {
                positions.removeAll(keepingCapacity: true)
                for index in voices.indices { positions.append(Self.emitterPosition(index, frame: frame)) }
                try engine.setPositions(positions, of: voices)
            } else if frame > 0 {
                for (index, voice) in voices.enumerated() {
                    try engine.setPosition(Self.emitterPosition(index, frame: frame), of: voice)
                }
            }
            let chunk = min(BenchAssets.updateFrames, spec.frameCount - frame)
            try engine.render(frameCount: chunk, into: &samples)
            if keep { output.append(contentsOf: samples) }
            frame += chunk
        }
        return (output, engine.statistics.realVoiceCount)
    }

    /// Renders `spec` through the raw C baseline; returns the samples when `keep`.
    @discardableResult
    public func renderBaseline(_ spec: SceneSpec, keep: Bool = false) throws -> [Float] {
        var output = keep ? [Float](repeating: 0, count: spec.frameCount * 2) : []
        let frameCounts = sounds.map { Int32($0.count) }
        let constPointers: [UnsafePointer<Float>?] = soundPointers.map { UnsafePointer($0) }
        let result = constPointers.withUnsafeBufferPointer { soundList in
            frameCounts.withUnsafeBufferPointer { counts in
                output.withUnsafeMutableBufferPointer { out in
                    withOptionalCString(spec.musicPath) { music in withOptionalCString(spec.resampler?.rawValue) { resampler in
                        var scene = bb_scene(
                            sample_rate: Int32(BenchAssets.outputSampleRate), emitter_count: Int32(spec.emitterCount),
                            source_limit: Int32(spec.baselineSourceLimit), mono_source_count: 255, stereo_source_count: 16,
                            sounds: soundList.baseAddress, sound_frame_counts: counts.baseAddress, sound_count: Int32(sounds.count),
                            sound_sample_rate: Int32(BenchAssets.soundSampleRate), music_path: music,
                            music_buffer_count: 4, music_buffer_seconds: 0.2, frame_count: Int64(spec.frameCount),
                            update_frames: Int32(BenchAssets.updateFrames), output: keep ? out.baseAddress : nil,
                            resampler: resampler)
                        return bb_render_scene(&scene)
                    } }
                }
            }
        }
        guard result == 0 else { throw InterludeError(.deviceUnavailable, "bb_render_scene failed with \(result)") }
        return output
    }

    /// The baseline's start-up: a loopback device and `count` of the sounds uploaded.
    public func baselineStartup(soundCount: Int) throws {
        let frameCounts = sounds.prefix(soundCount).map { Int32($0.count) }
        let constPointers: [UnsafePointer<Float>?] = soundPointers.prefix(soundCount).map { UnsafePointer($0) }
        let result = bb_startup(Int32(BenchAssets.outputSampleRate), constPointers, frameCounts, Int32(frameCounts.count),
                                Int32(BenchAssets.soundSampleRate))
        guard result == 0 else { throw InterludeError(.deviceUnavailable, "bb_startup failed with \(result)") }
    }
}

func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// RMS of interleaved samples.
public func rootMeanSquare(_ samples: [Float]) -> Double {
    guard !samples.isEmpty else { return 0 }
    return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
}

/// RMS of the difference of two equally long renders.
public func rootMeanSquareDifference(_ first: [Float], _ second: [Float]) -> Double {
    let count = min(first.count, second.count)
    guard count > 0 else { return 0 }
    var sum = 0.0
    for index in 0..<count {
        let difference = Double(first[index]) - Double(second[index])
        sum += difference * difference
    }
    return (sum / Double(count)).squareRoot()
}
