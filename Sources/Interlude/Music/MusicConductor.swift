/// Music time: the transitions and stingers that wait for a boundary of the playing track (a
/// beat, a bar, its loop's end), and the beats the game hears. A boundary is a reading of the
/// track's own clock (``MusicStream/musicClockFrames``), which stands still while the track
/// is paused, interrupted or without a device, so nothing that waits ever fires into silence.
///
/// Offline, ``outputFramesUntilDue(outputRate:)`` ends each mixed stretch on the next boundary,
/// so a change lands on its exact frame; on a device, the update that finds a boundary
/// reached acts on it.
final class MusicConductor {
    /// A transition waiting for its boundary.
    private struct WaitingTransition {
        let fromTrackID: Int
        /// The track it starts, made and standing at its entry frame.
        let target: MusicStream
        let quantize: MusicQuantize
        let entry: MusicEntry
        let fadeSeconds: Double
        /// The playing track's music clock at the boundary.
        var dueClock: Int
    }

    /// A stinger waiting for its boundary.
    private struct WaitingStinger {
        let channel: StreamChannel
        /// The track whose boundary it waits for; nil: no track played, it waits only for the
        /// session to be active.
        let trackID: Int?
        let sound: Sound
        let gain: Float
        let dueClock: Int
    }

    /// The next beat of a track that raises beat events.
    private struct NextBeat {
        let trackID: Int
        let dueClock: Int
        let frame: Int
    }

    private let streams: StreamSet
    private let voices: VoicePlayer
    private let events: EventQueue
    private let gate: ALGate
    private let clock: UpdateClock
    private let isOffline: Bool
    @exclusivity(unchecked) private var transitions: [StreamChannel: WaitingTransition] = [:]
    @exclusivity(unchecked) private var stingers: [WaitingStinger] = []
    /// The stingers sounding, by channel: the soundtrack's pause, resume and stop reach them.
    @exclusivity(unchecked) private var sounding: [StreamChannel: [VoiceHandle]] = [:]
    @exclusivity(unchecked) private var beats: [StreamChannel: NextBeat] = [:]
    private let engineID: Int

    init(engineID: Int, streams: StreamSet, voices: VoicePlayer, events: EventQueue, gate: ALGate, clock: UpdateClock,
         isOffline: Bool) {
        self.engineID = engineID
        self.streams = streams
        self.voices = voices
        self.events = events
        self.gate = gate
        self.clock = clock
        self.isOffline = isOffline
    }

    /// The output frame now: offline, frames rendered so far; nil on a device.
    private var mixFrame: Int? { isOffline ? Int(clock.ticks()) : nil }

    // MARK: Commands

    /// Changes `channel` to the track `make` makes (at the frame it is given) on the next
    /// `quantize` boundary of the track playing there, entering at its start or in sync, cut
    /// or crossfaded over `fadeSeconds`. Replaces a waiting transition. With nothing playing,
    /// or a plain track with no beat grid, it happens at once.
    func transition(on channel: StreamChannel, trackName: String, quantize: MusicQuantize, entry: MusicEntry, fadeSeconds: Double,
                    call: String, make: (_ startFrame: Int) throws -> MusicStream) throws -> MusicHandle? {
        let current = streams.syncedStream(on: channel)
        if let waiting = transitions.removeValue(forKey: channel) {
            streams.discard(waiting.target)
            events.emit(MusicEvent.transitionReplaced(track: waiting.target.displayName))
        }
        if let current, current.trackName == trackName {
            events.emit(MusicEvent.transitionUnchanged(track: trackName))
            return nil
        }
        guard let current else {
            if quantize != .now { events.emit(MusicEvent.quantizeUnavailable(.transition)) }
            return try perform(make(0), from: nil, quantize: quantize, entry: entry, fadeSeconds: fadeSeconds, call: call)
        }
        let grid = MusicGrid(current)
        guard let boundary = grid.next(quantize, from: current.positionInFrames) else {
            events.emit(MusicEvent.quantizeUnavailable(.transition))
            return try perform(make(0), from: current, quantize: quantize, entry: .start, fadeSeconds: fadeSeconds, call: call)
        }
        let beatInBar = grid.beatInBar(atFrame: boundary.frame, fractional: quantize == .now)
        let target = try make(0)
        if entry == .sync, current.tempo != nil, let tempo = target.tempo {
            let seconds = tempo.firstBeatSeconds + 60 * beatInBar / tempo.bpm
            let frame = Int((Double(target.format.sampleRate) * seconds).rounded())
            try target.seek(toFrame: min(max(0, frame), max(0, target.frameCount - 1)))
        }
        if boundary.frames == 0 {
            return perform(target, from: current, quantize: quantize, entry: entry, fadeSeconds: fadeSeconds, call: call)
        }
        target.transitionPlan = TransitionPlan(quantize: quantize, entry: entry, fadeSeconds: fadeSeconds)
        streams.prepare(target)
        transitions[channel] = WaitingTransition(fromTrackID: current.trackID, target: target, quantize: quantize, entry: entry,
                                                 fadeSeconds: fadeSeconds, dueClock: current.musicClockFrames + boundary.frames)
        return MusicHandle(target, engineID: engineID)
    }

