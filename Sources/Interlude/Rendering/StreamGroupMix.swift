/// Puts a track's queue on a source of its own, set up to play straight to the output
/// (unpositioned), and sends what the track's group puts on it: the group's gain, and the
/// low-pass the mix snapshots give the group. Owns the one low-pass filter the streams share on
/// the current device.
final class StreamGroupMix {
    private let mixer: GroupMixer
    /// The device the streams' sources are made on, inside the gate's calls.
    private let gate: ALGate
    /// The low-pass filter the mix snapshots put on streams, on the current device.
    @exclusivity(unchecked) private var lowPassFilter = DirectLowPass()

    init(mixer: GroupMixer, gate: ALGate) {
        self.mixer = mixer
        self.gate = gate
    }

    /// Makes a stream's source and buffers, with its group's gain and low-pass, restarts
    /// decoding at the tracked position and queues what is ready (offline: waits for a full
    /// queue). Does not start playback.
    func attach(_ stream: MusicStream) throws {
        let device = try gate.device()
        let source = try device.makeSource()
        do {
            if stream.format.channelCount == 2 && !device.isMono {
                // Stereo music plays straight to the output channels: no panning, no crosstalk.
                // Not on a mono device: OpenAL Soft 1.19 drops direct channels it has no output for.
                try source.setDirectChannels(true)
            }
            try source.setRelativeToListener(true)
            try source.setPosition(.zero)
            try source.setRolloffFactor(0)
            if let loudnessGain = stream.loudnessGain {
                // OpenAL clamps a source's gain to AL_MAX_GAIN (1 by default) before the mix:
                // at the loudness gain, the rest of the gain is clamped at 1 as without a target.
                try source.setMaxGain(loudnessGain)
            }
            try source.setGain(stream.effectiveGain(groupGain: mixer.effectiveGain(of: stream.channel.groupIndex)))
            try stream.streamQueue.attach(source, on: device)
        } catch {
            // All or nothing: a stream left half attached (a source but too few buffers) would
            // never be attached again. Detached, the update attaches it once AL can.
            try? device.deleteSource(source)
            throw error
        }
        let lowPass = mixer.effectiveLowPass(of: stream.channel.groupIndex)
        if lowPass < 1 { try applyLowPass(lowPass, to: stream, on: device) }
    }

    /// Releases a stream's source and buffers on a live device.
    func detach(_ stream: MusicStream) throws {
        let device = try gate.device()
        let source = stream.streamQueue.alSource
        try stream.streamQueue.detach(from: device)
        if let source { try device.deleteSource(source) }
    }

    /// Sends an attached stream's gain, with its group's.
    func applyGain(to stream: MusicStream) throws {
        try stream.streamQueue.alSource?.setGain(stream.effectiveGain(groupGain: mixer.effectiveGain(of: stream.channel.groupIndex)))
    }

    /// Silences an attached stream at once (a pause's fade-out has reached its end).
    func silence(_ stream: MusicStream) throws {
        try stream.streamQueue.alSource?.setGain(0)
    }

    /// Sends an attached stream's group low-pass.
    func applyLowPass(to stream: MusicStream) throws {
        try applyLowPass(mixer.effectiveLowPass(of: stream.channel.groupIndex), to: stream, on: gate.device())
    }

    /// Filters an attached stream's source with `lowPass` (its high-frequency gain; 1 removes
    /// the filter). Without ALC_EXT_EFX this does nothing.
    private func applyLowPass(_ lowPass: Float, to stream: MusicStream, on device: ALDevice) throws {
        guard let source = stream.streamQueue.alSource, let efx = device.efx else { return }
        try lowPassFilter.apply(lowPass, to: source, efx: efx, on: device)
    }

    /// The device is gone, and the filter with it.
    func forgetDevice() {
        lowPassFilter.forgetDevice()
    }
}
