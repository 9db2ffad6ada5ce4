import Foundation
import Interlude
import InterludeScene

/// Encodes samples to Ogg Vorbis with the system's oggenc (vorbis-tools).
///
/// Quality 3 keeps the assets small; the fixed stream serial number makes the output the same
/// on every run (oggenc picks a random serial otherwise).
struct OggEncoder {
    static let executablePath = "/usr/bin/oggenc"

    /// Throws `.writeFailed` if oggenc is not installed.
    init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executablePath) else {
            throw InterludeError(
                .writeFailed,
                "\(Self.executablePath) not found: `make deps` installs vorbis-tools, which provides oggenc")
        }
    }

    /// Writes `samples` as a float WAV in a private temporary folder, encodes it into a hidden
    /// file beside `path`, and renames that into place, so `path` is never left half written.
    func encode(samples: [Float], format: AudioFormat, to path: String) throws {
        let workFolder = FileManager.default.temporaryDirectory
            .appendingPathComponent("AssetGenerator-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: workFolder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: workFolder) }
        let inputPath = workFolder + "/input.wav"
        try WAVFileWriter.write(samples: samples, format: format, sampleType: .float32, to: inputPath)

        let url = URL(fileURLWithPath: path)
        let partialPath = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executablePath)
        process.arguments = ["-Q", "-q", "3", "--serial", "1", "-o", partialPath, inputPath]
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
                "\(path): oggenc exited with status \(process.terminationStatus)\(problem.isEmpty ? "" : ": \(problem)")")
        }
        guard rename(partialPath, path) == 0 else {
            let error = InterludeError(.writeFailed, "\(path): cannot rename \(partialPath) into place: \(String(cString: strerror(errno)))")
            try? FileManager.default.removeItem(atPath: partialPath)
            throw error
        }
    }
}
