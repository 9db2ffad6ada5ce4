import BenchBaseline
import Foundation
import Interlude

/// The recorder of scenarios 10 and 15 (Sources/BenchBaseline/click_baseline.c) on the private
/// sink's monitor: started and given time to settle before anything plays, then stopped for its
/// frames, each failure naming the scenario.
struct MonitorRecorder {
    private let recorder: OpaquePointer
    private let scenario: String

    /// Connects to `spk.monitor`, records up to `maxSeconds`, and waits 0.3 s for the stream to
    /// settle before anything plays.
    init(scenario: String, sampleRate: Int, maxSeconds: Double) throws {
        guard let recorder = bb_recorder_start("spk.monitor", Int32(sampleRate), maxSeconds) else {
            throw InterludeError(.deviceUnavailable, "\(scenario): the recorder could not connect to spk.monitor")
        }
        self.recorder = recorder
        self.scenario = scenario
        Thread.sleep(forTimeInterval: 0.3)
    }

    /// Stops the recorder and hands `body` the recorded frames and frame 0's CLOCK_MONOTONIC time.
    func finish<Result>(_ body: (UnsafeBufferPointer<Float>, Double) throws -> Result) throws -> Result {
        var frameCount = 0
        var firstFrameSeconds = 0.0
        guard let frames = bb_recorder_stop(recorder, &frameCount, &firstFrameSeconds) else {
            throw InterludeError(.deviceUnavailable, "\(scenario): the recorder recorded nothing")
        }
        defer { free(frames) }
        return try body(UnsafeBufferPointer(start: frames, count: frameCount), firstFrameSeconds)
    }
}
