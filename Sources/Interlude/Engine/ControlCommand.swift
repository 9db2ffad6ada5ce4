/// A gain, pause, resume or stop, each with a fade: the one vocabulary that voices, groups and
/// tracks share, carried out in one place (``EngineCore/apply(_:to:call:)``).
enum ControlCommand: Sendable {
    case setGain(Float, fadeSeconds: Double, curve: FadeCurve)
    case pause(fadeSeconds: Double)
    case resume(fadeSeconds: Double)
    case stop(fadeSeconds: Double)

    /// How long the command's change takes; 0 for at once.
    var fadeSeconds: Double {
        switch self {
        case .setGain(_, let seconds, _), .pause(let seconds), .resume(let seconds), .stop(let seconds): seconds
        }
    }

    /// The call as errors and logs name it: `setGain(of: voice)`, `pause(group sfx)`.
    func call(on target: ControlTarget) -> String {
        switch self {
        case .setGain: "setGain(of: \(target.name))"
        case .pause: "pause(\(target.name))"
        case .resume: "resume(\(target.name))"
        case .stop: "stop(\(target.name))"
        }
    }

    /// Throws `.invalidArgument`, naming `call`, for a gain or a fade the command cannot take:
    /// checked before the target is looked up, so a live and a stale handle answer alike.
    func validate(in call: String) throws {
        if case .setGain(let gain, _, _) = self { try Validate.gain(gain, in: call) }
        try Validate.seconds(fadeSeconds, "fadeSeconds", in: call)
    }
}

/// What a ``ControlCommand`` applies to.
enum ControlTarget: Sendable {
    case voice(VoiceHandle)
    case group(GroupID)
    case music(MusicHandle)

    /// How calls name it: `voice`, or the group's or track's own description.
    var name: String {
        switch self {
        case .voice: "voice"
        case .group(let group): "\(group)"
        case .music(let music): "\(music)"
        }
    }
}
