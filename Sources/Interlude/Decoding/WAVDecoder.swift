/// Reads RIFF/WAVE files: PCM unsigned 8-bit and signed 16, 24 and 32-bit, IEEE float 32-bit,
/// mono or stereo, plain or WAVE_FORMAT_EXTENSIBLE.
///
/// Only the header is parsed at open; sample data is read from the file as it is asked for,
/// so a streamed track never holds more than one read's worth in memory. Samples come out as
/// interleaved float: 8-bit as (v - 128) / 128, n-bit signed as v / 2^(n-1), float as stored.
///
/// Use from one thread at a time.
public final class WAVDecoder: AudioDecoder {
    /// The file being decoded.
    public let path: String
    /// Sample rate and channel count from the fmt chunk.
    public let format: AudioFormat
    /// Whole frames in the data chunk.
    public let frameCount: Int
    /// The first loop of its `smpl` chunk (`dwStart` through `dwEnd` inclusive, so the range
    /// ends at `dwEnd + 1`), or nil.
    public let loopRegion: Range<Int>?

    /// 8, 16, 24 or 32 for integer PCM; nil for 32-bit float.
    public var integerBitsPerSample: Int? { encoding == .float32 ? nil : 8 * encoding.bytesPerSample }

    private let file: DecoderFile
    private let encoding: SampleEncoding
    private let dataOffsetInBytes: Int
    private let bytesPerFrame: Int
    private var positionInFrames = 0
    /// Raw bytes between the file and the float conversion; allocated once so reads never allocate.
    private let scratch: UnsafeMutableRawBufferPointer

    private static let scratchByteCount = 64 * 1024

    /// Opens `path` and parses its header.
    ///
    /// Throws ``InterludeError`` with `.fileNotFound`, `.unreadableFile`, `.corruptData` (bad or
    /// truncated structure) or `.unsupportedFormat` (a codec, bit depth or channel count that is
    /// not decoded); the message names the file and the problem.
    public convenience init(path: String) throws {
        try self.init(file: DecoderFile(path: path))
    }

    init(file: DecoderFile) throws {
        let path = file.path
        let layout = try Self.parseLayout(of: file)
        self.file = file
        self.path = path
        self.format = AudioFormat(sampleRate: layout.sampleRate, channelCount: layout.channelCount)
        self.encoding = layout.encoding
        let bytesPerFrame = layout.channelCount * layout.encoding.bytesPerSample
        // A trailing partial frame carries no complete sample set, so it is not played.
        let frameCount = layout.dataByteCount / bytesPerFrame
        self.bytesPerFrame = bytesPerFrame
        self.dataOffsetInBytes = layout.dataOffsetInBytes
        self.frameCount = frameCount
        self.loopRegion = layout.sampleLoop.flatMap { loop in
            LoopTags.sampleLoopRegion(startFrame: loop.startFrame, lastFrame: loop.lastFrame, frameCount: frameCount, path: path)
        }
        try file.seek(toByte: dataOffsetInBytes)
        self.scratch = .allocate(byteCount: Self.scratchByteCount, alignment: 16)
    }

    deinit {
        scratch.deallocate()
    }

    /// Reads up to `buffer.count / format.channelCount` frames of interleaved float samples.
    /// Returns the frames read; 0 at the end of the data. Throws `.corruptData` if the file
    /// turns out shorter than its header said, `.invalidArgument` for a buffer smaller than a frame.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let channelCount = format.channelCount
        guard buffer.count >= channelCount else {
            throw InterludeError(.invalidArgument, "\(path): read buffer of \(buffer.count) samples holds no whole frame")
        }
        let framesWanted = min(buffer.count / channelCount, frameCount - positionInFrames)
        let framesPerScratch = Self.scratchByteCount / bytesPerFrame
        var framesDone = 0
        while framesDone < framesWanted {
            let frames = min(framesWanted - framesDone, framesPerScratch)
            let byteCount = frames * bytesPerFrame
            guard file.read(into: scratch.baseAddress!, byteCount: byteCount) == byteCount else {
                throw file.shortReadError("data chunk at frame \(positionInFrames)")
            }
            convert(sampleCount: frames * channelCount, to: buffer.baseAddress! + framesDone * channelCount)
            framesDone += frames
            positionInFrames += frames
        }
        return framesDone
    }

    /// Moves the read position to `frame`, in 0 ... frameCount. Throws `.invalidArgument` outside that range.
    public func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else {
            throw InterludeError(.invalidArgument, "\(path): seek to frame \(frame) outside 0...\(frameCount)")
        }
        try file.seek(toByte: dataOffsetInBytes + frame * bytesPerFrame)
        positionInFrames = frame
    }

    private func convert(sampleCount: Int, to output: UnsafeMutablePointer<Float>) {
        let input = UnsafeRawPointer(scratch.baseAddress!)
        switch encoding {
        case .unsigned8:
            for index in 0..<sampleCount {
                output[index] = (Float(input.load(fromByteOffset: index, as: UInt8.self)) - 128) * (1 / 128)
            }
        case .signed16:
            for index in 0..<sampleCount {
                let value = Int16(littleEndian: input.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))
                output[index] = Float(value) * (1 / 32768)
            }
        case .signed24:
            for index in 0..<sampleCount {
                let byte = input + index * 3
                // Place the 24 bits at the top of an Int32 so the arithmetic shift sign-extends.
                let bits = UInt32(byte.load(as: UInt8.self)) << 8
                    | UInt32(byte.load(fromByteOffset: 1, as: UInt8.self)) << 16
                    | UInt32(byte.load(fromByteOffset: 2, as: UInt8.self)) << 24
                output[index] = Float(Int32(bitPattern: bits) >> 8) * (1 / 8_388_608)
            }
        case .signed32:
            for index in 0..<sampleCount {
                let value = Int32(littleEndian: input.loadUnaligned(fromByteOffset: index * 4, as: Int32.self))
                output[index] = Float(value) * (1 / 2_147_483_648)
            }
        case .float32:
            for index in 0..<sampleCount {
                let bits = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
                output[index] = Float(bitPattern: bits)
            }
        }
    }
}

