import Logging

/// The streamed tracks: one per channel (the soundtrack, the ambience), the tracks on their way
/// out (fading out, or the outgoing side of a crossfade), and the decode error that ended each
/// channel's last track. While the session is interrupted no AL call is made: commands are
/// tracked, and applied when it is active again.
final class StreamSet {
    private let configuration: SoundEngine.Configuration
    private let logger: Logger
    private let mixer: GroupMixer
    /// When AL may be called, and whether the session is active or a device open at all.
    private let gate: ALGate
    private let events: EventQueue
    /// Reads and decodes every stream's track off the engine lock.
    private let worker: DecodeWorker
    /// Makes and deletes each stream's source, and sends its group gain and low-pass to it.
    private let groupMix: StreamGroupMix
    @exclusivity(unchecked) private var streams: [StreamChannel: MusicStream] = [:]
    /// Streams on their way out: fading out, or replaced while interrupted.
    @exclusivity(unchecked) private var outgoing: [MusicStream] = []
    /// The decode error that ended each channel's last track, kept after the track is released
    /// so the game can still read it; cleared when the channel plays another track.
    @exclusivity(unchecked) private var endingErrors: [StreamChannel: InterludeError] = [:]
    /// Tracks made to wait for a boundary (``MusicConductor``), attached ahead of it where AL
    /// could be called: kept here so that a lost device's names are forgotten with the rest.
    @exclusivity(unchecked) private var waiting: [MusicStream] = []
    /// The number the next track gets, for its ``MusicHandle``.
    @exclusivity(unchecked) private var nextTrackID = 1
    /// The engine's number, for the handles its events carry.
    private let engineID: Int

    init(configuration: SoundEngine.Configuration, engineID: Int, logger: Logger, mixer: GroupMixer, gate: ALGate,
         events: EventQueue, worker: DecodeWorker) {
        self.configuration = configuration
        self.engineID = engineID
        self.logger = logger
        self.mixer = mixer
        groupMix = StreamGroupMix(mixer: mixer, gate: gate)
        self.gate = gate
        self.events = events
        self.worker = worker
    }

    private var isActive: Bool { gate.isSessionActive }

    /// The channel's current track.
    func stream(on channel: StreamChannel) -> MusicStream? { streams[channel] }

    /// The handle's track while it is its channel's current one: what commands reach. nil for a
    /// handle of another engine.
    func current(_ music: MusicHandle) -> MusicStream? {
        guard music.engineID == engineID, let stream = streams[music.channel], stream.trackID == music.trackID else { return nil }
        return stream
    }

    /// The handle's track while it still sounds: current, or on its way out. What queries read.
    func sounding(_ music: MusicHandle) -> MusicStream? {
        guard music.engineID == engineID else { return nil }
        return current(music) ?? outgoing.first { $0.trackID == music.trackID && $0.channel == music.channel }
    }

    /// The current tracks, by channel order.
    var currentStreams: [MusicStream] { streams.values.sorted { $0.channel.rawValue < $1.channel.rawValue } }

    /// Every stream, current and outgoing (a new array: not for the update's hot path).
    var allStreams: [MusicStream] { Array(streams.values) + outgoing }

    /// No track plays, waits or fades out on any channel.
    var isEmpty: Bool { streams.isEmpty && outgoing.isEmpty }

    /// How many tracks are on their way out.
    var outgoingCount: Int { outgoing.count }

    /// The error that ended the channel's track early, if any.
    func error(on channel: StreamChannel) -> InterludeError? {
        streams[channel]?.decodeError ?? endingErrors[channel]
    }

    /// Sends every stream's low-pass after a mix snapshot changed its group's.
    func applyGroupLowPasses() throws {
        for stream in allStreams { try groupMix.applyLowPass(to: stream) }
    }

    // MARK: Commands

