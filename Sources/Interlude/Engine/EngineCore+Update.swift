extension EngineCore {
    /// One tick: completions, positions, stream refills, fades, device checks and reopening.
    func update(elapsedSeconds: Double, now: ContinuousClock.Instant) {
        guard !isShutDown, !suspendsUpdatesForTesting else { return }
        if let device, session.state.isActive {
            if !device.isLoopback && !device.isConnected {
                loseDevice(isReachable: false)
                return
            }
            updateCount &+= 1
            groups.advance(bySeconds: elapsedSeconds)
            withAL("update") { device in
                // Scores are only needed when the voices may not all fit the budget.
                let scores = liveVoiceCount > realVoiceBudget
                let playingCount = try serviceVoices(elapsedSeconds: elapsedSeconds, scoresCandidates: scores)
                try assignSources(on: device, knownPlayingCount: playingCount, candidatesAreScored: scores)
                if groups.isDirty { try applyGroupGains() }
                try serviceStreams(elapsedSeconds: elapsedSeconds)
            }
            groups.isDirty = false
        } else if device == nil && !configuration.output.isOffline {
            // Offline, the device comes back only when asked (reconnectDevice): a render must
            // not depend on the wall clock.
            retryReopenIfDue(now: now)
        }
    }

    /// Sends every real voice's and stream's gain after a group gain changed.
    func applyGroupGains() throws {
        for case let voice? in voiceSlots {
            try voice.source?.setGain(voice.parameters.gain * groups.effectiveGain(of: voice.groupIndex))
        }
        for stream in streams.values { try stream.applyGain(groupGain: groups.effectiveGain(of: stream.channel.groupIndex)) }
        for stream in outgoingStreams { try stream.applyGain(groupGain: groups.effectiveGain(of: stream.channel.groupIndex)) }
    }

    /// Frames between offline updates.
    var updateIntervalFrames: Int {
        guard case .offline(let sampleRate, _) = currentOutput else { return 0 }
        return max(1, Int((Double(sampleRate) * configuration.updateIntervalSeconds).rounded()))
    }

    /// Renders `frameCount` frames offline, updating every ``updateIntervalFrames``. While the
    /// session is interrupted or the device is lost, output is stopped: the frames are zeros.
    func render(into output: UnsafeMutableBufferPointer<Float>, frameCount: Int, channelCount: Int) {
        let interval = updateIntervalFrames
        guard let base = output.baseAddress else { return }
        var renderedFrames = 0
        while renderedFrames < frameCount {
            if framesUntilUpdate == 0 {
                update(elapsedSeconds: Double(framesSinceUpdate) / Double(sampleRate), now: .now)
                framesUntilUpdate = interval
                framesSinceUpdate = 0
            }
            let chunkFrames = min(frameCount - renderedFrames, framesUntilUpdate)
            let destination = base + renderedFrames * channelCount
            if let device, session.state.isActive {
                device.render(into: destination, frameCount: chunkFrames)
            } else {
                destination.update(repeating: 0, count: chunkFrames * channelCount)
            }
            renderedFrames += chunkFrames
            framesUntilUpdate -= chunkFrames
            framesSinceUpdate += chunkFrames
        }
    }

    /// Time since the last update: rendered frames offline, the clock on a real device.
    var secondsSinceUpdate: Double {
        if configuration.output.isOffline { return Double(framesSinceUpdate) / Double(sampleRate) }
        return lastUpdateInstant.map { (ContinuousClock.now - $0).seconds } ?? 0
    }

    /// The output rate.
    var sampleRate: Int {
        if case .offline(let sampleRate, _) = currentOutput { return sampleRate }
        return device?.sampleRate ?? 48_000
    }
}
