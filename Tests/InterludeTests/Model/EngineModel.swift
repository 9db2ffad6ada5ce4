/// What the engine promises, as the scene contract and the README state it, with no OpenAL in
/// it: the session and its holders, the voices with their states and positions, the soundtrack
/// and its position, the group gains, the lost device, and what is audible. The model-based test
/// drives it and a real offline engine with the same steps and compares them after each.
///
/// Positions are in frames of the output, which runs at the sounds' own rate (pitch 1), so a
/// render of n frames moves every playing voice and the playing soundtrack on by n frames.
struct EngineModel {
    enum Policy: String { case alwaysResume, honorShouldResume }

    /// A voice's or the soundtrack's state. `held`: playing when an interruption began;
    /// `pending`: asked to play while interrupted (rule 4); both count as playing.
    enum State: String {
        case playing, paused, held, pending, gone

        var countsAsPlaying: Bool { self == .playing || self == .held || self == .pending }
    }

    struct Voice {
        let lengthFrames: Int
        let isLooping: Bool
        let group: String
        var gain: Float
        var state: State
        var positionFrames: Int
        /// False for a voice restored from a snapshot: the engine gives no handle for it.
        let isAddressable: Bool
        /// For a one-shot that played out: how many frames ago its end went by.
        var framesSinceEnd: Int?
    }

    struct Music {
        let lengthFrames: Int
        var state: State
        var positionFrames: Int
    }

    let policy: Policy
    /// The sources holding the session, oldest first (rule 8).
    private(set) var holders: [String] = []
    /// The device is lost: one more hold, which only a restore releases (rule 6).
    private(set) var isDeviceLost = false
    private(set) var voices: [Voice] = []
    private(set) var music: Music?
    /// Frames left of a crossfade's outgoing track, while it fades (it is audible meanwhile).
    private(set) var outgoingFramesLeft = 0
    private(set) var groupGains: [String: Float] = ["master": 1, "music": 1, "sfx": 1, "voice": 1]
    /// The listener's gain: it scales everything heard.
    private(set) var listenerGain: Float = 1
    /// The listener's x, in metres: every move counts, whichever thread made it.
    private(set) var listenerX: Float = 0
    /// The session events the engine must have raised, oldest first.
    private(set) var events: [String] = []

    init(policy: Policy) {
        self.policy = policy
    }

    var isActive: Bool { holders.isEmpty && !isDeviceLost }

    /// The sources as the engine lists them: the sources' holds, then the device while lost.
    var engineHolders: [String] { holders + (isDeviceLost ? ["device"] : []) }

    // MARK: Session

    /// A begin from `source`; one giving the reason "deviceLost" is refused and changes nothing
    /// (rule 11): it returns false.
    @discardableResult
    mutating func begin(source: String, reason: String) -> Bool {
        guard reason != "deviceLost" else { return false }
        if holders.contains(source) {
            events.append("absorbed")
            return true
        }
        events.append(isActive ? "began(\(source))" : "holdAdded(\(source))")
        hold()
        holders.append(source)
        return true
    }

    mutating func end(source: String, shouldResume: Bool) {
        guard let index = holders.firstIndex(of: source) else {
            events.append("ignored")
            return
        }
        holders.remove(at: index)
        if !holders.isEmpty || isDeviceLost {
            events.append("holdReleased(\(source))")
            return
        }
        // Rule 9: the last end decides, as if it were the only one.
        events.append("ended(\(source))")
        resume(resumesHeld: policy == .alwaysResume || shouldResume)
    }

    /// Rule 10: ends every hold the game gave; it cannot end a device loss.
    mutating func activate() {
        if isActive {
            events.append("ignored")
        } else if isDeviceLost {
            if holders.isEmpty { events.append("ignored") }
            events += holders.map { "holdReleased(\($0))" }
            holders.removeAll()
        } else {
            holders.removeAll()
            events.append("activated")
            resume(resumesHeld: true)
        }
    }

    mutating func loseDevice() {
        guard !isDeviceLost else { return }
        events.append(isActive ? "began(device)" : "holdAdded(device)")
        events.append("servicesLost")
        hold()
        isDeviceLost = true
        // Rule 6: everything on the device goes; a crossfade's outgoing track with it.
        outgoingFramesLeft = 0
    }

    mutating func restoreDevice() {
        guard isDeviceLost else { return }
        isDeviceLost = false
        events.append("servicesReset")
        if holders.isEmpty {
            events.append("ended(device)")
            resume(resumesHeld: true)
        } else {
            events.append("holdReleased(device)")
        }
    }

    /// From active: what plays is held (rule 2); system sounds are never resumed.
    private mutating func hold() {
        guard isActive else { return }
        if music?.state == .playing { music?.state = .held }
        for index in voices.indices where voices[index].state == .playing { voices[index].state = .held }
    }

    /// The last holder let go (rules 3 and 9).
    private mutating func resume(resumesHeld: Bool) {
        func after(_ state: State) -> State {
            switch state {
            case .held: resumesHeld ? .playing : .paused
            case .pending: .playing
            default: state
            }
        }
        if let music { self.music?.state = after(music.state) }
        for index in voices.indices { voices[index].state = after(voices[index].state) }
    }

    // MARK: Voices

