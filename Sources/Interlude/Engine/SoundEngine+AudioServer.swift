import Logging

extension SoundEngine {
    /// The audio server went away with the engine's stream on it (seen by the engine's own
    /// libpulse connection, ``AudioServerWatch``): the device is lost now, not at the next
    /// ALC_CONNECTED poll.
    func audioServerLost() {
        withLiveCore { $0.router.loseDeviceWithServer() }
    }

    /// The audio server went away, and the connection did not see the engine's stream on it: a
    /// mixer that stands still from then on is the device's loss
    /// (``OutputRouter/audioServerWentAway()``).
    func audioServerWentAway() {
        withLiveCore { $0.router.audioServerWentAway() }
    }

    /// The audio server is there (again): a device lost with it is reopened now, not when the
    /// reopen backoff is due.
    func audioServerReturned() {
        var attempt: DevicePreparation?
        withLiveCore { attempt = $0.router.reopenNowIfLost() }
        if let attempt { outputChanges.reopenAfterLoss(attempt) }
    }

    /// The engine plays to an open `.systemDefault` device: a new default sink concerns it.
    var isOnSystemDefault: Bool {
        readCore { $0.router.isOnSystemDefault }
    }

    /// The server's default sink moved from `old` to `new`, and `streamMoved` says whether the
    /// server moved our stream there: an engine on `.systemDefault` follows, with everything kept
    /// (``OutputChanges/followDefaultSink(from:to:streamMoved:)``).
    func followDefaultSink(from old: String, to new: String, streamMoved: Bool) {
        outputChanges.followDefaultSink(from: old, to: new, streamMoved: streamMoved)
    }

    /// A phone stream began (`isOn`) or ended under ``Configuration/AudioServer/CallResponse/duck(group:byDecibels:attackSeconds:releaseSeconds:)``:
    /// the group ramps down, or back, on the update; the session stays active.
    func duckForCall(_ isOn: Bool, group: GroupID, byDecibels decibels: Float, attackSeconds: Double, releaseSeconds: Double) {
        withLiveCore { core in
            core.groups.duckForCall(isOn, group: group, duckedGain: Decibels.gain(of: -decibels),
                                    attackSeconds: attackSeconds, releaseSeconds: releaseSeconds)
        }
    }

    /// Says, once the device is open, what the loaded OpenAL Soft offers for a new default
    /// output, and listens to its system events where it has them. OpenAL Soft 1.24 and later
    /// (ALC_SOFT_system_events) report a new default device themselves; 1.19 does not, and
    /// there only the engine's libpulse connection (``AudioServerWatch``) sees it. On either, a
    /// default-device engine's stream is moved to the new default by the server (OpenAL Soft's
    /// `allow-moves`), and ``AudioServerWatch`` raises ``DeviceEvent/routeChanged(from:to:)``;
    /// the event from OpenAL is logged. Returns the listener's token, nil without one.
    func watchOpenALSystemEvents(logger: Logger) -> Int? {
        guard !configuration.output.isOffline, configuration.output != .null else { return nil }
        let device = readCore { core in core.device.openDevice.map { ($0.release.map { "\($0)" } ?? "unknown", $0.canReopen) } }
        guard let (release, canReopen) = device else { return nil }
        let token = ALSystemEvents.listen { event in
            guard event.isPlayback else { return }
            switch event.kind {
            case .defaultDeviceChanged: logger.info("OpenAL reports a new default output: \(event.message)")
            case .deviceRemoved: logger.info("OpenAL reports an output removed: \(event.message)")
            case .deviceAdded: logger.debug("OpenAL reports an output added: \(event.message)")
            }
        }
        logger.debug("OpenAL Soft \(release): ALC_SOFT_system_events \(token != nil ? "yes" : "no"), ALC_SOFT_reopen_device \(canReopen ? "yes" : "no")")
        return token
    }
}
