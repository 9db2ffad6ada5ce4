/// One AL buffer in a stream's queue: which frames of the track it holds. A buffer starts at
/// `startFrame` and runs on through the loop seam (a loop shorter than a buffer repeats in it),
/// so a position inside it is `startFrame + offset` folded back into the loop.
struct QueuedRange: Equatable {
    var buffer: ALBuffer
    var startFrame: Int
    var frameCount: Int
}
