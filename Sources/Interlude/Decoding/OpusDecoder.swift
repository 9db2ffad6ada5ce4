import CDecoderLibraries
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads Ogg Opus files through libopusfile, mono or stereo, always at 48 kHz.
///
/// libopusfile reads through Interlude's own callbacks over the decoder's `FILE*`. The pre-skip
/// in the Opus header is removed and the final granule position trims the end, so `frameCount`
/// is the encoded signal's exact length (`op_pcm_total`) and seeks are sample-exact
/// (`op_pcm_seek`). libopusfile pre-rolls 80 ms before a seek target, after which the decoder's
/// state is close to, not the same as, reading through (measured: up to 2 925 LSB off); so a seek
/// lands 0.5 s early and decodes up to the target, after which the samples are identical (0.2 s
/// left 2.1 LSB, 0.4 s none). Chained files are accepted when every link has the same channel count.
///
/// A damaged or missing page mid-file (libopusfile's `OP_HOLE`) is stepped over, as opusdec does,
/// instead of ending the stream: the frames the damage took are read as silence, counted from the
/// granule position of the page after it, so every later frame stays at its exact position, and a
/// warning is logged (``skippedFrameCount`` counts them). When nothing decodes after the damage,
/// the rest of the track is silence. A seek whose 0.5 s pre-roll would start inside the lost
/// stretch starts at its target instead (its first samples then differ slightly from reading
/// through).
///
/// Use from one thread at a time.
public final class OpusDecoder: AudioDecoder {
    /// The file being decoded.
    public let path: String
    /// 48 kHz (Opus always decodes at 48 kHz) and the stream's channel count.
    public let format: AudioFormat
    /// Total frames at 48 kHz after the pre-skip, from the final granule position (`op_pcm_total`).
    public let frameCount: Int
    /// The loop its OpusTags declare (`LOOPSTART` with `LOOPLENGTH` or `LOOPEND`, in frames at
    /// 48 kHz after the pre-skip, end exclusive), or nil; tags that are malformed or outside the
    /// track are ignored with a warning.
    public let loopRegion: Range<Int>?

    private let file: DecoderFile
    /// The libopusfile handle; freed once, in deinit.
    /// libopusfile, loaded when the first Opus file is opened.
    private let library: ILOpusFileFunctions
    private let opusFile: OpaquePointer

    /// How far before a seek target decoding starts, so the decoder's state matches reading through.
    private static let seekPrerollFrames = 24_000

    private static let logger = Logger(label: "Interlude")

    /// Frames read as silence in place of damaged pages, since open.
    public private(set) var skippedFrameCount = 0
    /// The file's frame the next frame read is.
    private var nextFrame = 0
    /// What stepping over a damaged page left owed.
    private var skippedDamage = SkippedDamage()

    /// The only rate Opus decodes at.
    public static let sampleRate = 48_000

    /// Opens `path` and reads the Opus headers.
    ///
    /// Throws ``InterludeError`` with `.fileNotFound`, `.unreadableFile`, `.unsupportedFormat`
    /// (not Ogg Opus, more than two channels, links with different channel counts) or
    /// `.corruptData` (bad headers, a stream whose length cannot be found); the message names the
    /// file and the problem.
    public convenience init(path: String) throws {
        try self.init(file: DecoderFile(path: path))
    }

    init(file: DecoderFile) throws {
        let path = file.path
        try file.seek(toByte: 0)
        let library = try DecoderLibraries.opusFile(for: path)
        var callbacks = Self.callbacks
        var code: Int32 = 0
        guard let opusFile = library.op_open_callbacks(UnsafeMutableRawPointer(file.handle), &callbacks, nil, 0, &code) else {
            throw Self.openError(code: code, file: file)
        }
        do {
            let stream = try Self.validate(opusFile, library: library, path: path)
            self.format = stream.format
            self.frameCount = stream.frameCount
            self.loopRegion = LoopTags.vorbisRegion(comments: Self.comments(of: opusFile, library: library), frameCount: stream.frameCount, path: path)
        } catch {
            library.op_free(opusFile)
            throw error
        }
        self.file = file
        self.path = path
        self.library = library
        self.opusFile = opusFile
    }

    deinit {
        library.op_free(opusFile)
    }

