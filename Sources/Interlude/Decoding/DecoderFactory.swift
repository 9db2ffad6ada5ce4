/// Picks the decoder for a file by its magic bytes, not its name.
public enum DecoderFactory {
    /// Opens `path` with the decoder its first bytes call for: "RIFF"...."WAVE" gives a
    /// ``WAVDecoder``, "OggS" a ``VorbisDecoder``.
    ///
    /// Throws ``InterludeError``: `.unsupportedFormat` for any other file, plus whatever the
    /// chosen decoder throws at open. Safe to call from any thread; the decoder it returns is
    /// used by one thread at a time.
    public static func open(path: String) throws -> any AudioDecoder {
        try open(DecoderFile(path: path))
    }

    /// Decodes all of `path` into memory, for short sounds that become one buffer.
    ///
    /// Throws like ``open(path:)``, and `.corruptData` for damage found while decoding.
    public static func decodeAll(path: String) throws -> (format: AudioFormat, samples: [Float]) {
        let file = try DecoderFile(path: path)
        let decoder = try open(file)
        let channelCount = decoder.format.channelCount
        // A WAV's frame count is bounded by its size already. A Vorbis frame count comes from a
        // granule position that a damaged file can inflate, so the first allocation is also capped
        // by a generous frames-per-byte ratio (real files stay well under it); a file that decodes
        // to more simply grows the array below.
        let maximumFramesPerByte = 64
        let expectedFrames = min(decoder.frameCount, file.byteCount * maximumFramesPerByte)
        var samples = [Float](repeating: 0, count: expectedFrames * channelCount)
        var filled = 0
        while filled < samples.count {
            let frames = try samples.withUnsafeMutableBufferPointer { all in
                try decoder.read(into: UnsafeMutableBufferPointer(rebasing: all[filled...]))
            }
            if frames == 0 { break }
            filled += frames * channelCount
        }
        samples.removeSubrange(filled...)
        if filled == expectedFrames * channelCount {
            var chunk = [Float](repeating: 0, count: 4096 * channelCount)
            while case let frames = try chunk.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }), frames > 0 {
                samples.append(contentsOf: chunk[0..<frames * channelCount])
            }
        }
        return (decoder.format, samples)
    }

    private static func open(_ file: DecoderFile) throws -> any AudioDecoder {
        let magic = try file.bytes(atOffset: 0, byteCount: 12)
        if magic.isEmpty {
            throw InterludeError(.corruptData, "\(file.path): empty file")
        }
        if magic.starts(with: Array("RIFF".utf8)), magic.count == 12, Array(magic[8..<12]) == Array("WAVE".utf8) {
            return try WAVDecoder(file: file)
        }
        if magic.starts(with: Array("OggS".utf8)) {
            return try VorbisDecoder(file: file)
        }
        throw InterludeError(.unsupportedFormat, "\(file.path): unrecognised file type (neither RIFF/WAVE nor Ogg)")
    }
}
