extension SoundEngine {
    /// Makes a game parameter ("speed", "health") that cue curves read, with its range
    /// (min < max) and its value until set (`defaultValue`, nil: the range's lower bound).
    /// Making one of a name that exists remakes it at its default. Throws `.invalidArgument`
    /// naming the call and the parameter for a bad range or default. Any thread.
    public func makeParameter(named name: String, range: ClosedRange<Float>, defaultValue: Float? = nil) throws {
        let call = "makeParameter(named: \(name))"
        try withCore(call) { core in
            try core.soundDesign.makeParameter(named: name, range: range, defaultValue: defaultValue, call: call)
        }
    }

    /// Moves a game parameter to `value` (within its range) linearly over `fadeSeconds`, in
    /// the engine's own time (rendered frames offline); 0 sets it at once. Every cue voice's
    /// curves over it follow on each update, and at once for a value set at once. It moves
    /// while the session is interrupted too: voices resume with their curves at its value.
    /// Throws `.invalidArgument` naming the call and the parameter for an unknown parameter or
    /// a value out of range. Any thread.
    public func setParameter(_ value: Float, of name: String, fadeSeconds: Double = 0) throws {
        // The call's name is built only for an error: a game may set a parameter every frame.
        func call() -> String { "setParameter(of: \(name))" }
        try withCore(call(), reporting: .setParameter(name)) { core in
            try core.soundDesign.setParameter(value, of: name, fadeSeconds: fadeSeconds, call: call())
        }
    }

    /// Sets a game parameter for one cue voice alone (a car's own rpm), overriding the global
    /// value for that voice's curves from now on; moves over `fadeSeconds` as
    /// ``setParameter(_:of:fadeSeconds:)`` does. A stale handle, or a voice without curves,
    /// does nothing; an unknown parameter or a value out of range throws `.invalidArgument`.
    /// Any thread.
    public func setParameter(_ value: Float, of name: String, on voice: VoiceHandle, fadeSeconds: Double = 0) throws {
        func call() -> String { "setParameter(of: \(name), on: \(voice))" }
        try withCore(call()) { try $0.setParameter(value, of: name, on: voice, fadeSeconds: fadeSeconds, call: call()) }
    }

    /// A game parameter's value now (mid-move, where it has got to), or nil when there is
    /// none of that name. Any thread.
    public func parameterValue(of name: String) -> Float? {
        readCore { $0.soundDesign.parameterValue(of: name) }
    }

    /// The value a cue voice's curves read for a parameter: the voice's own when one was set
    /// on it, else the global one; nil for an unknown parameter or a stale handle. Any thread.
    public func parameterValue(of name: String, on voice: VoiceHandle) -> Float? {
        readCore { $0.soundDesign.parameterValue(of: name, on: voice) }
    }
}
