/// Puts each stem of a track on a source of its own, set up to play straight to the output
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

    /// Makes a source and buffers for each of a stream's stems, with its group's gain and
    /// low-pass, restarts decoding at the tracked position and queues what is ready (offline:
    /// waits for a full queue). Does not start playback. All or nothing: a stream left half
    /// attached would never be attached again; detached, the update attaches it once AL can.
    func attach(_ stream: MusicStream) throws {
        let device = try gate.device()
        // Stems stand on one frame: a rebuild restarts them all where the first stands.
        try stream.seek(toFrame: stream.positionInFrames, canUseAL: false)
        var attached: [StreamQueue] = []
        do {
            for (index, queue) in stream.stemQueues.enumerated() {
                try attach(queue, stem: index, of: stream, on: device)
                attached.append(queue)
            }
        } catch {
            for queue in attached {
                let source = queue.alSource
                try? queue.detach(from: device)
                if let source { try? device.deleteSource(source) }
            }
            throw error
        }
        let lowPass = mixer.effectiveLowPass(of: stream.channel.groupIndex)
        if lowPass < 1 { try applyLowPass(lowPass, to: stream, on: device) }
    }

    /// Makes one stem's source, sets it up and attaches its queue.
    private func attach(_ queue: StreamQueue, stem index: Int, of stream: MusicStream, on device: ALDevice) throws {
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
            try source.setGain(gain(ofStem: index, of: stream))
            try queue.attach(source, on: device)
        } catch {
            try? device.deleteSource(source)
            throw error
        }
    }

    /// Releases a stream's sources and buffers on a live device.
    func detach(_ stream: MusicStream) throws {
        let device = try gate.device()
        for queue in stream.stemQueues {
            let source = queue.alSource
            try queue.detach(from: device)
            if let source { try device.deleteSource(source) }
        }
    }

    /// Starts an attached stream's stems in one call (`alSourcePlayv`: the same mix starts
    /// them all), after any refill a seek while interrupted left to do, once every stem has
    /// audio queued; until then the update starts them.
    func play(_ stream: MusicStream) throws {
        try stream.prepareToResume()
        let slots = stream.playableSlots
        guard !slots.isEmpty else { return }
        try ALSource.play(slots.map(\.source))
    }

    /// Pauses the attached streams' stems in one call: the same mix stops them all.
    func pause(_ streams: [MusicStream]) throws {
        try ALSource.pause(streams.flatMap(\.renderSlots).map(\.source))
    }

    /// Sends an attached stream's gains, with its group's and each stem's.
    func applyGain(to stream: MusicStream) throws {
        for (index, queue) in stream.stemQueues.enumerated() {
            try queue.alSource?.setGain(gain(ofStem: index, of: stream))
        }
    }

    /// The gain a stem's source gets.
    private func gain(ofStem index: Int, of stream: MusicStream) -> Float {
        stream.effectiveGain(groupGain: mixer.effectiveGain(of: stream.channel.groupIndex)) * stream.stemGain(at: index)
    }

    /// Silences an attached stream at once (a pause's fade-out has reached its end).
    func silence(_ stream: MusicStream) throws {
        for queue in stream.stemQueues { try queue.alSource?.setGain(0) }
    }

    /// Sends an attached stream's group low-pass.
    func applyLowPass(to stream: MusicStream) throws {
        try applyLowPass(mixer.effectiveLowPass(of: stream.channel.groupIndex), to: stream, on: gate.device())
    }

    /// Filters an attached stream's sources with `lowPass` (its high-frequency gain; 1 removes
    /// the filter). Without ALC_EXT_EFX this does nothing.
    private func applyLowPass(_ lowPass: Float, to stream: MusicStream, on device: ALDevice) throws {
        guard let efx = device.efx else { return }
        for queue in stream.stemQueues {
            guard let source = queue.alSource else { continue }
            try lowPassFilter.apply(lowPass, to: source, efx: efx, on: device)
        }
    }

    /// The device is gone, and the filter with it.
    func forgetDevice() {
        lowPassFilter.forgetDevice()
    }
}
