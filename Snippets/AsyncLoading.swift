import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))

async let step = engine.loadSound(path: "assets/sfx/footstep.wav")
async let chime = engine.loadSound(path: "assets/sfx/chime.wav")
let (footstep, bell) = try await (step, chime)

engine.shutdown()
_ = (footstep, bell)
