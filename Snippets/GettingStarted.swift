import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
let fire = try engine.loadSound(path: "assets/ambience/fire.wav")
let step = try engine.loadSound(path: "assets/sfx/footstep.wav")

// A looping voice at a position, and a one-shot beside the listener.
let campfire = try engine.play(fire, parameters: .init(position: Vector3(3, 0, 0), isLooping: true))
try engine.play(step, parameters: .init(position: Vector3(0, 0, -1), gain: 0.8))

// The soundtrack, fading in over a second.
let theme = try engine.playMusic(path: "assets/music/theme.ogg", fadeSeconds: 1)

// The player walks towards the fire.
try engine.changeListener { $0.position = Vector3(1, 0, 0) }
try engine.setPosition(Vector3(3, 0, -2), of: campfire)

engine.shutdown()
_ = theme
