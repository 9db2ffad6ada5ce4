import Interlude
import InterludeScene

let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
engine.setEventHandler { event in
    if case .design(.bankReloadFailed(_, let error)) = event { print("bank kept as it was: \(error.message)") }
}
try engine.loadBank(path: "examples/Arcade/arcade-bank.json")                  // once, as a shipped game does
let watcher = try engine.watchBank(path: "examples/Arcade/arcade-bank.json")   // or now, and again on every save
let footstep = try engine.play(cue: engine.cue(named: "footstep")!)
watcher.stop()
engine.shutdown()
