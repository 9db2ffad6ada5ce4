import Foundation
import Interlude
import InterludeScene

/// Encodes samples with the system's encoders: Ogg Vorbis with oggenc (vorbis-tools), Ogg Opus
/// with opusenc (opus-tools), MP3 with lame, chosen by the file's extension.
///
/// Vorbis at quality 3 keeps the assets small; the fixed stream serial numbers make the output
/// the same on every run (oggenc and opusenc pick a random serial otherwise).
struct LossyEncoder {
    /// The tool for each extension, and the package that provides it.
    private static let tools = ["ogg": ("/usr/bin/oggenc", "vorbis-tools"), "opus": ("/usr/bin/opusenc", "opus-tools"),
                                "mp3": ("/usr/bin/lame", "lame")]

    /// True for a path this encoder writes (`.ogg`, `.opus`, `.mp3`).
    static func encodes(_ path: String) -> Bool {
        tools[URL(fileURLWithPath: path).pathExtension] != nil
    }

    /// Throws `.writeFailed` if an encoder is not installed.
    init() throws {
        for (path, package) in Self.tools.values where !FileManager.default.isExecutableFile(atPath: path) {
            throw InterludeError(.writeFailed, "\(path) not found: `make deps` installs \(package), which provides it")
        }
    }

    /// Writes `samples` as a WAV in a private temporary folder, encodes it into a hidden file
    /// beside `path` with `tags` as comments (Vorbis and Opus only), and renames that into
    /// place, so `path` is never left half written.
    func encode(samples: [Float], format: AudioFormat, tags: [(String, String)] = [], to path: String) throws {
        let workFolder = FileManager.default.temporaryDirectory
            .appendingPathComponent("AssetGenerator-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: workFolder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: workFolder) }
        let inputPath = workFolder + "/input.wav"
        let url = URL(fileURLWithPath: path)
        let partialPath = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent).path
        let (tool, _) = Self.tools[url.pathExtension]!
        let arguments: [String]
        switch url.pathExtension {
        case "ogg":
            arguments = ["-Q", "-q", "3", "--serial", "1"] + tags.flatMap { ["-c", "\($0.0)=\($0.1)"] }
                + ["-o", partialPath, inputPath]
        case "opus":
            arguments = ["--quiet", "--serial", "1"] + tags.flatMap { ["--comment", "\($0.0)=\($0.1)"] } + [inputPath, partialPath]
        default:
            arguments = ["--quiet", "-b", "128", inputPath, partialPath]
        }
        // lame reads integer PCM only.
        try WAVFileWriter.write(samples: samples, format: format, sampleType: url.pathExtension == "mp3" ? .int16 : .float32,
                                to: inputPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let errorPipe = Pipe()
        process.standardError = errorPipe
        try process.run()
        let errorOutput = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            try? FileManager.default.removeItem(atPath: partialPath)
            let problem = errorOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            throw InterludeError(
                .writeFailed,
                "\(path): \(url.lastPathComponent) encoder exited with status \(process.terminationStatus)\(problem.isEmpty ? "" : ": \(problem)")")
        }
        guard rename(partialPath, path) == 0 else {
            let error = InterludeError(.writeFailed, "\(path): cannot rename \(partialPath) into place: \(String(cString: strerror(errno)))")
            try? FileManager.default.removeItem(atPath: partialPath)
            throw error
        }
    }
}
