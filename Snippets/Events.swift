import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
let events = engine.events()
let step = try engine.loadSound(path: "assets/sfx/footstep.wav")

// The game's own interruption: a cutscene with its own audio, say.
try engine.beginInterruption(reason: .other)
try engine.endInterruption(shouldResume: true)
let footstep = try engine.play(step)

for await event in events {             // until shutdown
    switch event {
    case .voice(.finished(footstep, reason: .ended)):
        print("the footstep played to its end")
        engine.shutdown()               // ends the stream, and this loop
    case .session(.began(let reason, let source)):
        print("interrupted (\(reason)) by \(source): show the pause screen")
    case .session(.ended(_, let resumed, _)):
        print("back: the soundtrack resumed: \(resumed.music)")
    case .device(.lost):
        print("the output device went away; the engine reopens it by itself")
    default:
        break
    }
}
