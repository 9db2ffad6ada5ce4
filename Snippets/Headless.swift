import Interlude

let engine = try SoundEngine(configuration: SoundEngine.Configuration(output: .systemDefaultOrNull))
let isHeadless = engine.currentOutput == .null
print(isHeadless)
engine.shutdown()
