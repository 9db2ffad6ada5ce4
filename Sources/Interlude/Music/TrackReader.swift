/// The decode worker's side of one stream: the track's decoder and where it reads. After the
/// stream hands it to the ``DecodeWorker``, only the thread stepping the worker's readers
/// touches it (and so the decoder and its file), one at a time under the worker's readers lock,
/// outside the engine lock: the decode thread, or an offline render between its updates.
///
/// Each chunk is cut the way the engine always cut its stream buffers: `slotFrameCount` frames,
/// running on across the loop seam, shorter only at the end of a one-shot track or where a read
/// failed. So the buffers a stream queues, and what a render hears, do not depend on when the
/// worker ran.
///
/// `@unchecked Sendable`: it crosses to the worker once, through the worker's inbox lock, and
/// is never touched again by the thread that made it; after that the worker's readers lock
/// orders every thread that steps it.
final class TrackReader: @unchecked Sendable {
    /// What one step did.
    enum Step {
        case closed, idle, worked
    }

    private let decoder: any AudioDecoder
    private let ring: ChunkRing
    private let frameCount: Int
    private let channelCount: Int
    private var nextFrame = 0
    private var loopStartFrame = 0
    private var loopEndFrame = 0
    private var isLooping = false

    init(decoder: any AudioDecoder, ring: ChunkRing) {
        self.decoder = decoder
        self.ring = ring
        frameCount = decoder.frameCount
        channelCount = decoder.format.channelCount
        loopEndFrame = frameCount
    }

    /// Fills one chunk if the ring has a free slot and something to read. Blocks as long as
    /// the decoder's reads do.
    func step() -> Step {
        switch ring.claim() {
        case .closed: return .closed
        case .idle: return .idle
        case .fill(let slot, let generation, let request):
            let chunk: DecodedChunk
            if let request, let failure = start(request) {
                chunk = DecodedChunk(slot: slot, startFrame: request.startFrame, frameCount: 0, endsTrack: true,
                                     failure: failure, skippedDamage: nil, loopEndFrame: loopEndFrame)
            } else {
                chunk = fill(slot)
            }
            ring.publish(chunk, generation: generation, decodeFrame: nextFrame)
            return .worked
        }
    }

    /// Seeks to the request's frame; returns the error when the seek failed.
    private func start(_ request: DecodeRequest) -> InterludeError? {
        loopStartFrame = request.loopStartFrame
        loopEndFrame = request.loopEndFrame
        isLooping = request.isLooping
        nextFrame = request.startFrame
        return Self.attempt(path: decoder.path) { try decoder.seek(toFrame: request.startFrame) }
    }

    /// Reads up to one slot of frames from `nextFrame`, across the loop seam.
    private func fill(_ slot: Int) -> DecodedChunk {
        let samples = ring.slotSamples(slot)
        let slotFrames = ring.slotFrameCount
        var chunk = DecodedChunk(slot: slot, startFrame: nextFrame, frameCount: 0, endsTrack: false, failure: nil,
                                 skippedDamage: nil, loopEndFrame: loopEndFrame)
        while chunk.frameCount < slotFrames {
            let endFrame = isLooping ? loopEndFrame : frameCount
            if nextFrame >= endFrame {
                guard isLooping, loopEndFrame > loopStartFrame else {
                    chunk.endsTrack = true
                    break
                }
                // A chunk runs on across the seam, so a loop shorter than a buffer still fills
                // whole buffers and the queue outlasts the update interval.
                if let failure = Self.attempt(path: decoder.path, { try decoder.seek(toFrame: loopStartFrame) }) {
                    chunk.failure = failure
                    chunk.endsTrack = true
                    break
                }
                nextFrame = loopStartFrame
                if chunk.frameCount == 0 { chunk.startFrame = nextFrame }
            }
            let wantedFrames = min(slotFrames - chunk.frameCount, endFrame - nextFrame)
            let skippedBefore = decoder.skippedFrameCount
            var readFrames = 0
            let window = UnsafeMutableBufferPointer(rebasing: samples[(chunk.frameCount * channelCount)..<((chunk.frameCount + wantedFrames) * channelCount)])
            if let failure = Self.attempt(path: decoder.path, { readFrames = try decoder.read(into: window) }) {
                chunk.failure = failure
                chunk.endsTrack = true
                break
            }
            if readFrames == 0 {
                // The file is shorter than it said: treat what was read as the end.
                if isLooping && nextFrame > loopStartFrame {
                    loopEndFrame = nextFrame
                    chunk.loopEndFrame = loopEndFrame
                    continue
                }
                chunk.endsTrack = true
                break
            }
            let skipped = decoder.skippedFrameCount - skippedBefore
            if skipped > 0 {
                chunk.skippedDamage = (chunk.skippedDamage?.startFrame ?? nextFrame, (chunk.skippedDamage?.frameCount ?? 0) + skipped)
            }
            chunk.frameCount += readFrames
            nextFrame += readFrames
        }
        return chunk
    }

    /// Runs a decoder call; returns its error as an ``InterludeError`` naming the file.
    private static func attempt(path: String, _ body: () throws -> Void) -> InterludeError? {
        do {
            try body()
            return nil
        } catch let error as InterludeError {
            return error
        } catch {
            return InterludeError(.corruptData, "\(path): \(error)")
        }
    }
}
