extension EngineCore {
    /// Starts a streamed track on `channel`, replacing any. The file is opened now, so a missing
    /// or bad file throws here, naming it. While interrupted it starts when the session is active.
    func playStream(path: String, channel: StreamChannel, isLooping: Bool, gain: Float, fadeInSeconds: Double,
                    loopRegion: Range<Int>?, crossfadeSeconds: Double?, command: String,
                    startFrame: Int = 0, startsPaused: Bool = false) throws {
        try Validate.gain(gain, in: command)
        try Validate.seconds(fadeInSeconds, "fadeIn", in: command)
        if let crossfadeSeconds { try Validate.seconds(crossfadeSeconds, "duration", in: command) }
        let decoder = try DecoderFactory.open(path: path)
        let stream = MusicStream(path: path, decoder: decoder, channel: channel, isLooping: isLooping, gain: gain,
                                 state: startsPaused ? .paused : session.state.isActive ? .playing : .pendingStart,
                                 bufferCount: configuration.streamBufferCount,
                                 bufferSeconds: configuration.streamBufferSeconds,
                                 loopRegion: nil, logger: logger)
        if let loopRegion { try stream.setLoopRegion(loopRegion) }
        // Not attached yet: this only sets the frame the queue is first filled from.
        if startFrame != 0 { try stream.seek(toFrame: startFrame) }
        let fadeSeconds = crossfadeSeconds ?? fadeInSeconds
        if fadeSeconds > 0 {
            stream.fade = Fade(startGain: 0, targetGain: 1, durationSeconds: fadeSeconds, curve: .equalPower)
        }
        if let previous = streams[channel] {
            if let crossfadeSeconds, crossfadeSeconds > 0, session.state.isActive, previous.state == .playing {
                previous.fade = Fade(startGain: previous.fade?.gain ?? 1, targetGain: 0, durationSeconds: crossfadeSeconds, curve: .equalPower)
                previous.stopsWhenFadeEnds = true
                // A crossfade that cuts into another: what is still fading out on the channel
                // falls along the same curve from where it is, so the outgoing tracks keep their
                // power ratio and, with the incoming one, the total stays at 1.
                for outgoing in outgoingStreams where outgoing.channel == channel && outgoing.stopsWhenFadeEnds
                    && outgoing.state == .playing {
                    outgoing.fade = Fade(startGain: outgoing.fade?.gain ?? 1, targetGain: 0, durationSeconds: crossfadeSeconds, curve: .equalPower)
                }
                outgoingStreams.append(previous)
            } else {
                release(previous)
            }
        }
        streams[channel] = stream
        streamErrors[channel] = nil
        if session.state.isActive {
            withAL(command) { device in
                try stream.attach(to: device, groupGain: groups.effectiveGain(of: channel.groupIndex))
                if stream.state == .playing { try stream.play() }
            }
        } else if !startsPaused {
            emit(.commandDeferred(command: command))
        }
    }

    /// Releases a stream's AL objects now, or when the session is active again.
    func release(_ stream: MusicStream) {
        if canUseAL {
            withAL("stopStream(\(stream.path))") { device in try stream.detach(from: device) }
        } else if device == nil {
            stream.forgetDevice()
        } else {
            stream.state = .paused
            outgoingStreams.append(stream)
            stream.stopsWhenFadeEnds = true
            stream.fade = Fade(startGain: 0, targetGain: 0, durationSeconds: 0, curve: .linear)
        }
    }

    /// The tracks still fading out on `channel`: the outgoing side of a crossfade, a fade-out.
    /// (A track released while interrupted has a finished fade and is not among them.)
    private func fadingOut(on channel: StreamChannel) -> [MusicStream] {
        outgoingStreams.filter { $0.channel == channel && !($0.fade?.isFinished ?? true) }
    }

