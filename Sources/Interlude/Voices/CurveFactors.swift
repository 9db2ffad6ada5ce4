/// What a cue voice's curves make of its gain, pitch and low-pass right now: factors on top of
/// the voice's own values (``VoiceParameters``), which the game's setters and fades keep
/// changing independently. A voice without curves keeps ``unity``, and multiplying by it
/// changes no bit.
struct CurveFactors: Equatable {
    var gain: Float = 1
    var pitch: Float = 1
    /// The high-frequency gain of the low-pass, 0...1.
    var lowPass: Float = 1

    static let unity = CurveFactors()

    /// The voice parameters that differ between `self` and `other`.
    func changes(from other: CurveFactors) -> VoiceChanges {
        var changes: VoiceChanges = []
        if gain != other.gain { changes.insert(.gain) }
        if pitch != other.pitch { changes.insert(.pitch) }
        if lowPass != other.lowPass { changes.insert(.effects) }
        return changes
    }
}