    /// Starts a track of `stems` (one, for a plain track) on `channel`, replacing any. The
    /// decoders go to the decode worker: nothing here calls them after this. While interrupted it starts when
    /// the session is active. `loopRegion` overrides the file's own loop tags; nil uses them
    /// (and without tags the whole track loops). `loudness`: the track's loudness target and
    /// the extra gain it measured to.
    /// Returns the new track's number.
    func play(stems: [TrackStem], trackName: String? = nil, tempo: MusicTempo? = nil, raisesBeatEvents: Bool = false,
              channel: StreamChannel, isLooping: Bool, gain: Float,
              fadeInSeconds: Double, loopRegion: Range<Int>?, crossfadeSeconds: Double?, call: String,
              loudness: StreamLoudness? = nil, startFrame: Int = 0, startsPaused: Bool = false) throws -> Int {
        let stream = try make(stems: stems, trackName: trackName, tempo: tempo, raisesBeatEvents: raisesBeatEvents, channel: channel,
                              isLooping: isLooping, gain: gain, loopRegion: loopRegion, loudness: loudness, startFrame: startFrame,
                              state: startsPaused ? .paused : isActive ? .playing : .pendingStart)
        install(stream, fadeInSeconds: fadeInSeconds, crossfadeSeconds: crossfadeSeconds, call: call, deferred: !startsPaused)
        return stream.trackID
    }

    /// Makes a track of `stems` on `channel`, standing at `startFrame`, without putting it on
    /// the channel (``install(_:fadeInSeconds:crossfadeSeconds:call:deferred:)`` does): what a
    /// transition waiting for its boundary holds.
    func make(stems: [TrackStem], trackName: String?, tempo: MusicTempo?, raisesBeatEvents: Bool, channel: StreamChannel,
              isLooping: Bool, gain: Float, loopRegion: Range<Int>?, loudness: StreamLoudness?, startFrame: Int,
              state: PlayState) throws -> MusicStream {
        let region = loopRegion ?? stems[0].decoder.loopRegion
        let trackID = nextTrackID
        nextTrackID += 1
        let stream = MusicStream(trackID: trackID, stems: stems, trackName: trackName, tempo: tempo, raisesBeatEvents: raisesBeatEvents,
                                 worker: worker, waitsForDecode: configuration.output.isOffline,
                                 channel: channel, isLooping: isLooping, gain: gain, loudness: loudness, state: state,
                                 bufferCount: configuration.streamBufferCount,
                                 bufferFrameCount: bufferFrameCount(stems), logger: logger)
        if let region { try stream.setLoopRegion(region) }
        // Not attached yet: this only sets the frame the queue is first filled from.
        if startFrame != 0 { try stream.seek(toFrame: startFrame) }
        return stream
    }

    /// Puts a track made by ``make(stems:trackName:tempo:raisesBeatEvents:channel:isLooping:gain:loopRegion:loudness:startFrame:state:)``
    /// on its channel, replacing any: cut, or crossfading over `crossfadeSeconds`; fading in
    /// over `fadeInSeconds`. While active it is attached and, when playing, started in this
    /// call; otherwise its start is reported as deferred when `deferred`.
    func install(_ stream: MusicStream, fadeInSeconds: Double, crossfadeSeconds: Double?, call: String, deferred: Bool) {
        let channel = stream.channel
        waiting.removeAll { $0 === stream }
        let fadeSeconds = crossfadeSeconds ?? fadeInSeconds
        if fadeSeconds > 0 {
            stream.fade = Fade(startGain: 0, targetGain: 1, durationSeconds: fadeSeconds, curve: .equalPower)
        }
        if let previous = streams[channel] {
            if let crossfadeSeconds, crossfadeSeconds > 0, isActive, previous.state == .playing {
                previous.fade = Fade(startGain: previous.fade?.gain ?? 1, targetGain: 0, durationSeconds: crossfadeSeconds, curve: .equalPower)
                previous.stopsWhenFadeEnds = true
                // A crossfade that cuts into another: what is still fading out on the channel
                // falls along the same curve from where it is, so the outgoing tracks keep their
                // power ratio and, with the incoming one, the total stays at 1.
                for leaving in outgoing where leaving.channel == channel && leaving.stopsWhenFadeEnds
                    && leaving.state == .playing {
                    leaving.fade = Fade(startGain: leaving.fade?.gain ?? 1, targetGain: 0, durationSeconds: crossfadeSeconds, curve: .equalPower)
                }
                outgoing.append(previous)
            } else {
                release(previous)
            }
        }
        streams[channel] = stream
        endingErrors[channel] = nil
        if isActive {
            gate.run(call) { _ in
                if !stream.isAttached { try groupMix.attach(stream) }
                if stream.state == .playing { try start(stream) }
            }
        } else if deferred {
            events.emit(.commandDeferred(crossfadeSeconds == nil ? .playMusic(channel) : .crossfadeMusic(channel)))
        }
    }

