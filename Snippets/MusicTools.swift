import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
let loudness = try engine.measureLoudness(ofTrackAt: "assets/music/theme.ogg")
print(loudness.integratedLUFS < 0)

let theme = try engine.playMusic(path: "assets/music/theme.ogg", loudnessLUFS: -16)   // played at -16 LUFS
try engine.seek(theme, toFrame: 44_100)                                             // one second in

// Any AudioDecoder plays as a track: one of the engine's, or a game's own.
let sweep = try VorbisDecoder(path: "assets/music/sweep.ogg")
try engine.crossfadeMusic(toDecoder: sweep, fadeSeconds: 1)
engine.shutdown()
