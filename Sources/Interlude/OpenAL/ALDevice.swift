import COpenAL

/// The one owner of an OpenAL device, its context, and every source and buffer made on it.
///
/// `ALCdevice*` and `ALCcontext*` are not Sendable: an installed `ALDevice` lives inside the
/// engine and is used only under the engine lock; a new one being prepared off the lock
/// (``DevicePreparation``) is used by one thread at a time until it is installed. Closing it deletes every AL name it made, so nothing leaks
/// when a device is lost and rebuilt. Only ``AudioSession`` makes its context current.
final class ALDevice {
    /// How the device was opened.
    enum Kind: Equatable {
        /// A playback device through OpenAL Soft's backends: nil is the system default.
        case playback(name: String?)
        /// A loopback device (ALC_SOFT_loopback) that renders float samples on demand.
        case loopback(format: AudioFormat)
    }

    /// Context attributes: source counts, HRTF, the output limiter (ALC_OUTPUT_LIMITER_SOFT),
    /// and for a playback device the periods per second asked for (ALC_REFRESH; OpenAL Soft
    /// 1.19 keeps its configured period regardless).
    struct Attributes: Equatable {
        var monoSourceCount: Int
        var stereoSourceCount: Int
        var hrtf: Bool
        var limiter: Bool
        var updatesPerSecond: Int?
    }

    let kind: Kind
    let attributes: Attributes
    /// The device's name as OpenAL reports it (ALC_ALL_DEVICES_SPECIFIER).
    let name: String
    /// The mixing rate in frames per second.
    let sampleRate: Int
    /// Entry points of the extensions this device has.
    let extensions: ALExtensions
    /// The EFX entry points, when the device has ALC_EXT_EFX.
    let efx: ALEFX?

    @exclusivity(unchecked) private var device: OpaquePointer?
    @exclusivity(unchecked) private(set) var context: OpaquePointer?
    @exclusivity(unchecked) private var liveSources: Set<ALuint> = []
    @exclusivity(unchecked) private var liveBuffers: Set<ALuint> = []
    @exclusivity(unchecked) private var liveEffects: Set<ALuint> = []
    @exclusivity(unchecked) private var liveSlots: Set<ALuint> = []
    @exclusivity(unchecked) private var liveFilters: Set<ALuint> = []
    /// The resampler every new source gets (AL_SOURCE_RESAMPLER_SOFT); nil leaves OpenAL Soft's default.
    @exclusivity(unchecked) private var sourceResamplerIndex: Int32?
    /// Whether the context has AL_SOFT_deferred_updates, asked on the first batch (the context
    /// must be current to ask).
    @exclusivity(unchecked) private var hasDeferredUpdates: Bool?

