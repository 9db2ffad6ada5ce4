import ArgumentParser
import Foundation
import Interlude
import InterludeScene

/// `interlude info`: devices, extensions, HRTFs and limits; or, given a file, its format, length
/// and loop points.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "List output devices, OpenAL extensions, HRTF data sets and the engine's limits; or describe a sound file.",
        discussion: "With FILE: the format it is read as (by content, not by name), sample rate, channels, exact length and loop points."
    )

    @Argument(help: "A sound file (WAV, Ogg Vorbis, Ogg Opus, FLAC or MP3) to describe instead.")
    var file: String?

    func run() throws {
        guard let file else {
            print(DeviceReport.make().text)
            return
        }
        do {
            print(try FileReport.make(path: file).text)
        } catch let error as InterludeError {
            FileHandle.standardError.write(Data("interlude info: \(error.message)\n".utf8))
            throw ExitCode(1)
        }
    }
}
