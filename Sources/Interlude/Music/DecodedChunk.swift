/// One stretch of a track the decode worker has read into a slot of a stream's ``ChunkRing``:
/// what one AL buffer of the stream's queue will hold.
///
/// A chunk starts at `startFrame` and runs on through the loop seam (a loop shorter than a
/// chunk repeats in it), exactly as the buffer it becomes; it also carries what the reads met
/// on the way, for the update to act on under the engine lock.
struct DecodedChunk: Sendable {
    /// The ring slot holding the samples.
    var slot: Int
    /// The track frame of the first sample.
    var startFrame: Int
    /// Frames in the slot; 0 only for the mark that ends the track.
    var frameCount: Int
    /// Nothing follows: the end of a one-shot track, or a read that failed.
    var endsTrack: Bool
    /// The read error that ended the track, if one did.
    var failure: InterludeError?
    /// Damaged data the decoder stepped over in this chunk: the frame the read began at, and
    /// the frames read as silence.
    var skippedDamage: (startFrame: Int, frameCount: Int)?
    /// The loop's end as the reads found it: shorter than asked when the file ends early.
    var loopEndFrame: Int
}
