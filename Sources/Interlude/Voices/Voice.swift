/// The engine's record of one playing instance: enough to start it again anywhere, on any
/// device, at the frame it had reached.
///
/// A voice is real while it holds an AL source, and virtual otherwise: a virtual voice that is
/// playing keeps its time moving, so when it gets a source again it starts where it would be.
/// What the voice pool's update needs (state, source, gain, position, distances, priority,
/// play position) is kept only in the voice's ``VoicePoolEntry``; the voice keeps the rest.
///
/// A voice plays a loaded ``Sound`` or a stream (a ``StreamQueue`` fed by the decode thread): a
/// streamed voice is real, virtual, held and rebuilt like any other, its queue following the
/// voice's position whenever it gets a source.
final class Voice {
    /// What a voice plays.
    enum Media {
        /// A loaded sound, all in memory.
        case loaded(Sound)
        /// A track streamed from its file while it plays.
        case streamed(StreamQueue)
    }

    let handle: VoiceHandle
    private let media: Media
    /// A short UI sound: dropped during an interruption, never resumed.
    let isSystemSound: Bool
    /// The parameters the pool does not read: velocity, the group's name, reverb and low-pass.
    @exclusivity(unchecked) private var velocityState: Vector3
    @exclusivity(unchecked) private var group: GroupID
    @exclusivity(unchecked) private var reverbZone: ReverbZoneID?
    @exclusivity(unchecked) private var lowPassGainHF: Float
    @exclusivity(unchecked) private var gainFadeState: Fade?
    @exclusivity(unchecked) private var pitchFadeState: Fade?
    @exclusivity(unchecked) private var fadeEnding: FadeEnd = .none
    /// What the cue's curves make of its gain, pitch and low-pass (unity without curves).
    @exclusivity(unchecked) private var curveFactors: CurveFactors
    /// Set once the voice has ended: its slot (and entry) may already belong to another voice.
    @exclusivity(unchecked) private var removed = false
    /// The table's entries (held strongly: they hold no voices, so there is no cycle, and an
    /// unowned reference cost a runtime check on every entry access).
    private let entries: VoicePoolStorage

    init(handle: VoiceHandle, media: Media, parameters: VoiceParameters, groupIndex: Int, state: PlayState,
         isSystemSound: Bool, entries: VoicePoolStorage, factors: CurveFactors = .unity) {
        self.handle = handle
        self.curveFactors = factors
        self.media = media
        self.isSystemSound = isSystemSound
        self.entries = entries
        self.velocityState = parameters.velocity
        self.group = parameters.group
        self.reverbZone = parameters.reverbZone
        self.lowPassGainHF = parameters.lowPassGainHF
        entries.resetEntry(at: handle.slot)
        entries[handle.slot].frameCount = frameCount
        entries[handle.slot].loopStartFrame = loopRegion?.lowerBound ?? 0
        entries[handle.slot].loopEndFrame = loopRegion?.upperBound ?? frameCount
        entries[handle.slot].state = state
        entries[handle.slot].groupIndex = groupIndex
        if case .streamed = media { entries[handle.slot].isStreamed = true }
        write(parameters)
    }

    private var slot: Int { handle.slot }

    // MARK: What it plays

    /// The loaded sound it plays; nil for a streamed voice.
    var sound: Sound? {
        guard case .loaded(let sound) = media else { return nil }
        return sound
    }

    /// The stream it plays; nil for a voice of a loaded sound.
    var stream: StreamQueue? {
        guard case .streamed(let stream) = media else { return nil }
        return stream
    }

    /// The sound's or the stream's file (or given name), for errors and snapshots.
    var name: String {
        switch media {
        case .loaded(let sound): sound.name
        case .streamed(let stream): stream.path
        }
    }

    /// The format it plays, as decoded.
    var format: AudioFormat {
        switch media {
        case .loaded(let sound): sound.format
        case .streamed(let stream): stream.format
        }
    }

    /// Its length in frames.
    var frameCount: Int {
        switch media {
        case .loaded(let sound): sound.frameCount
        case .streamed(let stream): stream.frameCount
        }
    }

