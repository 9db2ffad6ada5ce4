#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// Configuration.outputLatency reaches OpenAL Soft 1.19 through a configuration file read
    /// once per process, so each case runs the engine in its own PulseProbe child, on the null
    /// backend (which takes its period from the same configuration).
    @Suite struct OutputLatencyTests {
        /// Opens an engine in a child with `arguments`, and `userConf` as the file ALSOFT_CONF
        /// names, if any; returns its `opened` line.
        static func openedLine(_ arguments: [String], userConf: String? = nil) throws -> ProbeLine {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-latency-\(getpid())-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            var environment = ProcessInfo.processInfo.environment
            environment["ALSOFT_DRIVERS"] = "null"
            // A private HOME and XDG folders: no alsoft.conf of this machine's user gets in the way.
            environment["HOME"] = folder.path
            environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
            environment["XDG_CONFIG_DIRS"] = folder.appendingPathComponent("config-dirs").path
            environment.removeValue(forKey: "ALSOFT_CONF")
            if let userConf {
                let path = folder.appendingPathComponent("user.conf")
                try userConf.write(to: path, atomically: true, encoding: .utf8)
                environment["ALSOFT_CONF"] = path.path
            }
            let probe = try PulseProbeProcess(environment: environment, arguments: arguments + ["--seconds", "60"])
            defer { _ = probe.closeInputAndWait() }
            return try #require(probe.waitFor("opened"), "\(probe.stderrText)").line
        }

        /// The period statistics report for `frames` at `sampleRate`: ALC_REFRESH is a whole
        /// number of periods per second (rounded down), so the period reads a little long.
        static func reportedPeriodMilliseconds(frames: Int, sampleRate: Int) -> Double {
            1000 / Double(sampleRate / frames)
        }

        @Test(arguments: OutputLatency.allCases)
        func eachSettingGivesItsPeriod(_ latency: OutputLatency) throws {
            let opened = try Self.openedLine(["--latency", latency.rawValue])
            let period = try #require(opened.double("outputPeriodMs"))
            let sampleRate = try #require(opened.int("sampleRate"))
            #expect(abs(period - Self.reportedPeriodMilliseconds(frames: latency.periodFrames, sampleRate: sampleRate)) < 0.01,
                    "\(latency): period \(period) ms at \(sampleRate) Hz")
            // The generated file is gone from the environment once OpenAL has read it.
            #expect(opened.string("alsoftConf") == nil)
        }

        @Test func aUsersOwnPeriodInAlsoftConfWins() throws {
            let opened = try Self.openedLine(["--latency", "low"],
                                             userConf: "[general]\nperiod_size = 2048\n")
            let period = try #require(opened.double("outputPeriodMs"))
            let sampleRate = try #require(opened.int("sampleRate"))
            #expect(abs(period - Self.reportedPeriodMilliseconds(frames: 2048, sampleRate: sampleRate)) < 0.01, "period \(period) ms")
            // The user's ALSOFT_CONF is theirs again.
            #expect(opened.string("alsoftConf")?.hasSuffix("user.conf") == true)
        }

        @Test func aUsersAlsoftConfStillAppliesBesideTheLatency() throws {
            // A key of the user's file that Interlude does not set: the null backend's device
            // runs at the rate it names, while the period is Interlude's.
            let opened = try Self.openedLine(["--latency", "low"],
                                             userConf: "[general]\nfrequency = 32000\n")
            #expect(opened.int("sampleRate") == 32_000)
            let period = try #require(opened.double("outputPeriodMs"))
            #expect(abs(period - Self.reportedPeriodMilliseconds(frames: OutputLatency.low.periodFrames, sampleRate: 32_000)) < 0.01, "period \(period) ms")
        }

        /// With no latency set, the null backend runs at the release's own defaults (its source's
        /// alc.cpp and alsoftrc.sample, both measured here): OpenAL Soft 1.19 at 44100 Hz with
        /// periods of 1024 frames (23.3 ms as ALC_REFRESH reports it); 1.24 at 48000 Hz with
        /// periods of 960 frames, 1/50 of the rate (20.0 ms). Both keep 3 periods. A game that
        /// sets no latency gets what its OpenAL Soft chose, and Interlude writes no period.
        @Test func noSettingLeavesOpenALSoftsDefault() throws {
            let opened = try Self.openedLine(["--latency", "none"])
            let period = try #require(opened.double("outputPeriodMs"))
            let sampleRate = try #require(opened.int("sampleRate"))
            let release = try #require(opened.string("openALRelease").flatMap { ALRelease(dotted: $0) }, "the probe named no OpenAL Soft release")
            let defaults = release >= ALRelease(major: 1, minor: 24, patch: 0) ? (sampleRate: 48_000, periodFrames: 960) : (sampleRate: 44_100, periodFrames: 1024)
            #expect(sampleRate == defaults.sampleRate, "\(release) runs the null backend at \(sampleRate) Hz")
            #expect(abs(period - Self.reportedPeriodMilliseconds(frames: defaults.periodFrames, sampleRate: sampleRate)) < 0.01,
                    "\(release): period \(period) ms at \(sampleRate) Hz, not \(defaults.periodFrames) frames")
        }
    }
}
