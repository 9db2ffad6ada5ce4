#if canImport(Glibc)
import Glibc
#endif
import Logging

/// Everything the engine knows, guarded by the engine's lock: the device, the session, the
/// voices, the streams, the listener and the groups. The model here is the truth; OpenAL is
/// brought in line with it whenever the session is active, and rebuilt from it after a
/// device loss.
///
/// `@unchecked Sendable`: an EngineCore is only ever reached through ``SoundEngine``'s `Mutex`,
/// which serialises every access; region checking cannot see through the closures that take it.
final class EngineCore: @unchecked Sendable {
    let configuration: SoundEngine.Configuration
    let engineID: Int
    let logger: Logger
    let session: AudioSession

    /// The open device, nil while it is lost or after shutdown.
    var device: ALDevice?
    /// The output in use: the configured one until ``switchDevice(to:)`` moves to another.
    /// A reopen after a loss opens this one.
    var currentOutput: OutputDevice
    var isShutDown = false

    // Sounds
    var sounds: [Int: Sound] = [:]
    var soundBuffers: [Int: SoundBuffers] = [:]

    // Voices
    var voiceSlots: [Voice?] = []
    var slotGenerations: [UInt32] = []
    var freeSlots: [Int] = []
    var liveVoiceCount = 0
    /// Voices holding an AL source.
    var realVoiceCount = 0
    /// The voice pool's selection buffer, reused on every update: its first ``candidateCount``
    /// are this update's candidates (it only grows, with the pool).
    var candidates: [ScoredSlot] = []
    var candidateCount = 0
    /// Voices that are not real and score below this are left out of ``candidates``: most of
    /// a large pool is far below the budget's last place (see ``candidateFloor(below:)``).
    var candidateFloor = -Double.infinity
    /// How many of the candidates scored at least ``candidateFloor``.
    var candidatesAboveFloor = 0
    /// What the pool's update needs of each voice, by slot, in one contiguous array.
    let pool = VoicePoolStorage()
    /// Scratch lists of slots for the update, reused so it allocates nothing.
    var slotScratch: [Int32] = []
    var endedScratch: [Int32] = []
    var freeSources: [ALSource] = []
    /// Sources of voices stopped while interrupted: stopped and freed when the session is active.
    var sourcesToRelease: [ALSource] = []
    /// Buffers of sounds unloaded while interrupted: deleted when the session is active.
    var buffersToDelete: [ALBuffer] = []
    /// True while ``withAL(_:_:)`` runs its body: the context lock is held and the context is
    /// current, so a nested call (a one-shot ending inside the update) runs its body directly.
    var isInsideAL = false

    // Streams
    var streams: [StreamChannel: MusicStream] = [:]
    /// Streams on their way out: fading out, or replaced while interrupted.
    var outgoingStreams: [MusicStream] = []
    /// Every stream, current and outgoing (a new array: not for the update's hot path).
    var allStreams: [MusicStream] { Array(streams.values) + outgoingStreams }
    /// The decode error that ended each channel's last track, kept after the track is released
    /// so the game can still read it; cleared when the channel plays another track.
    var streamErrors: [StreamChannel: InterludeError] = [:]

    // World
    var listener = Listener()
    var distanceModel: DistanceModel
    var dopplerFactor: Float
    var speedOfSound: Float
    var groups = GroupTable()
    /// Reverb zones by name.
    var reverbZones: [String: ReverbZone] = [:]
    /// The reverb zone each group sends to, by group index.
    var groupReverbZones: [Int: String] = [:]
    /// The shared occlusion filter on the current device.
    var lowPassFilter: UInt32?

    // Time
    /// Updates run while active, for spreading periodic work across updates.
    var updateCount = 0
    var framesUntilUpdate = 0
    var framesSinceUpdate = 0
    var lastUpdateInstant: ContinuousClock.Instant?
    var nextReopenInstant: ContinuousClock.Instant?
    var reopenBackoffSeconds = 0.1
    /// Tests only: while true, ``update(elapsedSeconds:now:)`` does nothing, so an offline render
    /// keeps mixing with no stream refills (how the starvation tests stall the updates).
    var suspendsUpdatesForTesting = false

    /// Events for the game, delivered after the lock is released.
    var pendingEvents: [SessionEvent] = []
    /// AL errors from calls whose arguments the engine controls: bugs, logged and counted.
    var internalErrorCount = 0

