import ArgumentParser
import Foundation
import Interlude
import Logging

/// The `interlude` command: render scenes offline, play files, report devices.
@main
struct InterludeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interlude",
        abstract: "Interlude, a game-audio engine on OpenAL Soft: render scenes, play files, list devices.",
        subcommands: [RenderCommand.self, PlayCommand.self, InfoCommand.self]
    )

    /// The command line prints its own one-line errors; the engine's log goes to standard error
    /// only at INTERLUDE_LOG_LEVEL (trace, debug, info, notice, warning, error; default: critical).
    static func bootstrapLogging() {
        let level = ProcessInfo.processInfo.environment["INTERLUDE_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    static func main() {
        bootstrapLogging()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
