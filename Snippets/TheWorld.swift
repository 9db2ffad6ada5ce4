import Interlude

var configuration = SoundEngine.Configuration(output: .systemDefaultOrNull)
configuration.distanceModel = .linearClamped           // how level falls with distance
let engine = try SoundEngine(configuration: configuration)
try engine.setDoppler(factor: 1, speedOfSoundMetresPerSecond: 343.3)

// A cave: every effect in the "sfx" group sounds in it until the player walks out.
let cave = try engine.makeReverbZone(named: "cave", preset: .cave)
try engine.setReverbZone(cave, of: GroupID.sfx)
let drip = try engine.loadSound(path: "assets/sfx/chime.wav")
try engine.play(drip, parameters: .init(position: Vector3(0, 2, -5)))
try engine.setReverbZone(nil, of: GroupID.sfx)
try engine.setDistanceModel(.inverseClamped)
engine.shutdown()
