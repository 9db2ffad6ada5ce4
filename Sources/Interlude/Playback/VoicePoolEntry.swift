/// What the voice pool's update needs of one voice, kept in one contiguous array by slot: the
/// update walks thousands of these without touching the `Voice` objects (no cache miss, no
/// reference counting, no exclusivity check per voice). Each `Voice` writes its entry whenever
/// its parameters, state, source or fades change; the entry owns the voice's play position.
struct VoicePoolEntry {
    /// A live voice that is playing (the group's pause is checked separately).
    var isPlaying = false
    var isReal = false
    var isLooping = false
    var isProtected = false
    var hasFade = false
    var hasPosition = false
    var isRelativeToListener = false
    var groupIndex = 0
    var priority = 0
    var gain: Float = 1
    var position: Vector3 = .zero
    var referenceDistance: Float = 1
    var maxDistance: Float = .greatestFiniteMagnitude
    var rolloffFactor: Float = 1
    /// Frames of the sound per second of playback: its rate times its pitch.
    var framesPerSecond = 0.0
    var frameCount = 0
    /// How far into its sound the voice has played, in frames.
    var positionInFrames = 0
    /// The fraction of a frame the clock has advanced beyond ``positionInFrames``.
    var frameRemainder = 0.0

    /// How much the voice matters: protected voices above all, then priority, then audibility
    /// (its gain times its group's times the distance attenuation at the listener). Real voices
    /// get `realBonus` on their audibility, so near-ties do not swap sources back and forth.
    @inline(__always)
    func score(groupGains: UnsafeBufferPointer<Float>, listener: Vector3, model: DistanceModel, realBonus: Double) -> Double {
        if isProtected { return .infinity }
        var audibility = Double(gain * groupGains[groupIndex])
        if hasPosition {
            let distance = isRelativeToListener ? position.length : (position - listener).length
            audibility *= Double(model.gain(atDistance: distance, referenceDistance: referenceDistance,
                                            maxDistance: maxDistance, rolloff: rolloffFactor))
        }
        if isReal { audibility *= realBonus }
        let clampedPriority = Double(max(-999, min(999, priority)))
        return clampedPriority * 1e6 + min(audibility, 999_999)
    }

    /// Moves the position on by `seconds` of playback. Returns false when a one-shot has ended
    /// (the position then stays where it was).
    @inline(__always)
    mutating func advance(bySeconds seconds: Double) -> Bool {
        guard seconds > 0 else { return positionInFrames < frameCount || isLooping }
        let frames = seconds * framesPerSecond + frameRemainder
        let wholeFrames = frames.rounded(.down)
        frameRemainder = frames - wholeFrames
        let position = positionInFrames + Int(wholeFrames)
        if position >= frameCount {
            guard isLooping else { return false }
            positionInFrames = position % max(1, frameCount)
        } else {
            positionInFrames = position
        }
        return true
    }
}

/// The voice pool's entries, shared by the engine and its voices: a `Voice` writes its own
/// entry; the update reads and advances them all.
final class VoicePoolStorage {
    var entries: [VoicePoolEntry] = []
}
