@testable import Interlude
import Testing

extension SoundEngine {
    /// Mixes `frameCount` frames from the loopback device with no engine update in between: what
    /// a stalled update loop sounds like (the starvation tests). Stereo output.
    func renderWithoutUpdates(frameCount: Int) -> [Float] {
        var samples = [Float](repeating: 0, count: frameCount * 2)
        readCore { core in
            samples.withUnsafeMutableBufferPointer { core.device.render(into: $0.baseAddress!, frameCount: frameCount) }
        }
        return samples
    }

    /// Begins an interruption from a non-throwing closure (a worker thread), recording an
    /// unexpected error as a test issue.
    func beginInterruptionRecordingErrors(reason: InterruptionReason = .other) {
        do {
            try beginInterruption(reason: reason)
        } catch {
            Issue.record(error)
        }
    }
}
