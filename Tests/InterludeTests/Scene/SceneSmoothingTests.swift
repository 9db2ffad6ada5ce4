import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene

/// Rule 1 of the scene contract: an event takes effect at its frame, and OpenAL Soft's
/// smoothing of a change of gain or position may blur it by at most 5 ms.
extension EngineSuites {
    @Suite struct SceneSmoothingTests {
        /// A constant signal, so each stretch between events is one value and the smoothing is
        /// where the output is between two.
        @Test("A set, listener or group change has settled 5 ms after its frame, at an update boundary and between two")
        func changesSettleWithinFiveMilliseconds() throws {
            let folder = try ScratchFolder(prefix: "scene-smoothing")
            let path = folder.path("constant.wav")
            try WAVFileWriter.write(samples: Array(repeating: 0.5, count: 48_000), format: AudioFormat(sampleRate: 48_000, channelCount: 1),
                                    sampleType: .float32, to: path)
            // 0.5 s and 0.9 s fall on update boundaries (every 480 frames); 0.7031 s does not.
            let render = try SessionSceneRender(json: """
                { "duration": 1.2, "sounds": { "constant": "\(path)" }, "events": [
                  { "at": 0.1, "do": "play", "id": "a", "sound": "constant", "loop": true },
                  { "at": 0.5, "do": "set", "id": "a", "gain": 0.25 },
                  { "at": 0.7031, "do": "set", "id": "a", "gain": 1.0 },
                  { "at": 0.8, "do": "listener", "gain": 0.5 },
                  { "at": 0.9, "do": "group", "name": "sfx", "gain": 0.5 },
                  { "at": 1.0, "do": "set", "id": "a", "gain": 0.5 } ] }
                """)
            let f = render.frame
            func left(_ frame: Int) -> Float { render.samples[2 * frame] }
            let changes: [(seconds: Double, ratio: Float)] = [(0.5, 0.25), (0.7031, 4), (0.8, 0.5), (0.9, 0.5), (1.0, 0.5)]
            let ends = changes.dropFirst().map(\.seconds) + [1.2]
            let fiveMilliseconds = 240
            for ((seconds, ratio), end) in zip(changes, ends) {
                let frame = f(seconds)
                let before = left(frame - 1)
                let settled = left(frame + fiveMilliseconds)
                #expect(abs(settled / before - ratio) < 1e-4, "at \(seconds) s: \(before) -> \(settled)")
                // From 5 ms after the event to the next, the output is the new value alone.
                let steady = (frame + fiveMilliseconds..<f(end)).allSatisfy { abs(left($0) - settled) < 1e-6 }
                #expect(steady, "at \(seconds) s the change was still moving 5 ms later")
                #expect((frame - 200..<frame).allSatisfy { left($0) == before }, "at \(seconds) s the change began before its frame")
            }
        }
    }
}
