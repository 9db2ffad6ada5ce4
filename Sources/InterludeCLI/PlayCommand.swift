import ArgumentParser
import Foundation
import Interlude

/// `interlude play FILE [--position x,y,z] [--loop] [--device NAME|null]`.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a WAV or Ogg Vorbis file on a device and exit at its end."
    )

    @Argument(help: "The file to play.")
    var file: String

    @Option(help: "Place it in 3D, as x,y,z (the listener is at the origin facing -z).")
    var position: String?

    @Flag(help: "Loop until interrupted with Ctrl-C.")
    var loop = false

    @Option(help: "A device name from `interlude info`, or `null` for OpenAL Soft's null backend.")
    var device: String?

    func run() throws {
        do {
            let output: OutputDevice = switch device {
            case nil: .systemDefault
            case "null": .null
            case let name?: .named(name)
            }
            let engine = try SoundEngine(configuration: SoundEngine.Configuration(output: output))
            defer { engine.shutdown() }
            let sound = try engine.loadSound(path: file)
            var parameters = VoiceParameters()
            parameters.isLooping = loop
            if let position {
                parameters.position = try Self.parseVector(position)
            }
            let voice = try engine.play(sound, parameters: parameters)
            let meter = LevelMeter(engine: engine, voice: voice, sound: sound)
            while engine.isPlaying(voice) {
                meter.draw()
                Thread.sleep(forTimeInterval: 0.05)
            }
            meter.finish()
        } catch let error as InterludeError {
            FileHandle.standardError.write(Data("interlude play: \(error.message)\n".utf8))
            throw ExitCode(1)
        }
    }

    static func parseVector(_ text: String) throws -> Vector3 {
        let parts = text.split(separator: ",").map { Float($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, let x = parts[0], let y = parts[1], let z = parts[2] else {
            throw InterludeError(.invalidArgument, "--position: expected x,y,z, got \"\(text)\"")
        }
        return Vector3(x, y, z)
    }
}
