/// A count of what the engine holds, for diagnostics and tests.
public struct EngineStatistics: Sendable, Equatable {
    /// Live voices (playing, paused or held by an interruption).
    public var voiceCount: Int
    /// Voices holding a real AL source; the rest of ``voiceCount`` are virtual or paused.
    public var realVoiceCount: Int
    /// AL source names alive on the device.
    public var alSourceCount: Int
    /// AL buffer names alive on the device.
    public var alBufferCount: Int
    /// EFX effects, effect slots and filters alive on the device.
    public var alEffectObjectCount: Int
    /// Sounds loaded.
    public var loadedSoundCount: Int
    /// The open device's name; nil while it is lost.
    public var deviceName: String?
    /// The output rate.
    public var sampleRate: Int
    /// HRTF mixing is on.
    public var isHRTFEnabled: Bool
    /// AL errors from the engine's own calls (bugs): 0 in a healthy engine.
    public var internalErrorCount: Int
    /// Tries to reopen a lost device since the engine opened, each one a device open: the
    /// engine's own retries (100 ms after the loss, then backing off, doubling to 2 s) and
    /// ``SoundEngine/reconnectDevice()`` calls made while the device was lost.
    public var deviceReopenAttemptCount: Int
    /// A reopen attempt is under way: a new device is being opened (which waits on a stalled
    /// audio server) and the sounds uploaded to it, without holding up the engine's calls.
    public var isDeviceReopening: Bool = false
    /// The open real device's mixing period in milliseconds: the output latency in effect
    /// (see ``SoundEngine/Configuration/outputLatency``). nil offline or while no device is open.
    public var outputPeriodMilliseconds: Double?
    /// The open device's output has been seen running: sounds played now are heard on time.
    public var isOutputRunning: Bool
    /// Seconds the open device took from opening until its output ran; nil while it has not
    /// (or while no device is open), and offline.
    public var outputStartSeconds: Double?
    /// The driver thread has paused the device's output because nothing played for
    /// ``SoundEngine/Configuration/idleOutputPauseSeconds``; the next sound runs it again.
    public var isOutputPausedWhileIdle = false
}
