@_spi(Tools) import Interlude

/// Applies a scene's events to an engine: the same code for an offline render and for a scene
/// played live on a real device (the showcase). It loads the scene's sounds, sets its listener,
/// and keeps the voice ids the events name.
public final class SceneDirector {
    public let scene: Scene
    public let sceneName: String
    public let engine: SoundEngine
    private var sounds: [String: Sound] = [:]
    private var voices: [String: VoiceHandle] = [:]
    private var zones: [String: ReverbZoneID] = [:]
    private var cues: [String: CueID] = [:]
    private var snapshots: [String: MixSnapshotID] = [:]
    /// The loop regions, in frames of their tracks, of the music events that give `loopStart` or
    /// `loopEnd`, by event index.
    private var loopRegions: [Int: Range<Int>] = [:]
    /// The scene's tracks of stems as the engine plays them (version 4).
    private var musicTracks: [String: MusicTrack] = [:]

    /// Loads the sounds the scene plays as voices (in name order, so the first failure is always
    /// the same) and checks the ones it streams as music by opening them: a streamed track is
    /// never decoded whole. Turns each music event's `loopStart`/`loopEnd` into frames of its
    /// track and checks them against it. Sets the scene's listener. Errors name the scene file
    /// and the sound, or the event.
    public init(scene: Scene, sceneName: String, engine: SoundEngine) throws {
        self.scene = scene
        self.sceneName = sceneName
        self.engine = engine
        var voiceSounds: Set<String> = []
        var musicSounds: Set<String> = []
        for event in scene.events {
            switch event.action {
            case .play(let play): voiceSounds.insert(play.sound)
            case .systemSound(let sound), .musicStinger(let sound, _, _): voiceSounds.insert(sound)
            case .musicPlay(let sound, _, _, _, _, _), .musicCrossfade(let sound, _, _, _, _): musicSounds.insert(sound)
            default: break
            }
        }
        voiceSounds.formUnion(CueBank(scene: scene).variantSounds)
        for track in scene.tracks.values { musicSounds.formUnion(track.stems.map(\.sound)) }
        var tracks: [String: any AudioDecoder] = [:]
        for name in scene.sounds.keys.sorted() {
            let path = scene.sounds[name]!
            do {
                if voiceSounds.contains(name) {
                    sounds[name] = try engine.loadSound(path: path)
                }
                if musicSounds.contains(name) || !voiceSounds.contains(name) {
                    tracks[name] = try DecoderFactory.open(path: path)
                }
            } catch let error as InterludeError {
                throw InterludeError(error.code, "\(sceneName): sound \"\(name)\": \(error.message)")
            }
        }
        for event in scene.events {
            guard let (sound, points) = Self.musicLoopPoints(of: event.action), let track = tracks[sound] else { continue }
            do {
                loopRegions[event.index] = try points.region(sampleRate: track.format.sampleRate, frameCount: track.frameCount,
                                                            taggedRegion: track.loopRegion)
            } catch let error as InterludeError {
                throw InterludeError(error.code, "\(sceneName): event \(event.index) (\(event.action.name)): \(error.message)")
            }
        }
        try makeTracks(opened: tracks)
        for (zone, preset) in scene.reverbZones.sorted(by: { $0.key < $1.key }) {
            zones[zone] = try engine.makeReverbZone(named: zone, preset: ReverbPreset.named[preset]!)
        }
        try makeSoundDesign()
        if let listener = scene.listener {
            try engine.changeListener { listener.apply(to: &$0) }
        }
    }

    /// Turns the scene's tracks (version 4), in name order, into the engine's: each is opened
    /// and checked (one rate and length for its stems, its first beat inside them), and its
    /// loop points become frames of its first stem. Errors name the scene file, the track and
    /// the stem.
    private func makeTracks(opened decoders: [String: any AudioDecoder]) throws {
        for (name, track) in scene.tracks.sorted(by: { $0.key < $1.key }) {
            let context = "\(sceneName): track \(JSONValue.string(name).jsonText)"
            do {
                let first = decoders[track.stems[0].sound]!
                let region = try track.loopPoints.map {
                    try $0.region(sampleRate: first.format.sampleRate, frameCount: first.frameCount, taggedRegion: first.loopRegion)
                }
                let musicTrack = track.musicTrack(named: name, sounds: scene.sounds, loopRegion: region)
                try musicTrack.validate(in: sceneName)
                musicTracks[name] = musicTrack
            } catch let error as InterludeError {
                throw InterludeError(error.code, error.message.hasPrefix(sceneName) ? error.message : "\(context): \(error.message)")
            }
        }
    }

    /// The scene's name of a sound or track an engine event names by its file's path or the
    /// track's name.
    public func musicName(_ name: String) -> String {
        if scene.tracks[name] != nil { return name }
        return scene.sounds.sorted { $0.key < $1.key }.first { $0.value == name }?.key ?? name
    }