    /// Plays `sound` once in the music group on the next `quantize` boundary of the track
    /// playing on `channel`. With nothing playing, or a plain track with no beat grid, at once.
    func stinger(_ sound: Sound, on channel: StreamChannel, quantize: MusicQuantize, gain: Float, call: String) throws {
        try voices.checkLoaded(sound, in: call)
        let current = streams.syncedStream(on: channel)
        let boundary = current.flatMap { MusicGrid($0).next(quantize, from: $0.positionInFrames) }
        if boundary == nil && quantize != .now { events.emit(MusicEvent.quantizeUnavailable(.stinger)) }
        guard let current, let boundary, boundary.frames > 0 || !gate.isOpen else {
            if gate.isOpen {
                try play(WaitingStinger(channel: channel, trackID: nil, sound: sound, gain: gain, dueClock: 0))
            } else {
                // Interrupted with no beat to wait for: it starts when the session is active.
                stingers.append(WaitingStinger(channel: channel, trackID: current?.trackID, sound: sound, gain: gain,
                                               dueClock: current?.musicClockFrames ?? 0))
            }
            return
        }
        stingers.append(WaitingStinger(channel: channel, trackID: current.trackID, sound: sound, gain: gain,
                                       dueClock: current.musicClockFrames + boundary.frames))
    }

    /// The channel's track was replaced by a play or a crossfade: a waiting transition is
    /// dropped, and the stingers waiting for its boundaries are cancelled.
    func channelReplaced(_ channel: StreamChannel) {
        if let waiting = transitions.removeValue(forKey: channel) { streams.discard(waiting.target) }
        cancelStingers(on: channel)
        beats[channel] = nil
    }

    /// The channel's track stopped: as ``channelReplaced(_:)``, and its stingers stop too.
    func channelStopped(_ channel: StreamChannel, fadeSeconds: Double) {
        channelReplaced(channel)
        for voice in sounding.removeValue(forKey: channel) ?? [] { voices.stop(voice, fadeSeconds: fadeSeconds) }
    }

    /// The channel's track paused or resumed: its stingers do the same.
    func setPaused(_ paused: Bool, on channel: StreamChannel, fadeSeconds: Double) {
        for voice in sounding[channel] ?? [] {
            if paused { voices.pause(voice, fadeSeconds: fadeSeconds) } else { voices.resume(voice, fadeSeconds: fadeSeconds) }
        }
    }

    /// The channel's track moved to another frame: what waits counts again from there.
    func trackMoved(on channel: StreamChannel) {
        beats[channel] = nil
        guard let current = streams.syncedStream(on: channel) else { return }
        let grid = MusicGrid(current)
        if var waiting = transitions[channel], let boundary = grid.next(waiting.quantize, from: current.positionInFrames) {
            waiting.dueClock = current.musicClockFrames + boundary.frames
            transitions[channel] = waiting
        }
    }

    private func cancelStingers(on channel: StreamChannel) {
        stingers.removeAll { stinger in
            guard stinger.channel == channel, stinger.trackID != nil else { return false }
            events.emit(MusicEvent.stingerCancelled(sound: stinger.sound.name, mixFrame: mixFrame))
            return true
        }
    }

    // MARK: Boundaries

    /// True while something waits for a boundary, or a track raises beat events.
    var isWaiting: Bool {
        !transitions.isEmpty || !stingers.isEmpty || StreamChannel.allCases.contains { streams.stream(on: $0)?.raisesBeatEvents == true }
    }

    /// Reads the clocks of the tracks that something waits on (offline, between updates).
    func syncClocks() {
        for channel in StreamChannel.allCases where transitions[channel] != nil || beats[channel] != nil
            || stingers.contains(where: { $0.channel == channel }) || streams.stream(on: channel)?.raisesBeatEvents == true {
            _ = streams.syncedStream(on: channel)
        }
    }

    /// Carries out what is due: stingers first, then transitions, then beats, until nothing
    /// more is (a new track's first beat can be due on its first frame). Only while active.
    func reachDue() {
        guard gate.isOpen else { return }
        for _ in 0..<8 {
            var acted = false
            var index = stingers.count - 1
            while index >= 0 {
                let stinger = stingers[index]
                if isDue(stinger) {
                    stingers.remove(at: index)
                    gate.run("stinger(\(stinger.sound.name))") { _ in try play(stinger) }
                    acted = true
                }
                index -= 1
            }
            for (channel, waiting) in transitions {
                guard let current = streams.stream(on: channel), current.trackID == waiting.fromTrackID else {
                    transitions[channel] = nil
                    streams.discard(waiting.target)
                    continue
                }
                guard current.state == .playing, current.musicClockFrames >= waiting.dueClock else { continue }
                transitions[channel] = nil
                _ = perform(waiting.target, from: current, quantize: waiting.quantize, entry: waiting.entry,
                            fadeSeconds: waiting.fadeSeconds, call: "transition",
                            lateFrames: current.musicClockFrames - waiting.dueClock)
                acted = true
            }
            if raiseDueBeats() { acted = true }
            if !acted { return }
        }
    }