    /// A new voice. While interrupted a looping voice starts at the end and a one-shot is
    /// dropped (rule 4): its handle is stale from the start.
    mutating func play(lengthFrames: Int, isLooping: Bool, group: String, gain: Float) {
        let state: State = isActive ? .playing : isLooping ? .pending : .gone
        voices.append(Voice(lengthFrames: lengthFrames, isLooping: isLooping, group: group, gain: gain,
                            state: state, positionFrames: 0, isAddressable: true))
    }

    mutating func stop(_ index: Int) { voices[index].state = .gone }

    mutating func pause(_ index: Int) {
        if voices[index].state != .gone { voices[index].state = .paused }
    }

    mutating func resume(_ index: Int) { voices[index].state = resumed(voices[index].state) }

    mutating func setGain(_ gain: Float, of index: Int) {
        if voices[index].state != .gone { voices[index].gain = gain }
    }

    private func resumed(_ state: State) -> State {
        switch state {
        case .gone, .playing, .pending: state
        case .paused, .held: isActive ? .playing : .pending
        }
    }

    // MARK: Soundtrack

    mutating func playMusic(lengthFrames: Int) {
        music = Music(lengthFrames: lengthFrames, state: isActive ? .playing : .pending, positionFrames: 0)
    }

    /// A crossfade from a playing track while active leaves the old one fading out; otherwise it
    /// is a plain play.
    mutating func crossfadeMusic(lengthFrames: Int, durationFrames: Int) {
        if isActive, music?.state == .playing, durationFrames > 0 {
            outgoingFramesLeft = durationFrames
        }
        playMusic(lengthFrames: lengthFrames)
    }

    mutating func pauseMusic() {
        if let music, music.state != .gone, music.state != .paused { self.music?.state = .paused }
    }

    mutating func resumeMusic() {
        if let state = music?.state {
            let next = resumed(state)
            music?.state = next
        }
    }

    /// A stop ends a paused crossfade's outgoing track with it; a playing one fades on.
    mutating func stopMusic() {
        if let music, !music.state.countsAsPlaying || !isActive { outgoingFramesLeft = 0 }
        music = nil
    }

    // MARK: Groups

    mutating func setGroupGain(_ gain: Float, of group: String) { groupGains[group] = gain }

    func groupGain(_ group: String) -> Float { groupGains[group] ?? 1 }

    /// The listener keeps its gain through interruptions, device losses and switches.
    mutating func setListenerGain(_ gain: Float) { listenerGain = gain }

    mutating func moveListener(byMetres metres: Float) { listenerX += metres }

    // MARK: Snapshots

    /// A snapshot restored into a fresh engine: the soundtrack at its frame (playing if it was
    /// playing or would have resumed), the looping voices at theirs (without handles), the
    /// group gains; one-shots, holds and a crossfade's outgoing track are gone.
    mutating func restoreSnapshot() {
        // A fresh engine: it has raised no event yet.
        events.removeAll()
        holders.removeAll()
        isDeviceLost = false
        outgoingFramesLeft = 0
        if let music {
            self.music?.state = music.state == .paused ? .paused : .playing
        }
        voices = voices.map { voice in
            var restored = Voice(lengthFrames: voice.lengthFrames, isLooping: voice.isLooping, group: voice.group,
                                 gain: voice.gain, state: voice.state, positionFrames: voice.positionFrames,
                                 isAddressable: false)
            if voice.state.countsAsPlaying { restored.state = .playing }
            if !voice.isLooping { restored.state = .gone }
            return restored
        }.filter { $0.state != .gone }
    }

    // MARK: Rendering

    /// `frameCount` frames go by: while active, what plays moves on; a one-shot that reaches its
    /// end is gone.
    mutating func render(frameCount: Int) {
        guard isActive else { return }
        for index in voices.indices where voices[index].framesSinceEnd != nil {
            voices[index].framesSinceEnd! += frameCount
        }
        for index in voices.indices where voices[index].state == .playing {
            let position = voices[index].positionFrames + frameCount
            if voices[index].isLooping {
                voices[index].positionFrames = position % voices[index].lengthFrames
            } else if position >= voices[index].lengthFrames {
                voices[index].positionFrames = voices[index].lengthFrames
                voices[index].state = .gone
                voices[index].framesSinceEnd = position - voices[index].lengthFrames
            } else {
                voices[index].positionFrames = position
            }
        }
        if let music, music.state == .playing {
            self.music?.positionFrames = (music.positionFrames + frameCount) % music.lengthFrames
        }
        // The outgoing track pauses and resumes with the soundtrack, and fades on after a stop.
        if music == nil || music?.state == .playing {
            outgoingFramesLeft = max(0, outgoingFramesLeft - frameCount)
        }
    }

    /// What a player hears over the next render, as far as the model can say: unknown while a
    /// crossfade's outgoing track still fades (its curve is the engine's business, not the
    /// contract's) or while a one-shot is within `marginFrames` of its end.
    func audibility(marginFrames: Int) -> Audibility {
        guard isActive else { return .silentInterrupted }
        let master = groupGain("master") * listenerGain
        let musicAudible = music?.state == .playing && groupGain("music") * master > 0
        let playing = voices.filter { $0.state == .playing && $0.gain * groupGain($0.group) * master > 0 }
        let ending = playing.filter { !$0.isLooping && $0.lengthFrames - $0.positionFrames <= marginFrames }
        if musicAudible || playing.count > ending.count { return .audible }
        return outgoingFramesLeft > 0 || !ending.isEmpty ? .unknown : .silent
    }

    enum Audibility: Equatable { case silentInterrupted, silent, audible, unknown }
}
