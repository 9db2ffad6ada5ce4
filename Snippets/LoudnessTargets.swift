import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefault))
try engine.playMusic(path: "theme.ogg", loudnessLUFS: -16)                          // measured once, then played at -16 LUFS
try engine.crossfadeMusic(toPath: "boss.ogg", fadeSeconds: 2, loudnessLUFS: -16)    // the same loudness after the crossfade
