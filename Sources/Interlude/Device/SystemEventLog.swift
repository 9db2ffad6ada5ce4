import Logging

/// OpenAL Soft's own reports of outputs, logged: a new default output, one added or removed
/// (ALC_SOFT_system_events, 1.24 and later). 1.19 has none, and on either release the engine
/// acts on what its libpulse connection (``AudioServerWatch``) sees: a default-device engine's
/// stream is moved to the new default by the server (OpenAL Soft's `allow-moves`), and the
/// watch raises ``DeviceEvent/routeChanged(from:to:)``. Logged with what the loaded release
/// offers for a new output (ALC_SOFT_reopen_device), once the device is open.
struct SystemEventLog: Sendable {
    private let token: Int

    /// Starts logging for an engine whose real device is open, with what that device says of its
    /// library (`release`, and whether it `canReopen`); nil where the library lacks the extension.
    static func start(release: ALRelease?, canReopen: Bool, logger: Logger) -> SystemEventLog? {
        let token = ALSystemEvents.listen { event in
            guard event.isPlayback else { return }
            switch event.kind {
            case .defaultDeviceChanged: logger.info("OpenAL reports a new default output: \(event.message)")
            case .deviceRemoved: logger.info("OpenAL reports an output removed: \(event.message)")
            case .deviceAdded: logger.debug("OpenAL reports an output added: \(event.message)")
            }
        }
        logger.debug("OpenAL Soft \(release.map { "\($0)" } ?? "unknown"): ALC_SOFT_system_events \(token != nil ? "yes" : "no"), ALC_SOFT_reopen_device \(canReopen ? "yes" : "no")")
        return token.map(SystemEventLog.init(token:))
    }

    private init(token: Int) {
        self.token = token
    }

    /// Stops logging (the library's callback stays installed; it may be running now).
    func stop() {
        ALSystemEvents.stopListening(token)
    }
}