    /// Frames per chunk of each stem: ``SoundEngine/Configuration/streamBufferSeconds`` of it, and
    /// for a track of several stems no more than a streamed voice's chunk
    /// (``SoundEngine/Configuration/streamedVoiceMaximumBytesInFlight`` per stem), so that four
    /// stems hold and touch what four streamed voices do: long chunks of four stems at once
    /// outgrow the caches, and cost a twentieth more to mix and decode.
    private func bufferFrameCount(_ stems: [TrackStem]) -> Int {
        let format = stems[0].decoder.format
        guard stems.count > 1 else { return configuration.chunkFrameCount(format) }
        return configuration.boundedChunkFrameCount(format, queuedChannelCount: format.channelCount)
    }

    /// Attaches a track that waits to be installed, so its stems are decoded and queued
    /// before its boundary comes; nothing while AL cannot be called.
    func prepare(_ stream: MusicStream) {
        if !waiting.contains(where: { $0 === stream }) { waiting.append(stream) }
        guard gate.isOpen, !stream.isAttached else { return }
        gate.run("prepare(\(stream.displayName))") { _ in try groupMix.attach(stream) }
    }

    /// Releases a track that waited to be installed and never was.
    func discard(_ stream: MusicStream) {
        waiting.removeAll { $0 === stream }
        if stream.isAttached, gate.isOpen {
            gate.run("discard(\(stream.displayName))") { _ in try groupMix.detach(stream) }
        } else {
            stream.forgetDevice()
        }
    }

    /// Reads the position, and the music clock, of the channel's track from OpenAL where it
    /// can. Returns the track.
    func syncedStream(on channel: StreamChannel) -> MusicStream? {
        guard let stream = streams[channel] else { return nil }
        if stream.isAttached, gate.isOpen {
            gate.run("musicClock") { _ in try stream.syncPosition() }
        }
        return stream
    }

    /// Releases a stream's AL objects now, or when the session is active again.
    private func release(_ stream: MusicStream) {
        if gate.isOpen {
            gate.run("stopStream(\(stream.path))") { _ in try groupMix.detach(stream) }
        } else if !gate.hasDevice {
            stream.forgetDevice()
        } else {
            stream.state = .paused
            outgoing.append(stream)
            stream.stopsWhenFadeEnds = true
            stream.fade = Fade(startGain: 0, targetGain: 0, durationSeconds: 0, curve: .linear)
        }
    }

    /// The tracks still fading out on `channel`: the outgoing side of a crossfade, a fade-out.
    /// (A track released while interrupted has a finished fade and is not among them.)
    private func fadingOut(on channel: StreamChannel) -> [MusicStream] {
        outgoing.filter { $0.channel == channel && !($0.fade?.isFinished ?? true) }
    }

    /// Pauses the channel's track, and what it is crossfading away from: at once, or after an
    /// equal-power fade out over `fadeSeconds` (the fade is lifted while it is paused). Tracked
    /// while interrupted: they stay silent at the end.
    func pause(_ channel: StreamChannel, fadeSeconds: Double) {
        guard let stream = streams[channel], stream.state != .paused else { return }
        if fadeSeconds > 0, isActive, stream.state == .playing {
            stream.fade = Fade(startGain: stream.fade?.gain ?? 1, targetGain: 0, durationSeconds: fadeSeconds, curve: .equalPower)
            stream.pausesWhenFadeEnds = true
            return
        }
        pauseNow(channel)
    }

    private func pauseNow(_ channel: StreamChannel) {
        guard let stream = streams[channel], stream.state != .paused else { return }
        let pausing = [stream] + fadingOut(on: channel).filter { $0.state != .paused }
        if isActive {
            gate.run("pause(music)") { _ in
                try groupMix.pause(pausing)
                for stream in pausing { try stream.syncPosition() }
            }
        } else {
            events.emit(.commandDeferred(.pauseMusic(channel)))
        }
        for stream in pausing {
            stream.state = .paused
            if stream.pausesWhenFadeEnds {
                stream.pausesWhenFadeEnds = false
                stream.fade = nil
            }
        }
    }