    /// A `music.stem` that changes nothing: the playing track (if any) has no such stem.
    public func ignoresStem(_ action: SceneAction) -> Bool {
        guard case .musicStem(let stem, _, _) = action else { return false }
        guard let music = engine.music(), let stems = engine.stemNames(of: music) else { return true }
        return !stems.contains(stem)
    }

    /// Makes the scene's parameters, cues and snapshots (version 3), each in name order, with
    /// the groups they name. Errors name the scene file and the cue, parameter or snapshot.
    private func makeSoundDesign() throws {
        let made = try CueBank(scene: scene).apply(to: engine, sounds: sounds, fileName: sceneName)
        cues = made.cues
        snapshots = made.snapshots
    }

    /// The scene name of a cue's variant, for logs.
    public func variantName(ofCue cue: CueID, at index: Int) -> String? {
        guard let variants = scene.cues[cue.name]?.variants, variants.indices.contains(index) else { return nil }
        return variants[index]
    }

    /// The scene id of a voice, for logs.
    public func voiceID(of handle: VoiceHandle) -> String? {
        voices.first { $0.value == handle }?.key
    }

    /// Applies one event now. Errors name the scene file and the event's index. Returns the
    /// session events that the scene's own rules raise and the engine does not (an
    /// `interruption.begin` absorbed by a lost device in a version 1 scene), for the log.
    @discardableResult
    public func apply(_ event: SceneEvent) throws -> [EngineEvent] {
        do {
            if !scene.namesInterruptionSources, let raised = try performVersionOne(event.action) { return raised }
            let deferredSet = deferredChange(by: event.action)
            try perform(event.action, loopRegion: loopRegions[event.index])
            return deferredSet.map { [.session(.commandDeferred($0))] } ?? []
        } catch let error as InterludeError {
            throw InterludeError(error.code, "\(sceneName): event \(event.index) (\(event.action.name)): \(error.message)")
        }
    }

    /// A `set` while the session is interrupted, on a voice that is still there: the log has
    /// one commandDeferred for each such event. (The engine reports a voice's deferred changes
    /// once per property and interruption, so the renderer logs this instead of its events.)
    private func deferredChange(by action: SceneAction) -> DeferredCommand? {
        guard case .set(let change) = action, engine.sessionState != .active, let handle = voices[change.id],
              engine.parameters(of: handle) != nil else { return nil }
        var properties: VoiceProperties = []
        if change.position != nil { properties.insert(.position) }
        if change.gain != nil { properties.insert(.gain) }
        if change.pitch != nil { properties.insert(.pitch) }
        return .change(handle, properties)
    }

    /// A scene with no `source` key renders and logs as under version 1, where an interruption
    /// and a device loss never hold the session together: a loss during the game's interruption
    /// takes its place (the restored device resumes, and the interruption's end is ignored), and
    /// a begin while the device is lost is absorbed. The engine's holds would keep the session
    /// until both let go, so the director does version 1's part here: it ends the game's hold as
    /// the device goes (nothing audible: the device holds on), and absorbs a begin itself.
    /// Returns nil for the events it leaves to ``perform(_:loopRegion:)``.
    private func performVersionOne(_ action: SceneAction) throws -> [EngineEvent]? {
        switch action {
        case .interruptionBegin(let reason, _) where engine.interruptionHolders.contains(.device):
            return [.session(.absorbed(reason: InterruptionReason(reason)))]
        case .deviceLost where engine.interruptionHolders.contains(.game):
            engine.disconnectDevice()
            try engine.endInterruption(shouldResume: true, source: .game)
            return []
        default:
            return nil
        }
    }

    /// For a music event with a `loudness` target (version 3): its track's measured loudness and
    /// the target, for the log's musicNormalized. The measurement is the engine's, cached when
    /// the event started the track, so nothing is decoded again. nil for any other event.
    public func musicNormalization(for event: SceneEvent) throws -> (loudness: Loudness, targetLUFS: Double)? {
        let sound: String
        let target: Double
        switch event.action {
        case .musicPlay(let name, _, _, _, _, let loudnessLUFS?), .musicCrossfade(let name, _, _, _, let loudnessLUFS?):
            (sound, target) = (name, loudnessLUFS)
        case .musicPlayTrack(let play):
            guard var track = musicTracks[play.track], let loudnessLUFS = play.loudnessLUFS ?? track.loudnessLUFS else { return nil }
            track.loudnessLUFS = loudnessLUFS
            do {
                return (try engine.measureLoudness(of: track), loudnessLUFS)
            } catch let error as InterludeError {
                throw InterludeError(error.code, "\(sceneName): event \(event.index) (\(event.action.name)): \(error.message)")
            }
        default:
            return nil
        }
        do {
            return (try engine.measureLoudness(ofTrackAt: scene.sounds[sound]!), target)
        } catch let error as InterludeError {
            throw InterludeError(error.code, "\(sceneName): event \(event.index) (\(event.action.name)): \(error.message)")
        }
    }

