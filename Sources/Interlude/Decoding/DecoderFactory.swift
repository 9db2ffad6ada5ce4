/// Picks the decoder for a file by its magic bytes, not its name.
@_spi(Tools) public enum DecoderFactory {
    /// Opens `path` with the decoder its first bytes call for, whatever its name: "RIFF"...."WAVE"
    /// gives a ``WAVDecoder``; "OggS" an ``OpusDecoder`` when the first packet is "OpusHead", a
    /// ``VorbisDecoder`` otherwise; "fLaC" a ``FLACDecoder``; an MPEG audio frame header, after
    /// an ID3v2 tag if there is one, an ``MP3Decoder``.
    ///
    /// Throws ``InterludeError``: `.unsupportedFormat` for any other file, plus whatever the
    /// chosen decoder throws at open. Safe to call from any thread; the decoder it returns is
    /// used by one thread at a time.
    public static func open(path: String) throws -> any AudioDecoder {
        try open(DecoderFile(path: path))
    }

    /// Decodes all of `path` into memory, for short sounds that become one buffer, with the
    /// loop its tags declare (``AudioDecoder/loopRegion``).
    ///
    /// Throws like ``open(path:)``, and `.corruptData` for damage found while decoding.
    public static func decodeAll(path: String) throws -> (format: AudioFormat, samples: [Float], loopRegion: Range<Int>?) {
        let (decoder, expectedFrames) = try openToDecodeAll(path: path)
        return (decoder.format, try readAllFloat(decoder, expectedFrames: expectedFrames), decoder.loopRegion)
    }

    /// Decodes all of `path` as a loaded sound keeps it: 16-bit when the decoder promises its
    /// source holds no more (``AudioDecoder/integerBitsPerSample`` of 16 or fewer), so the
    /// samples are the same values at half the memory; float otherwise. Throws like
    /// ``decodeAll(path:)``.
    static func decodeSound(path: String) throws -> (format: AudioFormat, samples: SoundSamples, loopRegion: Range<Int>?) {
        let (decoder, expectedFrames) = try openToDecodeAll(path: path)
        return try decodeSound(decoder, expectedFrames: expectedFrames)
    }

    /// Decodes a game's own decoder from where it stands, as ``decodeSound(path:)`` does a file,
    /// but never past its ``AudioDecoder/frameCount``: a procedural source that never ends, or
    /// one that claims more than it gives, cannot make the engine read or allocate without
    /// bound. A read that returns more frames than the buffer holds counts as the buffer.
    static func decodeSound(decoder: any AudioDecoder) throws -> (format: AudioFormat, samples: SoundSamples, loopRegion: Range<Int>?) {
        try decodeSound(decoder, expectedFrames: decoder.frameCount, frameLimit: decoder.frameCount)
    }

    private static func decodeSound(_ decoder: any AudioDecoder, expectedFrames: Int, frameLimit: Int? = nil) throws -> (format: AudioFormat, samples: SoundSamples, loopRegion: Range<Int>?) {
        let samples: SoundSamples
        if let bits = decoder.integerBitsPerSample, bits <= 16 {
            samples = .int16(try readAllInt16(decoder, expectedFrames: expectedFrames, frameLimit: frameLimit))
        } else {
            samples = .float32(try readAllFloat(decoder, expectedFrames: expectedFrames, frameLimit: frameLimit))
        }
        return (decoder.format, samples, decoder.loopRegion)
    }

    /// Opens `path` for a whole decode, with the frames to allocate for first.
    private static func openToDecodeAll(path: String) throws -> (decoder: any AudioDecoder, expectedFrames: Int) {
        let file = try DecoderFile(path: path)
        let decoder = try open(file)
        // A WAV's frame count is bounded by its size already. A Vorbis or Opus frame count comes
        // from a granule position, a FLAC one from STREAMINFO, either of which a damaged file can
        // inflate, so the first allocation is also capped by a generous frames-per-byte ratio
        // (real files stay well under it); a file that decodes to more simply grows the array.
        let maximumFramesPerByte = 64
        return (decoder, min(decoder.frameCount, file.byteCount * maximumFramesPerByte))
    }

