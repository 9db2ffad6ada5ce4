import CDecoderLibraries
import CFLAC
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads native FLAC files ("fLaC") through libFLAC, mono or stereo, 4 to 32 bits per sample.
///
/// libFLAC reads through Interlude's own stream callbacks over the decoder's `FILE*` and hands
/// back one FLAC frame (a block of up to 65 535 samples per channel) at a time; the decoder keeps
/// that block and pays it out as samples are asked for. Samples come out as v / 2^(bits - 1).
///
/// The length is STREAMINFO's total sample count. A file that leaves it unknown (0, written by
/// an encoder fed from a pipe) is decoded once at open to count its frames. Seeking is
/// sample-exact (`FLAC__stream_decoder_seek_absolute`, through the seek table when there is one).
/// Loop points come from the VORBIS_COMMENT block (``loopRegion``).
///
/// Damage mid-file is stepped over, as `flac -d -F` does, instead of ending the stream: libFLAC
/// (1.4) reports it (lost sync, a bad header, a CRC mismatch) or sees frames missing from their
/// numbers, goes on at the next frame it can read, and writes the frames it lost as silence,
/// placed by the frames' sample numbers, so every later frame stays at its exact position. It
/// silences the frame that failed its CRC, and sometimes the intact frame after it, too. A
/// warning is logged and ``skippedFrameCount`` counts the silent frames. (So inside damage, a
/// seek can return the intact frame that reading through gives as silence.)
///
/// Use from one thread at a time.
public final class FLACDecoder: AudioDecoder {
    /// The file being decoded.
    public let path: String
    /// Sample rate and channel count from STREAMINFO.
    public let format: AudioFormat
    /// Total frames: STREAMINFO's total samples, or counted at open when STREAMINFO leaves it 0.
    public let frameCount: Int
    /// The loop its VORBIS_COMMENT block declares (`LOOPSTART` with `LOOPLENGTH` or `LOOPEND`,
    /// in frames, end exclusive), or nil; tags that are malformed or outside the track are
    /// ignored with a warning.
    public let loopRegion: Range<Int>?
    /// STREAMINFO's bits per sample (4 to 32).
    public let integerBitsPerSample: Int?

    private let file: DecoderFile
    /// libFLAC, loaded when the first FLAC file is opened.
    private let flac: ILFLACFunctions
    /// The libFLAC decoder; deleted once, in deinit.
    private let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
    /// What the callbacks share with this decoder: the file, the current block, the last error.
    private let sink: FLACSink
    private var positionInFrames = 0

    private static let logger = Logger(label: "Interlude")

    /// Frames read as silence in place of damaged data, since open.
    public private(set) var skippedFrameCount = 0

    /// Opens `path` and reads the FLAC metadata.
    ///
    /// Throws ``InterludeError`` with `.fileNotFound`, `.unreadableFile`, `.unsupportedFormat`
    /// (more than two channels) or `.corruptData` (no "fLaC" marker, a bad or missing STREAMINFO,
    /// a file truncated inside its metadata); the message names the file and the problem.
    public convenience init(path: String) throws {
        try self.init(file: DecoderFile(path: path))
    }

    init(file: DecoderFile) throws {
        let path = file.path
        try file.seek(toByte: 0)
        let flac = try DecoderLibraries.flac(for: path)
        guard let decoder = flac.FLAC__stream_decoder_new() else {
            throw InterludeError(.corruptData, "\(path): libFLAC could not allocate a decoder")
        }
        let sink = FLACSink(file: file)
        do {
            let info = try Self.openStream(decoder, flac: flac, sink: sink, path: path)
            self.format = info.format
            self.frameCount = info.frameCount
            self.integerBitsPerSample = info.bitsPerSample
            self.loopRegion = LoopTags.vorbisRegion(comments: sink.comments, frameCount: info.frameCount, path: path)
        } catch {
            flac.FLAC__stream_decoder_delete(decoder)
            throw error
        }
        self.file = file
        self.path = path
        self.flac = flac
        self.decoder = decoder
        self.sink = sink
    }

    deinit {
        flac.FLAC__stream_decoder_delete(decoder)
    }

