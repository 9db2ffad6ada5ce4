import CDecoderLibraries
import CFLAC
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The state libFLAC's callbacks reach through their client-data pointer: the file, the
/// STREAMINFO block, the last decoded block as interleaved float, and the last reported error.
final class FLACSink {
    private let byteCount: Int
    private var storedStreamInfo: FLAC__StreamMetadata_StreamInfo?
    private var storedComments: [String] = []
    private let handle: UnsafeMutablePointer<FILE>
    private var channelCount = 0
    private var block: UnsafeMutableBufferPointer<Float> = .init(start: nil, count: 0)
    private var blockFrames = 0
    private var blockOffsetInFrames = 0
    /// Silence libFLAC wrote in place of frames lost to damage, still to be read, before the
    /// kept block.
    private var owedSilentFrames = 0
    /// Frames of the silence libFLAC wrote in place of lost ones, since
    /// ``takeSilentFrameCount()``.
    private var silentFrames = 0
    /// The first damage libFLAC reported through the error callback since it was taken; it
    /// goes on past it.
    private var damage: String?
    /// What stopped the decode (a frame that does not fit STREAMINFO).
    private var fatal: String?

    init(file: DecoderFile) {
        byteCount = file.byteCount
        handle = file.handle
    }

    deinit {
        block.deallocate()
    }

    /// The STREAMINFO block, once the metadata callback has seen it.
    var streamInfo: FLAC__StreamMetadata_StreamInfo? { storedStreamInfo }
    /// The VORBIS_COMMENT block's comments ("KEY=value"), once seen; undecodable UTF-8 is repaired.
    var comments: [String] { storedComments }

    var isAtEnd: Bool { feof(handle) != 0 }

    /// Allocates the block buffer once the channel count and the largest block are known.
    func prepare(channelCount: Int, maximumBlockFrames: Int) {
        self.channelCount = channelCount
        block = .allocate(capacity: maximumBlockFrames * channelCount)
    }

