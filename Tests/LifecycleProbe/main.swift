// LifecycleProbe: launched by LifecycleProbeTests. A game's start and end, each in a process of
// its own (OpenAL Soft starts once per process):
// - `return SOUND.wav`: an engine on the null backend, held in a global, plays a looping sound;
//   the program then returns from main without calling shutdown().
// - `exit-from-handler SOUND.wav`: as `return`, but the sound plays once and the event handler
//   calls exit() on the engine's driver thread as it ends.
// - `null-after-default`: opens `.systemDefault`, and when that throws, `.null`, as a game
//   falling back by hand would; prints each error's message.
// Prints `playing true` once a sound plays. OpenAL Soft reports a device left open at exit on
// stderr.
import Interlude
#if canImport(Glibc)
import Glibc
#endif

func engine(_ output: OutputDevice) throws -> SoundEngine {
    var configuration = SoundEngine.Configuration(output: output)
    configuration.mediaRole = nil
    return try SoundEngine(configuration: configuration)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let mode = arguments.count == 2 || arguments == ["null-after-default"] ? arguments[0] : ""
switch mode {
case "return", "exit-from-handler":
    let exitsFromHandler = mode == "exit-from-handler"
    let game = try engine(.null)
    if exitsFromHandler {
        game.setEventHandler { event in
            if case .voice(.finished(_, reason: .ended)) = event { exit(0) }
        }
    }
    let beep = try game.loadSound(path: arguments[1])
    let voice = try game.play(beep, parameters: VoiceParameters(position: nil, isLooping: !exitsFromHandler))
    print("playing \(game.isPlaying(voice))")
    while exitsFromHandler { usleep(10_000) }
case "null-after-default":
    do {
        try engine(.systemDefault).shutdown()
        print("systemDefault opened")
    } catch let error as InterludeError {
        print("systemDefault: \(error.message)")
        do {
            try engine(.null).shutdown()
            print("null opened")
        } catch let error as InterludeError {
            print("null: \(error.message)")
        }
    }
default:
    _ = "usage: LifecycleProbe return|exit-from-handler SOUND.wav | null-after-default\n".withCString { write(2, $0, strlen($0)) }
    exit(2)
}
