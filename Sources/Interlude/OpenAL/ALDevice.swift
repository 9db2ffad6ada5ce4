import COpenAL
import Synchronization

/// The one owner of an OpenAL device, its context, and every source and buffer made on it.
///
/// `ALCdevice*` and `ALCcontext*` are not Sendable: an installed `ALDevice` lives inside the
/// engine and is used only under the engine lock; a new one being prepared off the lock
/// (``DevicePreparation``) is used by one thread at a time until it is installed. Its names are
/// tracked by ``ALNames``, so closing it deletes every AL name it made and nothing leaks when a
/// device is lost and rebuilt. Its ``context`` is made current by whoever holds the
/// process-wide ``ALContextLock`` for it (see ``ALContext``).
final class ALDevice {
    /// How the device was opened.
    enum Kind: Equatable {
        /// A playback device through OpenAL Soft's backends: nil is the system default.
        case playback(name: String?)
        /// A loopback device (ALC_SOFT_loopback) that renders float samples on demand.
        case loopback(format: AudioFormat)
    }

    /// Context attributes: source counts, HRTF, the output limiter (ALC_OUTPUT_LIMITER_SOFT),
    /// one auxiliary send per source (ALC_MAX_AUXILIARY_SENDS), and for a playback device the periods per second asked for (ALC_REFRESH; OpenAL Soft
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
    /// The device's name as OpenAL reports it (ALC_ALL_DEVICES_SPECIFIER); read again after
    /// ``reopen(on:)``.
    @exclusivity(unchecked) private(set) var name: String
    /// The mixing rate in frames per second.
    let sampleRate: Int
    /// ALC_REFRESH: how many times a second the mixer fills a period (48 when unknown). Read
    /// once, at open: OpenAL Soft answers it under the device's backend lock, which a pause
    /// waiting on a frozen server holds.
    let updatesPerSecond: Double
    /// Entry points of the extensions this device has.
    let extensions: ALExtensions
    /// The EFX entry points, when the device has ALC_EXT_EFX.
    let efx: ALEFX?
    /// The device's context.
    let context: ALContext

    @exclusivity(unchecked) private var device: OpaquePointer?
    /// The attributes the context was made with (0-terminated), which a reopen passes again.
    private let openAttributes: [ALCint]
    /// Every AL name made on this device and not yet deleted.
    private let names = ALNames()
    /// The resampler every new source gets (AL_SOURCE_RESAMPLER_SOFT); nil leaves OpenAL Soft's default.
    @exclusivity(unchecked) private var sourceResamplerIndex: Int32?
    /// The library's release, read by ``prepareContext(resampler:)`` (nil until then, or when
    /// AL_VERSION names none).
    @exclusivity(unchecked) private(set) var release: ALRelease?
    /// Devices this process has opened, and closed, so far (see ``openedAndClosedCounts``).
    private static let openedCount = Atomic<Int>(0)
    private static let closedCount = Atomic<Int>(0)

    /// How many devices this process has opened, and closed, so far. Tests read it around an
    /// engine's shutdown: every device the engine opened is closed once, and before
    /// ``SoundEngine/shutdown()`` returns (OpenAL Soft's library destructor, at exit, frees the
    /// state a close still running on another thread would use).
    static var openedAndClosedCounts: (opened: Int, closed: Int) {
        (openedCount.load(ordering: .acquiring), closedCount.load(ordering: .acquiring))
    }

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
            // The engine feeds effects through send 0 alone. OpenAL Soft's default of two
            // sends costs every one of its 256 preallocated voices a second send's state: 380 KiB.
            ALC_MAX_AUXILIARY_SENDS, 1,
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
        openAttributes = contextAttributes
        let created: OpaquePointer
        do {
            created = try Self.createContext(opened, contextAttributes)
        } catch {
            alcCloseDevice(opened)
            throw error
        }
        device = opened
        extensions = ALExtensions(device: opened)
        context = ALContext(created, device: opened, extensions: extensions)
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
        var refresh: ALCint = 0
        alcGetIntegerv(opened, ALC_REFRESH, 1, &refresh)
        updatesPerSecond = alcGetError(opened) == ALC_NO_ERROR && refresh > 0 ? Double(refresh) : 48
        Self.openedCount.add(1, ordering: .releasing)
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

    /// The HRTF data sets available on this device (ALC_SOFT_HRTF).
    var hrtfNames: [String] {
        guard let device, let getString = extensions.getStringi else { return [] }
        var count: ALCint = 0
        alcGetIntegerv(device, ALC_NUM_HRTF_SPECIFIERS_SOFT, 1, &count)
        return (0..<max(0, Int(count))).compactMap { index in
            getString(device, ALC_HRTF_SPECIFIER_SOFT, ALCsizei(index)).map { String(cString: $0) }
        }
    }

    /// The device can be moved to another output in place (ALC_SOFT_reopen_device, OpenAL Soft
    /// 1.22 and later; a loopback device never can).
    var canReopen: Bool { !isLoopback && extensions.reopenDevice != nil }

    /// A move of this device to another output in place, taken under the engine lock and run
    /// off it (``Reopen/run()``): the backend's open takes tens of milliseconds, which game
    /// calls must not wait for. Nil where the device cannot (see ``canReopen``).
    func reopen(on outputName: String?) -> Reopen? {
        guard let device, !isLoopback, let reopenDevice = extensions.reopenDevice else { return nil }
        return Reopen(device: device, outputName: outputName, attributes: openAttributes, call: reopenDevice)
    }

