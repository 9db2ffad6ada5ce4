/// What a stream's group puts on the stream's source: the group's gain, and the low-pass the mix
/// snapshots give the group. Owns the one low-pass filter the streams share on the current device.
final class StreamGroupMix {
    private let mixer: GroupMixer
    /// The device the streams' sources are made on, inside the gate's calls.
    private let gate: ALGate
    /// The low-pass filter the mix snapshots put on streams, on the current device, made on
    /// first use.
    @exclusivity(unchecked) private var lowPassFilter: UInt32?

    init(mixer: GroupMixer, gate: ALGate) {
        self.mixer = mixer
        self.gate = gate
    }

    /// Makes a stream's source and buffers, with its group's gain and low-pass.
    func attach(_ stream: MusicStream) throws {
        let device = try gate.device()
        try stream.attach(to: device, groupGain: mixer.effectiveGain(of: stream.channel.groupIndex))
        let lowPass = mixer.effectiveLowPass(of: stream.channel.groupIndex)
        if lowPass < 1 { try applyLowPass(lowPass, to: stream, on: device) }
    }

    /// Deletes a stream's source and buffers.
    func detach(_ stream: MusicStream) throws {
        try stream.detach(from: gate.device())
    }

    /// Sends an attached stream's gain, with its group's.
    func applyGain(to stream: MusicStream) throws {
        try stream.applyGain(groupGain: mixer.effectiveGain(of: stream.channel.groupIndex))
    }

    /// Sends an attached stream's group low-pass.
    func applyLowPass(to stream: MusicStream) throws {
        try applyLowPass(mixer.effectiveLowPass(of: stream.channel.groupIndex), to: stream, on: gate.device())
    }

    /// Filters an attached stream's source with `lowPass` (its high-frequency gain; 1 removes
    /// the filter). Without ALC_EXT_EFX this does nothing.
    private func applyLowPass(_ lowPass: Float, to stream: MusicStream, on device: ALDevice) throws {
        guard let source = stream.renderSlot?.source, let efx = device.efx else { return }
        guard lowPass < 1 else {
            try source.setDirectFilter(0)
            return
        }
        if lowPassFilter == nil { lowPassFilter = try device.makeLowPassFilter() }
        guard let filter = lowPassFilter else { return }
        // OpenAL copies the filter's settings into the source when attached: one filter serves all.
        try efx.setLowPass(filter, gainHF: lowPass)
        try source.setDirectFilter(filter)
    }

    /// The device is gone, and the filter with it.
    func forgetDevice() {
        lowPassFilter = nil
    }
}
