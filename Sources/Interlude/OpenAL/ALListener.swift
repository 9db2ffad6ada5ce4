import COpenAL

/// The current context's listener and global 3D settings: thin checked wrappers.
enum ALListener {
    /// `alListener3f(AL_POSITION)`.
    static func setPosition(_ position: Vector3) throws {
        alListener3f(AL_POSITION, position.x, position.y, position.z)
        try ALCheck.al("alListener3f(AL_POSITION)")
    }

    /// `alListener3f(AL_VELOCITY)`.
    static func setVelocity(_ velocity: Vector3) throws {
        alListener3f(AL_VELOCITY, velocity.x, velocity.y, velocity.z)
        try ALCheck.al("alListener3f(AL_VELOCITY)")
    }

    /// `alListenerfv(AL_ORIENTATION)`: the "at" (forward) vector, then "up". The six floats
    /// are a tuple on the stack (a homogeneous tuple is laid out contiguously), not an array:
    /// a listener update allocates nothing.
    static func setOrientation(forward: Vector3, up: Vector3) throws {
        var values = (forward.x, forward.y, forward.z, up.x, up.y, up.z)
        withUnsafePointer(to: &values) { tuple in
            tuple.withMemoryRebound(to: Float.self, capacity: 6) { alListenerfv(AL_ORIENTATION, $0) }
        }
        try ALCheck.al("alListenerfv(AL_ORIENTATION)")
    }

    /// `alListenerf(AL_GAIN)`.
    static func setGain(_ gain: Float) throws {
        alListenerf(AL_GAIN, gain)
        try ALCheck.al("alListenerf(AL_GAIN)")
    }

    /// `alDistanceModel`.
    static func setDistanceModel(_ model: DistanceModel) throws {
        let value: ALenum = switch model {
        case .none: AL_NONE
        case .inverse: AL_INVERSE_DISTANCE
        case .inverseClamped: AL_INVERSE_DISTANCE_CLAMPED
        case .linear: AL_LINEAR_DISTANCE
        case .linearClamped: AL_LINEAR_DISTANCE_CLAMPED
        case .exponent: AL_EXPONENT_DISTANCE
        case .exponentClamped: AL_EXPONENT_DISTANCE_CLAMPED
        }
        alDistanceModel(value)
        try ALCheck.al("alDistanceModel")
    }

    /// `alDopplerFactor`.
    static func setDopplerFactor(_ factor: Float) throws {
        alDopplerFactor(factor)
        try ALCheck.al("alDopplerFactor")
    }

    /// `alSpeedOfSound`.
    static func setSpeedOfSound(_ metresPerSecond: Float) throws {
        alSpeedOfSound(metresPerSecond)
        try ALCheck.al("alSpeedOfSound")
    }
}
