import Foundation
import Testing

/// Every example runs headless as a process, exits 0, and its output shows its concept. The
/// examples open no device in this process, so these suites need not nest in ``EngineSuites``.
@Suite struct ExampleSmokeTests {
    private func run(_ example: String) throws -> ProductProcess.Run {
        let run = try ProductProcess.run(example, ["--offline"], limitSeconds: 60)
        #expect(run.status == 0, "\(example) exited \(run.status): \(run.standardError)")
        #expect(!run.wasKilled)
        return run
    }

    /// The numbers after `label` on each line of `text` that has it.
    private func values(after label: String, in text: String) -> [Double] {
        text.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: label) else { return nil }
            return Double(line[range.upperBound...].prefix { "0123456789.-".contains($0) })
        }
    }

    @Test func positionalMovesTheFireFromTheRightEarToTheLeft() throws {
        let output = try run("Positional").standardOutput
        let left = values(after: "left RMS ", in: output), right = values(after: "right RMS ", in: output)
        #expect(left.count == 9 && right.count == 9)
        #expect(right[0] > 4 * max(left[0], 1e-4))
        #expect(left[8] > 4 * max(right[8], 1e-4))
        #expect(output.contains("renders/positional.wav"))
    }

    @Test func streamingCountsExactFramesAndCrossfades() throws {
        let output = try run("Streaming").standardOutput
        let played = values(after: "played ", in: output)
        // 44.1 kHz through OpenAL Soft's fixed-point resampler: 44097.7 frames a second.
        #expect(played == [44_097, 88_195, 132_292])
        #expect(output.contains("crossfading to the wind"))
    }

    @Test func interruptionsResumeOnTheFrameTheyStopped() throws {
        let output = try run("Interruptions").standardOutput
        #expect(output.contains("event: began(reason: call, source: game)"))
        #expect(values(after: "loudest sample is ", in: output) == [0])
        let stopped = values(after: "playing at frame ", in: output), resumed = values(after: "resumed at frame ", in: output)
        #expect(stopped.count == 1 && stopped == resumed)
    }

    @Test func theShowcaseRendersSilenceExactlyDuringTheInterruption() throws {
        let run = try run("Showcase")
        #expect(run.standardOutput.contains("interruption began (call): state saved, output stopped, context NULL"))
        #expect(run.standardOutput.contains("ended: context restored, soundtrack resumed at 0:04.000"))
        let wav = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("renders/showcase.wav"))
        let samples = wav.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        func peak(_ seconds: ClosedRange<Double>) -> Int16 {
            let frames = Int(seconds.lowerBound * 48_000)..<Int(seconds.upperBound * 48_000)
            return frames.map { max(abs(samples[2 * $0]), abs(samples[2 * $0 + 1])) }.max() ?? 0
        }
        #expect(peak(4.0...5.99) == 0)      // the call
        #expect(peak(8.0...8.99) == 0)      // the device loss
        #expect(peak(3.0...3.99) > 1_000)   // loud before
        #expect(peak(6.1...7.9) > 1_000)    // and after
        #expect(peak(9.1...11.9) > 1_000)   // and after the rebuild
    }
}
