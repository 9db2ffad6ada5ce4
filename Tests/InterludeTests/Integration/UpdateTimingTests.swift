import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// The driver's pace on a real device (the null backend, in the PulseProbe child): with
    /// `.beforeEachMix` it wakes once per OpenAL Soft mix (21 or 43 a second, at 2,048 or 1,024
    /// frames at 44.1 kHz, by the period the device was given), with `.everyUpdateInterval`
    /// every 10 ms. Read from outside, as the driver thread's
    /// voluntary context switches in /proc: each wait it ends is one.
    @Suite struct UpdateTimingTests {
        /// The `IL driver` thread's voluntary context switches in process `pid`.
        static func driverSwitches(pid: pid_t) -> Int? {
            let folder = "/proc/\(pid)/task"
            for task in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                guard let name = try? String(contentsOfFile: "\(folder)/\(task)/comm", encoding: .utf8),
                      name.trimmingCharacters(in: .whitespacesAndNewlines) == DriverThread.threadName,
                      let status = try? String(contentsOfFile: "\(folder)/\(task)/status", encoding: .utf8) else { continue }
                let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
                return line.flatMap { Int($0.split(separator: "\t").last ?? "") }
            }
            return nil
        }

        /// The driver's wake-ups a second over 2 s while a looping tone plays, and the mixes a
        /// second of the device (1000 / its period).
        static func wakeUpsPerSecond(timing: UpdateTiming) throws -> (wakeUps: Double, mixes: Double) {
            var environment = ProcessInfo.processInfo.environment
            environment["ALSOFT_DRIVERS"] = "null"
            let probe = try PulseProbeProcess(environment: environment,
                                              arguments: ["--seconds", "60", "--tick-ms", "500", "--update-timing", timing.rawValue])
            defer { probe.kill() }
            let opened = try #require(probe.waitFor("opened"), "\(probe.stderrText)")
            let periodMilliseconds = try #require(opened.line.double("outputPeriodMs"))
            probe.send("tone")
            _ = try #require(probe.waitFor("toneStarted", from: opened.index))
            // The output has started and the pace has been learnt well before this.
            Thread.sleep(forTimeInterval: 1)
            let before = try #require(Self.driverSwitches(pid: probe.pid), "no \(DriverThread.threadName) thread")
            let start = ContinuousClock.now
            Thread.sleep(forTimeInterval: 2)
            let after = try #require(Self.driverSwitches(pid: probe.pid))
            let elapsed = (ContinuousClock.now - start).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
            #expect(probe.closeInputAndWait() != nil)
            return (Double(after - before) / seconds, 1000 / periodMilliseconds)
        }

        @Test("before each mix, the driver wakes once per mix; every update interval, 100 times a second")
        func theDriverWakesOncePerMix() throws {
            let perMix = try Self.wakeUpsPerSecond(timing: .beforeEachMix)
            let perInterval = try Self.wakeUpsPerSecond(timing: .everyUpdateInterval)
            // A busy machine wakes a thread late, never early: fewer wake-ups, never more.
            #expect(perMix.wakeUps > 0.7 * perMix.mixes && perMix.wakeUps < 1.1 * perMix.mixes,
                    "before each mix: \(perMix.wakeUps) wake-ups a second, \(perMix.mixes) mixes")
            #expect(perInterval.wakeUps > 60 && perInterval.wakeUps < 110, "every update interval: \(perInterval.wakeUps) wake-ups a second")
        }
    }
}
