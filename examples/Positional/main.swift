// Positional: a looping fire placed in 3D, and a listener walking past it.
//
// OpenAL only places mono sources; Interlude downmixes a stereo sound for you when you give it a
// position. The listener starts with the fire on its right, walks past it, and ends with the
// fire on its left: the loudness moves from the right ear to the left, and falls off with
// distance (inverse distance, clamped: the default).
//
// Run: swift run Positional   (headless machines render to renders/positional.wav)
import ExampleSupport
import Interlude

let output = try ExampleOutput(name: "positional")
let engine = output.engine
let fire = try engine.loadSound(path: ExampleOutput.asset("ambience/fire.wav"))
try engine.play(fire, parameters: VoiceParameters(position: Vector3(0, 0, -2), isLooping: true))

for step in 0...8 {
    let x = Float(step - 4) * 1.5                       // walk from x = -6 to x = +6, past the fire at z = -2
    try engine.changeListener { $0.position = Vector3(x, 0, 0) }
    let samples = try output.advance(seconds: 0.5)
    let where_ = x < 0 ? "fire on the right" : x > 0 ? "fire on the left" : "fire ahead"
    if output.isLive {
        print("listener at x = \(x): \(where_)")
    } else {
        let left = ExampleOutput.rms(samples, channel: 0), right = ExampleOutput.rms(samples, channel: 1)
        print("listener at x = \(x): \(where_), left RMS \(String(format: "%.3f", left)), right RMS \(String(format: "%.3f", right))")
    }
}
try output.finish()
