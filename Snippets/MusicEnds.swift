import Interlude

// Offline, so that the timing is exact; live, the same events come from the driver's updates.
let engine = try SoundEngine(configuration: .init(output: .offline(sampleRate: 48_000, channelCount: 2)))
let events = engine.events()
let chime = try engine.playMusic(path: "assets/sfx/chime.wav", isLooping: false, fadeSeconds: 0.1)
_ = try engine.render(frameCount: 96_000)       // 2 s: the fade-in, the whole chime, then silence
engine.shutdown()
for await event in events {
    switch event {
    case .music(.fadeFinished(chime)):
        print("the fade-in is done")
    case .music(.ended(chime, let frame)):
        print("the chime ended after its frame \(frame - 1): play the next cue")
    default:
        break
    }
}
