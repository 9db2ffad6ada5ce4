import CDecoderLibraries
import CMPG123
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads MPEG audio (MP3, and layers I and II) through libmpg123, mono or stereo.
///
/// libmpg123 reads through Interlude's own reader callbacks over the decoder's `FILE*`; it skips
/// an ID3v2 tag and junk before the first frame itself. Decoding is gapless (`MPG123_GAPLESS`):
/// the encoder delay and padding recorded in a LAME/Xing header, and the decoder's own delay, are
/// cut, so a loop encoded by LAME meets itself without a gap.
///
/// Length: the file is always scanned once at open (`mpg123_scan`, which walks the frame headers
/// without decoding), rather than trusting a Xing header's frame count when there is one. The scan
/// makes `frameCount` exact for every file — also for CBR files without a header, and for a file
/// cut short after its Xing header was written — and fills libmpg123's frame index, so every
/// later seek jumps straight to its frame. It costs one pass over the file at open.
///
/// Seeking is sample-exact (`mpg123_seek` on the gapless timeline) and gives the same samples as
/// reading through: libmpg123 decodes from 12 MPEG frames before the target (`MPG123_PREFRAMES`;
/// its default of 4 is too few for a VBR file's bit reservoir, measured: up to 13 762 LSB off
/// after a seek; 8 was exact on the test files, 12 covers the deepest reservoir of the lowest
/// MPEG-2 bit rates).
///
/// Use from one thread at a time.
public final class MP3Decoder: AudioDecoder {
    /// The file being decoded.
    public let path: String
    /// Sample rate and channel count of the first frame; the stream may not change them.
    public let format: AudioFormat
    /// Total frames after the gapless trim, from a full scan at open (`mpg123_length`).
    public let frameCount: Int

    private let file: DecoderFile
    /// libmpg123, loaded when the first MPEG file is opened.
    private let mpg123: ILMPG123Functions
    /// The libmpg123 handle; closed and deleted once, in deinit.
    private let handle: OpaquePointer
    private var positionInFrames = 0

    private static let bytesPerSample = MemoryLayout<Float>.size

    /// Opens `path`, finds the first MPEG audio frame and scans the stream for its exact length.
    ///
    /// Throws ``InterludeError`` with `.fileNotFound`, `.unreadableFile` or `.corruptData` (no
    /// decodable MPEG audio frame, a file whose length cannot be found); the message names the
    /// file and the problem.
    public convenience init(path: String) throws {
        try self.init(file: DecoderFile(path: path))
    }

    init(file: DecoderFile) throws {
        let path = file.path
        try file.seek(toByte: 0)
        let mpg123 = try DecoderLibraries.mpg123(for: path)
        var code: Int32 = 0
        guard let handle = mpg123.mpg123_new(nil, &code) else {
            throw InterludeError(.corruptData, "\(path): libmpg123 could not create a decoder (\(Self.text(mpg123.mpg123_plain_strerror(code))))")
        }
        do {
            let stream = try Self.openStream(handle, mpg123: mpg123, file: file)
            self.format = stream.format
            self.frameCount = stream.frameCount
        } catch {
            mpg123.mpg123_delete(handle)
            throw error
        }
        self.file = file
        self.path = path
        self.mpg123 = mpg123
        self.handle = handle
    }

    deinit {
        _ = mpg123.mpg123_close(handle)
        mpg123.mpg123_delete(handle)
    }

    /// Reads up to `buffer.count / format.channelCount` frames of interleaved float samples.
    /// Returns the frames read; 0 at the end of the stream. Throws `.corruptData` when libmpg123
    /// fails, the file ends before the scanned length ("file truncated": it shrank after open) or
    /// the stream changes rate or channels (a damaged frame header, or files glued together),
    /// `.unreadableFile` when a read fails, `.invalidArgument` for a buffer smaller than a frame. Damaged frames are skipped by libmpg123's resync, so damage
    /// usually shows as a shorter or glitched decode rather than an error.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let channelCount = format.channelCount
        guard buffer.count >= channelCount else {
            throw InterludeError(.invalidArgument, "\(path): read buffer of \(buffer.count) samples holds no whole frame")
        }
        let bytesPerFrame = channelCount * Self.bytesPerSample
        let framesWanted = min(buffer.count / channelCount, frameCount - positionInFrames)
        let output = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt8.self)
        var bytesDone = 0
        while bytesDone < framesWanted * bytesPerFrame {
            var byteCount = 0
            let result = mpg123.mpg123_read(handle, output + bytesDone, framesWanted * bytesPerFrame - bytesDone, &byteCount)
            bytesDone += byteCount
            switch result {
            case MPG123_OK.rawValue:
                continue
            case MPG123_NEW_FORMAT.rawValue:
                try checkFormatUnchanged()
            case MPG123_DONE.rawValue:
                positionInFrames += bytesDone / bytesPerFrame
                if let failure = file.failure(atFrame: positionInFrames, of: frameCount) { throw failure }
                throw InterludeError(.corruptData, "\(path): MP3 stream ends at frame \(positionInFrames) of \(frameCount) (file truncated)")
            default:
                // A file truncated while open fails as a reader error (libmpg123 meets the cut
                // inside a frame): reported as the truncation.
                if let failure = file.failure(atFrame: positionInFrames + bytesDone / bytesPerFrame, of: frameCount) { throw failure }
                throw InterludeError(.corruptData, "\(path): MP3 decode failed at frame \(positionInFrames + bytesDone / bytesPerFrame) (\(errorText(result)))")
            }
        }
        positionInFrames += framesWanted
        return framesWanted
    }

    /// Moves the read position to `frame`, in 0 ... frameCount, sample-exactly on the gapless
    /// timeline. Throws `.invalidArgument` outside that range, `.corruptData` if libmpg123 fails.
    public func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else {
            throw InterludeError(.invalidArgument, "\(path): seek to frame \(frame) outside 0...\(frameCount)")
        }
        let result = mpg123.mpg123_seek(handle, off_t(frame), SEEK_SET)
        guard result == off_t(frame) else {
            throw InterludeError(.corruptData, "\(path): seek to frame \(frame) failed (\(result < 0 ? errorText(Int32(result)) : "landed on frame \(result)"))")
        }
        positionInFrames = frame
    }

    private func checkFormatUnchanged() throws {
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        guard mpg123.mpg123_getformat(handle, &rate, &channels, &encoding) == MPG123_OK.rawValue,
              rate == format.sampleRate, Int(channels) == format.channelCount else {
            throw InterludeError(.corruptData, "\(path): MP3 stream changes format at frame \(positionInFrames) to \(rate) Hz, \(channels) channels (a damaged frame header, or files glued together)")
        }
    }

    /// libmpg123's error text, which it always gives (an unknown code has one too).
    private static func text(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0) } ?? "unknown error"
    }

    private func errorText(_ code: Int32) -> String {
        code == MPG123_ERR.rawValue ? Self.text(mpg123.mpg123_strerror(handle)) : Self.text(mpg123.mpg123_plain_strerror(code))
    }
}

