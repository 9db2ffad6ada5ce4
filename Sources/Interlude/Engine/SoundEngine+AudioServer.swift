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
}