    private func isDue(_ stinger: WaitingStinger) -> Bool {
        guard let trackID = stinger.trackID else { return true }
        guard let current = streams.stream(on: stinger.channel), current.trackID == trackID else { return false }
        return current.state == .playing && current.musicClockFrames >= stinger.dueClock
    }

    /// Raises the beats the playing tracks have reached; returns whether it raised any.
    private func raiseDueBeats() -> Bool {
        var raised = false
        // By channel rather than `currentStreams`: the update allocates nothing.
        for channel in StreamChannel.allCases {
            guard let stream = streams.stream(on: channel), stream.raisesBeatEvents, stream.state == .playing else { continue }
            let grid = MusicGrid(stream)
            var next = beats[stream.channel].flatMap { $0.trackID == stream.trackID ? $0 : nil }
            if next == nil, let boundary = grid.next(.beat, from: stream.positionInFrames) {
                next = NextBeat(trackID: stream.trackID, dueClock: stream.musicClockFrames + boundary.frames, frame: boundary.frame)
            }
            guard var beat = next, let tempo = stream.tempo else { continue }
            while stream.musicClockFrames >= beat.dueClock {
                if let position = tempo.position(atFrame: beat.frame, sampleRate: grid.sampleRate) {
                    events.emit(MusicEvent.beat(MusicHandle(stream, engineID: engineID), track: stream.displayName,
                                                position: position, mixFrame: mixFrame))
                    raised = true
                }
                guard let after = grid.next(.beat, from: beat.frame, excludingPosition: true), after.frames > 0 else { break }
                beat = NextBeat(trackID: stream.trackID, dueClock: beat.dueClock + after.frames, frame: after.frame)
            }
            beats[stream.channel] = beat
        }
        return raised
    }

    /// Offline: the output frames until the next thing due, so the render ends its stretch
    /// there; nil when nothing waits on a playing track.
    func outputFramesUntilDue(outputRate: Int) -> Int? {
        var soonest: Int?
        func consider(_ stream: MusicStream, dueClock: Int) {
            guard stream.state == .playing else { return }
            let trackFrames = max(0, dueClock - stream.musicClockFrames)
            let rate = stream.format.sampleRate
            let frames = rate == outputRate ? trackFrames : (trackFrames * outputRate + rate - 1) / rate
            soonest = min(soonest ?? frames, frames)
        }
        for (channel, waiting) in transitions {
            if let current = streams.stream(on: channel) { consider(current, dueClock: waiting.dueClock) }
        }
        for stinger in stingers {
            if let current = streams.stream(on: stinger.channel), current.trackID == stinger.trackID {
                consider(current, dueClock: stinger.dueClock)
            }
        }
        for (channel, beat) in beats {
            if let current = streams.stream(on: channel), current.trackID == beat.trackID { consider(current, dueClock: beat.dueClock) }
        }
        return soonest
    }

    // MARK: Carrying out

    private func perform(_ target: MusicStream, from current: MusicStream?, quantize: MusicQuantize, entry: MusicEntry,
                         fadeSeconds: Double, call: String, lateFrames: Int = 0) -> MusicHandle {
        let channel = target.channel
        cancelStingers(on: channel)
        beats[channel] = nil
        streams.install(target, fadeInSeconds: 0, crossfadeSeconds: fadeSeconds > 0 ? fadeSeconds : nil, call: call, deferred: true)
        let handle = MusicHandle(target, engineID: engineID)
        events.emit(MusicEvent.transitioned(from: current?.displayName, to: handle, track: target.displayName, quantize: quantize,
                                            entry: entry, entryFrame: target.positionInFrames, lateFrames: lateFrames,
                                            mixFrame: mixFrame))
        return handle
    }

    private func play(_ stinger: WaitingStinger) throws {
        let voice = try voices.play(stinger.sound, parameters: VoiceParameters(position: nil, gain: stinger.gain, group: .music),
                                    origin: .play)
        sounding[stinger.channel, default: []].append(voice)
        // Stingers that ended no longer answer.
        sounding[stinger.channel]?.removeAll { voices.parameters(of: $0) == nil }
        events.emit(MusicEvent.stingerPlayed(voice, sound: stinger.sound.name, mixFrame: mixFrame))
    }

    /// Every track waiting for its boundary forgets its device (``StreamSet`` keeps them).
    func removeAll() {
        for waiting in transitions.values { streams.discard(waiting.target) }
        transitions.removeAll()
        stingers.removeAll()
        sounding.removeAll()
        beats.removeAll()
    }
}
