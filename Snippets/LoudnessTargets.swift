import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
try engine.playMusic(path: "assets/music/theme.ogg", loudnessLUFS: -16)                          // measured once, then played at -16 LUFS
try engine.crossfadeMusic(toPath: "assets/music/sweep.ogg", fadeSeconds: 2, loudnessLUFS: -16)   // the same loudness after the crossfade
engine.shutdown()
