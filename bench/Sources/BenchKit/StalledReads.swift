#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Histogram
import Interlude
import PeerLoop

/// Scenario 16: the game thread while the soundtrack's reads stall. In a child process, a
/// real-time engine on OpenAL Soft's null backend streams the bench's Ogg soundtrack through a ``StallingDecoder`` while
/// the game thread moves every voice and starts a one-shot every 10 ms; each call is timed, and
/// those made while a read is stalled go into the figures. The soundtrack's underrun and
/// recovery events say where it ran dry and which frame it played on from.
public enum StalledReads {
    /// One run's shape.
    public struct Settings: Sendable {
        public var seconds: Double
        public var firstStallAfterSeconds: Double
        public var stallEverySeconds: Double
        public var stallSeconds: Double
        public var stallLimit: Int
        public var emitterCount: Int
        public var streamBufferCount: Int
        public var streamBufferSeconds: Double

        public init(seconds: Double, firstStallAfterSeconds: Double, stallEverySeconds: Double, stallSeconds: Double,
                    stallLimit: Int, emitterCount: Int, streamBufferCount: Int, streamBufferSeconds: Double) {
            self.seconds = seconds
            self.firstStallAfterSeconds = firstStallAfterSeconds
            self.stallEverySeconds = stallEverySeconds
            self.stallSeconds = stallSeconds
            self.stallLimit = stallLimit
            self.emitterCount = emitterCount
            self.streamBufferCount = streamBufferCount
            self.streamBufferSeconds = streamBufferSeconds
        }
    }

    /// What one run measured.
    public struct Run: Sendable {
        /// Microseconds per `setPosition` made while a read was stalled, by percentile (100: the largest).
        public var setPositionMicroseconds: [Double: Double]
        /// The same for `play` (a one-shot).
        public var playMicroseconds: [Double: Double]
        public var setPositionCallCount: Int
        public var playCallCount: Int
        public var stallCount: Int
        /// The frame of each underrun of the soundtrack, in order.
        public var underrunFrames: [Int]
        /// The frame each recovery played on from, in order.
        public var recoveryFrames: [Int]
        /// The soundtrack was playing at the end.
        public var isMusicPlaying: Bool

        /// Every underrun recovered, each on the frame it ran dry at: the next frame of the file.
        public var recoveredOnTheirFrames: Bool { recoveryFrames == underrunFrames }

        /// The run as the child prints it: "key value" lines.
        var lines: String {
            var lines = [
                "set_position_calls \(setPositionCallCount)", "play_calls \(playCallCount)", "stalls \(stallCount)",
                "music_playing \(isMusicPlaying ? 1 : 0)",
                "underrun_frames \(underrunFrames.map(String.init).joined(separator: ","))",
                "recovery_frames \(recoveryFrames.map(String.init).joined(separator: ","))",
            ]
            for (_, percentile) in PeerFigures.percentiles {
                lines.append("set_position_us_\(percentile) \(setPositionMicroseconds[percentile] ?? 0)")
                lines.append("play_us_\(percentile) \(playMicroseconds[percentile] ?? 0)")
            }
            return lines.joined(separator: "\n")
        }

        /// Parses ``lines``.
        init(output: String) throws {
            var values: [String: String] = [:]
            for line in output.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
                if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
            }
            func number(_ key: String) throws -> Double {
                guard let value = values[key].flatMap(Double.init) else { throw BenchError("stalled-reads child output lacks \(key): \(output)") }
                return value
            }
            func frames(_ key: String) throws -> [Int] {
                guard let value = values[key] else { throw BenchError("stalled-reads child output lacks \(key): \(output)") }
                return value.split(separator: ",").compactMap { Int($0) }
            }
            setPositionCallCount = Int(try number("set_position_calls"))
            playCallCount = Int(try number("play_calls"))
            stallCount = Int(try number("stalls"))
            isMusicPlaying = try number("music_playing") == 1
            underrunFrames = try frames("underrun_frames")
            recoveryFrames = try frames("recovery_frames")
            setPositionMicroseconds = [:]
            playMicroseconds = [:]
            for (_, percentile) in PeerFigures.percentiles {
                setPositionMicroseconds[percentile] = try number("set_position_us_\(percentile)")
                playMicroseconds[percentile] = try number("play_us_\(percentile)")
            }
        }

