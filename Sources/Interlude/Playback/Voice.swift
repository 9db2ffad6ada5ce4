/// The engine's record of one playing instance: enough to start it again anywhere, on any
/// device, at the frame it had reached.
///
/// A voice is real while it holds an AL source, and virtual otherwise: a virtual voice that
/// is playing keeps its time moving, so when it gets a source again it starts where it would be.
final class Voice {
    let handle: VoiceHandle
    let sound: Sound
    var parameters: VoiceParameters
    /// The index of ``VoiceParameters/group`` in the engine's group table.
    var groupIndex: Int
    var state: PlayState
    /// The AL source while the voice is real.
    var source: ALSource?
    /// How far into its sound the voice has played, in frames of the sound. Kept by the engine
    /// from OpenAL's offset on every update, and advanced by the engine while virtual, so it
    /// survives the device.
    var positionInFrames = 0
    /// The fraction of a frame a virtual voice has advanced beyond ``positionInFrames``.
    var virtualFrameRemainder = 0.0
    /// A short UI sound: dropped during an interruption, never resumed.
    let isSystemSound: Bool
    /// A gain fade running on the update.
    var gainFade: Fade?
    /// A pitch fade running on the update.
    var pitchFade: Fade?
    /// Stop the voice when its gain fade ends (a fade-out).
    var stopsWhenFadeEnds = false

    init(handle: VoiceHandle, sound: Sound, parameters: VoiceParameters, groupIndex: Int, state: PlayState, isSystemSound: Bool) {
        self.handle = handle
        self.sound = sound
        self.parameters = parameters
        self.groupIndex = groupIndex
        self.state = state
        self.isSystemSound = isSystemSound
    }

    /// The AL buffer layout this voice needs: positional voices play the mono downmix.
    var usesMonoBuffer: Bool { parameters.position != nil && sound.format.channelCount == 2 }

    /// Never made virtual: ``VoiceParameters/protectedPriority`` or more.
    var isProtected: Bool { parameters.priority >= VoiceParameters.protectedPriority }

    /// Moves a virtual voice's time on by `seconds`. Returns false when a one-shot has ended.
    func advanceVirtualTime(bySeconds seconds: Double) -> Bool {
        let frames = seconds * Double(sound.format.sampleRate) * Double(parameters.pitch) + virtualFrameRemainder
        let wholeFrames = frames.rounded(.down)
        virtualFrameRemainder = frames - wholeFrames
        let position = positionInFrames + Int(wholeFrames)
        if position >= sound.frameCount {
            guard parameters.isLooping else { return false }
            positionInFrames = position % max(1, sound.frameCount)
        } else {
            positionInFrames = position
        }
        return true
    }
}
