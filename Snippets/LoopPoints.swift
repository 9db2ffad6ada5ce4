import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
try engine.playMusic(path: "theme.ogg")                                // intro once, then the tagged loop
try engine.playMusic(path: "theme.ogg", loopRegion: 96_000..<480_000)  // frames; overrides the tags
try engine.crossfadeMusic(toPath: "boss.ogg", fadeSeconds: 2)          // the new track's tags apply