    /// Resumes the channel's track where it was, with any crossfade it was paused in: at once,
    /// or fading in over `fadeSeconds`. Tracked while interrupted: it plays at the end.
    func resume(_ channel: StreamChannel, fadeSeconds: Double) {
        guard let stream = streams[channel], stream.state != .playing else { return }
        let resuming = [stream] + fadingOut(on: channel).filter { $0.state == .paused }
        if isActive {
            if fadeSeconds > 0 {
                stream.fade = Fade(startGain: 0, targetGain: 1, durationSeconds: fadeSeconds, curve: .equalPower)
            }
            gate.run("resume(music)") { _ in
                for stream in resuming {
                    stream.state = .playing
                    if !stream.isAttached {
                        try groupMix.attach(stream)
                    } else if stream.fade != nil {
                        try groupMix.applyGain(to: stream)
                    }
                    try start(stream)
                }
            }
        } else if stream.state != .pendingStart {
            for stream in resuming { stream.state = .pendingStart }
            events.emit(.commandDeferred(.resumeMusic(channel)))
        }
    }

    /// Sets the channel's track's own gain, at once or moving over `fadeSeconds` along `curve`
    /// while it plays. Kept while interrupted: it is heard at the end.
    func setGain(_ gain: Float, of channel: StreamChannel, fadeSeconds: Double, curve: FadeCurve) {
        guard let stream = streams[channel] else { return }
        if fadeSeconds > 0 {
            stream.gainFade = Fade(startGain: stream.gain, targetGain: gain, durationSeconds: fadeSeconds, curve: curve)
            return
        }
        stream.gainFade = nil
        stream.setGain(gain)
        if gate.isOpen, stream.isAttached {
            gate.run("setGain(music)") { _ in try groupMix.applyGain(to: stream) }
        }
    }

    /// Sets stems of the handle's track to new gains, at once or moving over `fadeSeconds`
    /// along `curve` while it plays. Kept while interrupted: they are heard at the end. A name
    /// the track has no stem for throws, naming the track and the stem, and changes nothing. A
    /// handle that is no longer its channel's current track does nothing.
    func setStemGains(_ gains: [(stem: String, gain: Float)], of music: MusicHandle, fadeSeconds: Double,
                      curve: FadeCurve, call: String) throws {
        guard let stream = current(music) else { return }
        let indices = try gains.map { stem, _ in
            guard let index = stream.stemIndex(named: stem) else {
                throw InterludeError(.invalidArgument, "\(call): track \"\(stream.trackName ?? stream.path)\" has no stem \"\(stem)\"")
            }
            return index
        }
        for (index, (_, gain)) in zip(indices, gains) {
            if fadeSeconds > 0 {
                stream.changeStemGain(to: gain, at: index, overSeconds: fadeSeconds, curve: curve)
            } else {
                stream.setStemGain(gain, at: index)
            }
        }
        if fadeSeconds == 0, gate.isOpen, stream.isAttached {
            gate.run(call) { _ in try groupMix.applyGain(to: stream) }
        }
    }

    /// Stops the channel's track, at once or fading out. Tracked while interrupted.
    func stop(_ channel: StreamChannel, fadeOutSeconds: Double) {
        guard let stream = streams.removeValue(forKey: channel) else { return }
        if !isActive { events.emit(.commandDeferred(.stopMusic(channel))) }
        // A crossfade paused with the track ends with it: its fade would never finish.
        for leaving in fadingOut(on: channel) where leaving.state != .playing {
            leaving.fade = Fade(startGain: 0, targetGain: 0, durationSeconds: 0, curve: .linear)
        }
        if fadeOutSeconds > 0, isActive, stream.state == .playing {
            stream.fade = Fade(startGain: stream.fade?.gain ?? 1, targetGain: 0, durationSeconds: fadeOutSeconds, curve: .equalPower)
            stream.stopsWhenFadeEnds = true
            outgoing.append(stream)
        } else {
            release(stream)
        }
    }

