/// Everything about one voice that the pool's update reads or writes, kept in one contiguous
/// array by slot: the update walks thousands of these without touching the `Voice` objects (no
/// cache miss, no reference counting, no exclusivity check per voice). The entry is the only
/// place these fields are kept; ``Voice`` reads and writes them here.
struct VoicePoolEntry {
    /// The voice's state, nil when the slot holds no live voice.
    var state: PlayState?
    /// The voice's AL source name, 0 while it has none (AL never names an object 0).
    var sourceName: UInt32 = 0
    var isLooping = false
    /// The voice plays a stream (set when it starts; a voice never changes what it plays).
    var isStreamed = false
    /// A fade runs on the voice's gain or pitch.
    var hasFade = false
    var hasPosition = false
    var isRelativeToListener = false
    var groupIndex = 0
    var priority = 0
    var gain: Float = 1
    var pitch: Float = 1
    var position: Vector3 = .zero
    var referenceDistance: Float = 1
    var maxDistance: Float = .greatestFiniteMagnitude
    var rolloffFactor: Float = 1
    /// Frames of the sound per second of playback: its rate times the pitch.
    var framesPerSecond = 0.0
    var frameCount = 0
    /// The frames a looping voice repeats, end exclusive: its sound's loop tags, else the whole
    /// sound. The first pass plays from 0 up to the end.
    var loopStartFrame = 0
    var loopEndFrame = 0
    /// How far into its sound the voice has played, in frames.
    var positionInFrames = 0
    /// The fraction of a frame the clock has advanced beyond ``positionInFrames``.
    var frameRemainder = 0.0
    /// Where the slot is in ``VoicePoolStorage/servicedSlots``, or -1.
    var servicedIndex: Int32 = -1
    /// The parameters changed since the update last sent them to the voice's source.
    var changes: VoiceChanges = []
    /// The slot is in the storage's list of changed slots (kept when the entry is reset, so a
    /// slot is never listed twice).
    var isListedChanged = false

    /// A live voice that is playing (the group's pause is checked separately).
    @inline(__always)
    var isPlaying: Bool { state == .playing }
    /// The voice holds an AL source.
    @inline(__always)
    var isReal: Bool { sourceName != 0 }
    /// Never made virtual: ``VoiceParameters/protectedPriority`` or more.
    @inline(__always)
    var isProtected: Bool { priority >= VoiceParameters.protectedPriority }

    /// Moves the position on by `seconds` of playback. Returns false when a one-shot has ended
    /// (the position then stays where it was).
    @inline(__always)
    mutating func advance(bySeconds seconds: Double) -> Bool {
        guard seconds > 0 else { return positionInFrames < frameCount || isLooping }
        let frames = seconds * framesPerSecond + frameRemainder
        // Truncation, corrected for a negative remainder: `rounded(.down)` is a libm call.
        var wholeFrames = Double(Int(frames))
        if wholeFrames > frames { wholeFrames -= 1 }
        frameRemainder = frames - wholeFrames
        let position = positionInFrames + Int(wholeFrames)
        if isLooping && position >= loopEndFrame {
            positionInFrames = loopStartFrame + (position - loopEndFrame) % max(1, loopEndFrame - loopStartFrame)
        } else if position >= frameCount {
            guard isLooping else { return false }
            positionInFrames = position % max(1, frameCount)
        } else {
            positionInFrames = position
        }
        return true
    }
}
