// ExitProbe: launched by ExitWithoutShutdownTests. A game that never calls shutdown(): an
// engine on OpenAL Soft's null backend, held in a global, plays a looping sound; then the
// program ends with the engine open, by returning from main (`return`), or by calling exit()
// from its event handler on the engine's driver thread as the sound, played once, ends
// (`exit-from-handler`). Prints `playing` once the voice plays. OpenAL Soft reports a device left open at exit on stderr.
import Interlude
#if canImport(Glibc)
import Glibc
#endif

guard CommandLine.arguments.count == 3, ["return", "exit-from-handler"].contains(CommandLine.arguments[2]) else {
    _ = "usage: ExitProbe SOUND.wav return|exit-from-handler\n".withCString { write(2, $0, strlen($0)) }
    exit(2)
}
var configuration = SoundEngine.Configuration(output: .null)
configuration.mediaRole = nil
let exitsFromHandler = CommandLine.arguments[2] == "exit-from-handler"
let engine = try SoundEngine(configuration: configuration)
if exitsFromHandler {
    engine.setEventHandler { event in
        if case .voice(.finished(_, reason: .ended)) = event { exit(0) }
    }
}
let beep = try engine.loadSound(path: CommandLine.arguments[1])
let voice = try engine.play(beep, parameters: VoiceParameters(position: nil, isLooping: !exitsFromHandler))
print("playing \(engine.isPlaying(voice))")
while exitsFromHandler { usleep(10_000) }
