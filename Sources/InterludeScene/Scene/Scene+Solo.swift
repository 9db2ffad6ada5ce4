import Interlude

extension Scene {
    /// The stems' names over every track, each once, in the tracks' name order and each
    /// track's stem order.
    public var stemNames: [String] {
        var names: [String] = []
        for (_, track) in tracks.sorted(by: { $0.key < $1.key }) {
            for stem in track.stems where !names.contains(stem.name) { names.append(stem.name) }
        }
        return names
    }

    /// The scene as it sounds with only `stem` heard: every other stem of every track at gain
    /// 0, and nothing else that makes a sound of its own (voices, cues, stingers, plain
    /// tracks). The session's events and the music's commands stay, so music time runs as in
    /// the scene. For `interlude render --plot-stems`.
    public func soloing(stem: String) -> Scene {
        var soloTracks = tracks
        for (name, track) in tracks {
            var solo = track
            solo.gains = Dictionary(uniqueKeysWithValues: track.stems.map { ($0.name, $0.name == stem ? track.gains[$0.name] ?? 1 : 0) })
            soloTracks[name] = solo
        }
        let kept = events.compactMap { event -> SceneEvent? in
            let action: SceneAction
            switch event.action {
            case .musicPlayTrack(var play):
                play.gains = play.gains.filter { $0.stem == stem }
                action = .musicPlayTrack(play)
            case .musicStem(let name, _, _) where name != stem:
                return nil
            case .musicPlay(let sound, let loop, _, let fadeInSeconds, let loopPoints, let loudnessLUFS):
                action = .musicPlay(sound: sound, loop: loop, gain: 0, fadeInSeconds: fadeInSeconds, loopPoints: loopPoints,
                                    loudnessLUFS: loudnessLUFS)
            case .play, .stop, .pause, .resume, .set, .systemSound, .cue, .musicStinger:
                return nil
            default:
                action = event.action
            }
            return SceneEvent(index: event.index, atSeconds: event.atSeconds, frame: event.frame, action: action)
        }
        var scene = Scene(sampleRate: sampleRate, channelCount: channelCount, durationSeconds: durationSeconds, policy: policy,
                          hrtf: hrtf, distanceModel: distanceModel, listener: listener, sounds: sounds, events: kept,
                          reverbZones: reverbZones, resampler: resampler, limiter: limiter)
        scene.seed = seed
        scene.cues = cues
        scene.parameters = parameters
        scene.snapshots = snapshots
        scene.tracks = soloTracks
        return scene
    }
}
