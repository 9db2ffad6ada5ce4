import COpenAL

/// One device's OpenAL context: making it current (process-wide, and for the calling thread),
/// suspending and processing it, and deferring its updates. Whoever holds the process-wide
/// ``ALContextLock`` may make it current: ``DeviceHost`` for the engine's installed device,
/// ``SoundUpload`` for a device being prepared off the engine lock, ``DeviceProbe`` for its
/// own. The ``ALDevice`` that made it destroys it on close.
final class ALContext {
    /// The device the context belongs to, for its error state.
    private let device: OpaquePointer?
    private let extensions: ALExtensions
    @exclusivity(unchecked) private var context: OpaquePointer?
    /// Whether the context has AL_SOFT_deferred_updates, asked on the first batch (the context
    /// must be current to ask).
    @exclusivity(unchecked) private var hasDeferredUpdates: Bool?

    init(_ context: OpaquePointer, device: OpaquePointer?, extensions: ALExtensions) {
        self.context = context
        self.device = device
        self.extensions = extensions
    }

    /// `alcMakeContextCurrent(context)`.
    func makeCurrent() throws {
        #if DEBUG
        try ALFaults.check(.makeContextCurrent, "alcMakeContextCurrent", error: "ALC_INVALID_CONTEXT")
        #endif
        guard alcMakeContextCurrent(context) != 0 else {
            throw InterludeError(.openAL, "alcMakeContextCurrent: \(ALCheck.alcErrorName(alcGetError(device)))")
        }
        ALCheck.clearAL()
    }

    /// `alcMakeContextCurrent(NULL)`.
    static func clearCurrent() {
        _ = alcMakeContextCurrent(nil)
    }

    /// Runs `body` under the process-wide ``ALContextLock`` with this context current, for the
    /// process and for the calling thread. `leavesCurrent`: the engine's installed context stays
    /// current after (an interruption sets NULL itself); a context being prepared off the engine
    /// lock is set back to NULL, so no other engine finds it current. Runs nothing but `body`
    /// once the context is destroyed.
    func run<Result>(leavesCurrent: Bool, _ body: () throws -> Result) throws -> Result {
        try ALContextLock.run {
            if context != nil, !isCurrent {
                try makeCurrent()
            }
            defer { if !leavesCurrent { Self.clearCurrent() } }
            return try withThreadContext(body)
        }
    }

    /// `alcGetCurrentContext() == context`.
    var isCurrent: Bool {
        context != nil && alcGetCurrentContext() == context
    }

    /// Runs `body` with the context also current for the calling thread
    /// (ALC_EXT_thread_local_context), then clears the thread's context again. OpenAL Soft 1.19
    /// looks a process-wide current context up under its list lock on every AL call; a thread's
    /// own context it reads without a lock. So the update's many calls skip a lock pair each,
    /// for one lock when the thread context is set. Already set (a nested block), or without the
    /// extension: `body` runs as it is, on the process-wide context. The context must be
    /// current process-wide already, inside the process-wide context lock.
    func withThreadContext<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard let context, let setThreadContext = extensions.setThreadContext,
              let getThreadContext = extensions.getThreadContext, getThreadContext() != context else {
            return try body()
        }
        guard setThreadContext(context) != 0 else {
            _ = alcGetError(device)
            return try body()
        }
        defer { _ = setThreadContext(nil) }
        return try body()
    }

    /// `alcSuspendContext`: holds back property changes until ``process()``.
    func suspend() {
        guard let context else { return }
        alcSuspendContext(context)
        _ = alcGetError(device)
    }

    /// `alcProcessContext`.
    func process() {
        guard let context else { return }
        alcProcessContext(context)
        _ = alcGetError(device)
    }

    /// Runs `body` between `alDeferUpdatesSOFT` and `alProcessUpdatesSOFT`
    /// (AL_SOFT_deferred_updates), so every source, listener and context property it sets
    /// reaches the mixer at once, on the same mix, and each set costs OpenAL only a flag until
    /// then. Without the extension the properties apply call by call, as `body` makes them. The
    /// context must be current; `body`'s own calls are checked by `body`.
    func deferringUpdates(_ body: () throws -> Void) throws {
        if hasDeferredUpdates == nil {
            hasDeferredUpdates = extensions.deferUpdates != nil && alIsExtensionPresent("AL_SOFT_deferred_updates") != 0
            ALCheck.clearAL()
        }
        guard hasDeferredUpdates == true, let deferUpdates = extensions.deferUpdates,
              let processUpdates = extensions.processUpdates else {
            try body()
            return
        }
        deferUpdates()
        try ALCheck.al("alDeferUpdatesSOFT")
        // Processed whatever `body` does: a context left deferring would never hear a change again.
        do {
            try body()
        } catch {
            processUpdates()
            ALCheck.clearAL()
            throw error
        }
        processUpdates()
        try ALCheck.al("alProcessUpdatesSOFT")
    }

    /// `alcDestroyContext`, first setting NULL current if the context is current. Idempotent.
    func destroy() {
        guard let context else { return }
        if alcGetCurrentContext() == context {
            _ = alcMakeContextCurrent(nil)
        }
        alcDestroyContext(context)
        self.context = nil
    }
}