        init(setPosition: Histogram<UInt64>, play: Histogram<UInt64>, stallCount: Int, underrunFrames: [Int],
             recoveryFrames: [Int], isMusicPlaying: Bool) {
            func microseconds(_ histogram: Histogram<UInt64>) -> [Double: Double] {
                var values: [Double: Double] = [:]
                for (_, percentile) in PeerFigures.percentiles {
                    values[percentile] = Double(percentile >= 100 ? histogram.maxRecorded : histogram.valueAtPercentile(percentile)) / 1_000
                }
                return values
            }
            setPositionMicroseconds = microseconds(setPosition)
            playMicroseconds = microseconds(play)
            setPositionCallCount = Int(setPosition.totalCount)
            playCallCount = Int(play.totalCount)
            self.stallCount = stallCount
            self.underrunFrames = underrunFrames
            self.recoveryFrames = recoveryFrames
            self.isMusicPlaying = isMusicPlaying
        }
    }

    /// The child's arguments after `--stall-child`: the track, then the settings.
    static func childArguments(trackPath: String, settings: Settings) -> [String] {
        [trackPath, "\(settings.seconds)", "\(settings.firstStallAfterSeconds)", "\(settings.stallEverySeconds)",
         "\(settings.stallSeconds)", "\(settings.stallLimit)", "\(settings.emitterCount)", "\(settings.streamBufferCount)",
         "\(settings.streamBufferSeconds)"]
    }

    /// Runs one run in a child (`executable --stall-child ...`) on OpenAL Soft's null backend,
    /// which a process can select only before OpenAL Soft starts.
    public static func run(executable: URL, trackPath: String, settings: Settings) throws -> Run {
        let text = try BenchChild.output(of: executable, arguments: ["--stall-child"] + childArguments(trackPath: trackPath, settings: settings),
                                         extra: ["ALSOFT_DRIVERS": "null"], name: "the stalled-reads child")
        return try Run(output: text)
    }

    /// The child's side: parses its arguments, plays the run and returns what it prints.
    public static func measureInChild(_ arguments: [String]) throws -> String {
        guard arguments.count == 9, let seconds = Double(arguments[1]), let first = Double(arguments[2]),
              let every = Double(arguments[3]), let stall = Double(arguments[4]), let limit = Int(arguments[5]),
              let emitters = Int(arguments[6]), let bufferCount = Int(arguments[7]), let bufferSeconds = Double(arguments[8]) else {
            throw BenchError("--stall-child TRACK SECONDS FIRST EVERY STALL LIMIT EMITTERS BUFFERS BUFFER_SECONDS, got \(arguments)")
        }
        let settings = Settings(seconds: seconds, firstStallAfterSeconds: first, stallEverySeconds: every, stallSeconds: stall,
                                stallLimit: limit, emitterCount: emitters, streamBufferCount: bufferCount,
                                streamBufferSeconds: bufferSeconds)
        return try play(trackPath: arguments[0], sounds: BenchAssets.sounds(count: 8), settings: settings).lines
    }

    /// Plays the scenario once in real time, in this process.
    static func play(trackPath: String, sounds: [[Float]], settings: Settings) throws -> Run {
        var configuration = SoundEngine.Configuration(output: .null)
        configuration.mediaRole = nil
        configuration.streamBufferCount = settings.streamBufferCount
        configuration.streamBufferSeconds = settings.streamBufferSeconds
        let engine = try SoundEngine(configuration: configuration)
        defer { engine.shutdown() }
        let marks = UnderrunMarks()
        engine.setEventHandler { [marks] event in marks.note(event) }
        let format = AudioFormat(sampleRate: BenchAssets.soundSampleRate, channelCount: 1)
        let loaded = try sounds.enumerated().map { try engine.makeSound(name: "sound\($0.offset)", format: format, samples: $0.element) }
        guard let first = sounds.first else { throw BenchError("stalled reads: no sounds") }
        let blip = try engine.makeSound(name: "blip", format: format, samples: Array(first.prefix(BenchAssets.soundSampleRate / 20)))
        let decoder = try StallingDecoder(path: trackPath, firstAfterSeconds: settings.firstStallAfterSeconds,
                                          everySeconds: settings.stallEverySeconds, stallSeconds: settings.stallSeconds,
                                          stallLimit: settings.stallLimit)
        try engine.playMusic(decoder: decoder)
        let voices = try (0..<settings.emitterCount).map { index in
            try engine.play(loaded[index % loaded.count],
                            parameters: VoiceParameters(position: SceneRunner.emitterPosition(index, frame: 0), gain: 0.1, isLooping: true))
        }
        var setPosition = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        var play = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        let start = PeerLoop.monotonicNanoseconds()
        for tick in 1...max(1, Int(settings.seconds * 100)) {
            PeerLoop.sleep(untilNanoseconds: start + Int64(tick) * 10_000_000)
            let frame = tick * BenchAssets.updateFrames
            for index in voices.indices {
                let stalled = decoder.isStalling
                let before = PeerLoop.monotonicNanoseconds()
                try engine.setPosition(SceneRunner.emitterPosition(index, frame: frame), of: voices[index])
                let nanoseconds = PeerLoop.monotonicNanoseconds() - before
                if stalled { setPosition.record(UInt64(max(0, nanoseconds))) }
            }
            let stalled = decoder.isStalling
            let before = PeerLoop.monotonicNanoseconds()
            try engine.play(blip, parameters: VoiceParameters(position: SceneRunner.emitterPosition(tick, frame: frame), gain: 0.1))
            let nanoseconds = PeerLoop.monotonicNanoseconds() - before
            if stalled { play.record(UInt64(max(0, nanoseconds))) }
        }
        // An underrun the run ended in: its recovery comes on the driver's updates.
        let deadline = Measure.wallSeconds() + 5
        while marks.frames.recoveries.count < marks.frames.underruns.count && Measure.wallSeconds() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let (underruns, recoveries) = marks.frames
        return Run(setPosition: setPosition, play: play, stallCount: decoder.stallCount, underrunFrames: underruns,
                   recoveryFrames: recoveries, isMusicPlaying: (engine.music().map { engine.isPlaying($0) } ?? false))
    }
}

