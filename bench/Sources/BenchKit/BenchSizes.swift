/// How big each scenario is: the full bench, or a tiny run for the smoke tests.
public struct BenchSizes: Sendable {
    /// Engine / baseline rounds per comparison (each side runs this many times, alternating).
    public var rounds: Int
    /// Length of the reference and scaling scenes, in seconds of audio.
    public var sceneSeconds: Double
    /// Emitters in the reference scene.
    public var referenceEmitterCount: Int
    /// Emitter counts of the scaling scenario.
    public var scalingEmitterCounts: [Int]
    /// Length of the long track for decoding and memory, in seconds.
    public var longTrackSeconds: Double
    /// Logical voice counts of the update-cost scenario, and update() calls timed at each.
    public var updateVoiceCounts: [Int]
    public var updateCallBudget: Int
    /// Sounds and voices of the rebuild scenario.
    public var rebuildSoundCount: Int
    public var rebuildVoiceCount: Int
    /// Sounds loaded in the start-up scenario.
    public var startupSoundCount: Int
    /// Seconds the device-lost scenario measures for.
    public var lostDeviceSeconds: Double
    /// Fresh starts (a child and a server each) per player in the click-latency scenario.
    public var clickStarts: Int
    /// Seconds of tone per latency setting in the underrun scenario.
    public var underrunSeconds: Double
    /// Seconds of real time per run of the stalled-reads scenario (16).
    public var stalledReadSeconds: Double

    /// The full bench: the 60 s reference scene, a 10-minute track.
    public static let full = BenchSizes(
        rounds: 5, sceneSeconds: 60, referenceEmitterCount: 64, scalingEmitterCounts: [32, 128, 255, 1_000],
        longTrackSeconds: 600, updateVoiceCounts: [1_000, 10_000, 100_000], updateCallBudget: 2_000_000,
        rebuildSoundCount: 50, rebuildVoiceCount: 200, startupSoundCount: 20, lostDeviceSeconds: 10,
        clickStarts: 10, underrunSeconds: 60, stalledReadSeconds: 20)

    /// Tiny sizes for `make test`: every code path, no meaningful timing.
    public static let quick = BenchSizes(
        rounds: 1, sceneSeconds: 1, referenceEmitterCount: 64, scalingEmitterCounts: [32, 300],
        longTrackSeconds: 3, updateVoiceCounts: [1_000], updateCallBudget: 20_000,
        rebuildSoundCount: 5, rebuildVoiceCount: 20, startupSoundCount: 3, lostDeviceSeconds: 1,
        clickStarts: 1, underrunSeconds: 2, stalledReadSeconds: 2)
}
