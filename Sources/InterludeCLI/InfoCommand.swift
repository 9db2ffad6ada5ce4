import ArgumentParser
import InterludeScene

/// `interlude info`: devices, extensions, HRTFs and limits.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "List output devices, OpenAL extensions, HRTF data sets and the engine's limits."
    )

    func run() throws {
        print(DeviceReport.make().text)
    }
}
