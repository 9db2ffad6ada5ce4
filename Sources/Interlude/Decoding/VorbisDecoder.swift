import CVorbisFile
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads Ogg Vorbis files through libvorbisfile, mono or stereo.
///
/// libvorbisfile reads through Interlude's own callbacks over the decoder's `FILE*`, pulling
/// pages as samples are asked for. Chained files are accepted when every link has the same
/// sample rate and channel count.
///
/// A damaged or missing page mid-file (libvorbisfile's `OV_HOLE`) is stepped over, as oggdec and
/// sox do, instead of ending the stream: the frames the damage took are read as silence, counted
/// from the next page's granule position, so every later frame stays at its exact position, and
/// a warning is logged (``skippedFrameCount`` counts them).
///
/// Use from one thread at a time.
public final class VorbisDecoder: AudioDecoder {
    /// The file being decoded.
    public let path: String
    /// Sample rate and channel count of the stream.
    public let format: AudioFormat
    /// Total frames, from the stream's final granule position (`ov_pcm_total`).
    public let frameCount: Int
    /// The loop its `LOOPSTART` with `LOOPLENGTH` or `LOOPEND` comments declare, end exclusive
    /// (SDL_mixer 2.6's reading), or nil.
    public let loopRegion: Range<Int>?

    private static let logger = Logger(label: "Interlude")

    /// Frames read as silence in place of damaged pages, since open.
    public private(set) var skippedFrameCount = 0

    private let file: DecoderFile
    /// Allocated here so its address stays fixed for libvorbisfile; cleared once, in deinit.
    private let vorbisFile: UnsafeMutablePointer<OggVorbis_File>
    /// The file's frame the next frame read is.
    private var nextFrame = 0
    /// What stepping over a damaged page left owed.
    private var skippedDamage = SkippedDamage()

    /// Opens `path` and reads the Vorbis headers.
    ///
    /// Throws ``InterludeError`` with `.fileNotFound`, `.unreadableFile`, `.unsupportedFormat`
    /// (not Ogg Vorbis, or more than two channels) or `.corruptData` (bad headers, a truncated
    /// stream); the message names the file and the problem.
    public convenience init(path: String) throws {
        try self.init(file: DecoderFile(path: path))
    }

    init(file: DecoderFile) throws {
        let stream = try Self.openStream(file)
        self.file = file
        self.path = file.path
        self.vorbisFile = stream.vorbisFile
        self.format = stream.format
        self.frameCount = stream.frameCount
        self.loopRegion = stream.loopRegion
    }

    deinit {
        ov_clear(vorbisFile)
        vorbisFile.deallocate()
    }

