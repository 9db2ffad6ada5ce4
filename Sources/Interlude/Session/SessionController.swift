import Logging

/// The audio session's procedures: an interruption's begin and end, the loss of the device and
/// its rebuild, a switch to another output, and the snapshots written on the way. It decides
/// with ``AudioSession``, changes the context through ``DeviceHost``, and holds and resumes the
/// voices and streams (both ``SessionHeld``).
final class SessionController {
    private let configuration: SoundEngine.Configuration
    private let logger: Logger
    private let session: AudioSession
    private let host: DeviceHost
    private let gate: ALGate
    private let events: EventQueue
    private let table: VoiceTable
    private let voices: VoicePlayer
    private let renderer: ALRenderer
    private let streams: StreamSet
    private let sounds: SoundBank
    private let mixer: GroupMixer
    private let world: SpatialWorld
    /// Writes the snapshots off the engine lock; nil without a ``SoundEngine/Configuration/statePath``.
    private let snapshots: SnapshotWriter?
    /// The named device left for the system default after it disappeared
    /// (``NamedDeviceLoss/followSystemDefault``), until the rebuild on the default reports it.
    @exclusivity(unchecked) private var leftNamedDevice: String?

    init(configuration: SoundEngine.Configuration, logger: Logger, session: AudioSession, host: DeviceHost, gate: ALGate,
         events: EventQueue, table: VoiceTable, voices: VoicePlayer, renderer: ALRenderer, streams: StreamSet,
         sounds: SoundBank, mixer: GroupMixer, world: SpatialWorld, snapshots: SnapshotWriter?) {
        self.configuration = configuration
        self.logger = logger
        self.session = session
        self.host = host
        self.gate = gate
        self.events = events
        self.table = table
        self.voices = voices
        self.renderer = renderer
        self.streams = streams
        self.sounds = sounds
        self.mixer = mixer
        self.world = world
        self.snapshots = snapshots
    }

    /// Active, or interrupted and why.
    var state: SessionState { session.state }

    /// Nothing holds the session (``state`` is `.active`), read without building the state.
    var isActive: Bool { session.isActive }

    // MARK: Interruptions

    /// The sources holding the session now, oldest first.
    var holders: [InterruptionSource] { session.holders }

    /// A begin from `source`. From active: record what plays, stop output, NULL the context,
    /// tell the game. `outlivesActivation`: the source observes its condition, and `activate()`
    /// keeps its hold. While interrupted: one more hold (nothing audible), or, from a source
    /// that already holds, absorbed.
    func begin(reason: InterruptionReason, source: InterruptionSource, outlivesActivation: Bool = false) {
        guard session.isActive else {
            switch session.begin(reason: reason, source: source, outlivesActivation: outlivesActivation) {
            case .absorbed, .began: events.emit(.absorbed(reason: reason))
            case .holdAdded: events.emit(.holdAdded(reason: reason, source: source))
            }
            return
        }
        // 0. A one-shot that played out since the last update is over, not held.
        removePlayedOutOneShots()
        // 1. Record: every playing voice and stream, at the frame OpenAL reached.
        // 2. Stop output: pause all their sources in one call.
        gate.run("beginInterruption") { _ in
            var playingSources: [ALSource] = []
            for voice in table.liveVoices where voice.state == .playing {
                if let source = voice.source {
                    try renderer.syncPosition(of: voice)
                    playingSources.append(source)
                }
            }
            for stream in streams.allStreams where stream.state == .playing {
                try stream.syncPosition()
                if let source = stream.alSource { playingSources.append(source) }
            }
            try renderer.pause(playingSources)
        }
        let held = holdPlaying()
        _ = session.begin(reason: reason, source: source, outlivesActivation: outlivesActivation)
        // 2b, 3. Pause the device where it can be, suspend the context and make NULL current.
        host.deactivate()
        // 4. Tell the game: began, then where the soundtrack was held.
        events.emit(.began(reason: reason, source: source))
        for event in held { events.emit(event) }
        saveSnapshotIfConfigured()
    }

    /// Removes the one-shots whose sources stopped by themselves since the last update. Before
    /// anything is held: a played-out one-shot held for an interruption, a rebuild or a switch
    /// would be played again from its start when it resumes (the model-based test found this).
    private func removePlayedOutOneShots() {
        var finished: [Voice] = []
        gate.run("find played-out one-shots") { _ in
            for voice in table.liveVoices where voice.state == .playing && !voice.isLooping {
                if try renderer.hasFinished(voice) { finished.append(voice) }
            }
        }
        for voice in finished { voices.remove(voice, reason: .ended) }
    }

