#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a RIFF/WAVE file from interleaved 32-bit float samples, incrementally and atomically.
///
/// The writer streams into a hidden temporary file in the destination's folder and renames it
/// into place in ``finish()``, so the destination is either untouched or holds a complete file.
/// ``discard()``, a failed write, or releasing an unfinished writer removes the temporary file.
///
/// The header is the canonical 44 bytes (`RIFF`, a 16-byte `fmt ` chunk, `data`), little-endian,
/// with sizes patched in ``finish()``.
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
        case writing(fileDescriptor: Int32)
        case finished
        case discarded
    }

    private static let headerByteCount = 44
    /// The RIFF size field (file size minus 8) is 32 bits.
    private static let maximumDataByteCount = Int(UInt32.max) - (headerByteCount - 8)

    private let temporaryPath: String
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
        let folderEnd = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        var template = Array("\(path[..<folderEnd]).\(path[folderEnd...]).XXXXXX".utf8CString)
        let fileDescriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fileDescriptor >= 0 else {
            throw Self.failure(path, "cannot create a temporary file beside it: \(Self.systemError())")
        }
        self.path = path
        self.format = format
        self.sampleType = sampleType
        self.temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        self.state = .writing(fileDescriptor: fileDescriptor)
        do {
            // mkstemp creates the file as 0600; a finished WAV is an ordinary readable file.
            guard fchmod(fileDescriptor, 0o644) == 0 else {
                throw Self.failure(path, "cannot set permissions: \(Self.systemError())")
            }
            try writeAll(header(), to: fileDescriptor, atOffset: 0)
        } catch {
            discard()
            throw error
        }
    }

    deinit {
        discard()
    }

    /// Appends interleaved samples: a whole number of frames.
    ///
    /// Samples are converted per ``WAVSampleType``: for `.int16`, `Int16(clamping: lrintf(sample * 32768))`
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
        let fileDescriptor = try openFileDescriptor()
        let byteCount = samples.count * sampleType.bytesPerSample
        do {
            guard dataByteCount + byteCount <= Self.maximumDataByteCount else {
                throw Self.failure(path, "data would exceed the 4 GiB WAV size limit")
            }
            try writeAll(encode(samples), to: fileDescriptor, atOffset: Self.headerByteCount + dataByteCount)
        } catch {
            discard()
            throw error
        }
        dataByteCount += byteCount
        frameCount += samples.count / format.channelCount
    }

    /// Appends interleaved samples; see ``append(_:)-(UnsafeBufferPointer<Float>)``.
    public func append(_ samples: [Float]) throws {
        try samples.withUnsafeBufferPointer { try append($0) }
    }

    /// Patches the header sizes, flushes the file to disk and renames it to ``path``, replacing
    /// any file there.
    ///
    /// Throws `.writeFailed` if the writer is already finished or discarded or any step fails;
    /// on failure the temporary file is removed and ``path`` is untouched.
    public func finish() throws {
        let fileDescriptor = try openFileDescriptor()
        do {
            try writeAll(header(), to: fileDescriptor, atOffset: 0)
            // Without fsync a crash soon after the rename could leave an empty file at `path`.
            guard fsync(fileDescriptor) == 0 else {
                throw Self.failure(path, "cannot flush to disk: \(Self.systemError())")
            }
        } catch {
            discard()
            throw error
        }
        state = .discarded
        guard close(fileDescriptor) == 0 else {
            let error = Self.failure(path, "cannot close the temporary file: \(Self.systemError())")
            unlink(temporaryPath)
            throw error
        }
        guard rename(temporaryPath, path) == 0 else {
            let error = Self.failure(path, "cannot rename the temporary file into place: \(Self.systemError())")
            unlink(temporaryPath)
            throw error
        }
        state = .finished
    }

    /// Abandons the file: closes and removes the temporary file, leaving ``path`` untouched.
    /// Does nothing after ``finish()`` or a previous `discard()`.
    public func discard() {
        guard case .writing(let fileDescriptor) = state else { return }
        close(fileDescriptor)
        unlink(temporaryPath)
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

    private func openFileDescriptor() throws -> Int32 {
        switch state {
        case .writing(let fileDescriptor): fileDescriptor
        case .finished: throw Self.failure(path, "the writer is already finished")
        case .discarded: throw Self.failure(path, "the writer was discarded")
        }
    }

    private func header() -> [UInt8] {
        let bytesPerFrame = format.channelCount * sampleType.bytesPerSample
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerByteCount)
        func append(_ tag: String) { bytes += Array(tag.utf8) }
        func append<Value: FixedWidthInteger>(_ value: Value) {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        append("RIFF")
        append(UInt32(Self.headerByteCount - 8 + dataByteCount))
        append("WAVE")
        append("fmt ")
        append(UInt32(16))
        append(sampleType.formatTag)
        append(UInt16(format.channelCount))
        append(UInt32(format.sampleRate))
        append(UInt32(format.sampleRate * bytesPerFrame))
        append(UInt16(bytesPerFrame))
        append(UInt16(sampleType.bytesPerSample * 8))
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
                    // Pre-clipping keeps lrintf in range (it is undefined for NaN and infinities)
                    // without changing any result: |sample| >= 2 clips either way.
                    let bounded = sample.isNaN ? 0 : Swift.min(Swift.max(sample, -2), 2)
                    let value = Int16(clamping: Int(lrintf(bounded * 32768)))
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

    private func writeAll(_ bytes: [UInt8], to fileDescriptor: Int32, atOffset offset: Int) throws {
        try bytes.withUnsafeBytes { raw in
            var writtenCount = 0
            while writtenCount < raw.count {
                let written = pwrite(
                    fileDescriptor, raw.baseAddress! + writtenCount, raw.count - writtenCount,
                    off_t(offset + writtenCount)
                )
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure(path, "cannot write: \(Self.systemError())")
                }
                writtenCount += written
            }
        }
    }

    private static func failure(_ path: String, _ problem: String) -> InterludeError {
        InterludeError(.writeFailed, "\(path): \(problem)")
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
