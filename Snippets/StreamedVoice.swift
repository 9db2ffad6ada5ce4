import Interlude

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
var radio = VoiceParameters(position: Vector3(12, 0, -3))
radio.isLooping = true                      // the file's loop tags apply, gaplessly
let voice = try engine.play(streamFrom: "assets/music/loop.ogg", parameters: radio)
engine.shutdown()
