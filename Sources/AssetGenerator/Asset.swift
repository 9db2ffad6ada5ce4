import Foundation
import Interlude
import InterludeScene

/// One generated file: where it goes, what it is, and how to synthesize it.
struct Asset: Sendable {
    /// Path under the assets folder, such as `sfx/beep.wav`. A `.wav` is written as 16-bit PCM;
    /// an `.ogg`, `.opus` or `.mp3` is encoded by ``LossyEncoder``.
    let relativePath: String
    /// One line for LICENSE.md.
    let description: String
    /// Sample rate and channel count of `render`'s output.
    let format: AudioFormat
    /// Comments written into an Ogg Vorbis or Opus file, such as its loop tags.
    var tags: [(String, String)] = []
    /// Synthesizes the interleaved samples, in [-1, 1]. Deterministic: no clock, fixed seeds.
    let render: @Sendable () -> [Float]

    /// Renders the asset and writes it under `folder`, creating subfolders as needed.
    /// Returns the path written.
    func write(into folder: String, encoder: LossyEncoder) throws -> String {
        let path = folder + "/" + relativePath
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let samples = render()
        if LossyEncoder.encodes(relativePath) {
            try encoder.encode(samples: samples, format: format, tags: tags, to: path)
        } else {
            try WAVFileWriter.write(samples: samples, format: format, sampleType: .int16, to: path)
        }
        return path
    }
}
