import Interlude

// At launch, before the first frame:
let audioStart = Task { try await SoundEngine.start(configuration: .init(output: .systemDefaultOrNull)) }
// ... the game draws its first frames; where it needs the engine (any async context):
let engine = try await audioStart.value
engine.shutdown()
