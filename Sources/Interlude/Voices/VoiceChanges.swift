/// Which of a real voice's parameters changed since the update last sent them to its source.
/// Setters write the engine's model and add to this; the update sends what it names, in one
/// batch (see ``VoicePoolStorage/drainChanges(_:)``).
struct VoiceChanges: OptionSet {
    let rawValue: UInt16

    /// The voice's gain, or its group (whose gain scales it).
    static let gain = VoiceChanges(rawValue: 1 << 0)
    static let pitch = VoiceChanges(rawValue: 1 << 1)
    static let looping = VoiceChanges(rawValue: 1 << 2)
    static let relativeToListener = VoiceChanges(rawValue: 1 << 3)
    static let position = VoiceChanges(rawValue: 1 << 4)
    static let velocity = VoiceChanges(rawValue: 1 << 5)
    static let referenceDistance = VoiceChanges(rawValue: 1 << 6)
    static let maxDistance = VoiceChanges(rawValue: 1 << 7)
    static let rolloffFactor = VoiceChanges(rawValue: 1 << 8)
    /// The reverb send or the occlusion low-pass (its own zone, its group's, or its gain HF).
    static let effects = VoiceChanges(rawValue: 1 << 9)

    /// What differs between two sets of parameters (and group indices).
    static func between(_ previous: VoiceParameters, previousGroupIndex: Int,
                        and current: VoiceParameters, groupIndex: Int) -> VoiceChanges {
        var changes: VoiceChanges = []
        if current.gain != previous.gain || groupIndex != previousGroupIndex { changes.insert(.gain) }
        if current.pitch != previous.pitch { changes.insert(.pitch) }
        if current.isLooping != previous.isLooping { changes.insert(.looping) }
        if current.position != nil {
            if current.isRelativeToListener != previous.isRelativeToListener { changes.insert(.relativeToListener) }
            if current.position != previous.position { changes.insert(.position) }
            if current.velocity != previous.velocity { changes.insert(.velocity) }
            if current.referenceDistance != previous.referenceDistance { changes.insert(.referenceDistance) }
            if current.maxDistance != previous.maxDistance { changes.insert(.maxDistance) }
            if current.rolloffFactor != previous.rolloffFactor { changes.insert(.rolloffFactor) }
        }
        if current.reverbZone != previous.reverbZone || current.lowPassGainHF != previous.lowPassGainHF
            || groupIndex != previousGroupIndex {
            changes.insert(.effects)
        }
        return changes
    }

    /// The properties a game names for these changes.
    var properties: VoiceProperties {
        var properties: VoiceProperties = []
        if contains(.gain) { properties.insert(.gain) }
        if contains(.pitch) { properties.insert(.pitch) }
        if contains(.looping) { properties.insert(.looping) }
        if !isDisjoint(with: [.position, .relativeToListener]) { properties.insert(.position) }
        if contains(.velocity) { properties.insert(.velocity) }
        if !isDisjoint(with: [.referenceDistance, .maxDistance, .rolloffFactor]) { properties.insert(.distance) }
        if contains(.effects) { properties.insert(.effects) }
        return properties
    }
}
