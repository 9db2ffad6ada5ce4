/// What a cue is: a set of variants and how each play picks one and varies it. Given to
/// ``SoundEngine/makeCue(named:_:)``.
///
/// ```swift
/// var footstep = CueDefinition(variants: [step1, step2, step3])
/// footstep.gainRange = 0.8...1.0
/// footstep.pitchRange = 0.95...1.05
/// footstep.curves = [CueCurve(.gain, parameter: "speed", points: [.init(x: 0, y: 0.5), .init(x: 10, y: 1)])]
/// let cue = try engine.makeCue(named: "footstep", footstep)
/// let voice = try engine.play(cue: cue, at: Vector3(2, 0, 0))
/// ```
public struct CueDefinition: Sendable {
    /// One or more sounds, each loaded by this engine.
    public var variants: [Sound]
    /// Which variant a play takes.
    public var order: CueOrder = .randomNoRepeat
    /// Each play's gain is drawn uniformly from this range (lower bound >= 0).
    public var gainRange: ClosedRange<Float> = 1...1
    /// Each play's pitch is drawn uniformly from this range (lower bound > 0).
    public var pitchRange: ClosedRange<Float> = 1...1
    /// A target loudness in LUFS, -70...0, for each variant; nil plays them as they are.
    public var loudnessLUFS: Float?
    /// The cue's voices loop until stopped.
    public var isLooping = false
    /// The group the cue's voices play in (it must exist).
    public var group: GroupID = .sfx
    /// The voices' priority (see ``VoiceParameters/priority``).
    public var priority = 0
    /// At most this many of the cue's voices exist at once (playing, paused or held by an
    /// interruption); 0: no limit.
    public var maxVoices = 0
    /// What a play does when the cue already has ``maxVoices`` voices.
    public var steal: CueSteal = .oldest
    /// A play less than this many seconds after the cue's last play that was not dropped is
    /// dropped. Measured in the engine's own time: rendered frames offline.
    public var cooldownSeconds: Double = 0
    /// Curves that multiply the voices' gain, pitch or low-pass by game parameters.
    public var curves: [CueCurve] = []

    /// A cue of `variants` with the defaults: random without immediate repeats, gain and pitch
    /// 1, one-shot, in the "sfx" group, no limit, no cooldown, no curves.
    public init(variants: [Sound]) {
        self.variants = variants
    }

    /// Throws `.invalidArgument` naming `call` for anything out of range. The variants'
    /// engine and the curves' parameters are checked by the engine.
    func validate(in call: String) throws {
        guard !variants.isEmpty else {
            throw InterludeError(.invalidArgument, "\(call): a cue needs at least one variant")
        }
        guard gainRange.lowerBound.isFinite, gainRange.upperBound.isFinite, gainRange.lowerBound >= 0 else {
            throw InterludeError(.invalidArgument, "\(call): gainRange must be finite with a lower bound >= 0, got \(gainRange)")
        }
        guard pitchRange.lowerBound.isFinite, pitchRange.upperBound.isFinite, pitchRange.lowerBound > 0 else {
            throw InterludeError(.invalidArgument, "\(call): pitchRange must be finite with a lower bound > 0, got \(pitchRange)")
        }
        if let loudnessLUFS, !(loudnessLUFS.isFinite && (-70...0).contains(loudnessLUFS)) {
            throw InterludeError(.invalidArgument, "\(call): loudnessLUFS must be in -70...0, got \(loudnessLUFS)")
        }
        guard maxVoices >= 0 else {
            throw InterludeError(.invalidArgument, "\(call): maxVoices must be >= 0, got \(maxVoices)")
        }
        try Validate.seconds(cooldownSeconds, "cooldownSeconds", in: call)
        for curve in curves { try curve.validate(in: call) }
    }
}
