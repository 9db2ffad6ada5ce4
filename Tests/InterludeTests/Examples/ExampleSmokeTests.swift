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
        // 44.1 kHz through OpenAL Soft's fixed-point resampler: 44097.7 frames a second on 1.19
        // (12-bit steps), 44099.9 from 1.23 (16-bit): [44097, 88195, 132292] or [44099, 88199, 132299].
        let expected = [1, 2, 3].map { OpenALStack.framesPlayed(sourceRate: 44_100, outputRate: 48_000, outputFrames: $0 * 48_000) }
        #expect(played == expected.map(Double.init), "\(OpenALStack.name)")
        #expect(output.contains("crossfading to the wind"))
    }

    @Test func interruptionsResumeOnTheFrameTheyStopped() throws {
        let output = try run("Interruptions").standardOutput
        #expect(output.contains("event: interruption began: call from game"), "\(output)")
        #expect(values(after: "loudest sample is ", in: output) == [0])
        let stopped = values(after: "playing at frame ", in: output), resumed = values(after: "resumed at frame ", in: output)
        #expect(stopped.count == 1 && stopped == resumed)
    }

    /// The timeline lines of the Showcase's output: `[ t s] text`.
    private func timeline(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("[") }.map(String.init)
    }

    /// A timeline line without what depends on the moment it ran: its time stamp, and the
    /// soundtrack clock, which a live run reads off a device that kept playing.
    private func withoutTimes(_ line: String) -> String {
        line.replacing(#/^\[[ 0-9.]+ s\] /#, with: "").replacing(/\d+:\d\d\.\d\d\d/, with: "m:ss.sss")
    }

    @Test("Headless, the showcase prints the session's timeline, each interruption with its source, as it prints it live")
    func theShowcasePrintsTheSameTimelineHeadless() throws {
        // No backend OpenAL Soft could open: the headless path, as on a machine without a sound card.
        let headless = try ProductProcess.run("Showcase", [], environment: ["ALSOFT_DRIVERS": "none"], limitSeconds: 60)
        #expect(headless.status == 0, "\(headless.standardError)")
        #expect(headless.standardOutput.contains("Showcase: no sound device opened (a headless machine), so the same timeline is rendered offline."))
        let rendered = timeline(headless.standardOutput)
        #expect(rendered == Self.showcaseTimeline, "\(rendered.joined(separator: "\n"))")
        // Live, in real time, on OpenAL Soft's null backend (which the Showcase plays on only when
        // told to: a headless machine gets the render): the same lines in the same order.
        let live = try ProductProcess.run("Showcase", ["--live"], environment: ["ALSOFT_DRIVERS": "null"], limitSeconds: 60)
        #expect(live.status == 0, "\(live.standardError)")
        #expect(live.standardOutput.contains("Showcase: playing live on No Output"))
        #expect(timeline(live.standardOutput).map(withoutTimes) == rendered.map(withoutTimes), "\(live.standardOutput)")
    }

    /// What the showcase's scene does to the session, as the Showcase prints it.
    static let showcaseTimeline = [
        "[ 2.20 s] cue bell drew chime at gain 0.30, pitch 1.17",
        "[ 2.60 s] cue bell drew tone at gain 0.39, pitch 0.94",
        "[ 4.00 s] interruption began (call, by game): state saved, output stopped, context NULL",
        "[ 4.00 s]   soundtrack held at 0:04.000",
        "[ 4.50 s]   music.pause during the interruption: tracked, applied at the end",
        "[ 5.00 s]   music.resume during the interruption: tracked, applied at the end",
        "[ 6.00 s] ended: context restored, soundtrack resumed at 0:04.000",
        "[ 6.00 s]   interruption over (shouldResume false): music resumed, 3 voices resumed",
        "[ 8.00 s] interruption began (deviceLost, by device): state saved, output stopped, context NULL",
        "[ 8.00 s]   soundtrack held at 0:06.000",
        "[ 8.00 s] device lost: every AL object torn down, positions kept by the engine",
        "[ 9.00 s] ended: context restored, soundtrack resumed at 0:06.000",
        "[ 9.00 s] device rebuilt: new device and context, sounds re-uploaded, voices and streams re-created",
        "[ 9.00 s]   interruption over (shouldResume true): music resumed, 3 voices resumed",
        "[ 9.50 s] mix snapshot muffled fades in over 0.3 s: music and effects muffled",
        "[10.50 s] mix snapshot muffled fades out over 0.3 s",
    ]

    @Test func theShowcaseRendersSilenceExactlyDuringTheInterruption() throws {
        let run = try run("Showcase")
        #expect(run.standardOutput.contains("interruption began (call, by game): state saved, output stopped, context NULL"))
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
