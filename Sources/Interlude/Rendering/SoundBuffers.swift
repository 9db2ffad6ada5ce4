/// A sound's AL buffers on the current device: its own samples and, for a stereo sound once a
/// positional voice has needed it, the mono downmix positional voices play.
struct SoundBuffers {
    var native: ALBuffer
    var mono: ALBuffer?

    /// The buffer a voice plays: the mono downmix when it needs one (`mono`) and there is one,
    /// the sound's own samples otherwise (a mono sound has no downmix).
    func buffer(mono needsMono: Bool) -> ALBuffer {
        needsMono ? mono ?? native : native
    }
}