    /// Reads up to `buffer.count / format.channelCount` frames of interleaved float samples
    /// (`op_read_float`). Returns the frames read; 0 at the end of the stream. A gap left by a
    /// damaged page (`OP_HOLE`) is read as the silence it stands for (see the type's comment).
    /// Throws `.corruptData` at a packet that fails to decode or a file that shrank while open
    /// ("file truncated"), `.unreadableFile` when a read fails, `.invalidArgument` for a buffer
    /// smaller than a frame.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let channelCount = format.channelCount
        guard buffer.count >= channelCount else {
            throw InterludeError(.invalidArgument, "\(path): read buffer of \(buffer.count) samples holds no whole frame")
        }
        let framesWanted = buffer.count / channelCount
        let output = buffer.baseAddress!
        var framesDone = 0
        while framesDone < framesWanted {
            // What damage left owed comes first: its silence, then what was decoded after it.
            let paid = skippedDamage.pay(into: output + framesDone * channelCount, maximumFrames: framesWanted - framesDone,
                                         channelCount: channelCount)
            if paid > 0 {
                framesDone += paid
                continue
            }
            let sampleCount = Int32(clamping: (framesWanted - framesDone) * channelCount)
            let result = library.op_read_float(opusFile, output + framesDone * channelCount, sampleCount, nil)
            if result == 0 { break }
            if result == IL_OP_HOLE {
                try stepOverHole(atFrame: nextFrame + framesDone)
                continue
            }
            guard result > 0 else {
                // A file truncated while open, inside a page or at a page boundary, fails as a
                // bad link (libopusfile misses the end-of-stream page and looks for the next
                // link): reported as the truncation.
                throw file.failure(atFrame: Int(library.op_pcm_tell(opusFile)), of: frameCount) ?? Self.readError(code: result, path: path)
            }
            framesDone += Int(result)
        }
        nextFrame += framesDone
        return framesDone
    }

    /// After a damaged page at `holeFrame`: decodes the next block, whose place libopusfile knows
    /// from its page's granule position, holds it, and owes the silence between, never past the
    /// track's length. When nothing decodes after the hole (libopusfile also drops an intact
    /// last page that follows one, since it cannot trim it), the rest of the track is owed as
    /// silence.
    private func stepOverHole(atFrame holeFrame: Int) throws {
        let channelCount = format.channelCount
        var block = [Float](repeating: 0, count: 5_760 * channelCount)
        var frames: Int32 = IL_OP_HOLE
        while frames == IL_OP_HOLE {
            frames = block.withUnsafeMutableBufferPointer { library.op_read_float(opusFile, $0.baseAddress!, Int32($0.count), nil) }
        }
        guard frames >= 0 else {
            throw file.failure(atFrame: holeFrame, of: frameCount) ?? Self.readError(code: frames, path: path)
        }
        let blockStart = frames > 0 ? Int(library.op_pcm_tell(opusFile)) - Int(frames) : frameCount
        let lostFrames = max(0, min(blockStart, frameCount) - holeFrame)
        Self.logger.warning("\(path): damaged Ogg data skipped: \(lostFrames) frames from frame \(holeFrame) read as silence")
        skippedFrameCount += lostFrames
        // A block a damaged page places past the track's end is dropped.
        skippedDamage.owe(silenceFrames: lostFrames, then: blockStart < frameCount ? Array(block[0..<(Int(frames) * channelCount)]) : [])
    }

    /// Moves the read position to `frame`, in 0 ... frameCount, sample-exactly: `op_pcm_seek` to
    /// 0.5 s before it, then decoding up to it, so what follows equals reading through. Throws
    /// `.invalidArgument` outside that range, `.corruptData` if the stream cannot be seeked.
    public func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else {
            throw InterludeError(.invalidArgument, "\(path): seek to frame \(frame) outside 0...\(frameCount)")
        }
        var start = max(0, frame - Self.seekPrerollFrames)
        var result = library.op_pcm_seek(opusFile, Int64(start))
        if result != 0 && start < frame {
            // The pre-roll's start fell in a stretch lost to damage: from the target itself.
            start = frame
            result = library.op_pcm_seek(opusFile, Int64(start))
        }
        guard result == 0 else {
            throw InterludeError(.corruptData, "\(path): seek to frame \(frame) failed (libopusfile error \(result))")
        }
        nextFrame = start
        skippedDamage.forget()
        guard start < frame else { return }
        var discard = [Float](repeating: 0, count: 4096 * format.channelCount)
        var position = start
        while position < frame {
            let wanted = min(frame - position, 4096) * format.channelCount
            let frames = try discard.withUnsafeMutableBufferPointer { try read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<wanted])) }
            guard frames > 0 else {
                throw InterludeError(.corruptData, "\(path): seek to frame \(frame) failed (the stream ends at frame \(position))")
            }
            position += frames
        }
    }
}