    /// Opens the device and creates its context (`alcOpenDevice` or `alcLoopbackOpenDeviceSOFT`,
    /// then `alcCreateContext`). The context is not made current here.
    init(kind: Kind, attributes: Attributes) throws {
        self.kind = kind
        self.attributes = attributes
        let global = ALExtensions(device: nil)
        var contextAttributes: [ALCint] = [
            ALC_MONO_SOURCES, ALCint(attributes.monoSourceCount),
            ALC_STEREO_SOURCES, ALCint(attributes.stereoSourceCount),
            ALC_HRTF_SOFT, attributes.hrtf ? ALC_TRUE : ALC_FALSE,
            ALC_OUTPUT_LIMITER_SOFT, attributes.limiter ? ALC_TRUE : ALC_FALSE,
        ]
        let opened: OpaquePointer?
        switch kind {
        case .playback(let deviceName):
            if let updatesPerSecond = attributes.updatesPerSecond {
                contextAttributes += [ALC_REFRESH, ALCint(updatesPerSecond)]
            }
            opened = Self.openPlaybackDevice(deviceName)
            guard opened != nil else {
                throw InterludeError(.deviceUnavailable, "alcOpenDevice(\(deviceName.map { "\"\($0)\"" } ?? "NULL")): no such output device could be opened")
            }
        case .loopback(let format):
            guard let open = global.loopbackOpenDevice, let supported = global.isRenderFormatSupported else {
                throw InterludeError(.deviceUnavailable, "alcLoopbackOpenDeviceSOFT: ALC_SOFT_loopback is missing from this OpenAL")
            }
            opened = Self.injectedOpenFailure ? nil : open(nil)
            guard let loopback = opened else {
                throw InterludeError(.deviceUnavailable, "alcLoopbackOpenDeviceSOFT: failed")
            }
            let channels = format.channelCount == 1 ? ALC_MONO_SOFT : ALC_STEREO_SOFT
            guard supported(loopback, ALCsizei(format.sampleRate), channels, ALC_FLOAT_SOFT) != 0 else {
                alcCloseDevice(loopback)
                throw InterludeError(.invalidArgument, "alcIsRenderFormatSupportedSOFT: \(format.sampleRate) Hz, \(format.channelCount) channels float is not supported")
            }
            contextAttributes += [
                ALC_FORMAT_CHANNELS_SOFT, channels,
                ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                ALC_FREQUENCY, ALCint(format.sampleRate),
            ]
        }
        contextAttributes.append(0)
        let created: OpaquePointer
        do {
            created = try Self.createContext(opened, contextAttributes)
        } catch {
            alcCloseDevice(opened)
            throw error
        }
        device = opened
        context = created
        extensions = ALExtensions(device: opened)
        efx = ALEFX(device: opened)
        name = alcGetString(opened, ALC_ALL_DEVICES_SPECIFIER).map { String(cString: $0) } ?? "unknown"
        var frequency: ALCint = 0
        alcGetIntegerv(opened, ALC_FREQUENCY, 1, &frequency)
        if case .loopback(let format) = kind {
            sampleRate = format.sampleRate
        } else {
            sampleRate = frequency > 0 ? Int(frequency) : 48_000
        }
        _ = alcGetError(opened)
    }

    deinit {
        close()
    }

    /// `alcOpenDevice(name)`; NULL when the device cannot be opened.
    private static func openPlaybackDevice(_ name: String?) -> OpaquePointer? {
        injectedOpenFailure ? nil : alcOpenDevice(name)
    }

    /// `alcCreateContext`. Throws `.deviceUnavailable` naming the device's error.
    private static func createContext(_ device: OpaquePointer?, _ attributes: [ALCint]) throws -> OpaquePointer {
        #if DEBUG
        if ALFaults.fails(.createContext) {
            throw InterludeError(.deviceUnavailable, "alcCreateContext: ALC_INVALID_VALUE (injected)")
        }
        #endif
        guard let created = alcCreateContext(device, attributes) else {
            throw InterludeError(.deviceUnavailable, "alcCreateContext: \(ALCheck.alcErrorName(alcGetError(device)))")
        }
        return created
    }

    /// An injected failure of the device open (debug builds only; always false in release).
    private static var injectedOpenFailure: Bool {
        #if DEBUG
        return ALFaults.fails(.openDevice)
        #else
        return false
        #endif
    }

    /// True while the device is open.
    var isOpen: Bool { device != nil }

    /// True for a mono loopback device: AL_DIRECT_CHANNELS_SOFT would drop a stereo source there.
    var isMono: Bool {
        if case .loopback(let format) = kind { return format.channelCount == 1 }
        return false
    }

    /// True for a loopback (offline) device.
    var isLoopback: Bool {
        if case .loopback = kind { return true }
        return false
    }

    /// ALC_CONNECTED (ALC_EXT_disconnect): false once the device or its server is gone.
    var isConnected: Bool {
        guard let device else { return false }
        var connected: ALCint = 1
        alcGetIntegerv(device, ALC_CONNECTED, 1, &connected)
        return alcGetError(device) == ALC_NO_ERROR ? connected != 0 : true
    }

    /// ALC_HRTF_SOFT: whether the device is mixing with HRTF.
    var isHRTFEnabled: Bool {
        guard let device else { return false }
        var enabled: ALCint = 0
        alcGetIntegerv(device, ALC_HRTF_SOFT, 1, &enabled)
        _ = alcGetError(device)
        return enabled != 0
    }

    /// ALC_DEVICE_CLOCK_SOFT (ALC_SOFT_device_clock): how much audio the mixer has produced
    /// since the device opened, in nanoseconds. It stands still while the backend does not take
    /// samples (a PulseAudio stream that has not started yet). nil without the extension or on
    /// error. Thread-safe in OpenAL Soft: needs no current context.
    var clockNanoseconds: Int64? {
        guard let device, let getInteger64v = extensions.getInteger64v else { return nil }
        var clock: ALCint64SOFT = 0
        getInteger64v(device, ALC_DEVICE_CLOCK_SOFT, 1, &clock)
        return alcGetError(device) == ALC_NO_ERROR ? Int64(clock) : nil
    }

    /// ALC_REFRESH: how many times a second the mixer fills a period (48 when unknown).
    var updatesPerSecond: Double {
        guard let device else { return 48 }
        var refresh: ALCint = 0
        alcGetIntegerv(device, ALC_REFRESH, 1, &refresh)
        return alcGetError(device) == ALC_NO_ERROR && refresh > 0 ? Double(refresh) : 48
    }

    /// The HRTF data sets available on this device (ALC_SOFT_HRTF).
    var hrtfNames: [String] {
        guard let device, let getString = extensions.getStringi else { return [] }
        var count: ALCint = 0
        alcGetIntegerv(device, ALC_NUM_HRTF_SPECIFIERS_SOFT, 1, &count)
        return (0..<max(0, Int(count))).compactMap { index in
            getString(device, ALC_HRTF_SPECIFIER_SOFT, ALCsizei(index)).map { String(cString: $0) }
        }
    }

    /// The ALC extension string of this device.
    var alcExtensionString: String {
        alcGetString(device, ALC_EXTENSIONS).map { String(cString: $0) } ?? ""
    }

    /// The number of source names made on this device and not yet deleted.
    var liveSourceCount: Int { liveSources.count }
    /// The number of buffer names made on this device and not yet deleted.
    var liveBufferCount: Int { liveBuffers.count }

    // MARK: Context (called by AudioSession only)

    /// `alcMakeContextCurrent(context)`.
    func makeContextCurrent() throws {
        #if DEBUG
        try ALFaults.check(.makeContextCurrent, "alcMakeContextCurrent", error: "ALC_INVALID_CONTEXT")
        #endif
        guard alcMakeContextCurrent(context) != 0 else {
            throw InterludeError(.openAL, "alcMakeContextCurrent: \(ALCheck.alcErrorName(alcGetError(device)))")
        }
        ALCheck.clearAL()
    }

    /// `alcMakeContextCurrent(NULL)`.
    static func clearCurrentContext() {
        _ = alcMakeContextCurrent(nil)
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

    /// `alcGetCurrentContext() == context`.
    var isContextCurrent: Bool {
        context != nil && alcGetCurrentContext() == context
    }

    /// `alcSuspendContext`: holds back property changes until `processContext`.
    func suspendContext() {
        guard let context else { return }
        alcSuspendContext(context)
        _ = alcGetError(device)
    }

    /// `alcProcessContext`.
    func processContext() {
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

    /// `alcDevicePauseSOFT`: returns false where the device cannot be paused (loopback devices
    /// fail with ALC_INVALID_DEVICE; the caller then renders silence itself).
    func pause() -> Bool {
        guard let device, !isLoopback, let pause = extensions.devicePause else { return false }
        pause(device)
        return alcGetError(device) == ALC_NO_ERROR
    }

    /// `alcDeviceResumeSOFT`.
    func resume() {
        guard let device, !isLoopback, let resume = extensions.deviceResume else { return }
        resume(device)
        _ = alcGetError(device)
    }

    // MARK: Rendering (loopback only)

    /// `alcRenderSamplesSOFT`: mixes `frameCount` frames of float samples into `destination`.
    /// With the limiter on, no sample passes full scale.
    func render(into destination: UnsafeMutablePointer<Float>, frameCount: Int) {
        guard let device, let render = extensions.renderSamples, frameCount > 0 else { return }
        render(device, destination, ALCsizei(frameCount))
        if attributes.limiter, case .loopback(let format) = kind {
            // OpenAL Soft's limiter holds full scale only to within float rounding: the last
            // ulp above it is cut here, so a limited render never exceeds 1.
            let samples = UnsafeMutableBufferPointer(start: destination, count: frameCount * format.channelCount)
            for index in samples.indices { samples[index] = min(1, max(-1, samples[index])) }
        }
    }

    // MARK: Names (context must be current)

    /// `alGenSources` for one source, owned by this device until ``deleteSource(_:)`` or ``close()``.
    func makeSource() throws -> ALSource {
        #if DEBUG
        try ALFaults.check(.genSources, "alGenSources", error: "AL_OUT_OF_MEMORY")
        #endif
        var source: ALuint = 0
        alGenSources(1, &source)
        try ALCheck.al("alGenSources")
        liveSources.insert(source)
        let made = ALSource(name: source)
        if let sourceResamplerIndex { try made.setResampler(index: sourceResamplerIndex) }
        return made
    }

    /// The context's resamplers by index (AL_NUM_RESAMPLERS_SOFT, then `alGetStringiSOFT` for
    /// each), or nil without AL_SOFT_source_resampler.
    func resamplerNames() throws -> [String]? {
        guard alIsExtensionPresent("AL_SOFT_source_resampler") != 0, let getString = extensions.getResamplerString else {
            _ = alGetError()
            return nil
        }
        let count = alGetInteger(AL_NUM_RESAMPLERS_SOFT)
        try ALCheck.al("alGetInteger(AL_NUM_RESAMPLERS_SOFT)")
        return try (0..<max(0, count)).map { index in
            let name = getString(AL_RESAMPLER_NAME_SOFT, index)
            try ALCheck.al("alGetStringiSOFT(AL_RESAMPLER_NAME_SOFT)")
            return name.map { String(cString: $0) } ?? ""
        }
    }

    /// Makes every source made from now on use `resampler` (nil: OpenAL Soft's default, no call
    /// made). Throws `.unsupportedFormat` when the context lacks AL_SOFT_source_resampler or a
    /// resampler by that name.
    func useResampler(_ resampler: Resampler?) throws {
        guard let resampler else {
            sourceResamplerIndex = nil
            return
        }
        guard let names = try resamplerNames() else {
            throw InterludeError(.unsupportedFormat, "resampler \(resampler.rawValue): this OpenAL has no AL_SOFT_source_resampler")
        }
        guard let index = names.firstIndex(where: resampler.openALNames.contains) else {
            throw InterludeError(.unsupportedFormat, "resampler \(resampler.rawValue): OpenAL Soft offers only \(names.joined(separator: ", "))")
        }
        sourceResamplerIndex = Int32(index)
    }

    /// `alDeleteSources` for one source made here.
    func deleteSource(_ source: ALSource) throws {
        guard liveSources.remove(source.name) != nil else { return }
        var sourceName = source.name
        alDeleteSources(1, &sourceName)
        try ALCheck.al("alDeleteSources")
    }

    /// `alGenBuffers` for one buffer, owned by this device until ``deleteBuffer(_:)`` or ``close()``.
    func makeBuffer() throws -> ALBuffer {
        #if DEBUG
        try ALFaults.check(.genBuffers, "alGenBuffers", error: "AL_OUT_OF_MEMORY")
        #endif
        var buffer: ALuint = 0
        alGenBuffers(1, &buffer)
        try ALCheck.al("alGenBuffers")
        liveBuffers.insert(buffer)
        return ALBuffer(name: buffer)
    }

    /// `alDeleteBuffers` for one buffer made here.
    func deleteBuffer(_ buffer: ALBuffer) throws {
        guard liveBuffers.remove(buffer.name) != nil else { return }
        var bufferName = buffer.name
        alDeleteBuffers(1, &bufferName)
        try ALCheck.al("alDeleteBuffers")
    }

    /// A reverb effect in its own auxiliary slot, both owned by this device. Returns the slot.
    func makeReverbSlot(_ preset: ReverbPreset) throws -> (effect: ALuint, slot: ALuint)? {
        guard let efx else { return nil }
        let effect = try efx.makeReverb(preset)
        liveEffects.insert(effect)
        let slot = try efx.makeSlot(running: effect)
        liveSlots.insert(slot)
        return (effect, slot)
    }

    /// A low-pass filter owned by this device.
    func makeLowPassFilter() throws -> ALuint? {
        guard let efx else { return nil }
        let filter = try efx.makeLowPass()
        liveFilters.insert(filter)
        return filter
    }

    /// Deletes a reverb slot and its effect made here.
    func deleteReverbSlot(effect: ALuint, slot: ALuint) {
        guard let efx else { return }
        if liveSlots.remove(slot) != nil { efx.deleteSlot(slot) }
        if liveEffects.remove(effect) != nil { efx.deleteEffect(effect) }
    }

    /// The number of EFX objects (effects, slots, filters) made here and not yet deleted.
    var liveEffectObjectCount: Int { liveEffects.count + liveSlots.count + liveFilters.count }

    /// Deletes every source and then every buffer still alive (sources first: a buffer attached
    /// to a source cannot be deleted). The context must be current.
    func deleteAllNames() {
        for source in liveSources {
            var sourceName = source
            alSourceStop(sourceName)
            alDeleteSources(1, &sourceName)
        }
        liveSources.removeAll()
        for buffer in liveBuffers {
            var bufferName = buffer
            alDeleteBuffers(1, &bufferName)
        }
        liveBuffers.removeAll()
        if let efx {
            liveSlots.forEach(efx.deleteSlot)
            liveEffects.forEach(efx.deleteEffect)
            liveFilters.forEach(efx.deleteFilter)
        }
        liveSlots.removeAll()
        liveEffects.removeAll()
        liveFilters.removeAll()
        ALCheck.clearAL()
    }

    /// Destroys the context and closes the device (`alcDestroyContext`, `alcCloseDevice`).
    /// Names not deleted by then are freed by OpenAL with the context; call ``deleteAllNames()``
    /// first, with the context current, so the counts stay exact.
    func close() {
        if let context {
            if alcGetCurrentContext() == context {
                _ = alcMakeContextCurrent(nil)
            }
            alcDestroyContext(context)
            self.context = nil
        }
        if let device {
            alcCloseDevice(device)
            self.device = nil
        }
        liveSources.removeAll()
        liveBuffers.removeAll()
        liveSlots.removeAll()
        liveEffects.removeAll()
        liveFilters.removeAll()
    }

    // MARK: Enumeration

    /// The playback devices OpenAL Soft's backend offers (ALC_ALL_DEVICES_SPECIFIER).
    static func playbackDeviceNames() -> [String] {
        guard alcIsExtensionPresent(nil, "ALC_ENUMERATE_ALL_EXT") != 0,
              let list = alcGetString(nil, ALC_ALL_DEVICES_SPECIFIER) else { return [] }
        var names: [String] = []
        var cursor = list
        while cursor.pointee != 0 {
            let name = String(cString: cursor)
            names.append(name)
            cursor += name.utf8.count + 1
        }
        return names
    }

    /// The default playback device's name, when there is one.
    static func defaultPlaybackDeviceName() -> String? {
        alcGetString(nil, ALC_DEFAULT_ALL_DEVICES_SPECIFIER).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The ALC extensions available without a device.
    static func globalALCExtensionString() -> String {
        alcGetString(nil, ALC_EXTENSIONS).map { String(cString: $0) } ?? ""
    }

    /// The AL strings of the current context: vendor, renderer, version, extensions.
    static func currentContextStrings() -> (vendor: String, renderer: String, version: String, extensions: String) {
        func string(_ parameter: ALenum) -> String { alGetString(parameter).map { String(cString: $0) } ?? "" }
        return (string(AL_VENDOR), string(AL_RENDERER), string(AL_VERSION), string(AL_EXTENSIONS))
    }
}
