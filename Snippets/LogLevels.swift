import Interlude
import Logging

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .debug        // .warning keeps only what concerns the game
    return handler
}
let engine = try SoundEngine(configuration: .init(output: .systemDefaultOrNull))
engine.shutdown()
