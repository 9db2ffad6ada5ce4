import Interlude

/// Writes a RIFF/WAVE file from interleaved 32-bit float samples, incrementally and atomically.
///
/// The writer streams into a hidden temporary file in the destination's folder and renames it
/// into place in ``finish()``, so the destination is either untouched or holds a complete file.
/// ``discard()``, a failed write, or releasing an unfinished writer removes the temporary file.
///
/// The header is little-endian, with sizes patched in ``finish()``. 16-bit PCM gets the canonical
/// 44 bytes (`RIFF`, a 16-byte `fmt ` chunk, `data`). Float gets the 58 bytes the WAVE format asks
/// of every format other than PCM: an 18-byte `fmt ` chunk (its `cbSize` 0) and a `fact` chunk
/// holding the frame count, before `data`.
///
/// A writer is not `Sendable`: create and use it on one thread at a time.
///
/// ```swift
/// let writer = try WAVFileWriter(path: "take.wav", format: format, sampleType: .int16)
/// try writer.append(block)   // as many times as needed
/// try writer.finish()        // take.wav appears now, complete
/// ```
public final class WAVFileWriter {
    /// Where the finished file goes.
    public let path: String
    /// Sample rate and channel count written to the header.
    public let format: AudioFormat
    /// How each sample is stored.
    public let sampleType: WAVSampleType
    /// Frames appended so far.
    public private(set) var frameCount = 0

    private enum State {
        case writing(AtomicFile)
        case finished
        case discarded
    }

    /// 44 bytes for PCM; 58 for float (an 18-byte `fmt ` and a 12-byte `fact` chunk).
    private let headerByteCount: Int

    private var state: State
    private var dataByteCount = 0

    /// Creates the temporary file beside `path` and writes a provisional header.
    ///
    /// Throws ``InterludeError`` with `.invalidArgument` if the sample rate is not positive or
    /// the channel count is not 1 or 2, and `.writeFailed` naming `path` if the temporary file
    /// cannot be created (a missing folder, no permission).
    public init(path: String, format: AudioFormat, sampleType: WAVSampleType) throws {
        guard format.sampleRate > 0, (1...2).contains(format.channelCount) else {
            throw InterludeError(
                .invalidArgument,
                "WAVFileWriter: \(path): unsupported format (\(format.sampleRate) Hz, \(format.channelCount) channels)"
            )
        }
        let file = try AtomicFile(path: path)
        self.path = path
        self.format = format
        self.sampleType = sampleType
        self.headerByteCount = sampleType == .int16 ? 44 : 58
        self.state = .writing(file)
        try write(header(), to: file, atOffset: 0)
    }

    deinit {
        discard()
    }

    /// Appends interleaved samples: a whole number of frames.
    ///
    /// Samples are converted per ``WAVSampleType``: for `.int16`, by ``PCMConversion/int16(fromFloat:)``
    /// (round to nearest, clip; NaN becomes 0). Throws `.invalidArgument` if `samples.count` is not a
    /// multiple of the channel count (nothing is written), and `.writeFailed` if the writer is
    /// finished or discarded, the file would pass the 4 GiB WAV limit, or the write fails; a
    /// failed write discards the temporary file.
    public func append(_ samples: UnsafeBufferPointer<Float>) throws {
        guard samples.count % format.channelCount == 0 else {
            throw InterludeError(
                .invalidArgument,
                "WAVFileWriter.append: \(path): \(samples.count) samples is not a whole number of \(format.channelCount)-channel frames"
            )
        }
        let file = try openFile()
        let byteCount = samples.count * sampleType.bytesPerSample
        // The RIFF size field (file size minus 8) is 32 bits.
        guard dataByteCount + byteCount <= Int(UInt32.max) - (headerByteCount - 8) else {
            discard()
            throw InterludeError(.writeFailed, "\(path): data would exceed the 4 GiB WAV size limit")
        }
        try write(encode(samples), to: file, atOffset: headerByteCount + dataByteCount)
        dataByteCount += byteCount
        frameCount += samples.count / format.channelCount
    }