    /// After a ``Reopen`` succeeded, under the engine lock: reads the output's name again.
    func readNameAfterReopen() {
        guard let device else { return }
        name = alcGetString(device, ALC_ALL_DEVICES_SPECIFIER).map { String(cString: $0) } ?? name
    }

    /// One `alcReopenDeviceSOFT` call (ALC_SOFT_reopen_device, OpenAL Soft 1.22 and later),
    /// made on any thread: it moves the playback device to `outputName` (nil: the system
    /// default) with its context, sources, buffers and the attributes it was opened with kept.
    /// OpenAL Soft checks the device against its list and holds it for the call, so a device
    /// closed meanwhile gives false, not a crash.
    struct Reopen: @unchecked Sendable {
        fileprivate let device: OpaquePointer
        fileprivate let outputName: String?
        fileprivate let attributes: [ALCint]
        fileprivate let call: ALExtensions.ReopenDevice

        /// Blocks while the backend opens the new output. False where it would not open (the
        /// device then plays on where it was). OpenAL Soft answers true when the new output
        /// opened but did not start: the device then reports a disconnect (``isConnected``).
        func run() -> Bool {
            let reopened = attributes.withUnsafeBufferPointer { call(device, outputName, $0.baseAddress) }
            return reopened != 0
        }
    }

    /// The ALC extension string of this device.
    var alcExtensionString: String {
        alcGetString(device, ALC_EXTENSIONS).map { String(cString: $0) } ?? ""
    }

    /// The number of source names made on this device and not yet deleted.
    var liveSourceCount: Int { names.sourceCount }
    /// The number of buffer names made on this device and not yet deleted.
    var liveBufferCount: Int { names.bufferCount }
    /// The number of EFX objects (effects, slots, filters) made here and not yet deleted.
    var liveEffectObjectCount: Int { names.effectObjectCount }

    // MARK: The device's output

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

    /// `alGenSources` for one source, owned by this device until ``deleteSource(_:)`` or
    /// ``close()``, with the resampler set by ``prepareContext(resampler:)``.
    func makeSource() throws -> ALSource {
        try names.makeSource(resamplerIndex: sourceResamplerIndex)
    }

    /// Reads the library's release (`alGetString(AL_VERSION)`) and makes every source made from
    /// now on use `resampler` (nil: OpenAL Soft's default, no call made), with this device's
    /// context current. Throws `.unsupportedFormat` when the context lacks
    /// AL_SOFT_source_resampler or a resampler by that name.
    func prepareContext(resampler: Resampler?) throws {
        release = alGetString(AL_VERSION).flatMap { ALRelease(versionString: String(cString: $0)) }
        try ALCheck.al("alGetString(AL_VERSION)")
        sourceResamplerIndex = try ALResamplers.index(of: resampler, using: extensions)
    }

    /// Whether a paused or stopped voice fades out over the next mix (1.20 and later), rather
    /// than falling silent at once (1.19).
    var fadesPausedVoices: Bool {
        release.map { $0 >= .deClickRamps } ?? false
    }

    /// On a loopback device whose library fades paused voices out (1.20 and later), mixes that
    /// fade into a discarded buffer now, with the sources just paused: a mixer that will not
    /// run again until the sources play (an interruption renders silence itself) would
    /// otherwise play the fade-out of the old audio at its next mix, after the interruption.
    /// One mix of at least the ramp's 64 frames takes every paused voice to its stopped state.
    func mixPendingFadeOuts() {
        guard fadesPausedVoices, case .loopback(let format) = kind else { return }
        let frameCount = 64
        withUnsafeTemporaryAllocation(of: Float.self, capacity: frameCount * format.channelCount) { scratch in
            guard let base = scratch.baseAddress else { return }
            render(into: base, frameCount: frameCount)
        }
    }

    /// `alDeleteSources` for one source made here.
    func deleteSource(_ source: ALSource) throws {
        try names.deleteSource(source)
    }

    /// `alGenBuffers` for one buffer, owned by this device until ``deleteBuffer(_:)`` or ``close()``.
    func makeBuffer() throws -> ALBuffer {
        try names.makeBuffer()
    }

    /// `alDeleteBuffers` for one buffer made here.
    func deleteBuffer(_ buffer: ALBuffer) throws {
        try names.deleteBuffer(buffer)
    }

    /// A reverb effect in its own auxiliary slot, both owned by this device; nil without EFX.
    func makeReverbSlot(_ preset: ReverbPreset) throws -> (effect: ALuint, slot: ALuint)? {
        guard let efx else { return nil }
        return try names.makeReverbSlot(preset, with: efx)
    }

    /// A low-pass filter owned by this device; nil without EFX.
    func makeLowPassFilter() throws -> ALuint? {
        guard let efx else { return nil }
        return try names.makeLowPassFilter(with: efx)
    }

    /// Deletes a reverb slot and its effect made here.
    func deleteReverbSlot(effect: ALuint, slot: ALuint) {
        guard let efx else { return }
        names.deleteReverbSlot(effect: effect, slot: slot, with: efx)
    }

    /// Deletes every AL name still alive. The context must be current.
    func deleteAllNames() {
        names.deleteAll(efx: efx)
    }

    /// Destroys the context and closes the device (`alcDestroyContext`, `alcCloseDevice`).
    /// Names not deleted by then are freed by OpenAL with the context; call ``deleteAllNames()``
    /// first, with the context current, so the counts stay exact.
    func close() {
        context.destroy()
        if let device {
            alcCloseDevice(device)
            self.device = nil
            Self.closedCount.add(1, ordering: .releasing)
        }
        names.forgetAll()
    }
}
