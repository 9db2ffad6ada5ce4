#if DEBUG
/// Faults a test switches on at the raw layer's boundary, to prove the engine survives a call
/// that fails. Compiled into debug builds only: a release build has no fault check on any path.
enum ALFaults {
    /// Where a fault can be injected.
    enum Point: Hashable, Sendable {
        /// `alcMakeContextCurrent` fails (ALC_INVALID_CONTEXT).
        case makeContextCurrent
        /// `alGetSourcei(AL_SOURCE_STATE)` fails (AL_INVALID_NAME) on one source.
        case sourceState(sourceName: UInt32)
    }

    /// How many more times each armed point fails.
    private static let armed = AnnotatedMutex<[Point: Int]>([:])

    /// Makes the next `count` calls at `point` fail.
    static func arm(_ point: Point, count: Int) {
        armed.withLock { $0[point] = count }
    }

    /// Disarms every point.
    static func disarmAll() {
        armed.withLock { $0.removeAll() }
    }

    /// Throws the injected failure of `function` when `point` is armed, counting it down.
    static func check(_ point: Point, _ function: StaticString, error: String) throws {
        let fails = armed.withLock { faults -> Bool in
            guard let remaining = faults[point], remaining > 0 else { return false }
            faults[point] = remaining - 1
            return true
        }
        if fails { throw InterludeError(.openAL, "\(function): \(error) (injected)") }
    }
}
#endif