extension MP3Decoder {
    private struct Stream {
        var format: AudioFormat
        var frameCount: Int
    }

    /// MPEG frames decoded before a seek target: a layer III frame's data may start up to 511
    /// bytes (MPEG-1; 255 for MPEG-2) back in the bit reservoir, which is 6 frames at 32 kbit/s and
    /// 11 at 8 kbit/s, plus one frame for the overlap-add.
    private static let preframeCount = 12

    /// Sets the handle up for gapless float output over `file`, reads the first frame's format
    /// and scans for the length. The caller deletes the handle if this throws.
    private static func openStream(_ handle: OpaquePointer, mpg123: ILMPG123Functions, file: DecoderFile) throws -> Stream {
        let path = file.path
        let flags = MPG123_GAPLESS.rawValue | MPG123_FORCE_SEEKABLE.rawValue | MPG123_QUIET.rawValue
        // A negative index size lets the frame index grow to hold every frame, for direct seeks.
        guard mpg123.mpg123_param2(handle, Int32(MPG123_FLAGS.rawValue), Int(flags), 0) == MPG123_OK.rawValue,
              mpg123.mpg123_param2(handle, Int32(MPG123_INDEX_SIZE.rawValue), -1000, 0) == MPG123_OK.rawValue,
              mpg123.mpg123_param2(handle, Int32(MPG123_PREFRAMES.rawValue), preframeCount, 0) == MPG123_OK.rawValue,
              mpg123.mpg123_format_none(handle) == MPG123_OK.rawValue else {
            throw InterludeError(.corruptData, "\(path): libmpg123 refused its setup (\(Self.text(mpg123.mpg123_strerror(handle))))")
        }
        var rates: UnsafePointer<Int>?
        var rateCount = 0
        mpg123.mpg123_rates(&rates, &rateCount)
        for index in 0..<rateCount {
            _ = mpg123.mpg123_format(handle, rates![index], Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue), Int32(MPG123_ENC_FLOAT_32.rawValue))
        }
        guard mpg123.mpg123_replace_reader_handle(handle, readCallback, seekCallback, nil) == MPG123_OK.rawValue,
              mpg123.mpg123_open_handle(handle, UnsafeMutableRawPointer(file.handle)) == MPG123_OK.rawValue else {
            throw InterludeError(.corruptData, "\(path): libmpg123 could not open the stream (\(Self.text(mpg123.mpg123_strerror(handle))))")
        }
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        guard mpg123.mpg123_getformat(handle, &rate, &channels, &encoding) == MPG123_OK.rawValue else {
            if ferror(file.handle) != 0 {
                throw file.shortReadError("MPEG audio frames")
            }
            throw InterludeError(.corruptData, "\(path): no decodable MPEG audio frame (\(Self.text(mpg123.mpg123_strerror(handle))))")
        }
        guard AudioFormat.supportedChannelCounts.contains(Int(channels)), rate > 0 else {
            throw InterludeError(.unsupportedFormat, "\(path): \(channels) MP3 channels at \(rate) Hz are not supported (mono or stereo only)")
        }
        guard mpg123.mpg123_scan(handle) == MPG123_OK.rawValue else {
            throw InterludeError(.corruptData, "\(path): MP3 scan failed (\(Self.text(mpg123.mpg123_strerror(handle))))")
        }
        let length = mpg123.mpg123_length(handle)
        guard length >= 0 else {
            throw InterludeError(.corruptData, "\(path): cannot determine the MP3 length (\(Self.text(mpg123.mpg123_strerror(handle))))")
        }
        // The scan leaves the read position at the first sample.
        return Stream(format: AudioFormat(sampleRate: rate, channelCount: Int(channels)), frameCount: Int(length))
    }

    /// Reads from the `FILE*` passed as the I/O handle. No cleanup callback: the decoder's
    /// `DecoderFile` owns and closes the file.
    private static let readCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int) -> Int = { source, destination, byteCount in
        let stream = source!.assumingMemoryBound(to: FILE.self)
        let count = fread(destination, 1, byteCount, stream)
        return count == 0 && ferror(stream) != 0 ? -1 : count
    }

    private static let seekCallback: @convention(c) (UnsafeMutableRawPointer?, off_t, Int32) -> off_t = { source, offset, whence in
        let stream = source!.assumingMemoryBound(to: FILE.self)
        guard fseeko(stream, offset, whence) == 0 else { return -1 }
        return ftello(stream)
    }
}
