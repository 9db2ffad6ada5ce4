/// How much audio the output device buffers: the trade between how soon a sound is heard and
/// how much scheduling jitter the mixer survives without an underrun (a gap in the sound).
///
/// OpenAL Soft mixes in periods and keeps a few of them queued ahead of the backend. Each
/// setting is a period length in frames of the device's rate (the milliseconds below are at
/// 48 kHz; at 44.1 kHz the same periods are 9% longer) and a period count.
/// OpenAL Soft 1.19 takes these only from its configuration files, which it reads once per
/// process, when OpenAL is first used: the engine writes a configuration file with the periods,
/// followed by the user's own ALSOFT_CONF, and points ALSOFT_CONF at it for that first use. The
/// first engine of a process decides, and ``EngineStatistics/outputPeriodMilliseconds`` says what is in effect.
public enum OutputLatency: String, Sendable, CaseIterable, Codable {
    /// 9 ms periods, 3 of them (432 frames at 48 kHz): the soonest a sound is heard, on a
    /// machine with a core to spare (its latency and underruns: docs/performance.md, scenarios
    /// 10 and 15).
    case low
    /// 21 ms periods, 3 of them: OpenAL Soft's own default (1024 frames at 48 kHz).
    case balanced
    /// 43 ms periods, 4 of them (2048 frames at 48 kHz), for loaded or slow machines.
    case safe

    /// The period length in frames of the device's rate.
    public var periodFrames: Int {
        switch self {
        case .low: 432
        case .balanced: 1024
        case .safe: 2048
        }
    }

    /// Periods queued ahead of the backend.
    public var periodCount: Int {
        switch self {
        case .low, .balanced: 3
        case .safe: 4
        }
    }

    /// The period length in milliseconds at `sampleRate` frames per second.
    public func periodMilliseconds(sampleRate: Int = 48_000) -> Double {
        Double(periodFrames) * 1000 / Double(sampleRate)
    }

    /// Periods per second at 48 kHz: the context's ALC_REFRESH.
    var updatesPerSecond: Int {
        Int((48_000 / Double(periodFrames)).rounded())
    }
}
