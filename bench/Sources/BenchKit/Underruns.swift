#if canImport(Glibc)
import Glibc
#endif
import BenchBaseline
import Foundation
import Interlude
import Synchronization

/// Scenario 11: does a latency setting survive a loaded machine? A child plays a looping 1 kHz
/// tone through the engine to a private PulseAudio null sink while one thread keeps a core busy,
/// and the recorder on the monitor counts the gaps in the tone: every run of at least 1 ms of
/// near silence inside it is an underrun.
public enum Underruns {
    static let sampleRate = 48_000
    /// Below this a frame of the 0.5 amplitude tone counts as silent; the tone crosses zero in
    /// well under one frame.
    static let silenceLevel: Float = 0.02
    static let shortestGapFrames = 48

    /// What the child heard.
    public struct Figures: Sendable {
        /// Gaps in the tone, and their total length in milliseconds.
        public var gapCount: Int
        public var gapMilliseconds: Double
        /// Seconds of tone checked.
        public var checkedSeconds: Double

        /// The figures as the child prints them: three numbers on one line.
        public var line: String { "\(gapCount) \(gapMilliseconds) \(checkedSeconds)" }

        /// Parses ``line``.
        public init?(line: String) {
            let numbers = line.split(separator: " ")
            guard numbers.count == 3, let count = Int(numbers[0]), let milliseconds = Double(numbers[1]),
                  let seconds = Double(numbers[2]) else { return nil }
            self.init(gapCount: count, gapMilliseconds: milliseconds, checkedSeconds: seconds)
        }

        init(gapCount: Int, gapMilliseconds: Double, checkedSeconds: Double) {
            self.gapCount = gapCount
            self.gapMilliseconds = gapMilliseconds
            self.checkedSeconds = checkedSeconds
        }
    }

    /// The child: records the monitor, plays the tone at `latency` for `seconds` with one
    /// thread spinning, and counts the gaps.
    public static func measureInChild(latency: OutputLatency, seconds: Double) throws -> Figures {
        let recorder = try MonitorRecorder(scenario: "Underruns", sampleRate: sampleRate, maxSeconds: seconds + 10)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-tone-\(getpid()).wav")
        // One second of 1 kHz: a whole number of cycles, so the loop is seamless.
        let tone = (0..<sampleRate).map { Int16(16_384 * sin(2 * Double.pi * 1_000 * Double($0) / Double(sampleRate))) }
        try ClickLatency.wavFile(tone).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        var configuration = SoundEngine.Configuration(output: .systemDefault)
        configuration.outputLatency = latency
        let engine = try SoundEngine(configuration: configuration)
        let sound = try engine.loadSound(path: path.path)
        let voice = try engine.play(sound, parameters: VoiceParameters(position: nil, isLooping: true))
        let spinning = Atomic<Bool>(true)
        let spinner = Thread {
            var counter = 0
            while spinning.load(ordering: .relaxed) { counter &+= 1 }
        }
        spinner.start()
        Thread.sleep(forTimeInterval: seconds)
        spinning.store(false, ordering: .relaxed)
        try engine.stop(voice)
        engine.shutdown()
        Thread.sleep(forTimeInterval: 0.5)
        return try recorder.finish { frames, _ in gaps(in: frames) }
    }

    /// Gaps inside the tone: from 0.2 s after its first loud frame to 0.2 s before its last.
    static func gaps(in frames: UnsafeBufferPointer<Float>) -> Figures {
        guard let first = frames.firstIndex(where: { abs($0) > 0.25 }),
              let last = frames.lastIndex(where: { abs($0) > 0.25 }), last - first > sampleRate / 2 else {
            return Figures(gapCount: 0, gapMilliseconds: 0, checkedSeconds: 0)
        }
        let range = (first + sampleRate / 5)..<(last - sampleRate / 5)
        var gapCount = 0, gapFrames = 0, silentRun = 0
        for index in range {
            if abs(frames[index]) < silenceLevel {
                silentRun += 1
            } else {
                if silentRun >= shortestGapFrames {
                    gapCount += 1
                    gapFrames += silentRun
                }
                silentRun = 0
            }
        }
        return Figures(gapCount: gapCount, gapMilliseconds: Double(gapFrames) * 1000 / Double(sampleRate),
                       checkedSeconds: Double(range.count) / Double(sampleRate))
    }

    /// The parent: one child at `latency` against a fresh private server.
    public static func run(executable: URL, latency: OutputLatency, seconds: Double) throws -> Figures {
        let server = try BenchPulseServer(label: "underruns")
        defer { server.stop() }
        let text = try server.runClient(executable, arguments: ["--underrun-child", latency.rawValue, "\(seconds)"],
                                        scenario: "Underruns")
        guard let figures = text.split(separator: "\n").last.flatMap({ Figures(line: String($0)) }) else {
            throw InterludeError(.deviceUnavailable, "Underruns: the child printed no figures: \(text)")
        }
        return figures
    }
}

extension Bench {
    /// The rows of scenario 15, per latency setting: gaps heard in the tone.
    public func underrunRows(_ figuresByLatency: [(OutputLatency, Underruns.Figures)]) -> [BenchRow] {
        figuresByLatency.flatMap { latency, figures in
            let scenario = "15. Underruns (\(latency.rawValue), \(String(format: "%.0f", figures.checkedSeconds)) s of tone, one core kept busy)"
            return [
                BenchRow(scenario: scenario, measure: "gaps of 1 ms or more in the tone", unit: "", engine: Double(figures.gapCount)),
                BenchRow(scenario: scenario, measure: "silence in those gaps", unit: "ms", engine: figures.gapMilliseconds),
            ]
        }
    }
}
