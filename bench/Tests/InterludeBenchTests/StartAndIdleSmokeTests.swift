import Foundation
import BenchKit
import Interlude
import Testing

extension BenchSuites {
    /// Scenario 19 at its smallest, so its children cannot rot: each creation on each output
    /// gives an engine, and the idle child reads its threads. Checks the shape of what it
    /// reports, never how fast anything ran.
    @Suite struct StartAndIdleSmokeTests {
        @Test func startAndIdleChildrenReport() throws {
            guard BenchTestPaths.areInstalled(["pulseaudio", "parecord", "pactl"]) else {
                throw TestFailure("pulseaudio / pulseaudio-utils are not installed (scripts/install-deps.sh installs them)")
            }
            let bench = try Bench(sizes: .quick)
            let rows = try bench.startAndIdle(executable: try BenchSmokeTests.benchExecutable(), idleSeconds: 0.5)
            let blocks = rows.filter { $0.measure.hasSuffix("longest frame block") }
            let readies = rows.filter { $0.measure.hasSuffix("first frame to engine ready") }
            #expect(blocks.count == 4 && readies.count == 4, "\(rows.map(\.measure))")
            for (block, ready) in zip(blocks, readies) {
                let blocked = try #require(block.engine), readyAfter = try #require(ready.engine)
                // The frame loop had its engine, and never spent longer in one frame than in all.
                #expect(readyAfter > 0 && blocked >= 0 && blocked <= readyAfter, "\(block.measure): \(blocked) ms of \(readyAfter) ms")
            }
            let threads = try #require(rows.first { $0.measure.hasSuffix("threads in the process") }?.engine)
            // The measuring thread, the driver, the decode thread and OpenAL's mixer at least.
            #expect(threads >= 4)
            let report = BenchReport(rounds: 1, isQuick: true, rows: rows, notes: [])
            #expect(report.markdown.contains("| 19 | Start-up and idle | await SoundEngine.start(configuration:) on .null"))
        }
    }
}
