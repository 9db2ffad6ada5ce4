import COpenAL

/// The checked-call discipline of the raw layer: every al* / alc* call made by Interlude is
/// followed by a read of alGetError / alcGetError, and a failure becomes an ``InterludeError``
/// with code `.openAL` naming the C function and OpenAL's error.
enum ALCheck {
    /// Reads and clears the current context's error (`alGetError`) after a call to `function`.
    @inline(__always)
    static func al(_ function: StaticString) throws {
        let code = alGetError()
        if code != AL_NO_ERROR {
            throw InterludeError(.openAL, "\(function): \(alErrorName(code))")
        }
    }

    /// Reads and clears a device's error (`alcGetError`) after a call to `function`.
    @inline(__always)
    static func alc(_ function: StaticString, device: OpaquePointer?) throws {
        let code = alcGetError(device)
        if code != ALC_NO_ERROR {
            throw InterludeError(.openAL, "\(function): \(alcErrorName(code))")
        }
    }

    /// Clears any error left on the current context, so the next check reports only its own call.
    static func clearAL() {
        _ = alGetError()
    }

    /// The AL_* name of an `alGetError` code.
    static func alErrorName(_ code: ALenum) -> String {
        switch code {
        case AL_INVALID_NAME: "AL_INVALID_NAME"
        case AL_INVALID_ENUM: "AL_INVALID_ENUM"
        case AL_INVALID_VALUE: "AL_INVALID_VALUE"
        case AL_INVALID_OPERATION: "AL_INVALID_OPERATION"
        case AL_OUT_OF_MEMORY: "AL_OUT_OF_MEMORY"
        default: "AL error 0x\(String(code, radix: 16))"
        }
    }

    /// The ALC_* name of an `alcGetError` code.
    static func alcErrorName(_ code: ALCenum) -> String {
        switch code {
        case ALC_INVALID_DEVICE: "ALC_INVALID_DEVICE"
        case ALC_INVALID_CONTEXT: "ALC_INVALID_CONTEXT"
        case ALC_INVALID_ENUM: "ALC_INVALID_ENUM"
        case ALC_INVALID_VALUE: "ALC_INVALID_VALUE"
        case ALC_OUT_OF_MEMORY: "ALC_OUT_OF_MEMORY"
        default: "ALC error 0x\(String(code, radix: 16))"
        }
    }
}
