import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
let fire = try engine.loadSound(path: "assets/ambience/fire.wav")
let campfire = try engine.play(fire, parameters: .init(position: Vector3(3, 0, 0), isLooping: true))
let theme = try engine.playMusic(path: "assets/music/theme.ogg")

// The same four verbs, labels and fades for a voice, a track and a group.
try engine.setGain(0.5, of: campfire, fadeSeconds: 0.3)
try engine.setGain(0.7, of: theme, fadeSeconds: 2)
try engine.setGain(0.4, of: GroupID.sfx, fadeSeconds: 0.5)

try engine.pause(campfire, fadeSeconds: 0.2)
try engine.resume(campfire, fadeSeconds: 0.2)
try engine.stop(campfire, fadeSeconds: 1)

// The pause menu: everything fades out and holds where it stands.
try engine.pauseAll(fadeSeconds: 0.25)
try engine.resumeAll(fadeSeconds: 0.25)

// A crossfade gives the new track's handle; the old one still answers queries while it fades.
let battle = try engine.crossfadeMusic(toPath: "assets/music/sweep.ogg", fadeSeconds: 3)
let themeAnswers = engine.positionInFrames(of: theme) != nil
let battleAnswers = engine.positionInFrames(of: battle) != nil
print(themeAnswers, battleAnswers)

engine.shutdown()