    /// Reads `decoder` to its end as float, straight into an array of `expectedFrames`, grown
    /// if the file holds more, unless `frameLimit` stops it there.
    private static func readAllFloat(_ decoder: any AudioDecoder, expectedFrames: Int, frameLimit: Int? = nil) throws -> [Float] {
        let channelCount = decoder.format.channelCount
        var samples = [Float](repeating: 0, count: expectedFrames * channelCount)
        var filled = 0
        while filled < samples.count {
            let frames = try samples.withUnsafeMutableBufferPointer { all in
                min(try decoder.read(into: UnsafeMutableBufferPointer(rebasing: all[filled...])), (all.count - filled) / channelCount)
            }
            if frames <= 0 { break }
            filled += frames * channelCount
        }
        samples.removeSubrange(filled...)
        if filled == expectedFrames * channelCount && frameLimit == nil {
            var chunk = [Float](repeating: 0, count: 4096 * channelCount)
            while case let frames = try chunk.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }), frames > 0 {
                samples.append(contentsOf: chunk[0..<frames * channelCount])
            }
        }
        return samples
    }

    /// Reads `decoder` to its end as 16-bit samples (v = float x 32768), a chunk of float at a
    /// time, into an array reserved for `expectedFrames`; no more than `frameLimit` frames.
    private static func readAllInt16(_ decoder: any AudioDecoder, expectedFrames: Int, frameLimit: Int? = nil) throws -> [Int16] {
        let channelCount = decoder.format.channelCount
        let limit = frameLimit ?? Int.max
        var samples: [Int16] = []
        samples.reserveCapacity(expectedFrames * channelCount)
        var chunk = [Float](repeating: 0, count: 4096 * channelCount)
        while samples.count / channelCount < limit {
            let wanted = min(4096, limit - samples.count / channelCount)
            let frames = try chunk.withUnsafeMutableBufferPointer { all in
                min(try decoder.read(into: UnsafeMutableBufferPointer(rebasing: all[0..<wanted * channelCount])), wanted)
            }
            if frames <= 0 { break }
            samples.append(contentsOf: chunk[0..<frames * channelCount].lazy.map(int16))
        }
        return samples
    }

    /// `value` x 32768 as Int16: exact for a decoder true to its ``AudioDecoder/integerBitsPerSample``;
    /// rounded and clamped for one that is not, so a damaged file cannot trap.
    static func int16(_ value: Float) -> Int16 {
        let scaled = (value * 32768).rounded()
        guard !scaled.isNaN else { return 0 }
        return Int16(min(32767, max(-32768, scaled)))
    }

    private static func open(_ file: DecoderFile) throws -> any AudioDecoder {
        // An Ogg page header (27 bytes) and its lacing table (up to 255) come before the first
        // packet's first 8 bytes, which name the codec.
        let head = try file.bytes(atOffset: 0, byteCount: 27 + 255 + 8)
        if head.isEmpty {
            throw InterludeError(.corruptData, "\(file.path): empty file")
        }
        if head.starts(with: Array("RIFF".utf8)), head.count >= 12, Array(head[8..<12]) == Array("WAVE".utf8) {
            return try WAVDecoder(file: file)
        }
        if head.starts(with: Array("OggS".utf8)) {
            // Anything but Opus goes to the Vorbis decoder, which names what it finds wrong.
            return firstOggPacket(head).starts(with: Array("OpusHead".utf8)) ? try OpusDecoder(file: file) : try VorbisDecoder(file: file)
        }
        if head.starts(with: Array("fLaC".utf8)) {
            return try FLACDecoder(file: file)
        }
        // An ID3v2 tag may stand before MPEG audio frames (or, rarely, before a FLAC stream).
        let audioOffset = id3v2TagByteCount(head)
        let audio = audioOffset == 0 ? head : try file.bytes(atOffset: audioOffset, byteCount: 4)
        if audio.starts(with: Array("fLaC".utf8)) {
            return try FLACDecoder(file: file)
        }
        if isMPEGAudioFrameHeader(audio) {
            return try MP3Decoder(file: file)
        }
        throw InterludeError(.unsupportedFormat, "\(file.path): unrecognised file type (not RIFF/WAVE, Ogg Vorbis or Opus, FLAC or MPEG audio)")
    }

    /// The start of the first packet on the Ogg page at the start of `bytes`; empty if the page
    /// header or its lacing table is cut short.
    private static func firstOggPacket(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        let headerByteCount = 27
        guard bytes.count > headerByteCount else { return [] }
        let packetOffset = headerByteCount + Int(bytes[headerByteCount - 1])
        return packetOffset < bytes.count ? bytes[packetOffset...] : []
    }

    /// The size of the ID3v2 tag (header, body and footer) at the start of `bytes`, or 0.
    private static func id3v2TagByteCount(_ bytes: [UInt8]) -> Int {
        guard bytes.count >= 10, bytes.starts(with: Array("ID3".utf8)), bytes[3] != 0xFF, bytes[4] != 0xFF,
              bytes[6..<10].allSatisfy({ $0 < 0x80 }) else { return 0 }
        // The body size is "synchsafe": four 7-bit groups.
        let bodyByteCount = bytes[6..<10].reduce(0) { $0 << 7 | Int($1) }
        let hasFooter = bytes[5] & 0x10 != 0
        return 10 + bodyByteCount + (hasFooter ? 10 : 0)
    }

    /// Whether `bytes` start with a plausible MPEG audio frame header: the 11-bit frame sync,
    /// then no reserved version, layer, bitrate or sample rate code.
    private static func isMPEGAudioFrameHeader(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 else { return false }
        let version = (bytes[1] >> 3) & 0x3
        let layer = (bytes[1] >> 1) & 0x3
        let bitrateIndex = bytes[2] >> 4
        let sampleRateIndex = (bytes[2] >> 2) & 0x3
        return version != 0x1 && layer != 0 && bitrateIndex != 0xF && sampleRateIndex != 0x3
    }
}