extension WAVDecoder {
    private enum SampleEncoding {
        case unsigned8, signed16, signed24, signed32, float32

        var bytesPerSample: Int {
            switch self {
            case .unsigned8: 1
            case .signed16: 2
            case .signed24: 3
            case .signed32, .float32: 4
            }
        }
    }

    private struct Layout {
        var sampleRate: Int
        var channelCount: Int
        var encoding: SampleEncoding
        var dataOffsetInBytes = 0
        var dataByteCount = 0
        /// The `smpl` chunk's first loop: frames, the last one inclusive.
        var sampleLoop: (startFrame: UInt32, lastFrame: UInt32)?
    }

    private static let formatTagPCM: UInt16 = 0x0001
    private static let formatTagFloat: UInt16 = 0x0003
    private static let formatTagExtensible: UInt16 = 0xFFFE
    /// Bytes 2..<16 of every KSDATAFORMAT_SUBTYPE GUID; the first two hold the format tag.
    private static let subformatGUIDTail: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
    ]

    /// Walks the chunks until both fmt and data are found. Every declared size is checked
    /// against the real file size before it is used, so a lying header cannot cause a huge read.
    private static func parseLayout(of file: DecoderFile) throws -> Layout {
        let path = file.path
        guard file.byteCount > 0 else {
            throw InterludeError(.corruptData, "\(path): empty file")
        }
        let riff = try file.bytes(atOffset: 0, byteCount: 12)
        guard riff.count == 12 else {
            throw InterludeError(.corruptData, "\(path): RIFF header truncated at \(riff.count) of 12 bytes")
        }
        if fourCC(riff, at: 0) == "RIFX" {
            throw InterludeError(.unsupportedFormat, "\(path): big-endian RIFX files are not supported")
        }
        guard fourCC(riff, at: 0) == "RIFF", fourCC(riff, at: 8) == "WAVE" else {
            throw InterludeError(.corruptData, "\(path): not a RIFF/WAVE file (bad magic bytes)")
        }
        // The RIFF size field is ignored: streaming writers often leave it wrong, and the chunk walk
        // is bounded by the real file size anyway.
        var layout: Layout?
        var data: (offset: Int, byteCount: Int)?
        var sampleLoop: (startFrame: UInt32, lastFrame: UInt32)?
        var offset = 12
        // Past fmt and data the walk goes on for a smpl chunk, which often follows the data; damage
        // there ends the walk instead of failing the file, since the samples are all there.
        while true {
            let hasEssentials = layout != nil && data != nil
            let remaining = file.byteCount - offset
            // A missing pad byte after the last chunk (remaining == -1) is a common writer slip, not damage.
            if remaining <= 0 || (hasEssentials && remaining < 8) { break }
            guard remaining >= 8 else {
                throw InterludeError(.corruptData, "\(path): chunk header at byte \(offset) truncated (\(remaining) of 8 bytes)")
            }
            let header = try file.bytes(atOffset: offset, byteCount: 8)
            guard header.count == 8 else {
                if hasEssentials { break }
                throw file.shortReadError("chunk header at byte \(offset)")
            }
            let id = fourCC(header, at: 0)
            let size = Int(uint32(header, at: 4))
            let bodyOffset = offset + 8
            guard size <= file.byteCount - bodyOffset else {
                if hasEssentials { break }
                throw InterludeError(.corruptData, "\(path): chunk '\(id)' at byte \(offset) declares \(size) bytes but only \(file.byteCount - bodyOffset) remain (truncated)")
            }
            switch id {
            case "fmt " where layout == nil:
                // 40 bytes is the longest fmt we read (EXTENSIBLE); any tail is extension data we ignore.
                let body = try file.bytes(atOffset: bodyOffset, byteCount: min(size, 40))
                guard body.count == min(size, 40) else { throw file.shortReadError("fmt chunk") }
                layout = try parseFormat(body, path: path)
            case "data" where data == nil:
                data = (bodyOffset, size)
            case "smpl" where sampleLoop == nil:
                sampleLoop = try firstSampleLoop(file, bodyOffset: bodyOffset, byteCount: size)
            default:
                break
            }
            offset = bodyOffset + size + (size & 1)
        }
        guard var found = layout else {
            throw InterludeError(.corruptData, "\(path): no fmt chunk")
        }
        guard let data else {
            throw InterludeError(.corruptData, "\(path): no data chunk")
        }
        found.dataOffsetInBytes = data.offset
        found.dataByteCount = data.byteCount
        found.sampleLoop = sampleLoop
        return found
    }

    /// The first loop of a `smpl` chunk: 36 bytes of header, the loop count at 28, then 24-byte
    /// loops with `dwStart` at 8 and `dwEnd` at 12. nil (with a warning) for a chunk too short to
    /// hold the loop it counts.
    private static func firstSampleLoop(_ file: DecoderFile, bodyOffset: Int, byteCount: Int) throws -> (startFrame: UInt32, lastFrame: UInt32)? {
        let headerByteCount = 36
        let loopByteCount = 24
        let body = try file.bytes(atOffset: bodyOffset, byteCount: min(byteCount, headerByteCount + loopByteCount))
        guard body.count >= headerByteCount, uint32(body, at: 28) > 0 else { return nil }
        guard body.count >= headerByteCount + loopByteCount else {
            LoopTags.warnIgnored("\(file.path): smpl chunk of \(byteCount) bytes is too short for the loop it declares; ignored")
            return nil
        }
        return (uint32(body, at: headerByteCount + 8), uint32(body, at: headerByteCount + 12))
    }

    private static func parseFormat(_ body: [UInt8], path: String) throws -> Layout {
        guard body.count >= 16 else {
            throw InterludeError(.corruptData, "\(path): fmt chunk is \(body.count) bytes, needs at least 16")
        }
        var formatTag = uint16(body, at: 0)
        let channelCount = Int(uint16(body, at: 2))
        let sampleRate = Int(uint32(body, at: 4))
        let blockAlign = Int(uint16(body, at: 12))
        let bitsPerSample = Int(uint16(body, at: 14))
        if formatTag == formatTagExtensible {
            guard body.count >= 40 else {
                throw InterludeError(.corruptData, "\(path): WAVE_FORMAT_EXTENSIBLE fmt chunk is \(body.count) bytes, needs 40")
            }
            guard Array(body[26..<40]) == subformatGUIDTail else {
                throw InterludeError(.unsupportedFormat, "\(path): WAVE_FORMAT_EXTENSIBLE with an unknown subformat GUID")
            }
            formatTag = uint16(body, at: 24)
        }
        guard channelCount > 0 else {
            throw InterludeError(.corruptData, "\(path): fmt chunk declares zero channels")
        }
        guard sampleRate > 0 else {
            throw InterludeError(.corruptData, "\(path): fmt chunk declares a zero sample rate")
        }
        let encoding: SampleEncoding
        switch (formatTag, bitsPerSample) {
        case (formatTagPCM, 8): encoding = .unsigned8
        case (formatTagPCM, 16): encoding = .signed16
        case (formatTagPCM, 24): encoding = .signed24
        case (formatTagPCM, 32): encoding = .signed32
        case (formatTagFloat, 32): encoding = .float32
        case (formatTagPCM, _):
            throw InterludeError(.unsupportedFormat, "\(path): \(bitsPerSample)-bit PCM is not supported (8, 16, 24 or 32)")
        case (formatTagFloat, _):
            throw InterludeError(.unsupportedFormat, "\(path): \(bitsPerSample)-bit float is not supported (32 only)")
        default:
            throw InterludeError(.unsupportedFormat, "\(path): format tag \(hex(formatTag))\(codecName(formatTag)) is not supported (PCM or IEEE float only)")
        }
        guard AudioFormat.supportedChannelCounts.contains(channelCount) else {
            throw InterludeError(.unsupportedFormat, "\(path): \(channelCount) channels are not supported (mono or stereo only)")
        }
        guard blockAlign == channelCount * encoding.bytesPerSample else {
            throw InterludeError(.corruptData, "\(path): block align \(blockAlign) does not match \(channelCount) channels of \(bitsPerSample) bits")
        }
        return Layout(sampleRate: sampleRate, channelCount: channelCount, encoding: encoding)
    }

    private static func codecName(_ formatTag: UInt16) -> String {
        switch formatTag {
        case 0x0002: " (MS ADPCM)"
        case 0x0006: " (A-law)"
        case 0x0007: " (mu-law)"
        case 0x0011: " (IMA ADPCM)"
        case 0x0055: " (MP3)"
        default: ""
        }
    }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    private static func fourCC(_ bytes: [UInt8], at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4].map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    private static func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
