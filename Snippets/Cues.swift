import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
let step1 = try engine.loadSound(path: "assets/sfx/footstep.wav")
let step2 = try engine.loadSound(path: "assets/sfx/click.wav")
let step3 = try engine.loadSound(path: "assets/sfx/beep.wav")

var step = CueDefinition(variants: [step1, step2, step3])
step.gainRange = 0.8...1.0
step.pitchRange = 0.95...1.05
step.cooldownSeconds = 0.08
step.order = .shuffle                 // each variant once per round, in a new order each round
step.maxVoices = 4                    // a fifth play stops the oldest (.none: drops the play)
step.steal = .oldest
try engine.makeParameter(named: "speed", range: 0...10)
step.curves = [CueCurve(.gain, parameter: "speed", points: [.init(x: 0, y: 0.5), .init(x: 10, y: 1)])]
let footstep = try engine.makeCue(named: "footstep", step)
let voice = try engine.play(cue: footstep, at: Vector3(1, 0, -2))
try engine.setParameter(7, of: "speed", fadeSeconds: 0.5)
engine.shutdown()
