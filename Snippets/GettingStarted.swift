import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
let fire = try engine.loadSound(path: "assets/ambience/fire.wav")
let step = try engine.loadSound(path: "assets/sfx/footstep.wav")

// A looping voice at a position, and a one-shot beside the listener.
let campfire = try engine.play(fire, parameters: .init(position: Vector3(3, 0, 0), isLooping: true))
try engine.play(step, parameters: .init(position: Vector3(0, 0, -1), gain: 0.8))

// The soundtrack, fading in over a second.
let theme = try engine.playMusic(path: "assets/music/theme.ogg", fadeSeconds: 1)

// The player walks towards the fire, facing it (`up` stays +y).
try engine.changeListener { listener in
    listener.position = Vector3(1, 0, 0)
    listener.forward = Vector3(1, 0, 0)
    listener.velocity = Vector3(1.4, 0, 0)    // units per second: the doppler shift's
}
try engine.setPosition(Vector3(3, 0, -2), of: campfire)

engine.shutdown()
_ = theme
