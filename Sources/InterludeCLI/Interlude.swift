import ArgumentParser
import Interlude

/// The `interlude` command: render scenes offline, play files, report devices.
@main
struct InterludeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interlude",
        abstract: "Interlude, a game-audio engine on OpenAL Soft: render scenes, play files, list devices."
    )
}
