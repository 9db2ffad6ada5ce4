/// What happened to the output device.
public enum DeviceEvent: Sendable, Equatable {
    /// The output device or audio server is gone; the engine keeps trying to reopen it. The
    /// session is interrupted (reason ``InterruptionReason/deviceLost``) until it is back.
    case lost
    /// A new device is open and every audio object was rebuilt on it.
    case rebuilt
    /// Playback moved to the audio server's new default sink (`from` and `to` are the server's
    /// sink names) with every voice, stream and position kept; or, after a named device
    /// disappeared, to the system default (``NamedDeviceLoss/followSystemDefault``).
    case routeChanged(from: String, to: String)
    /// The device's output runs: a sound played from now on is heard on time. Raised when a
    /// device opened at creation, by a rebuild or by a switch starts, `afterSeconds` after it
    /// opened.
    case outputStarted(afterSeconds: Double)
    /// A loaded sound cannot come back on a new device: its file changed or vanished since it
    /// was loaded, and the engine keeps no copy of a file sound's samples. Its voices finished
    /// (``VoiceEndReason/deviceLost``); playing it throws `.fileNotFound` until it is loaded
    /// again. `reason` names the file.
    case soundLost(name: String, reason: String)
}

extension DeviceEvent: CustomStringConvertible {
    /// The event in words, for example "route changed from Built-in Audio to HDMI".
    public var description: String {
        switch self {
        case .lost: "device lost"
        case .rebuilt: "device rebuilt"
        case .routeChanged(let from, let to): "route changed from \(from) to \(to)"
        case .outputStarted(let seconds): "output started after \(Int((seconds * 1000).rounded())) ms"
        case .soundLost(let name, let reason): "sound \(name) lost: \(reason)"
        }
    }
}
