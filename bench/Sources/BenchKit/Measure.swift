#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PeerLoop

/// CPU time and wall time, medians.
public enum Measure {
    /// User + system CPU time of the whole process, in seconds (every thread OpenAL starts counts).
    public static func processCPUSeconds() -> Double { PeerLoop.processCPUSeconds() }

    /// CPU time of the calling thread alone, in seconds.
    public static func threadCPUSeconds() -> Double { PeerLoop.threadCPUSeconds() }

    /// Peak resident memory of this process, in KiB: VmHWM from /proc/self/status. (ru_maxrss
    /// is no good in a child: it starts from the parent's resident size at the fork.)
    public static func peakResidentKiB() -> Int { ResidentMemory.peakKiB() }

    /// Resident memory of this process now, in KiB (VmRSS), or 0 if /proc is unreadable.
    public static func residentKiB() -> Int { ResidentMemory.currentKiB() }

    /// Monotonic wall time in seconds.
    public static func wallSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// CPU seconds `body` takes.
    public static func cpuSeconds(_ body: () throws -> Void) rethrows -> Double {
        let start = processCPUSeconds()
        try body()
        return processCPUSeconds() - start
    }

    /// Wall seconds `body` takes.
    public static func wallSeconds(_ body: () throws -> Void) rethrows -> Double {
        let start = wallSeconds()
        try body()
        return wallSeconds() - start
    }

    /// The median (the mean of the middle two for an even count).
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Runs `engine` and `baseline` alternately, `rounds` times each (the engine first on even
    /// rounds, the baseline first on odd ones), and returns each side's measurements.
    public static func alternate(rounds: Int, engine: () throws -> Double, baseline: () throws -> Double) rethrows
        -> (engine: [Double], baseline: [Double]) {
        var engineValues: [Double] = []
        var baselineValues: [Double] = []
        for round in 0..<rounds {
            if round % 2 == 0 {
                engineValues.append(try engine())
                baselineValues.append(try baseline())
            } else {
                baselineValues.append(try baseline())
                engineValues.append(try engine())
            }
        }
        return (engineValues, baselineValues)
    }
}
