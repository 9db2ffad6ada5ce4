// InterludePlayer: Interlude's player of the peer scene (scenario 11), a program that links the
// engine and nothing of the bench, as a game does: the scene played in real time by an engine
// on OpenAL Soft's null backend, each `setPosition` on the game thread timed as the C harnesses
// time theirs.
//   InterludePlayer [--game-update] SECONDS EMITTERS MUSIC.ogg SAMPLES_OUT SOUND.wav...
// The engine's driver thread updates it; with --game-update the driver is off and the game loop
// calls update() after moving the voices, as a game that updates each frame does. Prints the peer
// harnesses' "key value" lines.
import Foundation
import Interlude
import PeerLoop

var arguments = Array(CommandLine.arguments.dropFirst())
let updatesOnGameThread = arguments.first == "--game-update"
if updatesOnGameThread { arguments.removeFirst() }
guard let scene = PeerSceneArguments(arguments) else {
    FileHandle.standardError.write(Data(PeerSceneArguments.usage("InterludePlayer [--game-update]").utf8))
    exit(2)
}
do {
    let startResidentKiB = ResidentMemory.currentKiB()
    var configuration = SoundEngine.Configuration(output: .null)
    configuration.mediaRole = nil
    configuration.runsDriverThread = !updatesOnGameThread
    let engine = try SoundEngine(configuration: configuration)
    defer { engine.shutdown() }
    // Plain loops, not closures: top-level code runs on the main actor, and each closure it
    // makes checks that at run time, mapping pages of the Swift Concurrency library that the
    // floor program does not touch.
    var sounds: [Sound] = []
    for path in scene.soundPaths { sounds.append(try engine.loadSound(path: path)) }
    try engine.playMusic(path: scene.musicPath)
    var voices: [VoiceHandle] = []
    for index in 0..<scene.emitterCount {
        let (x, y, z) = PeerSceneArguments.emitterPosition(index, tick: 0)
        let parameters = VoiceParameters(position: Vector3(x, y, z), gain: PeerSceneArguments.emitterGain(index), isLooping: true)
        voices.append(try engine.play(sounds[index % sounds.count], parameters: parameters))
    }
    let figures = try PeerLoop.run(tickCount: scene.tickCount, emitterCount: voices.count,
                                   position: PeerSceneArguments.emitterPosition, move: { index, position in
        try engine.setPosition(Vector3(position.0, position.1, position.2), of: voices[index])
    }, afterTick: {
        if updatesOnGameThread { engine.update() }
    })
    let statistics = engine.statistics
    var voicesPlaying = 0
    for voice in voices where engine.isPlaying(voice) { voicesPlaying += 1 }
    let music = engine.music()
    let isMusicPlaying = music != nil && engine.isPlaying(music!)
    let musicFrames = music.flatMap(engine.positionInFrames(of:)) ?? -1
    print(try figures.report(samplesPath: scene.samplesPath, startResidentKiB: startResidentKiB, sampleRate: statistics.sampleRate,
                             voicesPlaying: voicesPlaying, isMusicPlaying: isMusicPlaying,
                             extras: ["real_voices \(statistics.realVoiceCount)", "music_frames \(musicFrames)"]))
} catch {
    FileHandle.standardError.write(Data("InterludePlayer: \(error)\n".utf8))
    exit(1)
}