    /// Marks what is playing as held by the session, and drops system sounds. Returns the
    /// events that say where the soundtrack was held.
    private func holdPlaying() -> [MusicEvent] {
        var held: [MusicEvent] = []
        for voice in table.liveVoices {
            if voice.isSystemSound {
                voices.remove(voice, reason: .interrupted)
            } else {
                _ = voice.holdForSession()
            }
        }
        for stream in streams.allStreams where stream.holdForSession() {
            if stream.channel == .music && streams.isCurrent(stream) {
                held.append(.suspended(positionInFrames: stream.positionInFrames))
            }
        }
        return held
    }

    /// An end from `source`. From a source that holds nothing: ignored. While other sources
    /// (or the lost device) still hold the session: that hold is let go, nothing audible. The
    /// last hold: restore the context, resume what the policy and the tracked commands say,
    /// tell the game. The session is active only once the context is current again: if it
    /// cannot be made current, the session stays interrupted, output stays stopped, and
    /// ``SessionEvent/reactivationFailed(message:)`` says why; a later end or activate tries again.
    func end(shouldResume: Bool, source: InterruptionSource) {
        let caller = "endInterruption(shouldResume: \(shouldResume), source: \(source))"
        switch session.end(source: source, shouldResume: shouldResume, by: caller) {
        case .notHeld:
            events.emit(.ignored)
        case .released:
            events.emit(.holdReleased(source: source))
        case .last(let resumesHeld):
            guard let summary = reactivate(resumesHeld: resumesHeld, caller: caller) else { return }
            events.emit(.ended(shouldResume: shouldResume, resumed: summary, source: source))
        }
    }

    /// `activate()`: the game is back (the foreground, a play button) and ends every hold given
    /// through its own calls, as an end with shouldResume. It cannot end a device loss, nor the
    /// hold of a source that still observes its condition (a phone stream still playing): those
    /// stay (``SessionEvent/holdKept(source:)``), the others are let go, and the session waits.
    func activate() {
        guard !session.isActive else {
            events.emit(.ignored)
            return
        }
        let (released, kept) = session.releaseForActivation()
        if session.isDeviceLost || !kept.isEmpty {
            if released.isEmpty && kept.isEmpty { events.emit(.ignored) }
            for source in released { events.emit(.holdReleased(source: source)) }
            for source in kept { events.emit(.holdKept(source: source)) }
            return
        }
        guard let summary = reactivate(resumesHeld: true, caller: "activate()") else { return }
        events.emit(.activated(resumed: summary))
    }

    /// Makes the context current again and, once it is, the session active, and resumes.
    /// Returns nil when the context would not go current (the session stays interrupted).
    private func reactivate(resumesHeld: Bool, caller: String) -> ResumeSummary? {
        do {
            try host.reactivate()
        } catch {
            gate.count(error, in: caller)
            host.deactivate()
            events.emit(.reactivationFailed(message: "\(caller): \(error)"))
            return nil
        }
        session.markActive()
        return resumeAfterInterruption(resumesHeld: resumesHeld)
    }

    /// Brings OpenAL in line with the model after an interruption or a rebuild: deferred
    /// releases, parameters changed meanwhile, then replays held and pending voices and streams.
    private func resumeAfterInterruption(resumesHeld: Bool) -> ResumeSummary {
        var summary = ResumeSummary(music: false, voiceCount: 0)
        gate.run("resume after interruption") { device in
            try voices.releaseDeferred(on: device)
            // A new device (a rebuild, a switch) gets every sound; on the same one, they are there.
            try sounds.uploadAll(on: device)
            dropLostSounds()
            try world.apply()
            try streams.releaseFinishedOutgoing(on: device)
            var sourcesToPlay: [ALSource] = []
            for voice in table.liveVoices {
                try renderer.applyParameters(of: voice, on: device)
                guard voice.resumesAfterSession(resumesHeld: resumesHeld) else { continue }
                // Real voices play together below; virtual ones get sources from the pool after.
                if let source = voice.source, !mixer.pauses(voice.groupIndex) { sourcesToPlay.append(source) }
                voice.state = .playing
                summary.voiceCount += 1
                events.emit(VoiceEvent.resumed(voice.handle, positionInFrames: voice.positionInFrames))
            }
            for stream in streams.allStreams where stream.resumesAfterSession(resumesHeld: resumesHeld) {
                try streams.prepareToResume(stream, on: device)
                stream.state = .playing
                // A stream with nothing queued yet starts on the update that queues its first chunk.
                if let source = stream.playableSource { sourcesToPlay.append(source) }
                if stream.channel == .music && streams.isCurrent(stream) {
                    summary.music = true
                    events.emit(MusicEvent.resumed(positionInFrames: stream.positionInFrames))
                }
            }
            try renderer.play(sourcesToPlay)
            try voices.assignSources(on: device)
        }
        return summary
    }

