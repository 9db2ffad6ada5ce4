// `make leaks`: one full engine lifecycle for valgrind memcheck (or LeakSanitizer). Offline, so it
// needs no sound card: open, load 20 sounds from files (WAV and Ogg Vorbis), play them, stream a
// soundtrack, interrupt and resume 100 times, lose and restore the device 10 times, unload,
// shut down. Prints the engine's AL object counts at each stage; exits 1 if they do not return
// to zero or the engine counted an internal error.
import Foundation
@_spi(Tools) import Interlude
import InterludeScene

func check(_ condition: Bool, _ message: String) {
    if !condition {
        print("LeakProbe: FAIL: \(message)")
        exit(1)
    }
}

func report(_ stage: String, _ engine: SoundEngine) {
    let statistics = engine.statistics
    print("LeakProbe: \(stage): voices \(statistics.voiceCount), AL sources \(statistics.alSourceCount), AL buffers \(statistics.alBufferCount), sounds \(statistics.loadedSoundCount), internal errors \(statistics.internalErrorCount)")
    check(statistics.internalErrorCount == 0, "internal AL errors at \(stage)")
}

let folder = NSTemporaryDirectory() + "interlude-leakprobe-\(getpid())"
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

// 18 WAVs of both sample types and channel counts, plus the two Ogg Vorbis ambience/music assets.
var paths: [String] = []
for index in 0..<18 {
    let channelCount = index % 2 + 1
    let frames = 2_400 + 100 * index
    let samples = (0..<frames * channelCount).map { sinf(Float($0 / channelCount) * 0.05 * Float(index + 1)) * 0.3 }
    let path = "\(folder)/sound\(index).wav"
    try WAVFileWriter.write(samples: samples, format: AudioFormat(sampleRate: 44_100, channelCount: channelCount),
                            sampleType: index % 3 == 0 ? .float32 : .int16, to: path)
    paths.append(path)
}
paths += ["assets/ambience/wind.ogg", "assets/music/sweep.ogg"]

do {
    var configuration = SoundEngine.Configuration(output: .offline())
    configuration.runsDriverThread = false
    let engine = try SoundEngine(configuration: configuration)
    report("opened", engine)
    let sounds = try paths.map { try engine.loadSound(path: $0) }
    report("loaded \(sounds.count) sounds", engine)
    for (index, sound) in sounds.enumerated() {
        let position: Vector3? = sound.format.channelCount == 1 ? Vector3(Float(index) - 10, 0, -2) : nil
        try engine.play(sound, parameters: VoiceParameters(position: position, gain: 0.1, isLooping: index % 2 == 0))
    }
    try engine.playMusic(path: "assets/music/theme.ogg", isLooping: true, gain: 0.5)
    _ = try engine.render(frameCount: 24_000)
    report("playing", engine)
    for cycle in 0..<100 {
        try engine.beginInterruption(reason: cycle % 2 == 0 ? .call : .focusLost)
        _ = try engine.render(frameCount: 480)
        try engine.endInterruption(shouldResume: true)
        _ = try engine.render(frameCount: 960)
    }
    report("after 100 interruptions", engine)
    for _ in 0..<10 {
        engine.disconnectDevice()
        _ = try engine.render(frameCount: 480)
        try engine.reconnectDevice()
        _ = try engine.render(frameCount: 4_800)
    }
    report("after 10 device losses", engine)
    _ = try engine.savedState()
    if let music = engine.music() { try engine.stop(music) }
    for sound in sounds { try engine.unloadSound(sound) }
    _ = try engine.render(frameCount: 4_800)
    report("stopped and unloaded", engine)
    let statistics = engine.statistics
    check(statistics.voiceCount == 0 && statistics.alBufferCount == 0 && statistics.loadedSoundCount == 0,
          "objects left after unloading everything: \(statistics)")
    engine.shutdown()
    report("shut down", engine)
    check(engine.statistics.alSourceCount == 0 && engine.statistics.alBufferCount == 0, "AL objects after shutdown")
}
print("LeakProbe: done")
