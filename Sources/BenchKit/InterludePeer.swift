import BenchBaseline
import Foundation
import Interlude
import PeerLoop

/// Interlude's side of the peers scenario: the ``PeerScene`` played in real time by an engine on
/// OpenAL Soft's null backend, each `setPosition` on this thread timed as the C harnesses time
/// theirs. The 10 ms update (parameters, stream refills) runs on the engine's driver thread, or,
/// with `updatesOnGameThread`, on the game loop after it moved the voices, as a game that calls
/// `update()` each frame runs it. Runs in its own process (`InterludeBench --peer-child ...`),
/// so its CPU time and peak RSS are its own.
public enum InterludePeer {
    /// Plays `scene` and returns the "key value" lines the C harnesses print (peer_scene.h),
    /// after writing each call's nanoseconds to `samplesPath` as native Int64s.
    public static func run(_ scene: PeerScene, samplesPath: String, updatesOnGameThread: Bool) throws -> String {
        let startResidentKiB = ResidentMemory.currentKiB()
        var configuration = SoundEngine.Configuration(output: .null)
        configuration.mediaRole = nil
        configuration.runsDriverThread = !updatesOnGameThread
        let engine = try SoundEngine(configuration: configuration)
        defer { engine.shutdown() }
        let sounds = try scene.soundPaths.map { try engine.loadSound(path: $0) }
        guard !sounds.isEmpty else { throw BenchError("peer scene: no sounds") }
        try engine.playMusic(path: scene.musicPath)
        var voices: [VoiceHandle] = []
        for index in 0..<scene.emitterCount {
            let parameters = VoiceParameters(position: SceneRunner.emitterPosition(index, frame: 0),
                                             gain: bb_emitter_gain(Int32(index)), isLooping: true)
            voices.append(try engine.play(sounds[index % sounds.count], parameters: parameters))
        }
        let figures = try PeerLoop.run(tickCount: scene.tickCount, emitterCount: voices.count, position: { index, tick in
            SceneRunner.emitterPosition(index, frame: tick * BenchAssets.updateFrames)
        }, move: { index, position in
            try engine.setPosition(position, of: voices[index])
        }, afterTick: {
            if updatesOnGameThread { engine.update() }
        })
        let statistics = engine.statistics
        return try figures.report(samplesPath: samplesPath, startResidentKiB: startResidentKiB, sampleRate: statistics.sampleRate,
                                  voicesPlaying: voices.filter { engine.isPlaying($0) }.count,
                                  isMusicPlaying: engine.music().map { engine.isPlaying($0) } ?? false,
                                  extras: ["real_voices \(statistics.realVoiceCount)",
                                           "music_frames \(engine.music().flatMap { engine.positionInFrames(of: $0) } ?? -1)"])
    }
}