    // MARK: Device loss

    /// The device is gone (or, offline, is being taken away): keep the positions the engine
    /// tracked, tear down every AL object, and interrupt with reason deviceLost.
    /// - Parameter isReachable: the device still answers (an offline teardown), so the exact
    ///   positions can be read from it first.
    func loseDevice(isReachable: Bool) {
        guard host.isOpen else { return }
        let wasActive = session.isActive
        var held: [MusicEvent] = []
        if wasActive && isReachable {
            removePlayedOutOneShots()
            syncPlayingPositions()
        }
        if wasActive { held = holdPlaying() }
        _ = session.markDeviceLost()
        forgetDevice(isReachable: isReachable)
        followDefaultIfNamedDeviceWent()
        events.emit(wasActive ? SessionEvent.began(reason: .deviceLost, source: .device) : .holdAdded(reason: .deviceLost, source: .device))
        for event in held { events.emit(event) }
        events.emit(DeviceEvent.lost)
        host.scheduleReopen(now: .now)
        saveSnapshotIfConfigured()
    }

    /// A named device went: under ``NamedDeviceLoss/followSystemDefault`` the reopen tries open
    /// the system default from now on; under ``NamedDeviceLoss/waitForIt`` they keep to it.
    private func followDefaultIfNamedDeviceWent() {
        guard case .named(let name) = host.currentOutput, configuration.whenNamedDeviceDisappears == .followSystemDefault else { return }
        logger.info("the named device \(name) is gone: the engine follows the system default")
        host.setOutput(.systemDefault)
        leftNamedDevice = name
    }

    /// A real device that reports ALC_CONNECTED = 0 is lost now (the update checks that only
    /// while the session is active; after a wake the sleep source asks before it lets go).
    func loseDeviceIfDisconnected() {
        guard host.isOpen, !host.isLoopback, !host.isConnected else { return }
        loseDevice(isReachable: false)
    }

    /// Reads every playing voice's and stream's position from OpenAL (the device answers).
    private func syncPlayingPositions() {
        gate.run("record positions") { _ in
            for voice in table.liveVoices where voice.state == .playing {
                try renderer.syncPosition(of: voice)
            }
            for stream in streams.allStreams where stream.state == .playing {
                try stream.syncPosition()
            }
        }
    }

    /// The one teardown, for shutdown, loss and switch: every room forgets its AL names (the
    /// model keeps the positions), and the device is closed.
    func forgetDevice(isReachable: Bool) {
        table.forgetSources()
        streams.forgetDevice()
        renderer.forgetDevice()
        sounds.forgetDevice()
        host.closeDevice(isReachable: isReachable)
    }

    /// Opens a new device and, once its output runs, rebuilds every audio object from the model,
    /// then resumes as after an interruption end with shouldResume. `waitSeconds` bounds how
    /// long this call waits for the output to run (0: not at all; a later call finishes the
    /// rebuild). While other sources still hold the session, the new device waits, silent, with
    /// the context NULL, for the last of them to let go. Throws when no device can be opened yet.
    func rebuildDevice(waitSeconds: Double) throws {
        guard !host.isOpen, session.isDeviceLost else { return }
        let isInstalled: Bool
        do {
            isInstalled = try host.reopenWhenRunning(waitSeconds: waitSeconds)
        } catch {
            // Buffers adopted for a device that would not install went with it.
            if !host.isOpen { sounds.forgetDevice() }
            throw error
        }
        guard isInstalled else { return }
        logger.info("output device reopened")
        emitOutputStarted()
        if let left = leftNamedDevice {
            leftNamedDevice = nil
            events.emit(DeviceEvent.routeChanged(from: left, to: host.deviceName ?? "the system default"))
        }
        guard session.endDeviceLoss() else {
            host.deactivate()
            events.emit(DeviceEvent.rebuilt)
            events.emit(.holdReleased(source: .device))
            return
        }
        let summary = resumeAfterInterruption(resumesHeld: true)
        events.emit(DeviceEvent.rebuilt)
        events.emit(.ended(shouldResume: true, resumed: summary, source: .device))
    }

