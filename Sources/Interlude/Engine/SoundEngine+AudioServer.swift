extension SoundEngine {
    /// The audio server went away with the engine's stream on it (seen by the engine's own
    /// libpulse connection, ``AudioServerWatch``): the device is lost now, not at the next
    /// ALC_CONNECTED poll.
    func audioServerLost() {
        withLiveCore { $0.session.loseDeviceWithServer() }
    }

    /// The audio server is there (again): a device lost with it is reopened now, not when the
    /// reopen backoff is due.
    func audioServerReturned() {
        withLiveCore { $0.session.reopenNowIfLost() }
    }
}
