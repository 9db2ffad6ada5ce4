import Foundation
import Testing
@testable import Interlude

/// Sequences the model-based test found, kept as they were shrunk, so the defect they showed
/// stays fixed whatever the random campaign draws.
extension EngineSuites {
    @Suite struct ModelRegressionTests {
        static let oneShot = ModelStep.play(sound: 0, isLooping: false, group: 0, gain: 2)

        /// A one-shot (400 frames) that played out since the last update used to be held and then
        /// played again from its start when the session resumed, the device was rebuilt or the
        /// output switched, or when the game paused and resumed it: 400 frames of a sound the
        /// player had already heard.
        @Test("a one-shot that played out before a hold or a pause is not played again", arguments: [
            [oneShot, .render(frames: 400), .begin(source: 0, reason: 0), .end(source: 0, shouldResume: true), .render(frames: 64)],
            [oneShot, .render(frames: 400), .deviceLost, .deviceRestored, .render(frames: 64)],
            [oneShot, .render(frames: 400), .switchDevice, .render(frames: 64)],
            [oneShot, .render(frames: 414), .pause(voice: 0), .resume(voice: 0), .render(frames: 64)],
        ])
        func playedOutOneShotStaysOver(steps: [ModelStep]) throws {
            let folder = try SessionAssets.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let harness = ModelHarness(assets: try ModelHarness.Assets.write(in: folder), policy: .alwaysResume)
            let difference = try harness.run(steps)
            #expect(difference == nil, "\(difference ?? "")")
        }
    }
}
