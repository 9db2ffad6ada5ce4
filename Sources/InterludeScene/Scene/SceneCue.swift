import Interlude

/// A scene's cue (top-level `cues`, version 3): its variants by sound name and how each play
/// picks and varies one, as ``CueDefinition`` has it for the engine.
///
/// A plain value: any thread may use it.
public struct SceneCue: Sendable, Equatable {
    /// One of a cue's curves, its parameter by name.
    public struct Curve: Sendable, Equatable {
        /// What it drives.
        public var property: CueCurve.Property
        /// A name in the scene's `parameters`.
        public var parameter: String
        /// `[x, y]` points, x strictly increasing.
        public var points: [CueCurve.Point]
    }

    /// Names in the scene's `sounds`, one or more.
    public var variants: [String]
    /// Which variant a play takes.
    public var order: CueOrder = .randomNoRepeat
    /// The drawn gain's range (`gain`: a number or `[lo, hi]`).
    public var gainRange: ClosedRange<Float> = 1...1
    /// The drawn pitch's range (`pitch`: a number or `[lo, hi]`).
    public var pitchRange: ClosedRange<Float> = 1...1
    /// The variants' loudness target in LUFS, -70...0.
    public var loudnessLUFS: Float?
    /// The voices loop until stopped.
    public var loop = false
    /// The group the voices play in.
    public var group = "sfx"
    /// The voices' priority.
    public var priority = 0
    /// At most this many voices at once; 0: no limit.
    public var maxVoices = 0
    /// What a play past `maxVoices` does.
    public var steal: CueSteal = .oldest
    /// Seconds after a play within which the next is dropped.
    public var cooldownSeconds = 0.0
    /// By property, in property order.
    public var curves: [Curve] = []

    /// The engine's definition, with the scene's sounds as loaded and the group as made.
    func definition(sounds: [String: Sound], group: GroupID) -> CueDefinition {
        var definition = CueDefinition(variants: variants.map { sounds[$0]! })
        definition.order = order
        definition.gainRange = gainRange
        definition.pitchRange = pitchRange
        definition.loudnessLUFS = loudnessLUFS
        definition.isLooping = loop
        definition.group = group
        definition.priority = priority
        definition.maxVoices = maxVoices
        definition.steal = steal
        definition.cooldownSeconds = cooldownSeconds
        definition.curves = curves.map { CueCurve($0.property, parameter: $0.parameter, points: $0.points) }
        return definition
    }
}
