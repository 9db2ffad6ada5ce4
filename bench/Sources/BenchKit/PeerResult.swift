import Foundation
import Histogram

/// What one player printed after the peer scene, and its position calls' latency histogram.
public struct PeerResult: Sendable {
    /// Process user + system CPU seconds over the played seconds.
    public var cpuSeconds: Double
    /// The game thread's own CPU seconds over the played seconds: its position calls, its loop and
    /// its sleeps (and, for a game-loop update, the update), without the library's threads.
    public var gameThreadCPUSeconds: Double
    /// Wall seconds played.
    public var audioSeconds: Double
    /// VmHWM at the end: the largest resident size of the whole process.
    public var peakResidentKiB: Int
    /// Resident KiB when the process started, before the library: its language runtime.
    public var startResidentKiB: Int
    /// Position calls the game loop made and timed.
    public var positionCallCount: Int
    /// The output rate the library mixed at.
    public var sampleRate: Int
    /// Voices still playing at the end (all of them, as every voice loops).
    public var voicesPlaying: Int
    /// The soundtrack was still playing at the end.
    public var isMusicPlaying: Bool
    /// Every other "key value" line (mixed_frames, music_frames, real_voices).
    public var extras: [String: Double]
    /// Resident KiB by mapping at the end of the scene ("mapping_kib NAME KIB" lines).
    public var mappingKiB: [String: Int]
    /// Nanoseconds per position call.
    public var latency: Histogram<UInt64>

    /// Parses the "key value" lines of bench/peers/peer_scene.h and records the samples.
    public init(output: String, samplesNanoseconds: [Int64]) throws {
        var values: [String: Double] = [:]
        var mappings: [String: Int] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
            if parts.count == 3, parts[0] == "mapping_kib", let kib = Int(parts[2]) { mappings[String(parts[1]), default: 0] += kib }
        }
        mappingKiB = mappings
        func take(_ key: String) throws -> Double {
            guard let value = values.removeValue(forKey: key) else { throw BenchError("peer output lacks \(key): \(output)") }
            return value
        }
        cpuSeconds = try take("cpu_seconds")
        gameThreadCPUSeconds = try take("game_thread_cpu_seconds")
        audioSeconds = try take("audio_seconds")
        peakResidentKiB = Int(try take("peak_rss_kib"))
        startResidentKiB = Int(try take("start_rss_kib"))
        positionCallCount = Int(try take("position_calls"))
        sampleRate = Int(try take("sample_rate"))
        voicesPlaying = Int(try take("voices_playing"))
        isMusicPlaying = try take("music_playing") == 1
        extras = values
        latency = Histogram(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        for sample in samplesNanoseconds {
            _ = latency.record(UInt64(max(1, sample)))
        }
    }

    /// CPU seconds per second of audio played.
    public var cpuPerAudioSecond: Double { cpuSeconds / audioSeconds }
    /// The game thread's CPU seconds per second of audio played.
    public var gameThreadCPUPerAudioSecond: Double { gameThreadCPUSeconds / audioSeconds }
}