    init(configuration: SoundEngine.Configuration, engineID: Int, logger: Logger) throws {
        self.configuration = configuration
        self.engineID = engineID
        self.logger = logger
        self.session = AudioSession(policy: configuration.resumePolicy, logger: logger)
        self.distanceModel = configuration.distanceModel
        self.dopplerFactor = configuration.dopplerFactor
        self.speedOfSound = configuration.speedOfSoundMetresPerSecond
        self.currentOutput = configuration.output
        let opened = try Self.openDevice(configuration.output, configuration: configuration)
        do {
            try session.attach(opened)
            try session.withContext(opened) { try applyWorld() }
        } catch {
            session.tearDown(opened, isReachable: true)
            throw error
        }
        device = opened
    }

    /// Opens `output` with the configuration's source counts, HRTF and media role.
    static func openDevice(_ output: OutputDevice, configuration: SoundEngine.Configuration) throws -> ALDevice {
        if let role = configuration.mediaRole, getenv("PULSE_PROP_media.role") == nil {
            setenv("PULSE_PROP_media.role", role, 0)
        }
        let kind: ALDevice.Kind
        switch output {
        case .offline(let sampleRate, let channelCount):
            kind = .loopback(format: AudioFormat(sampleRate: sampleRate, channelCount: channelCount))
        case .systemDefault:
            kind = .playback(name: nil)
        case .named(let name):
            kind = .playback(name: name)
        case .null:
            guard NullBackend.select() else {
                throw InterludeError(.deviceUnavailable, "OutputDevice.null: OpenAL Soft already started in this process with other drivers; set ALSOFT_DRIVERS=null before launch")
            }
            kind = .playback(name: nil)
        }
        NullBackend.markOpenALStarted()
        return try ALDevice(kind: kind, attributes: ALDevice.Attributes(
            monoSourceCount: configuration.monoSourceCount,
            stereoSourceCount: configuration.stereoSourceCount,
            hrtf: configuration.hrtf))
    }

    /// True when AL calls may be made: a device is open and the session is active.
    var canUseAL: Bool { device != nil && session.state.isActive }

    /// Runs AL work with the context current, when the session is active. An AL error from the
    /// engine's own calls is a bug: it is logged and counted, and never crashes the game.
    /// Nested AL work (a voice ended during an update, say) runs inside the lock already held.
    func withAL(_ call: String, _ body: (ALDevice) throws -> Void) {
        guard canUseAL, let device else { return }
        let isNested = isInsideAL
        isInsideAL = true
        defer { isInsideAL = isNested }
        do {
            if isNested {
                try body(device)
            } else {
                try session.withContext(device) { try body(device) }
            }
        } catch {
            internalErrorCount += 1
            logger.error("\(call): \(error)")
        }
    }

    /// Sets the listener, distance model and doppler on the current context.
    func applyWorld() throws {
        try listener.apply()
        try ALListener.setDistanceModel(distanceModel)
        try ALListener.setDopplerFactor(dopplerFactor)
        try ALListener.setSpeedOfSound(speedOfSound)
    }

    /// Throws `.shutDown` naming `call` after shutdown.
    func checkAlive(_ call: String) throws {
        if isShutDown {
            throw InterludeError(.shutDown, "\(call): the engine has been shut down")
        }
    }

    func emit(_ event: SessionEvent) {
        pendingEvents.append(event)
    }

    /// The events raised since the last take, leaving none. Most calls raise none, and then
    /// this allocates nothing (returning the array while also clearing it would copy it).
    func takePendingEvents() -> [SessionEvent] {
        guard !pendingEvents.isEmpty else { return [] }
        var taken: [SessionEvent] = []
        swap(&taken, &pendingEvents)
        return taken
    }

    /// Stops everything, frees every AL name and closes the device. Idempotent.
    func shutDown() {
        guard !isShutDown else { return }
        for stream in allStreams { stream.forgetDevice() }
        streams.removeAll()
        outgoingStreams.removeAll()
        for index in voiceSlots.indices { voiceSlots[index] = nil }
        liveVoiceCount = 0
        realVoiceCount = 0
        freeSources.removeAll()
        sourcesToRelease.removeAll()
        buffersToDelete.removeAll()
        soundBuffers.removeAll()
        if let device {
            session.tearDown(device, isReachable: device.isConnected)
        }
        device = nil
        isShutDown = true
    }
}
