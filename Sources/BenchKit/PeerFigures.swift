import Histogram

/// One player's figures over its rounds.
public struct PeerFigures: Sendable {
    /// The percentiles the table shows, with their labels.
    public static let percentiles: [(String, Double)] = [("p50", 50), ("p99", 99), ("p99.9", 99.9), ("max", 100)]

    /// CPU seconds per second of audio, one per round.
    public let cpuSamples: [Double]
    /// The game thread's CPU seconds per second of audio, one per round.
    public let gameThreadCPUSamples: [Double]
    /// The largest peak RSS of the rounds.
    public let peakMiB: Double
    /// The largest resident size at start (the process before the library) of the rounds.
    public let startMiB: Double
    /// Nanoseconds per position call, every round's calls.
    public let histogram: Histogram<UInt64>

    /// The figures of one player's rounds.
    public init(_ results: [PeerResult]) {
        cpuSamples = results.map(\.cpuPerAudioSecond)
        gameThreadCPUSamples = results.map(\.gameThreadCPUPerAudioSecond)
        peakMiB = Double(results.map(\.peakResidentKiB).max() ?? 0) / 1_024
        startMiB = Double(results.map(\.startResidentKiB).max() ?? 0) / 1_024
        var merged = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        for result in results { merged.add(result.latency) }
        histogram = merged
    }

    /// The median of ``cpuSamples``.
    public var cpuPerAudioSecond: Double { Measure.median(cpuSamples) }
    /// The median of ``gameThreadCPUSamples``.
    public var gameThreadCPUPerAudioSecond: Double { Measure.median(gameThreadCPUSamples) }

    /// Microseconds at `percentile` of every round's calls (100: the largest call).
    public func latency(_ percentile: Double) -> Double {
        Double(percentile >= 100 ? histogram.maxRecorded : histogram.valueAtPercentile(percentile)) / 1_000
    }
}
