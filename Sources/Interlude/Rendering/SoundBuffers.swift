/// A sound's AL buffers on the current device: its own samples and, for a stereo sound once a
/// positional voice has needed it, the mono downmix positional voices play.
struct SoundBuffers {
    var native: ALBuffer
    var mono: ALBuffer?
}
