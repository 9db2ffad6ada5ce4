extension EngineCore {
    /// Carries out a gain, pause, resume or stop on a voice, a group or a track: the one control
    /// path behind the facade's twelve methods. A stale voice or track handle does nothing; a
    /// group this engine does not have throws `.invalidArgument`. Commands given during an
    /// interruption are tracked and reported as deferred.
    func apply(_ command: ControlCommand, to target: ControlTarget, call: String) throws {
        switch target {
        case .voice(let handle): try apply(command, toVoice: handle, call: call)
        case .group(let group): try apply(command, toGroup: group, call: call)
        case .music(let music): apply(command, toMusic: music)
        }
    }

    private func apply(_ command: ControlCommand, toVoice handle: VoiceHandle, call: String) throws {
        switch command {
        case .setGain(let gain, let seconds, let curve):
            try voices.setGain(gain, of: handle, fadeSeconds: seconds, curve: curve, call: call)
        case .pause(let seconds): voices.pause(handle, fadeSeconds: seconds)
        case .resume(let seconds): voices.resume(handle, fadeSeconds: seconds)
        case .stop(let seconds): voices.stop(handle, fadeSeconds: seconds)
        }
    }

    private func apply(_ command: ControlCommand, toGroup group: GroupID, call: String) throws {
        let index = try groups.existingIndex(of: group, in: call)
        switch command {
        case .setGain(let gain, let seconds, let curve):
            groups.setGain(gain, of: index, overSeconds: seconds, curve: curve)
            al.run(call) { _ in try applyGroupGains() }
            noteDeferred(.changeGroup(group))
        case .pause(let seconds):
            noteDeferred(.pauseGroup(group))
            if seconds > 0 {
                groups.fadeOutToPause(index, overSeconds: seconds)
            } else {
                groups.resetTransport(of: index, fadeInSeconds: 0)
                setGroupPaused(true, index: index)
            }
        case .resume(let seconds):
            groups.resetTransport(of: index, fadeInSeconds: seconds)
            al.run(call) { _ in try applyGroupGains() }
            setGroupPaused(false, index: index)
            noteDeferred(.resumeGroup(group))
        case .stop(let seconds):
            voices.stop(group: index, fadeSeconds: seconds)
            streams.stop(group: index, fadeSeconds: seconds)
            noteDeferred(.stopGroup(group))
        }
    }

    private func apply(_ command: ControlCommand, toMusic music: MusicHandle) {
        guard streams.current(music) != nil else { return }
        switch command {
        case .setGain(let gain, let seconds, let curve):
            streams.setGain(gain, of: music.channel, fadeSeconds: seconds, curve: curve)
            noteDeferred(.setMusicGain(music.channel))
        case .pause(let seconds):
            streams.pause(music.channel, fadeSeconds: seconds)
            conductor.setPaused(true, on: music.channel, fadeSeconds: seconds)
        case .resume(let seconds):
            streams.resume(music.channel, fadeSeconds: seconds)
            conductor.setPaused(false, on: music.channel, fadeSeconds: seconds)
        case .stop(let seconds):
            streams.stop(music.channel, fadeOutSeconds: seconds)
            conductor.channelStopped(music.channel, fadeSeconds: seconds)
        }
    }
}

extension EngineCore {
    /// Starts a voice of a loaded sound; a sound lost with a device (its file gone) throws
    /// `.fileNotFound` first.
    func play(_ sound: Sound, parameters: VoiceParameters, origin: VoiceOrigin) throws -> VoiceHandle {
        try sounds.checkNotLost(sound)
        return try voices.play(sound, parameters: parameters, origin: origin)
    }

    /// Moves a track to `frame`; what waits for its boundaries waits from there. A handle that
    /// is no longer its channel's current track does nothing.
    func seek(_ music: MusicHandle, toFrame frame: Int) throws {
        guard streams.current(music) != nil else { return }
        try streams.seek(music.channel, toFrame: frame)
        conductor.trackMoved(on: music.channel)
    }

    /// Sets a parameter for one cue voice's curves; reported as deferred while interrupted
    /// when the voice took it.
    func setParameter(_ value: Float, of name: String, on voice: VoiceHandle, fadeSeconds: Double,
                      call: @autoclosure () -> String) throws {
        if try soundDesign.setParameter(value, of: name, on: voice, fadeSeconds: fadeSeconds, call: call()) {
            noteDeferred(.setVoiceParameter(name, voice))
        }
    }
}
