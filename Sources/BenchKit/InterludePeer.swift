#if canImport(Glibc)
import Glibc
#endif
import BenchBaseline
import Foundation
import Interlude

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
        let startResidentKiB = Measure.residentKiB()
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
        var samples = [Int64](repeating: 0, count: scene.positionCallCount)
        var sampleCount = 0
        let cpuStart = Measure.processCPUSeconds()
        let threadCPUStart = Measure.threadCPUSeconds()
        let start = monotonicNanoseconds()
        for tick in 1...scene.tickCount {
            sleep(untilNanoseconds: start + Int64(tick) * 10_000_000)
            let frame = tick * BenchAssets.updateFrames
            for index in voices.indices {
                let position = SceneRunner.emitterPosition(index, frame: frame)
                let before = monotonicNanoseconds()
                try engine.setPosition(position, of: voices[index])
                samples[sampleCount] = monotonicNanoseconds() - before
                sampleCount += 1
            }
            if updatesOnGameThread { engine.update() }
        }
        let gameThreadCPUSeconds = Measure.threadCPUSeconds() - threadCPUStart
        let playedSeconds = Double(monotonicNanoseconds() - start) * 1e-9
        let cpuSeconds = Measure.processCPUSeconds() - cpuStart
        try samples.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: samplesPath)) }
        let statistics = engine.statistics
        return [
            "cpu_seconds \(cpuSeconds)",
            "game_thread_cpu_seconds \(gameThreadCPUSeconds)",
            "audio_seconds \(playedSeconds)",
            "peak_rss_kib \(Measure.peakResidentKiB())",
            "start_rss_kib \(startResidentKiB)",
            "position_calls \(sampleCount)",
            "sample_rate \(statistics.sampleRate)",
            "voices_playing \(voices.filter { engine.isPlaying($0) }.count)",
            "music_playing \((engine.music().map { engine.isPlaying($0) } ?? false) ? 1 : 0)",
            "real_voices \(statistics.realVoiceCount)",
            "music_frames \(engine.music().flatMap { engine.positionInFrames(of: $0) } ?? -1)",
        ].joined(separator: "\n")
    }

    static func monotonicNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    static func sleep(untilNanoseconds due: Int64) {
        var wake = timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nil) != 0 {}
    }
}