    /// Appends interleaved samples; see ``append(_:)-(UnsafeBufferPointer<Float>)``.
    public func append(_ samples: [Float]) throws {
        try samples.withUnsafeBufferPointer { try append($0) }
    }

    /// Patches the header sizes and flushes the file to disk, without renaming it: ``finish()``
    /// then only renames, so the WAV can appear together with other files. Throws `.writeFailed`
    /// as ``finish()`` does (and the temporary file is removed).
    package func flush() throws {
        let file = try openFile()
        try write(header(), to: file, atOffset: 0)
        try file.flush()
    }

    /// Patches the header sizes, flushes the file to disk and renames it to ``path``, replacing
    /// any file there.
    ///
    /// Throws `.writeFailed` if the writer is already finished or discarded or any step fails;
    /// on failure the temporary file is removed and ``path`` is untouched.
    public func finish() throws {
        let file = try openFile()
        try write(header(), to: file, atOffset: 0)
        state = .discarded
        try file.commit()
        state = .finished
    }

    /// Abandons the file: closes and removes the temporary file, leaving ``path`` untouched.
    /// Does nothing after ``finish()`` or a previous `discard()`.
    public func discard() {
        guard case .writing(let file) = state else { return }
        file.discard()
        state = .discarded
    }

    /// Writes `samples` (interleaved, a whole number of frames) to `path` in one call, atomically.
    ///
    /// Throws what ``init(path:format:sampleType:)``, ``append(_:)-(UnsafeBufferPointer<Float>)``
    /// and ``finish()`` throw.
    public static func write(
        samples: [Float],
        format: AudioFormat,
        sampleType: WAVSampleType,
        to path: String
    ) throws {
        let writer = try WAVFileWriter(path: path, format: format, sampleType: sampleType)
        try writer.append(samples)
        try writer.finish()
    }

    private func openFile() throws -> AtomicFile {
        switch state {
        case .writing(let file): file
        case .finished: throw InterludeError(.writeFailed, "\(path): the writer is already finished")
        case .discarded: throw InterludeError(.writeFailed, "\(path): the writer was discarded")
        }
    }

    private func header() -> [UInt8] {
        let bytesPerFrame = format.channelCount * sampleType.bytesPerSample
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerByteCount)
        let isPCM = sampleType == .int16
        func append(_ tag: String) { bytes += Array(tag.utf8) }
        func append<Value: FixedWidthInteger>(_ value: Value) {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        append("RIFF")
        append(UInt32(headerByteCount - 8 + dataByteCount))
        append("WAVE")
        append("fmt ")
        append(UInt32(isPCM ? 16 : 18))
        append(sampleType.formatTag)
        append(UInt16(format.channelCount))
        append(UInt32(format.sampleRate))
        append(UInt32(format.sampleRate * bytesPerFrame))
        append(UInt16(bytesPerFrame))
        append(UInt16(sampleType.bytesPerSample * 8))
        if !isPCM {
            append(UInt16(0))
            append("fact")
            append(UInt32(4))
            append(UInt32(truncatingIfNeeded: frameCount))
        }
        append("data")
        append(UInt32(dataByteCount))
        return bytes
    }

    private func encode(_ samples: UnsafeBufferPointer<Float>) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: samples.count * sampleType.bytesPerSample)
        bytes.withUnsafeMutableBytes { raw in
            switch sampleType {
            case .int16:
                for (index, sample) in samples.enumerated() {
                    let value = PCMConversion.int16(fromFloat: sample)
                    raw.storeBytes(of: value.littleEndian, toByteOffset: index * 2, as: Int16.self)
                }
            case .float32:
                for (index, sample) in samples.enumerated() {
                    raw.storeBytes(of: sample.bitPattern.littleEndian, toByteOffset: index * 4, as: UInt32.self)
                }
            }
        }
        return bytes
    }

    /// Writes `bytes` into the temporary file; a failed write leaves the writer discarded.
    private func write(_ bytes: [UInt8], to file: AtomicFile, atOffset offsetInBytes: Int) throws {
        do {
            try bytes.withUnsafeBytes { try file.write($0, atOffset: offsetInBytes) }
        } catch {
            state = .discarded
            throw error
        }
    }
}
