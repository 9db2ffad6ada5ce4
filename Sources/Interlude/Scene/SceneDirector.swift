/// Applies a scene's events to an engine: the same code for an offline render and for a scene
/// played live on a real device (the showcase). It loads the scene's sounds, sets its listener,
/// and keeps the voice ids the events name.
public final class SceneDirector {
    public let scene: Scene
    public let sceneName: String
    public let engine: SoundEngine
    private var sounds: [String: Sound] = [:]
    private var voices: [String: VoiceHandle] = [:]

    /// Loads the sounds the scene plays as voices (in name order, so the first failure is always
    /// the same) and checks the ones it only streams as music by opening them: a streamed track
    /// is never decoded whole. Sets the scene's listener. Errors name the scene file and the sound.
    public init(scene: Scene, sceneName: String, engine: SoundEngine) throws {
        self.scene = scene
        self.sceneName = sceneName
        self.engine = engine
        var voiceSounds: Set<String> = []
        for event in scene.events {
            switch event.action {
            case .play(let play): voiceSounds.insert(play.sound)
            case .systemSound(let sound): voiceSounds.insert(sound)
            default: break
            }
        }
        for name in scene.sounds.keys.sorted() {
            let path = scene.sounds[name]!
            do {
                if voiceSounds.contains(name) {
                    sounds[name] = try engine.loadSound(path: path)
                } else {
                    _ = try DecoderFactory.open(path: path)
                }
            } catch let error as InterludeError {
                throw InterludeError(error.code, "\(sceneName): sound \"\(name)\": \(error.message)")
            }
        }
        for (zone, preset) in scene.reverbZones.sorted(by: { $0.key < $1.key }) {
            try engine.addReverbZone(named: zone, preset: ReverbPreset.named[preset]!)
        }
        if let listener = scene.listener {
            try engine.updateListener { listener.apply(to: &$0) }
        }
    }

    /// The scene id of a voice, for logs.
    public func voiceID(of handle: VoiceHandle) -> String? {
        voices.first { $0.value == handle }?.key
    }

    /// Applies one event now. Errors name the scene file and the event's index.
    public func apply(_ event: SceneEvent) throws {
        do {
            try perform(event.action)
        } catch let error as InterludeError {
            throw InterludeError(error.code, "\(sceneName): event \(event.index) (\(event.action.name)): \(error.message)")
        }
    }

    private func perform(_ action: SceneAction) throws {
        switch action {
        case .play(let play):
            var parameters = VoiceParameters(position: play.position, gain: play.gain, pitch: play.pitch,
                                             isLooping: play.loop, group: play.group, priority: play.priority)
            parameters.reverbZone = play.reverbZone
            parameters.lowPassGainHF = play.lowPassGainHF
            let handle = try engine.play(sounds[play.sound]!, parameters: parameters)
            if let id = play.id { voices[id] = handle }
        case .stop(let id):
            voices[id].map { engine.stop($0) }
        case .pause(let id):
            voices[id].map { engine.pause($0) }
        case .resume(let id):
            voices[id].map { engine.resume($0) }
        case .set(let change):
            guard let handle = voices[change.id] else { return }
            try engine.setParameters(of: handle) { parameters in
                if let position = change.position, parameters.position != nil { parameters.position = position }
                if let gain = change.gain { parameters.gain = gain }
                if let pitch = change.pitch { parameters.pitch = pitch }
            }
        case .listener(let change):
            try engine.updateListener { change.apply(to: &$0) }
        case .musicPlay(let sound, let loop, let gain, let fadeInSeconds):
            try engine.playMusic(path: scene.sounds[sound]!, isLooping: loop, gain: gain, fadeInSeconds: fadeInSeconds)
        case .musicPause:
            engine.pauseMusic()
        case .musicResume:
            engine.resumeMusic()
        case .musicStop:
            try engine.stopMusic()
        case .musicCrossfade(let sound, let durationSeconds, let loop):
            try engine.crossfadeMusic(toPath: scene.sounds[sound]!, durationSeconds: durationSeconds, isLooping: loop)
        case .group(let name, let gain, let durationSeconds):
            try engine.setGroupGain(gain, of: name, durationSeconds: durationSeconds)
        case .systemSound(let sound):
            try engine.playSystemSound(sounds[sound]!)
        case .interruptionBegin(let reason):
            engine.beginInterruption(reason: InterruptionReason(reason))
        case .interruptionEnd(let shouldResume):
            engine.endInterruption(shouldResume: shouldResume)
        case .sessionActivate:
            engine.activate()
        case .deviceLost:
            engine.disconnectDevice()
        case .deviceRestored:
            try engine.reconnectDevice()
        }
    }
}
