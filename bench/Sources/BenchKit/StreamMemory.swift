import Interlude

/// Scenario 7's stream rows: the heap one stream adds, counted by the bench's malloc interposer
/// (Sources/MallocCounter): every byte malloc'd less every byte freed from the play call through
/// `renderSeconds` of offline rendering, so the decoder's state, its decoded chunks, the engine's
/// bookkeeping and the AL buffers OpenAL Soft allocates all count. Measured for the soundtrack,
/// and for as many streamed voices as the default configuration allows (half positional).
public enum StreamMemory {
    /// What one measurement counted.
    public struct Figures: Sendable, Equatable {
        /// Heap bytes the streamed soundtrack added.
        public var soundtrackBytes: Int64
        /// Streamed voices played at once.
        public var streamedVoiceCount: Int
        /// Heap bytes those voices added together.
        public var streamedVoicesBytes: Int64

        /// The figures as a child prints them: three numbers on one line.
        public var line: String { "\(soundtrackBytes) \(streamedVoiceCount) \(streamedVoicesBytes)" }

        /// Heap bytes per streamed voice.
        public var bytesPerStreamedVoice: Double { Double(streamedVoicesBytes) / Double(max(1, streamedVoiceCount)) }

        /// Parses ``line``.
        public init?(line: String) {
            let numbers = line.split(separator: " ")
            guard numbers.count == 3, let soundtrack = Int64(numbers[0]), let count = Int(numbers[1]),
                  let voices = Int64(numbers[2]) else { return nil }
            self.init(soundtrackBytes: soundtrack, streamedVoiceCount: count, streamedVoicesBytes: voices)
        }

        init(soundtrackBytes: Int64, streamedVoiceCount: Int, streamedVoicesBytes: Int64) {
            self.soundtrackBytes = soundtrackBytes
            self.streamedVoiceCount = streamedVoiceCount
            self.streamedVoicesBytes = streamedVoicesBytes
        }
    }

    /// Streams the 48 kHz stereo Vorbis track of `trackSeconds` as the soundtrack of one offline
    /// engine, then as every streamed voice the default configuration allows on another, and
    /// counts the heap each adds over `renderSeconds` of rendering (after a warm-up render, so
    /// the mixer's own first allocations stay out).
    public static func measure(counter: AllocationCounter, trackSeconds: Double, renderSeconds: Double) throws -> Figures {
        let path = try BenchAssets.track(seconds: trackSeconds)
        let renderFrames = Int(renderSeconds * Double(BenchAssets.outputSampleRate))
        let soundtrackBytes: Int64 = try counted(counter) { engine in
            let music = try engine.playMusic(path: path)
            _ = try engine.render(frameCount: renderFrames)
            guard engine.isPlaying(music) else {
                throw InterludeError(.invalidArgument, "stream memory: the soundtrack \(path) stopped playing")
            }
        }
        let voiceCount = SoundEngine.Configuration().maximumStreamedVoiceCount
        let voicesBytes: Int64 = try counted(counter) { engine in
            var voices: [VoiceHandle] = []
            for index in 0..<voiceCount {
                var parameters = VoiceParameters(position: index.isMultiple(of: 2) ? Vector3(Float(index), 0, -2) : nil)
                parameters.isLooping = true
                voices.append(try engine.play(streamFrom: path, parameters: parameters))
            }
            _ = try engine.render(frameCount: renderFrames)
            guard voices.allSatisfy(engine.isPlaying) else {
                throw InterludeError(.invalidArgument, "stream memory: a streamed voice of \(path) stopped playing")
            }
        }
        return Figures(soundtrackBytes: soundtrackBytes, streamedVoiceCount: voiceCount, streamedVoicesBytes: voicesBytes)
    }

    /// The net heap bytes `body` adds to a warmed-up offline engine, which stays open meanwhile.
    static func counted(_ counter: AllocationCounter, _ body: (SoundEngine) throws -> Void) throws -> Int64 {
        let engine = try SceneRunner.offlineEngine()
        defer { engine.shutdown() }
        _ = try engine.render(frameCount: 4_800)
        counter.start()
        defer { _ = counter.stop() }
        try body(engine)
        return counter.netBytes()
    }

    /// The rows of `figures`.
    public static func rows(_ figures: Figures) -> [BenchRow] {
        let soundtrackKiB = Double(figures.soundtrackBytes) / 1_024
        let voiceKiB = figures.bytesPerStreamedVoice / 1_024
        return [
            BenchRow(scenario: "7. Memory",
                     measure: "heap the streamed soundtrack adds (malloc'd less freed from playMusic through its first seconds: decoder, decoded chunks, AL buffers)",
                     unit: "KiB", engine: soundtrackKiB, goal: "<= 1024 KiB", isGoalMet: soundtrackKiB <= 1_024,
                     key: "memory/stream/soundtrack"),
            BenchRow(scenario: "7. Memory",
                     measure: "heap per streamed voice, the same way (\(figures.streamedVoiceCount) voices of the 48 kHz stereo track at once, half positional; default configuration)",
                     unit: "KiB", engine: voiceKiB, goal: "<= 256 KiB", isGoalMet: voiceKiB <= 256, key: "memory/stream/voice"),
        ]
    }
}
