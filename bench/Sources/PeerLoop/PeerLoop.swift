#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The game loop of the peer scene (scenario 11), shared by Interlude's player and the Swift
/// floor program: every 10 ms, each emitter's position is computed and then handed to `move`,
/// each `move` timed with CLOCK_MONOTONIC, as bench/peers/peer_scene.h runs the C harnesses.
/// Foundation alone, so the floor program links no audio library.
public enum PeerLoop {
    /// What one run of the loop measured.
    public struct Figures: Sendable {
        /// Nanoseconds of each `move`.
        public var samplesNanoseconds: [Int64]
        /// The process's user + system CPU seconds over the loop.
        public var cpuSeconds: Double
        /// The calling thread's own CPU seconds over the loop.
        public var gameThreadCPUSeconds: Double
        /// Wall seconds the loop ran.
        public var playedSeconds: Double

        /// Writes the samples to `path` as native Int64s and returns the "key value" lines every
        /// player prints (peer_scene.h lists them), this process's resident memory by mapping last.
        public func report(samplesPath: String, startResidentKiB: Int, sampleRate: Int, voicesPlaying: Int,
                           isMusicPlaying: Bool, extras: [String] = []) throws -> String {
            try samplesNanoseconds.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: samplesPath)) }
            return ([
                "cpu_seconds \(cpuSeconds)",
                "game_thread_cpu_seconds \(gameThreadCPUSeconds)",
                "audio_seconds \(playedSeconds)",
                "peak_rss_kib \(ResidentMemory.peakKiB())",
                "start_rss_kib \(startResidentKiB)",
                "position_calls \(samplesNanoseconds.count)",
                "sample_rate \(sampleRate)",
                "voices_playing \(voicesPlaying)",
                "music_playing \(isMusicPlaying ? 1 : 0)",
                "threads \((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0)",
            ] + extras + ResidentMemory.lines(ResidentMemory.kibByMapping())).joined(separator: "\n")
        }
    }

    /// Runs `tickCount` ticks of 10 ms over `emitterCount` emitters: `position(index, tick)`,
    /// then `move(index, position)` timed; after each tick's moves, `afterTick()`.
    public static func run<Position>(tickCount: Int, emitterCount: Int, position: (Int, Int) -> Position,
                                     move: (Int, Position) throws -> Void, afterTick: () -> Void = {}) rethrows -> Figures {
        var samples = [Int64](repeating: 0, count: tickCount * emitterCount)
        var sampleCount = 0
        let cpuStart = processCPUSeconds()
        let threadCPUStart = threadCPUSeconds()
        let start = monotonicNanoseconds()
        for tick in stride(from: 1, through: tickCount, by: 1) {
            sleep(untilNanoseconds: start + Int64(tick) * 10_000_000)
            for index in 0..<emitterCount {
                let target = position(index, tick)
                let before = monotonicNanoseconds()
                try move(index, target)
                samples[sampleCount] = monotonicNanoseconds() - before
                sampleCount += 1
            }
            afterTick()
        }
        let gameThreadCPUSeconds = threadCPUSeconds() - threadCPUStart
        let playedSeconds = Double(monotonicNanoseconds() - start) * 1e-9
        return Figures(samplesNanoseconds: samples, cpuSeconds: processCPUSeconds() - cpuStart,
                       gameThreadCPUSeconds: gameThreadCPUSeconds, playedSeconds: playedSeconds)
    }

    /// User + system CPU time of the whole process, in seconds (every thread counts).
    public static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
    }

    /// CPU time of the calling thread alone, in seconds.
    public static func threadCPUSeconds() -> Double {
        var used = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &used)
        return Double(used.tv_sec) + Double(used.tv_nsec) * 1e-9
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    public static func monotonicNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Sleeps until CLOCK_MONOTONIC reaches `due`.
    public static func sleep(untilNanoseconds due: Int64) {
        var wake = timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nil) != 0 {}
    }
}