    /// The frames a looping voice repeats (nil: all of them).
    private var loopRegion: Range<Int>? {
        switch media {
        case .loaded(let sound): sound.loopRegion
        case .streamed(let stream): stream.loopRegion
        }
    }

    // MARK: Fields kept in the entry

    /// Everything about how it plays, put together from the entry and the voice.
    var parameters: VoiceParameters {
        get {
            let entry = entries[slot]
            var parameters = VoiceParameters()
            parameters.gain = entry.gain
            parameters.pitch = entry.pitch
            parameters.isLooping = entry.isLooping
            parameters.position = entry.hasPosition ? entry.position : nil
            parameters.velocity = velocityState
            parameters.isRelativeToListener = entry.isRelativeToListener
            parameters.referenceDistance = entry.referenceDistance
            parameters.maxDistance = entry.maxDistance
            parameters.rolloffFactor = entry.rolloffFactor
            parameters.group = group
            parameters.priority = entry.priority
            parameters.reverbZone = reverbZone
            parameters.lowPassGainHF = lowPassGainHF
            return parameters
        }
        set {
            guard !removed else { return }
            write(newValue)
        }
    }

    private func write(_ parameters: VoiceParameters) {
        velocityState = parameters.velocity
        group = parameters.group
        reverbZone = parameters.reverbZone
        lowPassGainHF = parameters.lowPassGainHF
        entries[slot].gain = parameters.gain
        entries[slot].pitch = parameters.pitch
        entries[slot].framesPerSecond = Double(format.sampleRate) * Double(parameters.pitch * curveFactors.pitch)
        entries[slot].isLooping = parameters.isLooping
        entries[slot].hasPosition = parameters.position != nil
        entries[slot].position = parameters.position ?? .zero
        entries[slot].isRelativeToListener = parameters.isRelativeToListener
        entries[slot].referenceDistance = parameters.referenceDistance
        entries[slot].maxDistance = parameters.maxDistance
        entries[slot].rolloffFactor = parameters.rolloffFactor
        entries[slot].priority = parameters.priority
    }

    /// The index of the voice's group in the group table.
    var groupIndex: Int {
        get { entries[slot].groupIndex }
        set { if !removed { entries[slot].groupIndex = newValue } }
    }

    var state: PlayState {
        get { entries[slot].state ?? .paused }
        set {
            guard !removed else { return }
            entries[slot].state = newValue
            entries.refreshServiced(slot)
        }
    }

    /// The voice's place in the renderer while it is real (``ALRenderer`` maps it to a source).
    var renderSlot: RenderSlot? {
        get {
            guard !removed else { return nil }
            let name = entries[slot].sourceName
            return name == 0 ? nil : RenderSlot(sourceName: name)
        }
        set {
            guard !removed else { return }
            entries[slot].sourceName = newValue?.sourceName ?? 0
            entries.refreshServiced(slot)
        }
    }

    /// The voice holds a place in the renderer: it is heard, not virtual.
    var isReal: Bool { renderSlot != nil }

    var gain: Float { entries[slot].gain }
    var pitch: Float { entries[slot].pitch }
    var isLooping: Bool { entries[slot].isLooping }
    var isPositional: Bool { entries[slot].hasPosition }
    var isRelativeToListener: Bool { entries[slot].isRelativeToListener }
    /// Where a positional voice is (zero for an unpositioned one).
    var position: Vector3 { entries[slot].position }
    /// The velocity, for doppler.
    var velocity: Vector3 { velocityState }
    var referenceDistance: Float { entries[slot].referenceDistance }
    var maxDistance: Float { entries[slot].maxDistance }
    var rolloffFactor: Float { entries[slot].rolloffFactor }
    /// The reverb zone the voice names itself, if any.
    var ownReverbZone: ReverbZoneID? { reverbZone }