extension OpusDecoder {
    /// The first link's OpusTags comments ("KEY=value", `op_tags`); undecodable UTF-8 is repaired.
    private static func comments(of opusFile: OpaquePointer, library: ILOpusFileFunctions) -> [String] {
        guard let tags = library.op_tags(opusFile, -1)?.pointee, let lengths = tags.comment_lengths else { return [] }
        return LoopTags.comments(tags.user_comments, lengths: lengths, count: tags.comments)
    }

    private struct Stream {
        var format: AudioFormat
        var frameCount: Int
    }

    private static func validate(_ opusFile: OpaquePointer, library: ILOpusFileFunctions, path: String) throws -> Stream {
        let channelCount = Int(library.op_channel_count(opusFile, -1))
        guard AudioFormat.supportedChannelCounts.contains(channelCount) else {
            throw InterludeError(.unsupportedFormat, "\(path): \(channelCount) Opus channels are not supported (mono or stereo only)")
        }
        // op_read_float changes its channel count between links; one AudioFormat cannot describe that.
        for link in 1..<max(1, Int(library.op_link_count(opusFile))) where Int(library.op_channel_count(opusFile, Int32(link))) != channelCount {
            throw InterludeError(.unsupportedFormat, "\(path): chained Opus stream changes its channel count at link \(link)")
        }
        let total = library.op_pcm_total(opusFile, -1)
        guard total >= 0 else {
            throw InterludeError(.corruptData, "\(path): cannot determine the Opus stream length (libopusfile error \(total))")
        }
        return Stream(format: AudioFormat(sampleRate: sampleRate, channelCount: channelCount), frameCount: Int(total))
    }

    /// Callbacks over the `FILE*` passed as the stream. No close function: the decoder's
    /// `DecoderFile` owns and closes the file, so it is closed once whether or not the open succeeds.
    private static var callbacks: ILOpusFileCallbacks {
        ILOpusFileCallbacks(
            read: { source, destination, byteCount in
                let stream = source!.assumingMemoryBound(to: FILE.self)
                let count = fread(destination, 1, Int(max(0, byteCount)), stream)
                return count == 0 && ferror(stream) != 0 ? -1 : Int32(count)
            },
            seek: { source, offset, whence in
                fseeko(source!.assumingMemoryBound(to: FILE.self), off_t(offset), whence)
            },
            tell: { source in
                Int64(ftello(source!.assumingMemoryBound(to: FILE.self)))
            },
            close: nil)
    }

    private static func openError(code: Int32, file: DecoderFile) -> InterludeError {
        let path = file.path
        switch code {
        case IL_OP_ENOTFORMAT:
            return InterludeError(.unsupportedFormat, "\(path): not an Ogg Opus stream")
        case IL_OP_EVERSION:
            return InterludeError(.unsupportedFormat, "\(path): unsupported Opus version")
        case IL_OP_EIMPL:
            return InterludeError(.unsupportedFormat, "\(path): uses an Opus feature libopusfile does not implement")
        case IL_OP_EBADHEADER:
            return InterludeError(.corruptData, "\(path): invalid Opus headers")
        case IL_OP_EBADLINK, IL_OP_EBADTIMESTAMP:
            return InterludeError(.corruptData, "\(path): damaged Ogg Opus stream (bad link or timestamp, libopusfile error \(code))")
        case IL_OP_EREAD:
            return file.shortReadError("Opus headers")
        default:
            return InterludeError(.corruptData, "\(path): libopusfile could not open the stream (error \(code))")
        }
    }

    private static func readError(code: Int32, path: String) -> InterludeError {
        switch code {
        case IL_OP_HOLE:
            return InterludeError(.corruptData, "\(path): gap in the Ogg stream (a damaged or missing page)")
        case IL_OP_EBADPACKET:
            return InterludeError(.corruptData, "\(path): an Opus packet failed to decode")
        default:
            return InterludeError(.corruptData, "\(path): Opus decode failed (libopusfile error \(code))")
        }
    }
}
