import Histogram

/// One player's figures over its rounds.
public struct PeerFigures: Sendable {
    /// The percentiles the table shows, with their labels.
    public static let percentiles: [(String, Double)] = [("p50", 50), ("p99", 99), ("p99.9", 99.9), ("max", 100)]

    /// CPU seconds per second of audio, one per round.
    public let cpuSamples: [Double]
    /// The game thread's CPU seconds per second of audio, one per round.
    public let gameThreadCPUSamples: [Double]
    /// Each round's peak RSS, in MiB.
    public let peakSamples: [Double]
    /// Each round's threads at the end of the scene (from the "threads" line, where printed).
    public let threadSamples: [Double]
    /// Resident MiB by mapping at the end of the scene, each mapping's median of the rounds.
    public let mappingMiB: [String: Double]
    /// The largest resident size at start (the process before the library) of the rounds.
    public let startMiB: Double
    /// Nanoseconds per position call, every round's calls.
    public let histogram: Histogram<UInt64>

    /// The figures of one player's rounds.
    public init(_ results: [PeerResult]) {
        cpuSamples = results.map(\.cpuPerAudioSecond)
        gameThreadCPUSamples = results.map(\.gameThreadCPUPerAudioSecond)
        peakSamples = results.map { Double($0.peakResidentKiB) / 1_024 }
        threadSamples = results.compactMap { $0.extras["threads"] }
        let names = Set(results.flatMap(\.mappingKiB.keys))
        mappingMiB = Dictionary(uniqueKeysWithValues: names.map { name in
            (name, Measure.median(results.map { Double($0.mappingKiB[name] ?? 0) / 1_024 }))
        })
        startMiB = Double(results.map(\.startResidentKiB).max() ?? 0) / 1_024
        var merged = Histogram<UInt64>(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
        for result in results { merged.add(result.latency) }
        histogram = merged
        latencySamples = Dictionary(uniqueKeysWithValues: Self.percentiles.map { _, percentile in
            (percentile, results.map { Double(percentile >= 100 ? $0.latency.maxRecorded : $0.latency.valueAtPercentile(percentile)) / 1_000 })
        })
    }

    /// The median of ``cpuSamples``.
    public var cpuPerAudioSecond: Double { Measure.median(cpuSamples) }
    /// The median of ``peakSamples``.
    public var peakMiB: Double { Measure.median(peakSamples) }
    /// The median of ``peakSamples`` above `floor`'s.
    public func peakMiB(above floor: PeerFigures) -> Double { peakMiB - floor.peakMiB }
    /// The lowest of ``peakSamples`` above `floor`'s lowest.
    public func lowestPeakMiB(above floor: PeerFigures) -> Double { peakSamples.min()! - floor.peakSamples.min()! }

    /// `percentile` of each round's own calls, in microseconds (for the min / min of a latency ratio).
    public let latencySamples: [Double: [Double]]

    /// The median of ``gameThreadCPUSamples``.
    public var gameThreadCPUPerAudioSecond: Double { Measure.median(gameThreadCPUSamples) }

    /// Microseconds at `percentile` of every round's calls (100: the largest call).
    public func latency(_ percentile: Double) -> Double {
        Double(percentile >= 100 ? histogram.maxRecorded : histogram.valueAtPercentile(percentile)) / 1_000
    }
}