    /// A music event's track and loop points, when it gives any.
    private static func musicLoopPoints(of action: SceneAction) -> (sound: String, points: SceneLoopPoints)? {
        switch action {
        case .musicPlay(let sound, _, _, _, let points?, _), .musicCrossfade(let sound, _, _, let points?, _): (sound, points)
        default: nil
        }
    }

    /// `loopRegion`: the event's loop points in frames of its track; nil leaves the track's tags.
    private func perform(_ action: SceneAction, loopRegion: Range<Int>?) throws {
        switch action {
        case .play(let play):
            // A scene's groups are made on first use (the scene format does not declare them).
            let group = try engine.makeGroup(named: play.group)
            var parameters = VoiceParameters(position: play.position, gain: play.gain, pitch: play.pitch,
                                             isLooping: play.loop, group: group, priority: play.priority)
            parameters.reverbZone = play.reverbZone.flatMap { zones[$0] }
            parameters.lowPassGainHF = play.lowPassGainHF
            let handle = try engine.play(sounds[play.sound]!, parameters: parameters)
            if let id = play.id { voices[id] = handle }
        case .stop(let id):
            if let voice = voices[id] { try engine.stop(voice) }
        case .pause(let id):
            if let voice = voices[id] { try engine.pause(voice) }
        case .resume(let id):
            if let voice = voices[id] { try engine.resume(voice) }
        case .set(let change):
            guard let handle = voices[change.id] else { return }
            try engine.changeParameters(of: handle) { parameters in
                if let position = change.position, parameters.position != nil { parameters.position = position }
                if let gain = change.gain { parameters.gain = gain }
                if let pitch = change.pitch { parameters.pitch = pitch }
            }
        case .listener(let change):
            try engine.changeListener { change.apply(to: &$0) }
        case .musicPlay(let sound, let loop, let gain, let fadeInSeconds, _, let loudnessLUFS):
            try engine.playMusic(path: scene.sounds[sound]!, isLooping: loop, gain: gain, fadeSeconds: fadeInSeconds,
                                 loopRegion: loopRegion, loudnessLUFS: loudnessLUFS)
        case .musicPause:
            if let music = engine.music() { try engine.pause(music) }
        case .musicResume:
            if let music = engine.music() { try engine.resume(music) }
        case .musicStop:
            if let music = engine.music() { try engine.stop(music) }
        case .musicCrossfade(let sound, let durationSeconds, let loop, _, let loudnessLUFS):
            try engine.crossfadeMusic(toPath: scene.sounds[sound]!, fadeSeconds: durationSeconds, isLooping: loop,
                                      loopRegion: loopRegion, loudnessLUFS: loudnessLUFS)
        case .group(let name, let gain, let durationSeconds):
            try engine.setGain(gain, of: engine.makeGroup(named: name), fadeSeconds: durationSeconds)
        case .systemSound(let sound):
            try engine.playSystemSound(sounds[sound]!)
        case .interruptionBegin(let reason, let source):
            try engine.beginInterruption(reason: InterruptionReason(reason), source: source.map { InterruptionSource($0) } ?? .game)
        case .interruptionEnd(let shouldResume, let source):
            try engine.endInterruption(shouldResume: shouldResume, source: source.map { InterruptionSource($0) } ?? .game)
        case .sessionActivate:
            try engine.activate()
        case .deviceLost:
            engine.disconnectDevice()
        case .deviceRestored:
            try engine.reconnectDevice()
        case .cue(let play):
            let handle = try engine.play(cue: cues[play.cue]!, at: play.position, gain: play.gain)
            if let id = play.id { voices[id] = handle }
        case .parameter(let name, let value, let durationSeconds):
            try engine.setParameter(value, of: name, fadeSeconds: durationSeconds)
        case .snapshotStart(let name, let fadeSeconds):
            try engine.blendIn(snapshots[name]!, fadeSeconds: fadeSeconds)
        case .snapshotStop(let name, let fadeSeconds):
            try engine.blendOut(snapshots[name]!, fadeSeconds: fadeSeconds)
        case .musicPlayTrack(let play):
            var track = musicTracks[play.track]!
            if let loudnessLUFS = play.loudnessLUFS { track.loudnessLUFS = loudnessLUFS }
            try engine.playMusic(track, gain: play.gain, gains: Dictionary(play.gains, uniquingKeysWith: { $1 }),
                                 fadeSeconds: play.fadeInSeconds)
        case .musicStem(let stem, let gain, let durationSeconds):
            guard !ignoresStem(action), let music = engine.music() else { return }
            try engine.setGain(gain, ofStem: stem, of: music, fadeSeconds: durationSeconds)
        case .musicTransition(let track, let quantize, let entry, let fadeSeconds):
            try engine.transitionMusic(to: musicTracks[track]!, quantize: quantize, entry: entry, fadeSeconds: fadeSeconds)
        case .musicStinger(let sound, let quantize, let gain):
            try engine.playStinger(sounds[sound]!, quantize: quantize, gain: gain)
        }
    }
}