    /// Stops the tracks of a group (every track, for master), as ``stop(_:fadeOutSeconds:)`` does.
    func stop(group: Int, fadeSeconds: Double) {
        for channel in StreamChannel.allCases where group == GroupTable.masterIndex || channel.groupIndex == group {
            stop(channel, fadeOutSeconds: fadeSeconds)
        }
    }

    /// Moves the channel's track to `frame`.
    func seek(_ channel: StreamChannel, toFrame frame: Int) throws {
        guard let stream = streams[channel] else {
            throw InterludeError(.invalidArgument, "seek(toFrame: \(frame)): no track on \(channel)")
        }
        if gate.isOpen {
            try gate.runThrowing { _ in
                try stream.seek(toFrame: frame)
                if stream.isAttached && stream.state == .playing { try start(stream) }
            }
        } else {
            // Interrupted: no AL call; the queue is refilled from the frame when it resumes.
            try stream.seek(toFrame: frame, canUseAL: false)
        }
    }

    /// The track's length in frames and its sample rate, while it sounds.
    func duration(of music: MusicHandle) -> (frameCount: Int, sampleRate: Int)? {
        sounding(music).map { ($0.frameCount, $0.format.sampleRate) }
    }

    /// The handle's track is its channel's current one and plays (or will, when an
    /// interruption ends).
    func isPlaying(_ music: MusicHandle) -> Bool {
        current(music).map { $0.state != .paused } ?? false
    }

    /// A stem's gain now (moving, during a change), while the track sounds and has the stem.
    func gain(ofStem stem: String, of music: MusicHandle) -> Float? {
        guard let stream = sounding(music), let index = stream.stemIndex(named: stem) else { return nil }
        return stream.stemGain(at: index)
    }

    /// The track's stems' names in order (empty for a plain file), while it sounds.
    func stemNames(of music: MusicHandle) -> [String]? {
        sounding(music).map { $0.trackName == nil ? [] : $0.stemNames }
    }

    /// Where the track stands in its music's time (bar, beat, frame), while it sounds; nil for
    /// a track with no tempo, and before its first beat.
    func musicPosition(of music: MusicHandle) -> MusicPosition? {
        guard let stream = sounding(music), let tempo = stream.tempo, let frame = position(of: music) else { return nil }
        return tempo.position(atFrame: frame, sampleRate: stream.format.sampleRate)
    }

    /// The position in frames of the handle's track while it sounds, read from OpenAL first while
    /// it can be.
    func position(of music: MusicHandle) -> Int? {
        guard let stream = sounding(music) else { return nil }
        if stream.isAttached {
            gate.run("positionInFrames") { _ in try stream.syncPosition() }
        }
        return stream.positionInFrames
    }

    // MARK: The update

    /// One stream's fade, gain and refill.
    private func service(_ stream: MusicStream, elapsedSeconds: Double, waitsForDecode: Bool) throws {
        guard stream.isAttached else { return }
        if stream.state == .playing, var change = stream.gainFade {
            change.advance(bySeconds: elapsedSeconds)
            stream.setGain(change.gain)
            stream.gainFade = change.isFinished ? nil : change
            if stream.fade == nil { try groupMix.applyGain(to: stream) }
            if change.isFinished { events.emit(MusicEvent.fadeFinished(MusicHandle(stream, engineID: engineID))) }
        }
        if stream.state == .playing, var fade = stream.fade {
            fade.advance(bySeconds: elapsedSeconds)
            stream.fade = fade.isFinished && !stream.stopsWhenFadeEnds ? nil : fade
            if fade.isFinished && stream.pausesWhenFadeEnds {
                // Silent first, then paused: the fade's end is heard as its last step to 0.
                try groupMix.silence(stream)
                pauseNow(stream.channel)
            } else {
                try groupMix.applyGain(to: stream)
                if fade.isFinished && !stream.stopsWhenFadeEnds { events.emit(MusicEvent.fadeFinished(MusicHandle(stream, engineID: engineID))) }
            }
        } else if mixer.isDirty {
            try groupMix.applyGain(to: stream)
        }
        if stream.state == .playing, stream.advanceStemGains(bySeconds: elapsedSeconds), stream.fade == nil, !mixer.isDirty {
            try groupMix.applyGain(to: stream)
        }
        if stream.state == .playing {
            let mayStart = gate.startsSources && !mixer.pauses(stream.channel.groupIndex)
            switch try stream.service(mayStart: mayStart, waiting: waitsForDecode) {
            case .none: break
            case .startTogether: try groupMix.play(stream)
            case .realign: try realign(stream)
            }
        }
        if let damage = stream.takeSkippedDamage() {
            events.emit(MusicEvent.damageSkipped(path: stream.path, startFrame: damage.startFrame, skippedFrames: damage.frameCount))
        }
        let underrun = stream.takeUnderrunNews()
        if let frame = underrun.began { events.emit(MusicEvent.underrun(path: stream.path, positionInFrames: frame)) }
        if let frame = underrun.recovered { events.emit(MusicEvent.recovered(path: stream.path, positionInFrames: frame)) }
    }

