/// The engine's record of one playing instance: enough to start it again anywhere, on any
/// device, at the frame it had reached.
///
/// A voice is real while it holds an AL source, and virtual otherwise: a virtual voice that
/// is playing keeps its time moving, so when it gets a source again it starts where it would be.
/// What the voice pool's update needs lives in the voice's ``VoicePoolEntry``, which the voice
/// rewrites whenever one of the properties it mirrors changes.
final class Voice {
    let handle: VoiceHandle
    let sound: Sound
    /// Everything about how it plays. Setting it rewrites the pool entry; ``move(to:)`` is the
    /// cheap way to change only the position.
    /// (Yielded in place: a plain getter would copy the struct, strings and all, on every read.)
    var parameters: VoiceParameters {
        _read { yield storedParameters }
        _modify {
            yield &storedParameters
            writeEntry()
        }
    }
    private var storedParameters: VoiceParameters
    /// The index of ``VoiceParameters/group`` in the engine's group table.
    var groupIndex: Int { didSet { writeEntry() } }
    var state: PlayState { didSet { writeEntry() } }
    /// The AL source while the voice is real.
    var source: ALSource? { didSet { writeEntry() } }
    /// A short UI sound: dropped during an interruption, never resumed.
    let isSystemSound: Bool
    /// A gain fade running on the update.
    var gainFade: Fade? { didSet { writeEntry() } }
    /// A pitch fade running on the update.
    var pitchFade: Fade? { didSet { writeEntry() } }
    /// Stop the voice when its gain fade ends (a fade-out).
    var stopsWhenFadeEnds = false
    /// Set once the voice has ended: its slot (and entry) may already belong to another voice.
    private(set) var isRemoved = false
    /// The engine's pool (held strongly: it holds no voices, so there is no cycle, and an
    /// unowned reference cost a runtime check on every entry write).
    private let pool: VoicePoolStorage

    init(handle: VoiceHandle, sound: Sound, parameters: VoiceParameters, groupIndex: Int, state: PlayState,
         isSystemSound: Bool, pool: VoicePoolStorage) {
        self.handle = handle
        self.sound = sound
        self.storedParameters = parameters
        self.groupIndex = groupIndex
        self.state = state
        self.isSystemSound = isSystemSound
        self.pool = pool
        pool.resetEntry(at: handle.slot)
        writeEntry()
    }

    /// How far into its sound the voice has played, in frames of the sound. Kept by the engine
    /// from OpenAL's offset, and advanced by the clock between reads and while virtual, so it
    /// survives the device.
    var positionInFrames: Int {
        get { pool.entries[handle.slot].positionInFrames }
        set {
            guard !isRemoved else { return }
            pool.entries[handle.slot].positionInFrames = newValue
            pool.entries[handle.slot].frameRemainder = 0
        }
    }

    /// Moves a positional voice: the hot path of a game moving its emitters every frame, so only
    /// the entry's position is written.
    func move(to position: Vector3) {
        storedParameters.position = position
        guard !isRemoved else { return }
        pool.entries[handle.slot].position = position
    }

    /// The voice is going virtual between updates: the next update must advance it only by the
    /// time from now, so `seconds` of the current interval are not counted.
    func discountTime(seconds: Double) {
        guard !isRemoved else { return }
        pool.entries[handle.slot].frameRemainder = -seconds * pool.entries[handle.slot].framesPerSecond
    }

    /// Marks the voice ended: its entry stops playing, and later changes to this object no
    /// longer touch the slot.
    func markRemoved() {
        pool.entries[handle.slot].isPlaying = false
        pool.refreshServiced(handle.slot)
        isRemoved = true
    }

    /// The AL buffer layout this voice needs: positional voices play the mono downmix.
    var usesMonoBuffer: Bool { parameters.position != nil && sound.format.channelCount == 2 }

    /// Never made virtual: ``VoiceParameters/protectedPriority`` or more.
    var isProtected: Bool { parameters.priority >= VoiceParameters.protectedPriority }

    /// Rewrites the entry from the voice, keeping the position the entry owns.
    private func writeEntry() {
        guard !isRemoved else { return }
        let slot = handle.slot
        guard slot < pool.entries.count else { return }
        var entry = pool.entries[slot]
        entry.isPlaying = state == .playing
        entry.isReal = source != nil
        entry.isLooping = parameters.isLooping
        entry.isProtected = isProtected
        entry.hasFade = gainFade != nil || pitchFade != nil
        entry.hasPosition = parameters.position != nil
        entry.isRelativeToListener = parameters.isRelativeToListener
        entry.groupIndex = groupIndex
        entry.priority = parameters.priority
        entry.gain = parameters.gain
        entry.position = parameters.position ?? .zero
        entry.referenceDistance = parameters.referenceDistance
        entry.maxDistance = parameters.maxDistance
        entry.rolloffFactor = parameters.rolloffFactor
        entry.framesPerSecond = Double(sound.format.sampleRate) * Double(parameters.pitch)
        entry.frameCount = sound.frameCount
        pool.entries[slot] = entry
        pool.refreshServiced(slot)
    }
}