    /// The first third of a switch, under the lock: checks `output` and returns what opens it
    /// and uploads every sound to it, which the caller runs without the engine lock
    /// (``DevicePreparation/run()``), waits for its output to run, then calls
    /// ``switchDevice(to:opened:)``.
    func prepareSwitch(to output: OutputDevice) throws -> DevicePreparation {
        let current = host.currentOutput
        guard output.isOffline == current.isOffline else {
            throw InterludeError(.invalidArgument, "switchDevice(to: \(output)): cannot switch between offline and real-time output (the engine is on \(current))")
        }
        return DevicePreparation(output: output, opener: host.deviceOpener, uploads: sounds.uploads,
                                 epoch: host.currentReopenEpoch)
    }

    /// The error a switch to `output` throws when its device did not open: the engine stays
    /// on `current`.
    static func switchFailure(_ error: any Error, to output: OutputDevice, from current: OutputDevice) -> InterludeError {
        let call = "switchDevice(to: \(output))"
        guard let error = error as? InterludeError else {
            return InterludeError(.deviceUnavailable, "\(call): \(error); still on \(current)")
        }
        let code: InterludeError.Code = error.code == .invalidArgument ? .invalidArgument : .deviceUnavailable
        return InterludeError(code, "\(call): \(error.message); still on \(current)")
    }

    /// Moves playback to `output`, opened by ``prepareSwitch(to:)``, with every voice, stream,
    /// position and setting kept: records the positions, tears the old device down, installs
    /// the new one, rebuilds and resumes what played (what was paused stays paused). The new
    /// device is opened first, so a failing open leaves the engine on its old device. During a
    /// device loss the new device becomes the one starting after the loss (installed once its
    /// output runs), and retries open `output`; during an interruption the new device waits,
    /// silent, for the end. The sounds uploaded off the lock are kept; those loaded meanwhile
    /// are uploaded here.
    func switchDevice(to output: OutputDevice, opened prepared: DevicePreparation) throws {
        let call = "switchDevice(to: \(output))"
        guard let newDevice = prepared.opened else { return }
        guard host.isOpen else {
            // Lost: the new device, with its sounds, becomes the one starting after the loss;
            // the update installs it once its output runs.
            sounds.forgetDevice()
            host.setOutput(output)
            guard host.adoptReopened(newDevice, epoch: host.currentReopenEpoch) else {
                DeviceHost.discard(newDevice)
                return
            }
            leftNamedDevice = nil
            adoptSounds(of: prepared)
            installReopenedIfRunning(now: .now)
            return
        }
        let wasActive = session.isActive
        if wasActive {
            removePlayedOutOneShots()
            syncPlayingPositions()
            for event in holdPlaying() { events.emit(event) }
        }
        // Sounds loaded since the new device was prepared live only in the old one's buffers.
        let preparedSounds = Set(prepared.buffers.keys).union(prepared.lostSounds.keys)
        gate.run("keep sounds the new device lacks") { device in try sounds.keepSamplesMissing(from: preparedSounds, on: device) }
        forgetDevice(isReachable: true)
        host.setOutput(output)
        do {
            try host.install(newDevice)
            adoptSounds(of: prepared)
        } catch {
            // The new context would not go current: behave as a loss, the retries reopen `output`.
            logger.error("\(call): \(error)")
            _ = session.markDeviceLost()
            events.emit(wasActive ? SessionEvent.began(reason: .deviceLost, source: .device) : .holdAdded(reason: .deviceLost, source: .device))
            events.emit(DeviceEvent.lost)
            host.scheduleReopen(now: .now)
            return
        }
        logger.info("switched output to \(output) (\(newDevice.opened.name))")
        emitOutputStarted()
        if wasActive {
            _ = resumeAfterInterruption(resumesHeld: true)
        } else {
            // Interrupted: keep output stopped and the context NULL until the end.
            host.deactivate()
        }
    }

