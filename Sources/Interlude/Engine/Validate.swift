/// Range checks for public parameters: each throws `.invalidArgument` naming the call and the
/// parameter, so a bad value never reaches OpenAL.
enum Validate {
    static func gain(_ value: Float, in call: String) throws {
        guard value.isFinite, value >= 0 else {
            throw InterludeError(.invalidArgument, "\(call): gain must be a finite number >= 0, got \(value)")
        }
    }

    static func pitch(_ value: Float, in call: String) throws {
        guard value.isFinite, value > 0 else {
            throw InterludeError(.invalidArgument, "\(call): pitch must be a finite number > 0, got \(value)")
        }
    }

    static func vector(_ value: Vector3, _ name: String, in call: String) throws {
        guard value.isFinite else {
            throw InterludeError(.invalidArgument, "\(call): \(name) must be finite, got (\(value.x), \(value.y), \(value.z))")
        }
    }

    static func nonNegative(_ value: Float, _ name: String, in call: String) throws {
        guard !value.isNaN, value >= 0 else {
            throw InterludeError(.invalidArgument, "\(call): \(name) must be >= 0, got \(value)")
        }
    }

    static func seconds(_ value: Double, _ name: String, in call: String) throws {
        guard value.isFinite, value >= 0 else {
            throw InterludeError(.invalidArgument, "\(call): \(name) must be a finite number of seconds >= 0, got \(value)")
        }
    }
}
