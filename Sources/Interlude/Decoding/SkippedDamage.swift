/// What a decoder still owes its reader after stepping over damage (the Vorbis and Opus
/// decoders): the silence of the frames the damage took, then the samples it decoded past the
/// damage to find out where they belong. Empty except just after damage.
struct SkippedDamage {
    /// Silence still owed for the frames the damage took.
    private var owedSilenceFrames = 0
    /// Frames decoded after the damage, waiting behind the owed silence (interleaved).
    private var heldSamples: [Float] = []

    /// Owes `silenceFrames` frames of silence, then `held` (interleaved).
    mutating func owe(silenceFrames: Int, then held: [Float]) {
        owedSilenceFrames = silenceFrames
        heldSamples = held
    }

    /// Forgets what is owed (after a seek).
    mutating func forget() {
        owedSilenceFrames = 0
        heldSamples = []
    }

    /// Writes up to `maximumFrames` frames of what is owed to `output`, silence first; returns
    /// how many (0 when nothing is owed).
    mutating func pay(into output: UnsafeMutablePointer<Float>, maximumFrames: Int, channelCount: Int) -> Int {
        if owedSilenceFrames > 0 {
            let frames = min(owedSilenceFrames, maximumFrames)
            output.update(repeating: 0, count: frames * channelCount)
            owedSilenceFrames -= frames
            return frames
        }
        guard !heldSamples.isEmpty else { return 0 }
        let samples = min(heldSamples.count, maximumFrames * channelCount)
        heldSamples.withUnsafeBufferPointer { output.update(from: $0.baseAddress!, count: samples) }
        heldSamples.removeFirst(samples)
        return samples / channelCount
    }
}
