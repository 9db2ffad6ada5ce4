import Foundation
import Interlude
import Synchronization
import InterludeScene

/// Scenario 23, adaptive music's cost and timing: a 4-stem track against one plain track and
/// against four plain streams (streamed voices) of the same file, each rendered offline,
/// alternating; the heap allocations of a render while the stems play; and where a transition
/// on the bar lands in an offline render.
public enum AdaptiveMusicBench {
    /// `seconds` of audio per render, medians over `rounds`.
    public static func rows(seconds: Double, rounds: Int, counter: AllocationCounter?, executable: URL) throws -> [BenchRow] {
        let path = try BenchAssets.track(seconds: seconds + 1)
        let stems = MusicTrack(name: "four", stems: (1...4).map { MusicTrack.Stem(name: "stem \($0)", path: path) },
                               tempo: MusicTempo(bpm: 120))
        let frames = Int(seconds * Double(BenchAssets.outputSampleRate))
        func render(_ start: (SoundEngine) throws -> Void) throws -> Double {
            let engine = try SceneRunner.offlineEngine { $0.runsDriverThread = false }
            defer { engine.shutdown() }
            return try Measure.cpuSeconds {
                try start(engine)
                var left = frames
                while left > 0 {
                    let count = min(4_800, left)
                    _ = try engine.render(frameCount: count)
                    left -= count
                }
            }
        }
        let playStems: (SoundEngine) throws -> Void = { try $0.playMusic(stems) }
        let playOne: (SoundEngine) throws -> Void = { try $0.playMusic(path: path) }
        let playFour: (SoundEngine) throws -> Void = { engine in
            for _ in 0..<4 { try engine.play(streamFrom: path, parameters: VoiceParameters(position: nil, isLooping: true, group: .music)) }
        }
        let againstOne = try Measure.alternate(rounds: rounds, engine: { try render(playStems) }, baseline: { try render(playOne) })
        let againstFour = try Measure.alternate(rounds: rounds, engine: { try render(playStems) }, baseline: { try render(playFour) })
        let one = Measure.median(againstOne.engine) / Measure.median(againstOne.baseline)
        let four = Measure.median(againstFour.engine) / Measure.median(againstFour.baseline)
        var rows = [
            BenchRow(scenario: "23. Adaptive music", measure: "a 4-stem track, \(Int(seconds)) s offline: CPU time, against one plain track of the same file",
                     unit: "s", engine: Measure.median(againstOne.engine), baseline: Measure.median(againstOne.baseline), ratio: one,
                     ratioMeaning: "4 stems / 1 track", goal: "<= 4.2x", isGoalMet: one <= 4.2,
                     engineSamples: againstOne.engine, baselineSamples: againstOne.baseline),
            BenchRow(scenario: "23. Adaptive music", measure: "the same 4-stem track against four plain streams of the file (streamed voices in the music group)",
                     unit: "s", engine: Measure.median(againstFour.engine), baseline: Measure.median(againstFour.baseline), ratio: four,
                     ratioMeaning: "4 stems / 4 streams", goal: "<= 1.05x", isGoalMet: four <= 1.05,
                     engineSamples: againstFour.engine, baselineSamples: againstFour.baseline),
            try transitionRow(),
        ] + (try realTimeRows(executable: executable, path: path))
        if let counter { rows += try allocationRows(stems, plain: path, counter: counter) }
        return rows
    }

    /// Heap allocations while the four stems play and a stem's gain moves, after a second to
    /// settle: per update() (goal: none), and per render(frameCount: 480) with its refills,
    /// against one plain track's.
    private static func allocationRows(_ stems: MusicTrack, plain path: String, counter: AllocationCounter) throws -> [BenchRow] {
        func count(_ start: (SoundEngine) throws -> Void) throws -> (update: Double, render: Double) {
            let engine = try SceneRunner.offlineEngine { $0.runsDriverThread = false }
            defer { engine.shutdown() }
            try start(engine)
            for _ in 0..<100 { _ = try engine.render(frameCount: 480) }
            // The first updates that do not wait hand the decode thread its first reads, which
            // allocate on that thread: not the update's steady state.
            for _ in 0..<20 { engine.update() }
            let calls = 500
            counter.start()
            for _ in 0..<calls { engine.update() }
            let updates = Double(counter.stop()) / Double(calls)
            counter.start()
            for _ in 0..<calls { _ = try engine.render(frameCount: 480) }
            return (updates, Double(counter.stop()) / Double(calls))
        }
        let withStems = try count { engine in
            let music = try engine.playMusic(stems)
            try engine.setGain(0.2, ofStem: "stem 2", of: music, fadeSeconds: 30)
        }
        let plain = try count { try $0.playMusic(path: path) }
        return [
            BenchRow(scenario: "23. Adaptive music", measure: "heap allocations per update(), 4 stems playing, one fading, steady state, against one plain track",
                     unit: "allocations", engine: withStems.update, baseline: plain.update, goal: "0", isGoalMet: withStems.update == 0),
            BenchRow(scenario: "23. Adaptive music", measure: "heap allocations per render(frameCount: 480) incl. its update and the refills (1 = the returned array): 4 stems against one plain track",
                     unit: "allocations", engine: withStems.render, baseline: plain.render),
        ]
    }

