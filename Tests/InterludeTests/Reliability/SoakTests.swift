import Testing
import SoakScenario

extension EngineSuites {
    /// The short soak that `make test` runs: ten minutes of game time of the busy scene that
    /// `make soak` renders for two hours (see SoakRun), with the same exact checks.
    @Suite struct SoakTests {
        @Test func tenMinutesOfABusySceneStayExactAndBounded() throws {
            var settings = SoakRun.Settings(gameSeconds: 600)
            // The 10-minute loss would fall on the very end; move it inside the run.
            settings.deviceLossPeriodSeconds = 270
            let report = try SoakRun(settings: settings).run()
            print(report)
            #expect(report.interruptionCount >= 4)
            #expect(report.deviceLossCount == 2)
            let last = try #require(report.lastPositionCheck)
            #expect(last.engine == last.expected, "soundtrack position after the last resume")
            #expect(report.positionMismatchCount == 0, "\(report.positionChecks)")
            #expect(report.silentWindowsWhileActive == 0)
            #expect(report.soundingWindowsWhileStopped == 0)
            #expect(report.statisticsAtEnd?.internalErrorCount == 0)
            #expect(report.statisticsAtEnd?.voiceCount == 200)
            #expect(report.failures.isEmpty, "\(report.failures)")
        }
    }
}
