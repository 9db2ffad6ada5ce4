extension EngineCore {
    /// Interruption begin: record what plays, stop output, NULL the context, tell the game.
    func beginInterruption(reason: InterruptionReason) {
        guard session.state.isActive else {
            _ = session.begin(reason: reason)
            emit(.absorbed(reason: reason))
            return
        }
        // 1. Record: every playing voice and stream, at the frame OpenAL reached.
        // 2. Stop output: pause all their sources in one call.
        withAL("beginInterruption") { _ in
            var playingSources: [ALSource] = []
            for voice in liveVoices where voice.state == .playing {
                if let source = voice.source {
                    voice.positionInFrames = try source.sampleOffset()
                    playingSources.append(source)
                }
            }
            for stream in allStreams where stream.state == .playing {
                try stream.syncPosition()
                if let source = stream.alSource { playingSources.append(source) }
            }
            try ALSource.pause(playingSources)
        }
        let held = holdPlayingForSession()
        _ = session.begin(reason: reason)
        // 2b, 3. Pause the device where it can be, suspend the context and make NULL current.
        session.deactivate(device)
        // 4. Tell the game: began, then where the soundtrack was held.
        emit(.began(reason: reason))
        held.forEach(emit)
        saveSnapshotIfConfigured()
    }

    /// Marks what is playing as held by the session, and drops system sounds. Returns the
    /// events that say where the soundtrack was held.
    func holdPlayingForSession() -> [SessionEvent] {
        var held: [SessionEvent] = []
        for voice in liveVoices {
            if voice.isSystemSound {
                removeVoice(voice)
            } else if voice.state == .playing {
                voice.state = .heldBySession
            }
        }
        for stream in streams.values where stream.state == .playing {
            stream.state = .heldBySession
            if stream.channel == .music {
                held.append(.musicSuspended(positionInFrames: stream.positionInFrames))
            }
        }
        for stream in outgoingStreams where stream.state == .playing {
            stream.state = .heldBySession
        }
        return held
    }

    /// Interruption end (or `activate()`): restore the context, resume what the policy and the
    /// tracked commands say, tell the game.
    func endInterruption(shouldResume: Bool, isActivation: Bool) {
        let caller = isActivation ? "activate()" : "endInterruption(shouldResume: \(shouldResume))"
        guard let resumesHeld = session.end(shouldResume: shouldResume, by: caller), let device else {
            emit(.ignored)
            return
        }
        do {
            try session.reactivate(device)
        } catch {
            internalErrorCount += 1
            logger.error("\(caller): \(error)")
        }
        let summary = resumeAfterInterruption(resumesHeld: resumesHeld)
        emit(isActivation ? .activated(resumed: summary) : .ended(shouldResume: shouldResume, resumed: summary))
    }

    /// Brings OpenAL in line with the model after an interruption or a rebuild: deferred
    /// releases, parameters changed meanwhile, then replays held and pending voices and streams.
    func resumeAfterInterruption(resumesHeld: Bool) -> ResumeSummary {
        var summary = ResumeSummary(music: false, voiceCount: 0)
        withAL("resume after interruption") { device in
            try releaseDeferredSources(on: device)
            try applyWorld()
            for (index, stream) in outgoingStreams.enumerated().reversed() where stream.stopsWhenFadeEnds && stream.state != .heldBySession {
                try stream.detach(from: device)
                outgoingStreams.remove(at: index)
            }
            var sourcesToPlay: [ALSource] = []
            for voice in liveVoices {
                try applyParameters(of: voice)
                let resumes = voice.state == .pendingStart || (voice.state == .heldBySession && resumesHeld)
                if voice.state == .heldBySession && !resumesHeld { voice.state = .paused }
                guard resumes else { continue }
                // Real voices play together below; virtual ones get sources from the pool after.
                if let source = voice.source, !groups.pauses(voice.groupIndex) { sourcesToPlay.append(source) }
                voice.state = .playing
                summary.voiceCount += 1
                emit(.voiceResumed(handle: voice.handle, positionInFrames: voice.positionInFrames))
            }
            for stream in allStreams {
                let resumes = stream.state == .pendingStart || (stream.state == .heldBySession && resumesHeld)
                if stream.state == .heldBySession && !resumesHeld { stream.state = .paused }
                guard resumes else { continue }
                if !stream.isAttached {
                    try stream.attach(to: device, groupGain: groups.effectiveGain(of: stream.channel.groupIndex))
                } else {
                    try stream.applyGain(groupGain: groups.effectiveGain(of: stream.channel.groupIndex))
                    try stream.prepareToResume()
                }
                stream.state = .playing
                if let source = stream.alSource { sourcesToPlay.append(source) }
                if stream.channel == .music && streams[.music] === stream {
                    summary.music = true
                    emit(.musicResumed(positionInFrames: stream.positionInFrames))
                }
            }
            try ALSource.play(sourcesToPlay)
            try assignSources(on: device)
        }
        return summary
    }

    // MARK: Device loss

    /// The device is gone (or, offline, is being taken away): keep the positions the engine
    /// tracked, tear down every AL object, and interrupt with reason deviceLost.
    /// - Parameter isReachable: the device still answers (an offline teardown), so the exact
    ///   positions can be read from it first.
    func loseDevice(isReachable: Bool) {
        guard device != nil else { return }
        let wasActive = session.state.isActive
        var held: [SessionEvent] = []
        if wasActive && isReachable { syncPlayingPositions() }
        if wasActive { held = holdPlayingForSession() }
        session.markDeviceLost()
        releaseDevice(isReachable: isReachable)
        if wasActive { emit(.began(reason: .deviceLost)) }
        held.forEach(emit)
        emit(.servicesLost)
        reopenBackoffSeconds = 0.1
        // Offline, only reconnectDevice() restores the device: a retry timed by the wall clock
        // would end the loss at a frame that depends on how fast the machine renders.
        nextReopenInstant = configuration.output.isOffline ? nil : ContinuousClock.now.advanced(by: .seconds(reopenBackoffSeconds))
        saveSnapshotIfConfigured()
    }

    /// Reads every playing voice's and stream's position from OpenAL (the device answers).
    func syncPlayingPositions() {
        withAL("record positions") { _ in
            for voice in liveVoices where voice.state == .playing {
                if let source = voice.source { voice.positionInFrames = try source.sampleOffset() }
            }
            for stream in allStreams where stream.state == .playing {
                try stream.syncPosition()
            }
        }
    }

    /// Forgets every AL name (the model keeps the positions) and closes the device.
    private func releaseDevice(isReachable: Bool) {
        guard let device else { return }
        for voice in liveVoices { voice.source = nil }
        realVoiceCount = 0
        for stream in allStreams { stream.forgetDevice() }
        outgoingStreams.removeAll { $0.stopsWhenFadeEnds }
        freeSources.removeAll()
        sourcesToRelease.removeAll()
        buffersToDelete.removeAll()
        soundBuffers.removeAll()
        forgetEffects()
        session.tearDown(device, isReachable: isReachable)
        self.device = nil
    }

    /// Takes `newDevice` as the engine's device and re-creates every sound's buffers on it
    /// (when the session is active; otherwise they are made when it is).
    private func installDevice(_ newDevice: ALDevice) throws {
        do {
            try session.attach(newDevice)
        } catch {
            session.tearDown(newDevice, isReachable: true)
            throw error
        }
        device = newDevice
    }

    private func uploadAllSounds() {
        withAL("rebuild") { device in
            for sound in sounds.values { _ = try buffers(for: sound, on: device) }
        }
    }

    /// Opens a new device and rebuilds every audio object from the model, then resumes as after
    /// an interruption end with shouldResume. Throws when no device can be opened yet.
    func rebuildDevice() throws {
        guard device == nil, session.isDeviceLost else { return }
        try installDevice(try Self.openDevice(currentOutput, configuration: configuration))
        session.endDeviceLoss()
        uploadAllSounds()
        let summary = resumeAfterInterruption(resumesHeld: true)
        nextReopenInstant = nil
        emit(.servicesReset)
        emit(.ended(shouldResume: true, resumed: summary))
    }

    /// Moves playback to `output` with every voice, stream, position and setting kept: records
    /// the positions, tears the old device down, opens the new one, rebuilds and resumes what
    /// played (what was paused stays paused). The new device is opened first, so a failing open
    /// leaves the engine on its old device. During a device loss it only changes the device the
    /// retries open (and tries it now); during an interruption the new device waits, silent,
    /// for the end.
    func switchDevice(to output: OutputDevice) throws {
        let call = "switchDevice(to: \(output))"
        guard output.isOffline == currentOutput.isOffline else {
            throw InterludeError(.invalidArgument, "\(call): cannot switch between offline and real-time output (the engine is on \(currentOutput))")
        }
        let newDevice: ALDevice
        do {
            newDevice = try Self.openDevice(output, configuration: configuration)
        } catch let error as InterludeError {
            let code: InterludeError.Code = error.code == .invalidArgument ? .invalidArgument : .deviceUnavailable
            throw InterludeError(code, "\(call): \(error.message); still on \(currentOutput)")
        }
        guard device != nil else {
            // Lost: the rebuild path takes it from here, on the new output.
            session.tearDown(newDevice, isReachable: true)
            currentOutput = output
            nextReopenInstant = .now
            retryReopenIfDue(now: .now)
            return
        }
        let wasActive = session.state.isActive
        if wasActive {
            syncPlayingPositions()
            holdPlayingForSession().forEach(emit)
        }
        releaseDevice(isReachable: true)
        currentOutput = output
        do {
            try installDevice(newDevice)
        } catch {
            // The new context would not go current: behave as a loss, the retries reopen `output`.
            logger.error("\(call): \(error)")
            if wasActive { _ = session.begin(reason: .deviceLost) }
            session.markDeviceLost()
            if wasActive { emit(.began(reason: .deviceLost)) }
            emit(.servicesLost)
            reopenBackoffSeconds = 0.1
            nextReopenInstant = ContinuousClock.now.advanced(by: .seconds(reopenBackoffSeconds))
            return
        }
        logger.info("switched output to \(output) (\(newDevice.name))")
        if wasActive {
            uploadAllSounds()
            _ = resumeAfterInterruption(resumesHeld: true)
        } else {
            // Interrupted: keep output stopped and the context NULL until the end.
            session.deactivate(newDevice)
        }
    }

    /// Tries to reopen a lost device when its backoff has passed: 100 ms, doubling to 2 s.
    func retryReopenIfDue(now: ContinuousClock.Instant) {
        guard device == nil, !isShutDown, let due = nextReopenInstant, now >= due else { return }
        do {
            try rebuildDevice()
            logger.info("output device reopened")
        } catch {
            reopenBackoffSeconds = min(2, reopenBackoffSeconds * 2)
            nextReopenInstant = now.advanced(by: .seconds(reopenBackoffSeconds))
            logger.debug("reopen failed (\(error)); next try in \(reopenBackoffSeconds) s")
        }
    }
}
