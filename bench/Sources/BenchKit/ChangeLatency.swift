import Foundation
import Interlude

/// Scenario 22: when a change made by the game reaches OpenAL Soft's mixer, with each
/// ``UpdateTiming``. A child on the null backend plays a looping tone and reads its source's
/// frame (`positionInFrames`, from AL_SAMPLE_OFFSET) every 0.2 ms. The frame moves only when the
/// mixer mixes, so each move is a mix, timed to 0.2 ms. At a drawn moment of a mix period the
/// child sets the voice's pitch (1 to 1.5, and back), then counts the mixes until one advances
/// the frame at the new pitch: 1 is the next mix, which the issue asks for.
public enum ChangeLatency {
    /// What one child measured.
    public struct Figures: Sendable, Equatable {
        /// Changes made.
        public var changes: Int
        /// Changes heard in the first mix after them.
        public var inNextMix: Int
        /// Changes heard in the second mix after them.
        public var inSecondMix: Int
        /// Changes heard later still, or never seen.
        public var later: Int
        /// Mean milliseconds from a change to the mix that played it (of those heard).
        public var meanMilliseconds: Double
        /// The mixer's period as the frame's moves showed it, in milliseconds.
        public var periodMilliseconds: Double

        /// The figures as the child prints them.
        public var line: String { "\(changes) \(inNextMix) \(inSecondMix) \(later) \(meanMilliseconds) \(periodMilliseconds)" }

        /// Parses ``line``.
        public init?(line: String) {
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            guard numbers.count == 6 else { return nil }
            self.init(changes: Int(numbers[0]), inNextMix: Int(numbers[1]), inSecondMix: Int(numbers[2]), later: Int(numbers[3]),
                      meanMilliseconds: numbers[4], periodMilliseconds: numbers[5])
        }

        init(changes: Int, inNextMix: Int, inSecondMix: Int, later: Int, meanMilliseconds: Double, periodMilliseconds: Double) {
            self.changes = changes
            self.inNextMix = inNextMix
            self.inSecondMix = inSecondMix
            self.later = later
            self.meanMilliseconds = meanMilliseconds
            self.periodMilliseconds = periodMilliseconds
        }
    }

    /// A mix seen: when (wall seconds) and how many frames the tone advanced in it.
    private struct Mix {
        var wallSeconds: Double
        var frames: Int
    }

    /// Watches the tone's frame until the next mix; returns it, or nil after `timeoutSeconds`.
    private final class MixWatch {
        private let engine: SoundEngine
        private let voice: VoiceHandle
        private let lengthInFrames: Int
        private var lastFrame: Int

        init(engine: SoundEngine, voice: VoiceHandle, lengthInFrames: Int) {
            self.engine = engine
            self.voice = voice
            self.lengthInFrames = lengthInFrames
            lastFrame = engine.positionInFrames(of: voice) ?? 0
        }

        func next(timeoutSeconds: Double = 1) -> Mix? {
            let deadline = Measure.wallSeconds() + timeoutSeconds
            while Measure.wallSeconds() < deadline {
                let frame = engine.positionInFrames(of: voice) ?? lastFrame
                if frame != lastFrame {
                    let frames = (frame - lastFrame + lengthInFrames) % lengthInFrames
                    lastFrame = frame
                    return Mix(wallSeconds: Measure.wallSeconds(), frames: frames)
                }
                usleep(200)
            }
            return nil
        }
    }