    /// How far into its sound the voice has played, in frames of the sound. Kept by the engine
    /// from OpenAL's offset, and advanced by the clock between reads and while virtual, so it
    /// survives the device.
    var positionInFrames: Int {
        get { entries[slot].positionInFrames }
        set {
            guard !removed else { return }
            entries[slot].positionInFrames = newValue
            entries[slot].frameRemainder = 0
        }
    }

    /// Records `changes` for the update to send, when the voice holds a source: a voice that gets
    /// one later is started with all its parameters, so a virtual voice has nothing to record.
    func markChanged(_ changes: VoiceChanges) {
        guard !removed, entries[slot].isReal else { return }
        entries.markChanged(slot, changes)
    }

    /// The voice is going virtual between updates: the next update must advance it only by the
    /// time from now, so `seconds` of the current interval are not counted.
    func discountTime(seconds: Double) {
        guard !removed else { return }
        entries[slot].frameRemainder = -seconds * entries[slot].framesPerSecond
    }

    /// Moves the play position on by the clock; false when a one-shot has passed its end.
    func advance(bySeconds seconds: Double) -> Bool {
        guard !removed else { return false }
        return entries[slot].advance(bySeconds: seconds)
    }

    // MARK: Fades

    /// A gain fade running on the update.
    var gainFade: Fade? {
        get { gainFadeState }
        set {
            gainFadeState = newValue
            fadesChanged()
        }
    }

    /// A pitch fade running on the update.
    var pitchFade: Fade? {
        get { pitchFadeState }
        set {
            pitchFadeState = newValue
            fadesChanged()
        }
    }

    /// What happens when the gain fade ends: nothing, a stop (a fade-out), or a pause.
    var fadeEnd: FadeEnd {
        get { fadeEnding }
        set { fadeEnding = newValue }
    }

    /// Sets the gain a fade reached.
    func setFadedGain(_ gain: Float) {
        guard !removed else { return }
        entries[slot].gain = gain
    }

    /// Sets the pitch a fade reached.
    func setFadedPitch(_ pitch: Float) {
        guard !removed else { return }
        entries[slot].pitch = pitch
        entries[slot].framesPerSecond = Double(format.sampleRate) * Double(pitch * curveFactors.pitch)
    }

    // MARK: Curves

    /// What the cue's curves make of the voice's gain, pitch and low-pass now.
    var factors: CurveFactors { curveFactors }

    /// Sets what the curves make of the voice, records what changed for the update to send,
    /// and moves its clock at the new pitch.
    func setFactors(_ factors: CurveFactors) {
        guard !removed, factors != curveFactors else { return }
        let changes = factors.changes(from: curveFactors)
        curveFactors = factors
        entries[slot].framesPerSecond = Double(format.sampleRate) * Double(entries[slot].pitch * factors.pitch)
        markChanged(changes)
    }

    /// The gain OpenAL plays: the voice's own, its curves' and its group's (`groupGain`).
    func playedGain(groupGain: Float) -> Float { entries[slot].gain * curveFactors.gain * groupGain }
    /// The pitch OpenAL plays: the voice's own times its curves'.
    var playedPitch: Float { entries[slot].pitch * curveFactors.pitch }
    /// The low-pass OpenAL plays: the voice's own (occlusion) times its curves' and its
    /// group's (`groupLowPass`, from the mix snapshots).
    func playedLowPass(groupLowPass: Float) -> Float { lowPassGainHF * curveFactors.lowPass * groupLowPass }

    private func fadesChanged() {
        guard !removed else { return }
        entries[slot].hasFade = gainFadeState != nil || pitchFadeState != nil
        entries.refreshServiced(slot)
    }

    // MARK: Ending

    /// The voice has ended.
    var isRemoved: Bool { removed }

    /// Marks the voice ended: its entry stops playing, and later changes to this object no
    /// longer touch the slot.
    func markRemoved() {
        entries[slot].state = nil
        entries[slot].sourceName = 0
        entries.refreshServiced(slot)
        removed = true
    }

    /// The AL buffer layout this voice needs: positional voices play the mono downmix.
    var usesMonoBuffer: Bool { isPositional && format.channelCount == 2 }
}
