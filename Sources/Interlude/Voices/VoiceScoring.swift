/// How much a voice matters to the voice pool, from its ``VoicePoolEntry``: protected voices
/// above all, then priority, then audibility (its gain times its group's times the distance
/// attenuation at the listener). Real voices get ``realBonus`` on their audibility, so near-ties
/// do not swap sources back and forth.
///
/// Made once per update, with what is the same for every voice hoisted out of the pool's loop.
struct VoiceScoring {
    let listener: Vector3
    let model: DistanceModel
    let realBonus: Float

    /// The bonus the update's selection gives real voices: 1%, enough to stop near-ties from
    /// swapping sources on every update.
    static let selectionRealBonus: Float = 1.01

    /// The score: higher is more important. Audibility is worked in `Float`, as OpenAL does.
    @inline(__always)
    func score(of entry: VoicePoolEntry, groupGains: UnsafeBufferPointer<Float>) -> Double {
        if entry.isProtected { return .infinity }
        var audibility = entry.gain * groupGains[entry.groupIndex]
        if entry.hasPosition {
            let distance = entry.isRelativeToListener ? entry.position.length : (entry.position - listener).length
            audibility *= model.gain(atDistance: distance, referenceDistance: entry.referenceDistance,
                                     maxDistance: entry.maxDistance, rolloff: entry.rolloffFactor)
        }
        if entry.isReal { audibility *= realBonus }
        let clampedPriority = Double(max(-999, min(999, entry.priority)))
        return clampedPriority * 1e6 + Double(min(audibility, 999_999))
    }
}
