import Interlude

var configuration = SoundEngine.Configuration(output: .systemDefaultOrNull)
configuration.statePath = "/tmp/interlude-saved-game.json"   // written at each interruption and at shutdown
let engine = try SoundEngine(configuration: configuration)
try engine.playMusic(path: "assets/music/theme.ogg")
engine.shutdown()

// The next launch puts the soundtrack back where it stood.
let next = try SoundEngine(configuration: configuration)
try next.restore(try SavedState.read(from: "/tmp/interlude-saved-game.json"))
print(next.music() != nil)
next.shutdown()