    /// Reads up to `buffer.count / format.channelCount` frames of interleaved float samples
    /// (`ov_read_float`). Returns the frames read; 0 at the end of the stream. A gap left by a
    /// damaged page (`OV_HOLE`) is read as the silence it stands for (see the type's comment).
    /// Throws `.corruptData` at a bad link or a packet that fails to decode, `.invalidArgument`
    /// for a buffer smaller than a frame.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let channelCount = format.channelCount
        guard buffer.count >= channelCount else {
            throw InterludeError(.invalidArgument, "\(path): read buffer of \(buffer.count) samples holds no whole frame")
        }
        let framesWanted = buffer.count / channelCount
        var output = buffer.baseAddress!
        var framesDone = 0
        while framesDone < framesWanted {
            // What damage left owed comes first: its silence, then what was decoded after it.
            let paid = skippedDamage.pay(into: output, maximumFrames: framesWanted - framesDone, channelCount: channelCount)
            if paid > 0 {
                output += paid * channelCount
                framesDone += paid
                continue
            }
            try checkStreamState()
            var channels: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
            let result = ov_read_float(vorbisFile, &channels, Int32(clamping: framesWanted - framesDone), nil)
            if result == 0 {
                try checkEndOfStream(atFrame: nextFrame + framesDone)
                break
            }
            if result == Int(OV_HOLE) {
                try stepOverHole(atFrame: nextFrame + framesDone)
                continue
            }
            guard result > 0, let channels else {
                throw readError(code: Int32(truncatingIfNeeded: result), atFrame: nextFrame + framesDone)
            }
            let frames = Int(result)
            Self.interleave(channels, frames: 0..<frames, channelCount: channelCount, into: output)
            output += frames * channelCount
            framesDone += frames
        }
        nextFrame += framesDone
        return framesDone
    }

    /// After a damaged page at `holeFrame`: decodes on until the pages' granule positions say
    /// where the decoded frames belong, and owes the silence between. libvorbisfile counts on from
    /// the hole until the next page that carries a granule position, so the frames decoded up to
    /// then are held, not handed out early. Nothing decoding after the damage is `.corruptData`.
    private func stepOverHole(atFrame holeFrame: Int) throws {
        let channelCount = format.channelCount
        // At most this much is held while waiting for a granule position; past it the held frames
        // are played where they fall.
        let maximumHeldFrames = 10 * format.sampleRate
        var held: [Float] = []
        var heldFrames = 0
        var lostFrames = 0
        while heldFrames < maximumHeldFrames {
            try checkStreamState()
            var channels: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
            let result = ov_read_float(vorbisFile, &channels, 4_096, nil)
            if result == Int(OV_HOLE) { continue }
            if result == 0 { break }
            guard result > 0, let channels else {
                throw readError(code: Int32(truncatingIfNeeded: result), atFrame: holeFrame + heldFrames)
            }
            let frames = Int(result)
            held.append(contentsOf: repeatElement(0, count: frames * channelCount))
            held.withUnsafeMutableBufferPointer {
                Self.interleave(channels, frames: 0..<frames, channelCount: channelCount, into: $0.baseAddress! + heldFrames * channelCount)
            }
            let blockStart = Int(ov_pcm_tell(vorbisFile)) - frames
            if blockStart != holeFrame + heldFrames {
                // Never past the track's length, whatever a damaged page's granule says.
                lostFrames = max(0, min(blockStart - heldFrames, frameCount) - holeFrame)
                heldFrames += frames
                break
            }
            heldFrames += frames
        }
        guard heldFrames > 0 else {
            throw InterludeError(.corruptData, "\(path): damaged Ogg data at frame \(holeFrame), and nothing after it decodes")
        }
        Self.logger.warning("\(path): damaged Ogg data skipped: \(lostFrames) frames from frame \(holeFrame) read as silence")
        skippedFrameCount += lostFrames
        skippedDamage.owe(silenceFrames: lostFrames, then: held)
    }

    /// Writes `frames` of libvorbisfile's per-channel block to `output`, interleaved.
    private static func interleave(_ channels: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, frames: Range<Int>,
                                   channelCount: Int, into output: UnsafeMutablePointer<Float>) {
        if channelCount == 1 {
            (output).update(from: channels[0]! + frames.lowerBound, count: frames.count)
            return
        }
        let left = channels[0]!
        let right = channels[1]!
        for (index, frame) in frames.enumerated() {
            output[2 * index] = left[frame]
            output[2 * index + 1] = right[frame]
        }
    }

    /// Refuses to call into libvorbisfile once libogg's stream state breaks its own invariants:
    /// a crafted file can leave more body or lacing data "returned" than was ever filled, and
    /// libogg 1.3.5's next `ogg_stream_pagein` then calls memmove with a negative size and
    /// crashes the process (found by the Vorbis fuzzer; reproduced in plain C). The file is
    /// reported corrupt instead.
    private func checkStreamState() throws {
        let stream = vorbisFile.pointee.os
        guard stream.body_returned <= stream.body_fill, stream.lacing_returned <= stream.lacing_fill,
              stream.lacing_packet <= stream.lacing_fill, stream.body_fill >= 0, stream.lacing_fill >= 0 else {
            throw InterludeError(.corruptData, "\(path): corrupt Ogg stream (libogg's page state is inconsistent)")
        }
    }

    /// Moves the read position to `frame`, in 0 ... frameCount, sample-accurately (`ov_pcm_seek`).
    /// Throws `.invalidArgument` outside that range, `.corruptData` if the stream cannot be seeked.
    public func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else {
            throw InterludeError(.invalidArgument, "\(path): seek to frame \(frame) outside 0...\(frameCount)")
        }
        try checkStreamState()
        let result = ov_pcm_seek(vorbisFile, ogg_int64_t(frame))
        guard result == 0 else {
            throw InterludeError(.corruptData, "\(path): seek to frame \(frame) failed (libvorbisfile error \(result))")
        }
        nextFrame = frame
        skippedDamage.forget()
    }
}

