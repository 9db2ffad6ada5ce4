import Dispatch
import Foundation
import Interlude
import Synchronization

/// Scenario 12: 50 sound files loaded with `loadSound(path:) async` all at once, against the same
/// 50 loaded one after another with the synchronous call, each on a fresh offline engine. The
/// files are distinct copies of one Ogg Vorbis track, so every load decodes.
public enum AsyncLoadBench {
    /// Files per run.
    public static let fileCount = 50

    /// The rows: wall time of each way, and their ratio (the goal: under 0.7 on 2 cores).
    public static func rows(trackSeconds: Double, rounds: Int) throws -> [BenchRow] {
        let track = try BenchAssets.track(seconds: trackSeconds)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-async-loads-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paths = try (0..<fileCount).map { index -> String in
            let path = folder + "/copy-\(index).ogg"
            try FileManager.default.copyItem(atPath: track, toPath: path)
            return path
        }
        var sequential: [Double] = []
        var parallel: [Double] = []
        for _ in 0..<rounds {
            sequential.append(try wallSeconds {
                let engine = try SceneRunner.offlineEngine()
                defer { engine.shutdown() }
                for path in paths { _ = try engine.loadSound(path: path) }
            })
            parallel.append(try wallSeconds {
                let engine = try SceneRunner.offlineEngine()
                defer { engine.shutdown() }
                try loadAllAsync(paths, into: engine)
            })
        }
        let sequentialSeconds = Measure.median(sequential)
        let parallelSeconds = Measure.median(parallel)
        let ratio = parallelSeconds / sequentialSeconds
        let scenario = "12. Async loading"
        let measure = "\(fileCount) Ogg files of \(Int(trackSeconds)) s: wall time"
        return [
            BenchRow(scenario: scenario, measure: "\(measure), loaded one after another (loadSound)", unit: "s",
                     engine: sequentialSeconds, engineSamples: sequential),
            BenchRow(scenario: scenario, measure: "\(measure), all at once (async loadSound)", unit: "s",
                     engine: parallelSeconds, engineSamples: parallel),
            BenchRow(scenario: scenario, measure: "all at once / one after another", unit: "", engine: ratio,
                     goal: "< 0.7 on 2 cores", isGoalMet: ratio < 0.7),
        ]
    }

    /// Every path loaded with the async call, concurrently; returns once all are loaded.
    static func loadAllAsync(_ paths: [String], into engine: SoundEngine) throws {
        let failure = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for path in paths { group.addTask { _ = try await engine.loadSound(path: path) } }
                    try await group.waitForAll()
                }
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    private static func wallSeconds(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