extension Bench {
    /// The two runs of scenario 16: the default stream buffers (4 x 200 ms, which with the
    /// decode ring ahead hold 1.6 s, so a 500 ms stall is absorbed), and small ones (2 x 50 ms)
    /// that every stall runs dry, for the underruns and their recoveries.
    func stalledReadSettings() -> [(name: String, settings: StalledReads.Settings)] {
        let seconds = sizes.stalledReadSeconds
        let isQuick = seconds < 5
        func settings(bufferCount: Int, bufferSeconds: Double) -> StalledReads.Settings {
            StalledReads.Settings(seconds: seconds, firstStallAfterSeconds: isQuick ? 0.3 : 2, stallEverySeconds: 3,
                                  stallSeconds: 0.5, stallLimit: isQuick ? 1 : 1_000, emitterCount: sizes.referenceEmitterCount,
                                  streamBufferCount: bufferCount, streamBufferSeconds: bufferSeconds)
        }
        return [("default buffers, 4 x 200 ms", settings(bufferCount: 4, bufferSeconds: 0.2)),
                ("small buffers, 2 x 50 ms", settings(bufferCount: 2, bufferSeconds: 0.05))]
    }

    /// Plays both runs of scenario 16, each in a child of `executable` (the bench).
    public func stalledReadRuns(executable: URL) throws -> [(name: String, settings: StalledReads.Settings, run: StalledReads.Run)] {
        try stalledReadSettings().map { name, settings in
            progress("16. stalled reads: \(name), \(settings.seconds) s")
            return (name, settings, try StalledReads.run(executable: executable, trackPath: sceneTrackPath, settings: settings))
        }
    }

    /// Runs scenario 16.
    public func stalledReads(executable: URL) throws -> [BenchRow] {
        try stalledReadRuns(executable: executable).flatMap { Self.stalledReadRows($0.run, name: $0.name, settings: $0.settings) }
    }

    /// The rows of one run of scenario 16, with issue 15's latency goals on `setPosition`.
    public static func stalledReadRows(_ run: StalledReads.Run, name: String, settings: StalledReads.Settings) -> [BenchRow] {
        let scenario = "16. Stalled reads (\(name))"
        let stalls = "\(run.stallCount) stalls of \(Int(settings.stallSeconds * 1_000)) ms, \(settings.emitterCount) voices, real time, null backend"
        let goals: [Double: (String, Double)] = [99.9: ("<= 20 µs", 20), 100: ("<= 1 ms", 1_000)]
        var rows: [BenchRow] = []
        for (label, percentile) in PeerFigures.percentiles {
            let value = run.setPositionMicroseconds[percentile] ?? 0
            let goal = goals[percentile]
            rows.append(BenchRow(scenario: scenario, measure: "setPosition on the game thread while a soundtrack read stalls (\(stalls); \(run.setPositionCallCount) calls), \(label)",
                                 unit: "µs", engine: value, goal: goal?.0, isGoalMet: goal.map { value <= $0.1 }))
        }
        for (label, percentile) in PeerFigures.percentiles {
            rows.append(BenchRow(scenario: scenario, measure: "play (a one-shot) on the game thread while a soundtrack read stalls (\(run.playCallCount) calls), \(label)",
                                 unit: "µs", engine: run.playMicroseconds[percentile] ?? 0))
        }
        rows.append(BenchRow(scenario: scenario, measure: "soundtrack underruns (each raises musicUnderrun, then musicRecovered)",
                             unit: "", engine: Double(run.underrunFrames.count)))
        rows.append(BenchRow(scenario: scenario, measure: "underruns that recovered on the frame they ran dry at (the next frame of the file)",
                             unit: "", engine: Double(zip(run.underrunFrames, run.recoveryFrames).filter { $0 == $1 }.count),
                             goal: "all (\(run.underrunFrames.count))", isGoalMet: run.recoveredOnTheirFrames))
        return rows
    }
}