    /// Takes the sounds a new device was prepared with, and lets go of those it found lost.
    private func adoptSounds(of prepared: DevicePreparation) {
        sounds.adopt(prepared.buffers, lost: prepared.lostSounds,
                     mapsBuffers: prepared.opened?.opened.extensions.bufferMapping != nil)
        dropLostSounds()
    }

    /// Sounds whose file changed or vanished before a new device could decode them again: their
    /// voices go (silent from the loss on), and the game is told.
    private func dropLostSounds() {
        for (sound, reason) in sounds.takeLostSounds() {
            logger.warning("\(reason)")
            voices.removeVoices(of: sound, reason: .deviceLost)
            events.emit(DeviceEvent.soundLost(name: sound.name, reason: reason))
        }
    }

    /// The audio server died under a real-time device: the loss begins now, as when
    /// ALC_CONNECTED goes false (offline and null-backend devices never play through a server).
    func loseDeviceWithServer() {
        guard !configuration.output.isOffline, host.currentOutput != .null, host.isOpen else { return }
        logger.warning("the audio server went away with the engine's stream: the device is lost")
        loseDevice(isReachable: false)
    }

    /// The audio server is there again: a lost device is reopened now, without waiting out its
    /// backoff (a failure goes back to the backoff schedule). Returns the attempt the caller
    /// runs off the lock (see ``reopenStep(now:)``).
    func reopenNowIfLost() -> DevicePreparation? {
        guard !configuration.output.isOffline, !host.isOpen, session.isDeviceLost else { return nil }
        let now = ContinuousClock.now
        host.reopenNow(now)
        return reopenStep(now: now)
    }

    /// The engine plays to an open `.systemDefault` device, which follows the server's default sink.
    var isOnSystemDefault: Bool {
        host.currentOutput == .systemDefault && host.isOpen
    }

    /// The server's default sink moved and the server moved our stream there already (OpenAL
    /// Soft's `allow-moves`): it plays on, uninterrupted, on the new sink, and
    /// ``DeviceEvent/routeChanged(from:to:)`` says so.
    func defaultSinkMovedOurStream(from old: String, to new: String) {
        guard isOnSystemDefault else { return }
        logger.info("the default sink moved from \(old) to \(new): the server moved our stream there")
        events.emit(DeviceEvent.routeChanged(from: old, to: new))
    }

    /// The server's default sink moved without our stream: on `.systemDefault`, playback moves
    /// as ``switchDevice(to:)`` moves it (a new device on the server's default, everything
    /// kept), and ``DeviceEvent/routeChanged(from:to:)`` says so. A named or null output stays
    /// put; a lost device reopens on the new default by itself. A failing open is logged and
    /// leaves the engine where it was. This is the first half, under the lock: nil when the
    /// engine does not follow, else the new device the caller opens (and uploads to) off the lock.
    func prepareToFollowDefaultSink() -> DevicePreparation? {
        guard isOnSystemDefault else { return nil }
        return try? prepareSwitch(to: .systemDefault)
    }

    /// The second half, under the lock, with the device `prepared` opened off it (no wait for
    /// its output to start: the update raises outputStarted once it runs). Returns the
    /// preparation when the engine no longer follows (another switch, a loss meanwhile): the
    /// caller discards it off the lock.
    func followDefaultSink(from old: String, to new: String, prepared: DevicePreparation) -> DevicePreparation? {
        guard isOnSystemDefault else { return prepared }
        do {
            try switchDevice(to: .systemDefault, opened: prepared)
            logger.info("the default sink moved from \(old) to \(new): playback follows on a new device")
            events.emit(DeviceEvent.routeChanged(from: old, to: new))
        } catch {
            defaultSinkNotFollowed(from: old, to: new, error: error)
        }
        return nil
    }

    /// A failing open leaves the engine where it was; it is logged.
    func defaultSinkNotFollowed(from old: String, to new: String, error: any Error) {
        logger.error("the default sink moved from \(old) to \(new), but playback could not follow: \(error)")
    }

    /// Raises ``DeviceEvent/outputStarted(afterSeconds:)`` when the new device's output runs;
    /// otherwise the update raises it once it does.
    private func emitOutputStarted() {
        if let startSeconds = host.outputStartSeconds {
            events.emit(DeviceEvent.outputStarted(afterSeconds: startSeconds))
        }
    }

