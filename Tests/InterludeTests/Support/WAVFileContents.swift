import Foundation

/// A WAV file read byte by byte, independently of the engine's own reader: its header fields and
/// its interleaved samples. 16-bit PCM and 32-bit float. A data chunk whose size was never
/// written (a recorder stopped by a dying server leaves 0 or 0xFFFFFFFF) runs to the end of the
/// file.
struct WAVFileContents {
    var formatTag: Int
    var bitsPerSample: Int
    var channelCount: Int
    var sampleRate: Int
    /// Interleaved samples in [-1, 1].
    var samples: [Double]

    init(contentsOf url: URL) throws {
        try self.init(try Data(contentsOf: url), name: url.path)
    }

    init(_ data: Data, name: String = "WAV") throws {
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF",
              String(decoding: bytes[8..<12], as: UTF8.self) == "WAVE" else {
            throw TestFailure("\(name): not a WAV file (\(bytes.count) bytes)")
        }
        var offset = 12
        var tag = 0, bits = 0, channels = 0, rate = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = u32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                tag = u16(body); channels = u16(body + 2); rate = u32(body + 4); bits = u16(body + 14)
                if tag == 0xFFFE { tag = u16(body + 24) }
            } else if id == "data" {
                let end = (size == 0 || size == 0xFFFF_FFFF || body + size > bytes.count) ? bytes.count : body + size
                let values: [Double]
                switch (tag, bits) {
                case (1, 16):
                    values = stride(from: body, to: end - 1, by: 2).map { Double(Int16(bitPattern: UInt16(u16($0)))) / 32_768 }
                case (3, 32):
                    values = stride(from: body, to: end - 3, by: 4).map { Double(Float(bitPattern: UInt32(u32($0)))) }
                default:
                    throw TestFailure("\(name): format \(tag), \(bits) bits is not read here")
                }
                formatTag = tag; bitsPerSample = bits; channelCount = channels; sampleRate = rate
                samples = Array(values.prefix(values.count - values.count % max(1, channels)))
                return
            }
            offset = body + size + (size & 1)
        }
        throw TestFailure("\(name): no data chunk")
    }

    /// RMS of one channel over `frames`.
    func rms(channel: Int, frames: Range<Int>) -> Double {
        let sum = frames.reduce(0.0) { $0 + samples[$1 * channelCount + channel] * samples[$1 * channelCount + channel] }
        return (sum / Double(frames.count)).squareRoot()
    }

    /// One channel's samples.
    func channel(_ index: Int) -> [Double] {
        stride(from: index, to: samples.count, by: channelCount).map { samples[$0] }
    }
}
