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
        /// Opening a device fails: `alcOpenDevice` returns NULL, or `alcLoopbackOpenDeviceSOFT`
        /// for an offline engine.
        case openDevice
        /// `alcCreateContext` fails (ALC_INVALID_VALUE) on a device that opened.
        case createContext
        /// `alGenSources` fails (AL_OUT_OF_MEMORY).
        case genSources
        /// `alGenBuffers` fails (AL_OUT_OF_MEMORY).
        case genBuffers
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

    /// True when `point` is armed, counting it down: for calls whose failure is a NULL result
    /// rather than an error code (`alcOpenDevice`, `alcCreateContext`).
    static func fails(_ point: Point) -> Bool {
        armed.withLock { faults -> Bool in
            guard let remaining = faults[point], remaining > 0 else { return false }
            faults[point] = remaining - 1
            return true
        }
    }

    /// Throws the injected failure of `function` when `point` is armed, counting it down.
    static func check(_ point: Point, _ function: StaticString, error: String) throws {
        if fails(point) { throw InterludeError(.openAL, "\(function): \(error) (injected)") }
    }
}
#endif
