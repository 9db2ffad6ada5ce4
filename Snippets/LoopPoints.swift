import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
try engine.playMusic(path: "assets/music/loop.ogg")                                   // the margin once, then the tagged loop
try engine.playMusic(path: "assets/music/theme.ogg", loopRegion: 96_000..<480_000)   // frames; overrides any tags
try engine.crossfadeMusic(toPath: "assets/music/loop.ogg", fadeSeconds: 2)           // the new track's tags apply
engine.shutdown()
