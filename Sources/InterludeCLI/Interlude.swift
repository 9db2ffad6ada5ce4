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
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            let code = exitCode(for: error)
            guard code != .success, !(error is ExitCode) else {
                // Help, or a failure the command already reported on its own line.
                exit(withError: error)
            }
            // A bad option fails as everything else does: one line, naming the scene file where
            // one was given, no usage block (docs/scenes.md).
            let line = oneLineError(message(for: error), arguments: arguments, pointsToHelp: code == .validationFailure)
            FileHandle.standardError.write(Data((line + "\n").utf8))
            Foundation.exit(code.rawValue)
        }
    }

    /// The line a failed command gets: the subcommand, the scene file when `render` was given
    /// one, the problem, and, for a bad command line (`pointsToHelp`), where to find the usage.
    static func oneLineError(_ message: String, arguments: [String], pointsToHelp: Bool) -> String {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        let subcommand = arguments.first.flatMap { names.contains($0) ? $0 : nil }
        var parts = ["interlude" + (subcommand.map { " \($0)" } ?? "")]
        if subcommand == RenderCommand.configuration.commandName, let scene = RenderCommand.sceneArgument(in: arguments.dropFirst()) {
            parts.append(scene)
        }
        let problem = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        parts.append(pointsToHelp ? "\(problem) (see `interlude \(subcommand.map { "\($0) " } ?? "")--help`)" : problem)
        return parts.joined(separator: ": ")
    }
}