    /// Polls the device reopened after a loss (its output not running yet) and installs it,
    /// rebuilding every audio object on it, once its output runs or its start timeout passed.
    private func installReopenedIfRunning(now: ContinuousClock.Instant) {
        guard host.hasReopening else { return }
        do {
            try rebuildDevice(waitSeconds: 0)
        } catch {
            host.reopenFailed(now: now, error: error)
        }
    }

    /// The update's step while a real-time device is lost: a device already reopened is
    /// polled and installed once its output runs; otherwise, when a retry is due (100 ms after
    /// the loss, then backing off, doubling to 2 s), returns the attempt the caller runs with
    /// the engine lock released (open, upload every sound) and hands back to
    /// ``finishReopen(_:now:)``.
    func reopenStep(now: ContinuousClock.Instant) -> DevicePreparation? {
        // Offline, only reconnectDevice() gets here (the update never reopens a loopback device).
        guard !host.isOpen, session.isDeviceLost else { return nil }
        if host.hasReopening {
            installReopenedIfRunning(now: now)
            return nil
        }
        guard let epoch = host.beginReopenAttempt(now: now) else { return nil }
        return DevicePreparation(output: host.currentOutput, opener: host.deviceOpener, uploads: sounds.uploads, epoch: epoch)
    }

    /// ``SoundEngine/reconnectDevice()`` on a device that is lost: a reopen attempt now,
    /// whatever the backoff, run off the lock like the engine's own retries (offline too: the
    /// loopback device opens off the lock and its file sounds are decoded there, and the caller
    /// waits for it, so the render stays deterministic). nil when no device is lost, or when a
    /// reopened device is already starting.
    func prepareReconnect() -> DevicePreparation? {
        guard !host.isOpen, session.isDeviceLost, !host.hasReopening else { return nil }
        let now = ContinuousClock.now
        host.reopenNow(now)
        return reopenStep(now: now)
    }

    /// Takes the result of a reopen attempt run off the lock. A device opened in an epoch
    /// still current (no switch, close, install or new loss since) becomes the device starting
    /// after the loss, with its sounds (sounds loaded meanwhile are uploaded when it is
    /// installed, those unloaded meanwhile deleted); it is installed now if its output already
    /// runs. Returns the preparation when it is stale: the caller discards it off the lock.
    func finishReopen(_ attempt: DevicePreparation, now: ContinuousClock.Instant) -> DevicePreparation? {
        guard let opened = attempt.opened else {
            host.reopenAttemptFailed(epoch: attempt.epoch, now: now, error: attempt.failure ?? InterludeError(.deviceUnavailable, "reopen: no device"))
            return nil
        }
        guard session.isDeviceLost, host.adoptReopened(opened, epoch: attempt.epoch) else { return attempt }
        adoptSounds(of: attempt)
        installReopenedIfRunning(now: now)
        return nil
    }

    // MARK: Snapshots

    /// The engine's state as a snapshot, with positions read from OpenAL where it still can.
    func makeSnapshot() -> SavedState {
        let current = streams.currentStreams
        gate.run("snapshot") { _ in
            for stream in current where stream.isAttached { try stream.syncPosition() }
        }
        let tracks = current.map { stream in
            SavedState.Track(path: stream.path, channel: stream.channel, positionInFrames: stream.positionInFrames,
                           isLooping: stream.isLooping, gain: stream.gain,
                           wasPlaying: stream.state != .paused, loopRegion: stream.loopRegion,
                           loudnessLUFS: stream.loudnessTargetLUFS)
        }
        // Streamed voices are not in snapshots: a snapshot restores voices by loading their sound.
        let loopingVoices = table.liveVoices.filter { $0.isLooping && !$0.isSystemSound && $0.sound != nil }.map { voice in
            SavedState.LoopingVoice(soundPath: voice.name, parameters: voice.parameters,
                                  positionInFrames: voice.positionInFrames, wasPlaying: voice.state != .paused)
        }
        return SavedState(tracks: tracks, loopingVoices: loopingVoices, groupGains: mixer.gainsByName, listener: world.listener)
    }

    /// Hands the snapshot to the ``SnapshotWriter`` when a ``SoundEngine/Configuration/statePath``
    /// is set: built here, under the engine lock; encoded and written on the writer's queue. A
    /// write failure is logged there: it must never stop the audio.
    func saveSnapshotIfConfigured() {
        guard let snapshots else { return }
        snapshots.submit(makeSnapshot())
    }
}