    /// Transitions on the bar on a device, in a child on the null backend (which OpenAL Soft
    /// takes only before it starts): how many frames of the old track were heard past the bar
    /// before the change, by the device's own mixing.
    private static func realTimeRows(executable: URL, path: String) throws -> [BenchRow] {
        let text = try BenchChild.output(of: executable, arguments: ["--transition-child", path], extra: ["ALSOFT_DRIVERS": "null"],
                                         name: "AdaptiveMusicBench: the child")
        let frames = text.split(separator: "\n").last.map { $0.split(separator: " ").compactMap { Double($0) } }?.sorted() ?? []
        guard !frames.isEmpty else { throw BenchError("AdaptiveMusicBench: the child printed \(text)") }
        let milliseconds = 1_000 / Double(BenchAssets.outputSampleRate)
        return [
            BenchRow(scenario: "23. Adaptive music", measure: "a transition on the bar on a device (null backend, real time, driver thread): the old track's frames past the bar (its sources' offsets) when the update that found the bar reached acted, median of \(frames.count) (\(String(format: "%.1f", Measure.median(frames) * milliseconds)) ms)",
                     unit: "frames", engine: Measure.median(frames)),
            BenchRow(scenario: "23. Adaptive music", measure: "the same, the latest of \(frames.count) (\(String(format: "%.1f", (frames.last ?? 0) * milliseconds)) ms)",
                     unit: "frames", engine: frames.last ?? 0),
        ]
    }

    /// The child's part: twenty transitions on the bar between two 4-stem tracks of `path` with
    /// a bar every 0.125 s, on the null backend with the driver thread; prints each one's late
    /// frames on one line.
    public static func measureTransitionsInChild(path: String) throws -> String {
        var configuration = SoundEngine.Configuration(output: .null)
        configuration.mediaRole = nil
        let engine = try SoundEngine(configuration: configuration)
        defer { engine.shutdown() }
        let late = Mutex<[Int]>([])
        engine.setEventHandler { event in
            if case .music(.transitioned(_, _, _, _, _, _, let frames, _)) = event { late.withLock { $0.append(frames) } }
        }
        let first = MusicTrack(name: "first", stems: (1...4).map { MusicTrack.Stem(name: "stem \($0)", path: path) },
                               tempo: MusicTempo(bpm: 480, beatsPerBar: 1))
        var second = first
        second.name = "second"
        try engine.playMusic(first)
        Thread.sleep(forTimeInterval: 0.3)
        for index in 0..<20 {
            try engine.transitionMusic(to: index % 2 == 0 ? second : first, quantize: .bar)
            let deadline = ContinuousClock.now + .seconds(3)
            while late.withLock({ $0.count }) <= index {
                guard ContinuousClock.now < deadline else { throw BenchError("transition \(index + 1) did not happen within 3 s") }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        return late.withLock { $0 }.map(String.init).joined(separator: " ")
    }

    /// A transition on the bar in an offline render: the output frame its track is first heard
    /// on, against the bar's frame (the old track cancels itself: a stem and its negated copy).
    private static func transitionRow() throws -> BenchRow {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-adaptive-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rate = BenchAssets.outputSampleRate
        let tone = (0..<(4 * rate)).map { Float(0.3 * sin(Double($0) * 0.043)) }
        let format = AudioFormat(sampleRate: rate, channelCount: 1)
        for (name, samples) in [("tone", tone), ("negated", tone.map { -$0 }), ("steady", [Float](repeating: 0.25, count: 4 * rate))] {
            try WAVFileWriter.write(samples: samples, format: format, sampleType: .float32, to: folder + "/\(name).wav")
        }
        let engine = try SceneRunner.offlineEngine { $0.runsDriverThread = false }
        defer { engine.shutdown() }
        try engine.playMusic(MusicTrack(name: "twins", stems: [.init(name: "tone", path: folder + "/tone.wav"),
                                                                .init(name: "negated", path: folder + "/negated.wav")],
                                        tempo: MusicTempo(bpm: 120)))
        let before = 30_011
        _ = try engine.render(frameCount: before)
        try engine.transitionMusic(to: MusicTrack(name: "steady", stems: [.init(name: "all", path: folder + "/steady.wav")],
                                                  tempo: MusicTempo(bpm: 120)), quantize: .bar)
        let rendered = try engine.render(frameCount: 2 * rate)
        let bar = 2 * rate
        let heard = (rendered.firstIndex { $0 != 0 } ?? rendered.count) / 2 + before
        return BenchRow(scenario: "23. Adaptive music", measure: "a transition on the bar, offline: the new track's first frame heard, less the bar's frame",
                        unit: "frames", engine: Double(heard - bar), goal: "0", isGoalMet: heard == bar)
    }
}
