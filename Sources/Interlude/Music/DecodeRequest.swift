/// Where a stream's decoding starts again after a seek, a loop change or a new device: the
/// frame and the loop, as the stream tracks them.
struct DecodeRequest: Sendable {
    var startFrame: Int
    var loopStartFrame: Int
    var loopEndFrame: Int
    var isLooping: Bool
}
