/// Range checks for public parameters: each throws `.invalidArgument` naming the call and the
/// parameter, so a bad value never reaches OpenAL.
enum Validate {
    static func gain(_ value: Float, in call: @autoclosure () -> String) throws {
        guard value.isFinite, value >= 0 else {
            throw InterludeError(.invalidArgument, "\(call()): gain must be a finite number >= 0, got \(value)")
        }
    }

    static func pitch(_ value: Float, in call: @autoclosure () -> String) throws {
        guard value.isFinite, value > 0 else {
            throw InterludeError(.invalidArgument, "\(call()): pitch must be a finite number > 0, got \(value)")
        }
    }

    /// Inlined into the setters' hot path: the check is three compares, the message is built
    /// only for a bad vector.
    @inline(__always)
    static func vector(_ value: Vector3, _ name: String, in call: @autoclosure () -> String) throws {
        guard value.isFinite else { throw notFinite(value, name, in: call()) }
    }

    @inline(never)
    private static func notFinite(_ value: Vector3, _ name: String, in call: String) -> InterludeError {
        InterludeError(.invalidArgument, "\(call): \(name) must be finite, got (\(value.x), \(value.y), \(value.z))")
    }

    static func nonNegative(_ value: Float, _ name: String, in call: @autoclosure () -> String) throws {
        guard !value.isNaN, value >= 0 else {
            throw InterludeError(.invalidArgument, "\(call()): \(name) must be >= 0, got \(value)")
        }
    }

    static func loudness(_ value: Double, in call: @autoclosure () -> String) throws {
        guard value >= Loudness.quietestLUFS, value <= Loudness.loudestLUFS else {
            throw InterludeError(.invalidArgument, "\(call()): loudness must be a target in \(Int(Loudness.quietestLUFS))...\(Int(Loudness.loudestLUFS)) LUFS, got \(value)")
        }
    }

    static func seconds(_ value: Double, _ name: String, in call: @autoclosure () -> String) throws {
        guard value.isFinite, value >= 0 else {
            throw InterludeError(.invalidArgument, "\(call()): \(name) must be a finite number of seconds >= 0, got \(value)")
        }
    }
}