extension VorbisDecoder {
    private struct Stream {
        var vorbisFile: UnsafeMutablePointer<OggVorbis_File>
        var format: AudioFormat
        var frameCount: Int
        var loopRegion: Range<Int>?
    }

    /// Opens libvorbisfile over `file` and validates the stream; on any failure it frees what it
    /// made, so the caller owns the returned OggVorbis_File alone.
    private static func openStream(_ file: DecoderFile) throws -> Stream {
        let path = file.path
        // Both checks move the FILE position, so they run before libvorbisfile takes the file over.
        let startsWithCapture = try file.bytes(atOffset: 0, byteCount: 4) == Array("OggS".utf8)
        let isComplete = try endsWithCompleteFinalPage(file)
        try file.seek(toByte: 0)
        let vorbisFile = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        let openResult = ov_open_callbacks(UnsafeMutableRawPointer(file.handle), vorbisFile, nil, 0, callbacks)
        guard openResult == 0 else {
            // On failure libvorbisfile has already cleared the struct and left the file to us.
            vorbisFile.deallocate()
            if startsWithCapture, !isComplete {
                throw InterludeError(.corruptData, "\(path): Ogg stream truncated or damaged before its Vorbis headers")
            }
            throw openError(code: openResult, file: file)
        }
        do {
            guard isComplete else {
                throw InterludeError(.corruptData, "\(path): Ogg stream truncated (last page incomplete or not marked end of stream)")
            }
            guard let info = ov_info(vorbisFile, -1) else {
                throw InterludeError(.corruptData, "\(path): no Vorbis stream information")
            }
            let channelCount = Int(info.pointee.channels)
            let sampleRate = Int(info.pointee.rate)
            guard AudioFormat.supportedChannelCounts.contains(channelCount) else {
                throw InterludeError(.unsupportedFormat, "\(path): \(channelCount) Vorbis channels are not supported (mono or stereo only)")
            }
            guard sampleRate > 0 else {
                throw InterludeError(.corruptData, "\(path): Vorbis header declares a zero sample rate")
            }
            // A chained file may switch format between links; one AudioFormat cannot describe that.
            for link in 1..<max(1, Int(ov_streams(vorbisFile))) {
                guard let linkInfo = ov_info(vorbisFile, Int32(link)),
                      Int(linkInfo.pointee.channels) == channelCount, Int(linkInfo.pointee.rate) == sampleRate
                else {
                    throw InterludeError(.unsupportedFormat, "\(path): chained stream changes format at link \(link)")
                }
            }
            let total = ov_pcm_total(vorbisFile, -1)
            guard total >= 0 else {
                throw InterludeError(.corruptData, "\(path): cannot determine the stream length (libvorbisfile error \(total))")
            }
            return Stream(
                vorbisFile: vorbisFile,
                format: AudioFormat(sampleRate: sampleRate, channelCount: channelCount),
                frameCount: Int(total),
                loopRegion: LoopTags.vorbisRegion(comments: comments(of: vorbisFile), frameCount: Int(total), path: path))
        } catch {
            ov_clear(vorbisFile)
            vorbisFile.deallocate()
            throw error
        }
    }

    /// The first link's user comments ("KEY=value"), through `ov_comment`; undecodable UTF-8 is
    /// repaired, not refused.
    private static func comments(of vorbisFile: UnsafeMutablePointer<OggVorbis_File>) -> [String] {
        guard let comment = ov_comment(vorbisFile, -1)?.pointee, let texts = comment.user_comments,
              let lengths = comment.comment_lengths else { return [] }
        return LoopTags.comments(texts, lengths: lengths, count: comment.comments)
    }