    func read(into destination: UnsafeMutablePointer<FLAC__byte>, byteCount: UnsafeMutablePointer<Int>) -> FLAC__StreamDecoderReadStatus {
        guard byteCount.pointee > 0 else { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
        byteCount.pointee = fread(destination, 1, byteCount.pointee, handle)
        if byteCount.pointee > 0 { return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE }
        return ferror(handle) != 0 ? FLAC__STREAM_DECODER_READ_STATUS_ABORT : FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM
    }

    func seek(toByte offset: FLAC__uint64) -> FLAC__StreamDecoderSeekStatus {
        guard offset <= FLAC__uint64(Int64.max), fseeko(handle, off_t(offset), SEEK_SET) == 0 else {
            return FLAC__STREAM_DECODER_SEEK_STATUS_ERROR
        }
        return FLAC__STREAM_DECODER_SEEK_STATUS_OK
    }

    func length(_ byteCount: UnsafeMutablePointer<FLAC__uint64>) -> FLAC__StreamDecoderLengthStatus {
        byteCount.pointee = FLAC__uint64(self.byteCount)
        return FLAC__STREAM_DECODER_LENGTH_STATUS_OK
    }

    func receive(_ metadata: FLAC__StreamMetadata) {
        if metadata.type == FLAC__METADATA_TYPE_STREAMINFO {
            storedStreamInfo = metadata.data.stream_info
        } else if metadata.type == FLAC__METADATA_TYPE_VORBIS_COMMENT, storedComments.isEmpty {
            let block = metadata.data.vorbis_comment
            guard let entries = block.comments else { return }
            storedComments = (0..<Int(block.num_comments)).compactMap { index in
                let entry = entries[index]
                guard let bytes = entry.entry else { return nil }
                return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(entry.length)), as: UTF8.self)
            }
        }
    }

    func tell(_ offset: UnsafeMutablePointer<FLAC__uint64>) -> FLAC__StreamDecoderTellStatus {
        let position = ftello(handle)
        guard position >= 0 else { return FLAC__STREAM_DECODER_TELL_STATUS_ERROR }
        offset.pointee = FLAC__uint64(position)
        return FLAC__STREAM_DECODER_TELL_STATUS_OK
    }

    /// Keeps a decoded block as interleaved float, after what is still kept. A block larger
    /// than STREAMINFO allowed, or with another channel count, stops the decode as damage.
    func receive(_ header: FLAC__FrameHeader, _ channels: UnsafePointer<UnsafePointer<FLAC__int32>?>) -> FLAC__StreamDecoderWriteStatus {
        let frames = Int(header.blocksize)
        let bitsPerSample = Int(header.bits_per_sample)
        guard Int(header.channels) == channelCount, frames * channelCount <= block.count, (1...32).contains(bitsPerSample) else {
            fatal = "a frame of \(frames) samples in \(header.channels) channels does not fit STREAMINFO"
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        // libFLAC writes several frames in one call only in place of lost ones: after damage
        // it reported, or (1.4.2) when a frame's number shows frames missing, when it writes
        // their silence and the frame that showed it as silence too, without a report. That
        // silence is counted, not kept, whatever length a damaged header claims.
        let keptFrames = blockFrames - blockOffsetInFrames
        if keptFrames > 0 {
            guard isKeptBlockSilent else {
                fatal = "libFLAC wrote a frame before the last one was read"
                return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
            }
            owedSilentFrames += keptFrames
            silentFrames += keptFrames
            discardKeptBlock()
        }
        if damage != nil || owedSilentFrames > 0, Self.isSilent(channels, channelCount: channelCount, frames: frames) {
            owedSilentFrames += frames
            silentFrames += frames
            return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
        }
        let scale = 1 / Float(1 << (bitsPerSample - 1))
        for channel in 0..<channelCount {
            let samples = channels[channel]!
            for frame in 0..<frames {
                block[frame * channelCount + channel] = Float(samples[frame]) * scale
            }
        }
        blockFrames = frames
        blockOffsetInFrames = 0
        return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
    }

    private static func isSilent(_ channels: UnsafePointer<UnsafePointer<FLAC__int32>?>, channelCount: Int, frames: Int) -> Bool {
        (0..<channelCount).allSatisfy { channel in UnsafeBufferPointer(start: channels[channel]!, count: frames).allSatisfy { $0 == 0 } }
    }

    /// Copies up to `maximumFrames` frames to `output`: the silence owed for damage, then the
    /// kept block. Returns how many.
    func drain(into output: UnsafeMutablePointer<Float>, maximumFrames: Int) -> Int {
        if owedSilentFrames > 0 {
            let frames = min(maximumFrames, owedSilentFrames)
            output.update(repeating: 0, count: frames * channelCount)
            owedSilentFrames -= frames
            return frames
        }
        let frames = min(maximumFrames, blockFrames - blockOffsetInFrames)
        guard frames > 0 else { return 0 }
        output.update(from: block.baseAddress! + blockOffsetInFrames * channelCount, count: frames * channelCount)
        blockOffsetInFrames += frames
        return frames
    }

    /// The unread part of the kept block is all zero.
    private var isKeptBlockSilent: Bool {
        UnsafeBufferPointer(rebasing: block[(blockOffsetInFrames * channelCount)..<(blockFrames * channelCount)]).allSatisfy { $0 == 0 }
    }

    private func discardKeptBlock() {
        blockFrames = 0
        blockOffsetInFrames = 0
    }

    /// Drops what is left of the kept block and the silence owed; returns how many frames
    /// that was.
    @discardableResult
    func discardBlock() -> Int {
        defer { discardKeptBlock(); owedSilentFrames = 0 }
        return blockFrames - blockOffsetInFrames + owedSilentFrames
    }

    /// The silent frames written since the last call.
    func takeSilentFrameCount() -> Int {
        defer { silentFrames = 0 }
        return silentFrames
    }

    /// Damage libFLAC reported (it goes on at the next frame it can read).
    func record(_ reason: String) {
        damage = damage ?? reason
    }

    /// The first damage reported since the last call, if any.
    func takeDamage() -> String? {
        defer { damage = nil }
        return damage
    }

    /// What stopped the decode since the last call, if anything.
    func takeFatal() -> String? {
        defer { fatal = nil }
        return fatal
    }
}
