/// What the session tells the game, through ``SoundEngine/sessionEvents()`` and
/// ``SoundEngine/setSessionEventHandler(_:)``.
public enum SessionEvent: Sendable, Equatable {
    /// The session went from active to interrupted, held by `source`: state saved, output
    /// stopped, context NULL.
    case began(reason: InterruptionReason, source: InterruptionSource)
    /// The last hold, `source`'s, let go: context restored, the session active. `resumed` says
    /// what resumed.
    case ended(shouldResume: Bool, resumed: ResumeSummary, source: InterruptionSource)
    /// The game reactivated the session itself (``SoundEngine/activate()``).
    case activated(resumed: ResumeSummary)
    /// An end or activate could not make the context current again: the session stays
    /// interrupted and output stays stopped; a later end or activate tries again.
    case reactivationFailed(message: String)
    /// Another source began holding the session while it was already interrupted: nothing
    /// audible changes, and the session stays interrupted until this source lets go too.
    case holdAdded(reason: InterruptionReason, source: InterruptionSource)
    /// A source let go while others (or the lost device) still hold the session: nothing
    /// audible changes.
    case holdReleased(source: InterruptionSource)
    /// ``SoundEngine/activate()`` left `source`'s hold in place: that source still observes its
    /// condition (a phone stream still plays), and only its own end releases it.
    case holdKept(source: InterruptionSource)
    /// A begin from a source that already holds the session; it changed nothing.
    case absorbed(reason: InterruptionReason)
    /// An end from a source that holds nothing (or an activate while active); it changed nothing.
    case ignored
    /// A command given while interrupted was recorded, to apply when the session is active again.
    case commandDeferred(command: String)
    /// A command given while interrupted was dropped (a one-shot, a system sound).
    case commandDropped(command: String)
    /// The soundtrack stopped for the interruption at this frame of its track.
    case musicSuspended(positionInFrames: Int)
    /// The soundtrack resumed at this frame of its track.
    case musicResumed(positionInFrames: Int)
    /// A voice resumed at this frame of its sound.
    case voiceResumed(handle: VoiceHandle, positionInFrames: Int)
    /// The soundtrack's file is damaged at `startFrame` (an Ogg page lost, say): the decoder
    /// stepped over it and `skippedFrames` frames play as silence, so the track goes on, and
    /// every later frame stays at its exact position. Logged as a warning too.
    case musicDamageSkipped(path: String, startFrame: Int, skippedFrames: Int)
    /// A streamed track ran dry at `positionInFrames`: its file's reads fell behind (a stalled
    /// disk, a slow network mount) and nothing decoded was ready. It is silent, and its position
    /// stays at that frame, until ``musicRecovered(path:positionInFrames:)``. Never raised
    /// offline, where a render waits for the decoding instead. Logged as a warning too.
    case musicUnderrun(path: String, positionInFrames: Int)
    /// A track that ran dry plays on from `positionInFrames`: the frame after the last one
    /// heard, so no frame is skipped or played twice.
    case musicRecovered(path: String, positionInFrames: Int)
    /// Playback moved to the audio server's new default sink (`from` and `to` are the server's
    /// sink names), with every voice, stream and position kept
    /// (``SoundEngine/Configuration/AudioServer/followsDefaultSink``); or, after a named device
    /// disappeared, to the system default (`from` is the named device, `to` the device now
    /// played to: ``NamedDeviceLoss/followSystemDefault``).
    case routeChanged(from: String, to: String)
    /// The output device or audio server is gone; the engine keeps trying to reopen it.
    case servicesLost
    /// A new device is open and every audio object was rebuilt.
    case servicesReset
    /// A snapshot the engine writes on its own (``SoundEngine/Configuration/statePath``: at an
    /// interruption, a device loss, shutdown) could not be written: `error` is `.writeFailed`
    /// naming `path` and the cause (a full or read-only file system, say). Nothing else changes:
    /// the audio plays on, the file at `path` keeps the previous snapshot whole, and the next
    /// snapshot tries again. Raised on the engine's snapshot-writer thread, before a call that
    /// waits for that snapshot (``SoundEngine/beginInterruption(reason:source:)``,
    /// ``SoundEngine/shutdown()``) returns. Logged as an error too.
    case snapshotWriteFailed(path: String, error: InterludeError)
    /// The device's output runs: a sound played from now on is heard on time. Raised when a
    /// device opened at creation, by a rebuild or by a switch starts, `afterSeconds` after it
    /// opened. A device that starts within ``SoundEngine/Configuration/outputStartTimeoutSeconds``
    /// raises it before the call that opened it returns.
    case outputStarted(afterSeconds: Double)
    /// A loaded sound cannot come back on a new device (after a device loss or a switch): its
    /// file changed or vanished since it was loaded, and the engine keeps no copy of a file
    /// sound's samples (it decodes the file again). Its voices ended, silent; playing it throws
    /// `.fileNotFound`. Load it again to play the file as it is now. `reason` names the file.
    case soundLost(name: String, reason: String)
    /// What the sound-design layer did: a cue play's draws, a dropped play, a snapshot stop
    /// that changed nothing.
    case design(DesignEvent)
}

/// What resumed when a session became active again.
public struct ResumeSummary: Sendable, Equatable {
    /// The soundtrack resumed (or started, when it was asked for during the interruption).
    public var music: Bool
    /// How many voices resumed or started.
    public var voiceCount: Int

    /// A summary of what resumed.
    public init(music: Bool, voiceCount: Int) {
        self.music = music
        self.voiceCount = voiceCount
    }
}