    /// Reads up to `buffer.count / format.channelCount` frames of interleaved float samples.
    /// Returns the frames read; 0 at the end of the stream. Damage is read as silence (see the
    /// type's comment). Throws `.corruptData` when the file ends before STREAMINFO's length
    /// ("file truncated", also when it shrank while open, or when nothing after damage decodes)
    /// or a frame does not fit STREAMINFO, `.unreadableFile` when a read fails,
    /// `.invalidArgument` for a buffer smaller than a frame.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let channelCount = format.channelCount
        guard buffer.count >= channelCount else {
            throw InterludeError(.invalidArgument, "\(path): read buffer of \(buffer.count) samples holds no whole frame")
        }
        let framesWanted = min(buffer.count / channelCount, frameCount - positionInFrames)
        var framesDone = 0
        while framesDone < framesWanted {
            try throwFatalError()
            let frames = sink.drain(into: buffer.baseAddress! + framesDone * channelCount, maximumFrames: framesWanted - framesDone)
            if frames > 0 {
                framesDone += frames
                positionInFrames += frames
                continue
            }
            if flac.FLAC__stream_decoder_get_state(decoder) == FLAC__STREAM_DECODER_END_OF_STREAM {
                if let failure = file.failure(atFrame: positionInFrames, of: frameCount) { throw failure }
                throw InterludeError(.corruptData, "\(path): FLAC stream ends at frame \(positionInFrames) of \(frameCount) (file truncated)")
            }
            guard flac.FLAC__stream_decoder_process_single(decoder) != 0 else {
                if let failure = file.failure(atFrame: positionInFrames, of: frameCount) { throw failure }
                try throwFatalError()
                throw InterludeError(.corruptData, "\(path): FLAC decode failed at frame \(positionInFrames) (\(stateName))")
            }
            try noteDamage()
        }
        return framesDone
    }

    /// After each frame libFLAC decoded: when it reported damage, counts and logs the silence it
    /// wrote in place of what was lost.
    private func noteDamage() throws {
        let silentFrames = sink.takeSilentFrameCount()
        let reason = sink.takeDamage()
        guard reason != nil || silentFrames > 0 else { return }
        // A file that shrank while open shows as lost sync at the cut: reported as that.
        if let failure = file.failure(atFrame: positionInFrames, of: frameCount) { throw failure }
        skippedFrameCount += silentFrames
        Self.logger.warning("\(path): damaged FLAC data skipped (\(reason ?? "frames missing")): \(silentFrames) frames from frame \(positionInFrames) read as silence")
    }

    /// Moves the read position to `frame`, in 0 ... frameCount, sample-exactly. Throws
    /// `.invalidArgument` outside that range, `.corruptData` if libFLAC cannot find the frame.
    public func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else {
            throw InterludeError(.invalidArgument, "\(path): seek to frame \(frame) outside 0...\(frameCount)")
        }
        sink.discardBlock()
        _ = sink.takeDamage()
        _ = sink.takeSilentFrameCount()
        positionInFrames = frame
        // Reads stop at frameCount without asking libFLAC, which refuses a seek to the very end.
        if frame == frameCount { return }
        guard flac.FLAC__stream_decoder_seek_absolute(decoder, FLAC__uint64(frame)) != 0 else {
            let reason = sink.takeFatal() ?? sink.takeDamage() ?? stateName
            // A failed seek leaves libFLAC in SEEK_ERROR until flushed.
            _ = flac.FLAC__stream_decoder_flush(decoder)
            sink.discardBlock()
            throw InterludeError(.corruptData, "\(path): seek to frame \(frame) failed (\(reason))")
        }
    }

    private var stateName: String {
        DecoderLibraries.flacName(flac.FLAC__StreamDecoderStateString, flac.FLAC__stream_decoder_get_state(decoder).rawValue)
    }

    /// Throws when a frame stopped the decode (it did not fit STREAMINFO): a file that failed
    /// under it is reported as that.
    private func throwFatalError() throws {
        if let reason = sink.takeFatal() {
            if let failure = file.failure(atFrame: positionInFrames, of: frameCount) { throw failure }
            throw InterludeError(.corruptData, "\(path): damaged FLAC data near frame \(positionInFrames) (\(reason))")
        }
    }
}

extension FLACDecoder {
    private struct StreamInfo {
        var format: AudioFormat
        var frameCount: Int
        var bitsPerSample: Int
    }