    /// Callbacks over the `FILE*` passed as the datasource. No close function: the decoder's
    /// `DecoderFile` owns and closes the file, so it is closed once whether or not the open succeeds.
    private static var callbacks: ov_callbacks {
        ov_callbacks(
            read_func: { destination, size, count, source in
                fread(destination, size, count, source!.assumingMemoryBound(to: FILE.self))
            },
            seek_func: { source, offset, whence in
                fseeko(source!.assumingMemoryBound(to: FILE.self), off_t(offset), whence)
            },
            close_func: nil,
            tell_func: { source in
                ftello(source!.assumingMemoryBound(to: FILE.self))
            })
    }

    /// libvorbisfile silently ends a truncated stream at its last whole page, so truncation is
    /// caught here: the file must end with a valid (CRC-checked) page flagged end-of-stream.
    /// Candidates are tried from the end backwards, so "OggS" bytes inside packet data are skipped.
    private static func endsWithCompleteFinalPage(_ file: DecoderFile) throws -> Bool {
        // 27-byte header + 255 lacing values + 255 * 255 payload bytes: the largest Ogg page.
        let maximumPageByteCount = 65_307
        let tail = try file.bytes(
            atOffset: max(0, file.byteCount - maximumPageByteCount),
            byteCount: maximumPageByteCount)
        let capture = Array("OggS".utf8)
        var sync = ogg_sync_state()
        ogg_sync_init(&sync)
        defer { ogg_sync_clear(&sync) }
        var page = ogg_page()
        var start = tail.count - 27
        while start >= 0 {
            defer { start -= 1 }
            guard tail[start] == capture[0], tail[start + 1] == capture[1],
                  tail[start + 2] == capture[2], tail[start + 3] == capture[3] else { continue }
            ogg_sync_reset(&sync)
            let byteCount = tail.count - start
            guard let destination = ogg_sync_buffer(&sync, byteCount) else { return false }
            tail.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(destination).copyMemory(from: bytes.baseAddress! + start, byteCount: byteCount)
            }
            ogg_sync_wrote(&sync, byteCount)
            let pageByteCount = ogg_sync_pageseek(&sync, &page)
            if pageByteCount > 0 {
                return pageByteCount == byteCount && ogg_page_eos(&page) != 0
            }
        }
        return false
    }

    private static func openError(code: Int32, file: DecoderFile) -> InterludeError {
        let path = file.path
        switch code {
        case OV_ENOTVORBIS:
            return InterludeError(.unsupportedFormat, "\(path): not an Ogg Vorbis stream")
        case OV_EVERSION:
            return InterludeError(.unsupportedFormat, "\(path): unsupported Vorbis version")
        case OV_EBADHEADER:
            return InterludeError(.corruptData, "\(path): invalid Vorbis headers")
        case OV_EREAD:
            return file.shortReadError("Vorbis headers")
        default:
            return InterludeError(.corruptData, "\(path): libvorbisfile could not open the stream (error \(code))")
        }
    }

    /// The error for a failed read at `frame`: the file's own read error (EIO) is
    /// `.unreadableFile`, the rest is damaged data.
    private func readError(code: Int32, atFrame frame: Int) -> InterludeError {
        switch code {
        case OV_EREAD where ferror(file.handle) != 0:
            return InterludeError(.unreadableFile, "\(path): read error at frame \(frame) of \(frameCount)")
        case OV_EBADLINK:
            return InterludeError(.corruptData, "\(path): invalid link in a chained Ogg stream")
        default:
            return InterludeError(.corruptData, "\(path): Vorbis decode failed (libvorbisfile error \(code))")
        }
    }

    /// The stream ended at `frame`. Before its length, because the file failed under it, that
    /// is an error, not a quiet early end: libvorbisfile reports a read error (EIO) and a file
    /// truncated while open both as the end of the stream.
    private func checkEndOfStream(atFrame frame: Int) throws {
        guard frame < frameCount else { return }
        if let failure = file.failure(atFrame: frame, of: frameCount) { throw failure }
    }
}