    /// Pauses the channel's track, and what it is crossfading away from. Tracked while
    /// interrupted: they stay silent at the end.
    func pauseStream(_ channel: StreamChannel, command: String) {
        guard let stream = streams[channel], stream.state != .paused else { return }
        let pausing = [stream] + fadingOut(on: channel).filter { $0.state != .paused }
        if session.state.isActive {
            withAL(command) { _ in
                for stream in pausing {
                    try stream.pause()
                    try stream.syncPosition()
                }
            }
        } else {
            emit(.commandDeferred(command: command))
        }
        for stream in pausing { stream.state = .paused }
    }

    /// Resumes the channel's track where it was, with any crossfade it was paused in. Tracked
    /// while interrupted: it plays at the end.
    func resumeStream(_ channel: StreamChannel, command: String) {
        guard let stream = streams[channel], stream.state != .playing else { return }
        let resuming = [stream] + fadingOut(on: channel).filter { $0.state == .paused }
        if session.state.isActive {
            withAL(command) { device in
                for stream in resuming {
                    stream.state = .playing
                    if !stream.isAttached {
                        try stream.attach(to: device, groupGain: groups.effectiveGain(of: channel.groupIndex))
                    }
                    try stream.play()
                }
            }
        } else if stream.state != .pendingStart {
            for stream in resuming { stream.state = .pendingStart }
            emit(.commandDeferred(command: command))
        }
    }

    /// Stops the channel's track, at once or fading out. Tracked while interrupted.
    func stopStream(_ channel: StreamChannel, fadeOutSeconds: Double, command: String) throws {
        try Validate.seconds(fadeOutSeconds, "fadeOut", in: command)
        guard let stream = streams.removeValue(forKey: channel) else { return }
        if !session.state.isActive { emit(.commandDeferred(command: command)) }
        // A crossfade paused with the track ends with it: its fade would never finish.
        for outgoing in fadingOut(on: channel) where outgoing.state != .playing {
            outgoing.fade = Fade(startGain: 0, targetGain: 0, durationSeconds: 0, curve: .linear)
        }
        if fadeOutSeconds > 0, session.state.isActive, stream.state == .playing {
            stream.fade = Fade(startGain: stream.fade?.gain ?? 1, targetGain: 0, durationSeconds: fadeOutSeconds, curve: .equalPower)
            stream.stopsWhenFadeEnds = true
            outgoingStreams.append(stream)
        } else {
            release(stream)
        }
    }

    /// The channel's track position in frames, read from OpenAL first while it can be.
    func streamPosition(_ channel: StreamChannel) -> Int? {
        guard let stream = streams[channel] else { return nil }
        if stream.isAttached {
            withAL("positionInFrames") { _ in try stream.syncPosition() }
        }
        return stream.positionInFrames
    }

    /// One stream's fade, gain and refill.
    private func service(_ stream: MusicStream, elapsedSeconds: Double) throws {
        if stream.state == .playing, var fade = stream.fade {
            fade.advance(bySeconds: elapsedSeconds)
            stream.fade = fade.isFinished && !stream.stopsWhenFadeEnds ? nil : fade
            try stream.applyGain(groupGain: groups.effectiveGain(of: stream.channel.groupIndex))
        } else if groups.isDirty {
            try stream.applyGain(groupGain: groups.effectiveGain(of: stream.channel.groupIndex))
        }
        if stream.state == .playing { try stream.service() }
    }

    /// Refills every stream, applies fades and releases streams whose fade-out ended.
    func serviceStreams(elapsedSeconds: Double) throws {
        // Two loops rather than one over `allStreams`: that array would be a heap allocation on
        // every update.
        for stream in streams.values { try service(stream, elapsedSeconds: elapsedSeconds) }
        for stream in outgoingStreams { try service(stream, elapsedSeconds: elapsedSeconds) }
        if let device {
            for (index, stream) in outgoingStreams.enumerated().reversed()
            where stream.stopsWhenFadeEnds && (stream.fade?.isFinished ?? true) {
                try stream.detach(from: device)
                outgoingStreams.remove(at: index)
            }
            for (channel, stream) in streams where stream.isFinished {
                if let error = stream.decodeError { streamErrors[channel] = error }
                try stream.detach(from: device)
                streams[channel] = nil
            }
        }
    }
}