    /// The child: `changes` pitch changes against the null backend's mixer, with `timing`.
    public static func measureInChild(timing: UpdateTiming, changes: Int) throws -> Figures {
        var configuration = SoundEngine.Configuration(output: .null)
        configuration.updateTiming = timing
        let engine = try SoundEngine(configuration: configuration)
        defer { engine.shutdown() }
        let rate = 44_100, lengthInFrames = 10 * 44_100
        let samples = (0..<lengthInFrames).map { Float(sin(Double($0) * 2 * .pi * 441 / Double(rate))) * 0.1 }
        let tone = try engine.makeSound(name: "tone", format: AudioFormat(sampleRate: rate, channelCount: 1), samples: samples)
        let voice = try engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true))
        // The output starts and the driver learns the mixer's pace.
        Thread.sleep(forTimeInterval: 1)
        let watch = MixWatch(engine: engine, voice: voice, lengthInFrames: lengthInFrames)
        guard var previous = watch.next() else { throw BenchError("change latency: the tone's frame never moved") }
        var periods: [Double] = []
        for _ in 0..<8 {
            guard let mix = watch.next() else { throw BenchError("change latency: the mixer stopped") }
            periods.append(mix.wallSeconds - previous.wallSeconds)
            previous = mix
        }
        let period = Measure.median(periods)
        var figures = Figures(changes: 0, inNextMix: 0, inSecondMix: 0, later: 0, meanMilliseconds: 0, periodMilliseconds: period * 1000)
        var pitch: Float = 1
        var totalSeconds = 0.0
        var heardCount = 0
        for _ in 0..<changes {
            guard let start = watch.next() else { throw BenchError("change latency: the mixer stopped") }
            // A moment drawn over the period, as a game's frames fall against the mixer's.
            let target = start.wallSeconds + Double.random(in: 0..<0.95) * period
            while Measure.wallSeconds() < target { usleep(50) }
            let before = start.frames
            pitch = pitch == 1 ? 1.5 : 1
            let changedAt = Measure.wallSeconds()
            try engine.setPitch(pitch, of: voice)
            figures.changes += 1
            var count = 0
            var isHeard = false
            while !isHeard, count < 6, let mix = watch.next() {
                count += 1
                // The frames a mix advances at the new pitch, against the old.
                let ratio: Double = pitch == 1 ? 1 / 1.5 : 1.5
                let expected = Double(before) * ratio
                let frames = Double(mix.frames)
                if abs(frames - expected) < abs(frames - Double(before)) {
                    totalSeconds += mix.wallSeconds - changedAt
                    heardCount += 1
                    isHeard = true
                }
            }
            switch (isHeard, count) {
            case (true, 1): figures.inNextMix += 1
            case (true, 2): figures.inSecondMix += 1
            default: figures.later += 1
            }
        }
        figures.meanMilliseconds = totalSeconds / Double(max(1, heardCount)) * 1000
        return figures
    }

    /// Runs `executable --change-latency-child TIMING CHANGES` on the null backend.
    public static func measure(executable: URL, timing: UpdateTiming, changes: Int) throws -> Figures {
        let text = try BenchChild.output(of: executable, arguments: ["--change-latency-child", timing.rawValue, "\(changes)"],
                                         extra: ["ALSOFT_DRIVERS": "null"], name: "ChangeLatency: the child")
        guard let line = text.split(separator: "\n").last.map(String.init), let figures = Figures(line: line) else {
            throw BenchError("ChangeLatency: the child printed \(text)")
        }
        return figures
    }

    /// The rows: each timing's share of changes heard in the next mix (the goal, for the default)
    /// and their mean delay.
    public static func rows(_ measured: [(timing: UpdateTiming, figures: Figures)]) -> [BenchRow] {
        measured.flatMap { timing, figures -> [BenchRow] in
            let share = Double(figures.inNextMix) / Double(max(1, figures.changes)) * 100
            let what = "a voice's pitch set at a drawn moment of the \(String(format: "%.1f", figures.periodMilliseconds)) ms mix period, null backend, UpdateTiming.\(timing.rawValue)"
            let isDefault = timing == SoundEngine.Configuration().updateTiming
            return [
                BenchRow(scenario: "22. Change latency", measure: "\(what): heard in the next mix (\(figures.inSecondMix) in the second, \(figures.later) later, of \(figures.changes))",
                         unit: "%", engine: share, goal: isDefault ? "100% (no later than the next mix)" : nil,
                         isGoalMet: isDefault ? figures.inNextMix == figures.changes : nil),
                BenchRow(scenario: "22. Change latency", measure: "\(what): mean time from the call to the mix that played it",
                         unit: "ms", engine: figures.meanMilliseconds),
            ]
        }
    }
}
