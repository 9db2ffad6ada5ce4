/// One AL buffer in a stream's queue: which frames of the track it holds. Each buffer holds one
/// contiguous range (a fill stops at the loop seam), so a position inside it is `startFrame + offset`.
struct QueuedRange: Equatable {
    var buffer: ALBuffer
    var startFrame: Int
    var frameCount: Int
}
