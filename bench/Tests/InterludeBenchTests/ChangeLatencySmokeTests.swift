import BenchKit
import Foundation
import Interlude
import Testing

extension BenchSuites {
    /// Scenario 22 at its smallest, so its child cannot rot: each timing's child sees the mixer,
    /// makes its changes and hears each. Checks the shape of what it reports, never how soon.
    @Suite struct ChangeLatencySmokeTests {
        @Test(arguments: UpdateTiming.allCases)
        func theChildHearsItsChanges(timing: UpdateTiming) throws {
            let figures = try ChangeLatency.measure(executable: try BenchSmokeTests.benchExecutable(), timing: timing, changes: 5)
            #expect(figures.changes == 5)
            #expect(figures.inNextMix + figures.inSecondMix + figures.later == 5)
            // The null backend's period: 1,024 or 2,048 frames at 44.1 kHz.
            #expect(figures.periodMilliseconds > 10 && figures.periodMilliseconds < 100, "\(figures.periodMilliseconds) ms")
            #expect(figures.meanMilliseconds >= 0)
            #expect(ChangeLatency.rows([(timing, figures)]).count == 2)
        }
    }
}