    /// Refills every stream from its decoded chunks, applies fades and releases streams whose
    /// fade-out ended. With `waitsForDecode` (an offline render) it waits for the decode worker
    /// to fill every free buffer; otherwise it queues only what is ready. While the mixer is
    /// held (``ALGate/startsSources``) a source that is not playing stays so.
    func service(elapsedSeconds: Double, waitsForDecode: Bool) throws {
        // Two loops rather than one over `allStreams`: that array would be a heap allocation on
        // every update.
        for stream in streams.values where stream.state == .playing && !stream.isAttached {
            // Its attach failed (no source or buffer could be made): try again, as a voice
            // without a source waits for one.
            try groupMix.attach(stream)
            if !mixer.pauses(stream.channel.groupIndex) { try start(stream) }
        }
        for stream in streams.values {
            try service(stream, elapsedSeconds: elapsedSeconds, waitsForDecode: waitsForDecode)
        }
        for stream in outgoing {
            try service(stream, elapsedSeconds: elapsedSeconds, waitsForDecode: waitsForDecode)
        }
        for (index, stream) in outgoing.enumerated().reversed()
        where stream.stopsWhenFadeEnds && (stream.fade?.isFinished ?? true) {
            try groupMix.detach(stream)
            outgoing.remove(at: index)
        }
        for (channel, stream) in streams where stream.isFinished {
            if let error = stream.decodeError { endingErrors[channel] = error }
            events.emit(MusicEvent.ended(MusicHandle(stream, engineID: engineID), positionInFrames: stream.positionInFrames))
            try groupMix.detach(stream)
            streams[channel] = nil
        }
    }

    /// Sends every stream's gain after a group gain changed.
    func applyGroupGains() throws {
        for stream in streams.values { try groupMix.applyGain(to: stream) }
        for stream in outgoing { try groupMix.applyGain(to: stream) }
    }

    /// Starts a stream's sources, unless the mixer is held (``ALGate/startsSources``): then the
    /// hold's end, or the first refill after it, starts them from the frame they stand at.
    private func start(_ stream: MusicStream) throws {
        guard gate.startsSources else { return }
        try groupMix.play(stream)
    }

    /// A stem ran dry while the others played on (its reads fell behind): every stem goes back
    /// to the frame it stopped on, and they start together again once each has audio.
    private func realign(_ stream: MusicStream) throws {
        try groupMix.pause([stream])
        try stream.syncPosition()
        let frame = stream.earliestStemPosition
        logger.warning("track \(stream.trackName ?? stream.path): a stem ran dry at frame \(frame); its stems start together again from there")
        try stream.seek(toFrame: frame)
        try start(stream)
    }

    /// Pauses or resumes the streams of a group (every stream, for master).
    func setGroupPaused(_ paused: Bool, group: Int) throws {
        for stream in allStreams where stream.state == .playing
            && (stream.channel.groupIndex == group || group == GroupTable.masterIndex) {
            if paused { try groupMix.pause([stream]) } else if !mixer.pauses(stream.channel.groupIndex) { try start(stream) }
        }
    }

    // MARK: Session