    /// Starts libFLAC over the sink's file, reads the metadata and validates STREAMINFO. The
    /// caller deletes `decoder` if this throws.
    private static func openStream(_ decoder: UnsafeMutablePointer<FLAC__StreamDecoder>, flac: ILFLACFunctions, sink: FLACSink, path: String) throws -> StreamInfo {
        let clientData = Unmanaged.passUnretained(sink).toOpaque()
        // Loop tags live in the VORBIS_COMMENT block, which libFLAC passes on only when asked.
        _ = flac.FLAC__stream_decoder_set_metadata_respond(decoder, FLAC__METADATA_TYPE_VORBIS_COMMENT)
        let status = flac.FLAC__stream_decoder_init_stream(
            decoder, readCallback, seekCallback, tellCallback, lengthCallback, eofCallback,
            writeCallback, metadataCallback, errorCallback, clientData)
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
            throw InterludeError(.corruptData, "\(path): libFLAC could not start decoding (\(DecoderLibraries.flacName(flac.FLAC__StreamDecoderInitStatusString, status.rawValue)))")
        }
        guard flac.FLAC__stream_decoder_process_until_end_of_metadata(decoder) != 0, let info = sink.streamInfo else {
            throw InterludeError(.corruptData, "\(path): FLAC metadata damaged or truncated (no STREAMINFO)")
        }
        let channelCount = Int(info.channels)
        guard AudioFormat.supportedChannelCounts.contains(channelCount) else {
            throw InterludeError(.unsupportedFormat, "\(path): \(channelCount) FLAC channels are not supported (mono or stereo only)")
        }
        guard info.sample_rate > 0 else {
            throw InterludeError(.corruptData, "\(path): FLAC STREAMINFO declares a zero sample rate")
        }
        guard info.max_blocksize > 0 else {
            throw InterludeError(.corruptData, "\(path): FLAC STREAMINFO declares a zero maximum block size")
        }
        sink.prepare(channelCount: channelCount, maximumBlockFrames: Int(info.max_blocksize))
        var frameCount = Int(info.total_samples)
        if frameCount == 0 {
            frameCount = try countFrames(decoder, flac: flac, sink: sink, path: path)
        }
        return StreamInfo(format: AudioFormat(sampleRate: Int(info.sample_rate), channelCount: channelCount), frameCount: frameCount,
                          bitsPerSample: Int(info.bits_per_sample))
    }

    /// Decodes the whole stream once to count its frames, for a STREAMINFO that leaves the total
    /// unknown, then rewinds to the first frame.
    private static func countFrames(_ decoder: UnsafeMutablePointer<FLAC__StreamDecoder>, flac: ILFLACFunctions, sink: FLACSink, path: String) throws -> Int {
        var frames = 0
        while flac.FLAC__stream_decoder_get_state(decoder) != FLAC__STREAM_DECODER_END_OF_STREAM {
            guard flac.FLAC__stream_decoder_process_single(decoder) != 0 else {
                throw InterludeError(.corruptData, "\(path): FLAC stream of unknown length fails to decode at frame \(frames)")
            }
            frames += sink.discardBlock()
            if let reason = sink.takeFatal() ?? sink.takeDamage() {
                throw InterludeError(.corruptData, "\(path): damaged FLAC data near frame \(frames) (\(reason))")
            }
        }
        guard flac.FLAC__stream_decoder_reset(decoder) != 0, flac.FLAC__stream_decoder_process_until_end_of_metadata(decoder) != 0 else {
            throw InterludeError(.corruptData, "\(path): cannot rewind the FLAC stream after counting its frames")
        }
        return frames
    }

    private static func sink(_ clientData: UnsafeMutableRawPointer?) -> FLACSink {
        Unmanaged<FLACSink>.fromOpaque(clientData!).takeUnretainedValue()
    }

    private static let readCallback: FLAC__StreamDecoderReadCallback = { _, destination, byteCount, clientData in
        sink(clientData).read(into: destination!, byteCount: byteCount!)
    }

    private static let seekCallback: FLAC__StreamDecoderSeekCallback = { _, offset, clientData in
        sink(clientData).seek(toByte: offset)
    }

    private static let tellCallback: FLAC__StreamDecoderTellCallback = { _, offset, clientData in
        sink(clientData).tell(offset!)
    }

    private static let lengthCallback: FLAC__StreamDecoderLengthCallback = { _, length, clientData in
        sink(clientData).length(length!)
    }

    private static let eofCallback: FLAC__StreamDecoderEofCallback = { _, clientData in
        sink(clientData).isAtEnd ? 1 : 0
    }

    private static let writeCallback: FLAC__StreamDecoderWriteCallback = { _, frame, channels, clientData in
        sink(clientData).receive(frame!.pointee.header, channels!)
    }

    private static let metadataCallback: FLAC__StreamDecoderMetadataCallback = { _, metadata, clientData in
        sink(clientData).receive(metadata!.pointee)
    }

    private static let errorCallback: FLAC__StreamDecoderErrorCallback = { _, status, clientData in
        // Called only by a decoder made from the loaded library.
        let name = il_flac_functions().map { DecoderLibraries.flacName($0.pointee.FLAC__StreamDecoderErrorStatusString, status.rawValue) }
        sink(clientData).record(name ?? "status \(status.rawValue)")
    }
}
