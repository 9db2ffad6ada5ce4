/// When the realtime driver thread updates the engine on a real device
/// (``SoundEngine/Configuration/updateTiming``). Offline renders update every
/// ``SoundEngine/Configuration/updateIntervalSeconds`` of rendered audio either way, and a game
/// that calls ``SoundEngine/update()`` itself chooses its own times.
public enum UpdateTiming: String, Sendable, CaseIterable, Codable {
    /// Once per period of OpenAL Soft's mixer, about 2 ms before it mixes, as its device clock
    /// (ALC_SOFT_device_clock) tells: every change made before the update is in that mix, and
    /// the driver wakes once per mix (43 times a second on a 1,024-frame period at 44.1 kHz).
    /// Until the clock has been read, while the mixer stands still, and without the clock
    /// extension, the driver updates every ``SoundEngine/Configuration/updateIntervalSeconds``.
    /// The default.
    case beforeEachMix
    /// Every ``SoundEngine/Configuration/updateIntervalSeconds``, whenever OpenAL Soft mixes:
    /// a change waits for the next update and then for the next mix, and the driver wakes
    /// 100 times a second at the default 10 ms: twice as often as the mixer, for the same
    /// latency.
    case everyUpdateInterval
}