    /// Each channel's current track as a snapshot keeps it, its position read from OpenAL
    /// where it still can be.
    func savedTracks() -> [SavedState.Track] {
        let current = currentStreams
        gate.run("snapshot") { _ in
            for stream in current where stream.isAttached { try stream.syncPosition() }
        }
        return current.map { stream in
            let next = waiting.first { $0.channel == stream.channel }
            return SavedState.Track(path: stream.path, channel: stream.channel, positionInFrames: stream.positionInFrames,
                                    isLooping: stream.isLooping, gain: stream.gain,
                                    wasPlaying: stream.state != .paused, loopRegion: stream.loopRegion,
                                    loudnessLUFS: stream.loudnessTargetLUFS, musicTrack: stream.musicTrack,
                                    waitingTransition: next.flatMap { next in
                next.musicTrack.flatMap { track in
                    next.transitionPlan.map {
                        SavedState.Transition(track: track, quantize: $0.quantize, entry: $0.entry, fadeSeconds: $0.fadeSeconds,
                                              gain: next.gain)
                    }
                }
            })
        }
    }

    /// The places of the playing streams' sources in unpaused groups: held while the mixer
    /// stands still.
    var audibleSlots: [RenderSlot] {
        allStreams.filter { $0.state == .playing && !mixer.pauses($0.channel.groupIndex) }.flatMap(\.renderSlots)
    }

    /// Records the frame OpenAL reached for every playing stream; returns their sources'
    /// places, which an interruption's begin pauses together with the voices'.
    func recordPlayingPositions() throws -> [RenderSlot] {
        let playing = allStreams.filter { $0.state == .playing }
        for stream in playing { try stream.syncPosition() }
        return playing.flatMap(\.renderSlots)
    }

    /// Marks every playing stream as held by the session. Returns the events that say where the
    /// soundtrack was held.
    func holdForSession() -> [MusicEvent] {
        var held: [MusicEvent] = []
        for stream in allStreams where stream.holdForSession() {
            if stream.channel == .music && isCurrent(stream) {
                held.append(.suspended(positionInFrames: stream.positionInFrames))
            }
        }
        return held
    }

    /// Puts back on OpenAL, and marks playing, the streams that resume after the session
    /// (``SessionHeld/resumesAfterSession(resumesHeld:)``). A stream with something queued adds
    /// its source's place to `slots`, which play together with the voices'; one with nothing queued
    /// yet starts on the update that queues its first chunk. Returns whether the soundtrack
    /// resumed.
    func resume(resumesHeld: Bool, into slots: inout [RenderSlot]) throws -> Bool {
        var resumedMusic = false
        for stream in allStreams where stream.resumesAfterSession(resumesHeld: resumesHeld) {
            try prepareToResume(stream)
            stream.state = .playing
            slots += stream.playableSlots
            if stream.channel == .music && isCurrent(stream) {
                resumedMusic = true
                events.emit(MusicEvent.resumed(positionInFrames: stream.positionInFrames))
            }
        }
        return resumedMusic
    }

    /// Releases the outgoing tracks whose fade ended while held (after an interruption).
    func releaseFinishedOutgoing() throws {
        for (index, stream) in outgoing.enumerated().reversed() where stream.stopsWhenFadeEnds && stream.state != .heldBySession {
            try groupMix.detach(stream)
            outgoing.remove(at: index)
        }
    }

    /// The channel's current track is `stream`.
    func isCurrent(_ stream: MusicStream) -> Bool {
        streams[stream.channel] === stream
    }

    /// Puts a resumed stream back on OpenAL: attached anew after a rebuild, or its gain and
    /// queue made ready where it was held.
    private func prepareToResume(_ stream: MusicStream) throws {
        if !stream.isAttached {
            try groupMix.attach(stream)
        } else {
            try groupMix.applyGain(to: stream)
            try stream.prepareToResume()
        }
    }

    /// Every stream forgets its AL names; fading-out tracks end with the device.
    func forgetDevice() {
        groupMix.forgetDevice()
        for stream in allStreams + waiting { stream.forgetDevice() }
        outgoing.removeAll { $0.stopsWhenFadeEnds }
    }

    /// Ends every track at once (shutdown).
    func removeAll() {
        streams.removeAll()
        outgoing.removeAll()
        waiting.removeAll()
    }
}
