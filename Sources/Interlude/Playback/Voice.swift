/// The engine's record of one playing instance: enough to start it again anywhere, on any
/// device, at the frame it had reached.
final class Voice {
    let handle: VoiceHandle
    let sound: Sound
    var parameters: VoiceParameters
    var state: PlayState
    /// The AL source while the voice holds one on the current device.
    var source: ALSource?
    /// How far into its sound the voice has played, in frames of the sound. Kept by the engine
    /// from OpenAL's offset on every update, so it survives the device.
    var positionInFrames = 0
    /// A short UI sound: dropped during an interruption, never resumed.
    let isSystemSound: Bool

    init(handle: VoiceHandle, sound: Sound, parameters: VoiceParameters, state: PlayState, isSystemSound: Bool) {
        self.handle = handle
        self.sound = sound
        self.parameters = parameters
        self.state = state
        self.isSystemSound = isSystemSound
    }

    /// The AL buffer layout this voice needs: positional voices play the mono downmix.
    var usesMonoBuffer: Bool { parameters.position != nil && sound.format.channelCount == 2 }
}
