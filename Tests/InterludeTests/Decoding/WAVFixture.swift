import Foundation

/// Builds WAV files byte by byte in a private temporary folder, which it removes when released.
final class WAVFixture: ScratchFolder {
    init() throws {
        try super.init(prefix: "interlude-decoding")
    }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: Byte builders

    static func riff(_ chunks: [[UInt8]], riffSize: UInt32? = nil) -> [UInt8] {
        let body = Array("WAVE".utf8) + chunks.flatMap { $0 }
        return Array("RIFF".utf8) + le32(riffSize ?? UInt32(body.count)) + body
    }

    /// A chunk with its pad byte when the body is odd-sized; `declaredSize` lies about the size.
    static func chunk(_ id: String, _ body: [UInt8], declaredSize: UInt32? = nil) -> [UInt8] {
        Array(id.utf8) + le32(declaredSize ?? UInt32(body.count)) + body + (body.count.isMultiple(of: 2) ? [] : [0])
    }

    static func fmt(formatTag: UInt16, channelCount: UInt16, sampleRate: UInt32 = 44_100, bitsPerSample: UInt16,
                    blockAlign: UInt16? = nil) -> [UInt8] {
        let align = blockAlign ?? channelCount * ((bitsPerSample + 7) / 8)
        return chunk("fmt ", le16(formatTag) + le16(channelCount) + le32(sampleRate)
            + le32(sampleRate * UInt32(align)) + le16(align) + le16(bitsPerSample))
    }

    /// WAVE_FORMAT_EXTENSIBLE with the standard KSDATAFORMAT_SUBTYPE GUID for `subformat`.
    static func fmtExtensible(subformat: UInt16, channelCount: UInt16, sampleRate: UInt32 = 44_100,
                              bitsPerSample: UInt16, guidTail: [UInt8] = standardGUIDTail) -> [UInt8] {
        let align = channelCount * (bitsPerSample / 8)
        let channelMask: UInt32 = channelCount == 1 ? 0x4 : 0x3
        return chunk("fmt ", le16(0xFFFE) + le16(channelCount) + le32(sampleRate) + le32(sampleRate * UInt32(align))
            + le16(align) + le16(bitsPerSample) + le16(22) + le16(bitsPerSample) + le32(channelMask)
            + le16(subformat) + guidTail)
    }

    static let standardGUIDTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

    static func data(_ body: [UInt8], declaredSize: UInt32? = nil) -> [UInt8] {
        chunk("data", body, declaredSize: declaredSize)
    }

    static func unsigned8(_ samples: [UInt8]) -> [UInt8] { samples }
    static func signed16(_ samples: [Int16]) -> [UInt8] { samples.flatMap { le16(UInt16(bitPattern: $0)) } }
    static func signed24(_ samples: [Int32]) -> [UInt8] { samples.flatMap { Array(le32(UInt32(bitPattern: $0)).prefix(3)) } }
    static func signed32(_ samples: [Int32]) -> [UInt8] { samples.flatMap { le32(UInt32(bitPattern: $0)) } }
    static func float32(_ samples: [Float]) -> [UInt8] { samples.flatMap { le32($0.bitPattern) } }

    /// A plain 16-bit PCM file.
    static func pcm16File(_ samples: [Int16], channelCount: UInt16, sampleRate: UInt32) -> [UInt8] {
        riff([fmt(formatTag: 1, channelCount: channelCount, sampleRate: sampleRate, bitsPerSample: 16), data(signed16(samples))])
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
