import Dispatch
import Logging
import Synchronization

/// Whether this machine offers the desktop's interruption sources, as `interlude info` reports
/// them: an audio server for calls, the server's own loss and the default sink; a system bus with
/// logind for sleep and the session switch. A source that is not there is a plain fact, never an
/// error.
package enum DesktopSourceProbe {
    /// One source's availability, and what was found.
    package enum Availability: Sendable, Equatable {
        case available(String)
        case unavailable(String)
    }

    /// Connects to the audio server as the engine does (libpulse, never spawning a server) and
    /// waits up to `timeoutSeconds` for it to answer. A failed attempt is tried again meanwhile,
    /// as the engine would, so a server still starting up is found.
    package static func audioServer(timeoutSeconds: Double = 1) -> Availability {
        guard AudioServerPresence.mayAnswer() else {
            return .unavailable("no audio server (PULSE_SERVER is not set, and no server socket or client.conf names one)")
        }
        let connected = DispatchSemaphore(value: 0)
        let failedOnce = Atomic<Bool>(false)
        var logger = Logger(label: "Interlude probe")
        logger.logLevel = .critical
        let answered: Bool
        do {
            let connection = try PulseConnection(logger: logger) { event, _ in
                switch event {
                case .connected: connected.signal()
                case .disconnected: failedOnce.store(true, ordering: .relaxed)
                case .sinkInputs, .defaultSink: break
                }
            }
            try connection.start()
            answered = connected.wait(timeout: .now() + timeoutSeconds) == .success
            connection.stop()
        } catch {
            return .unavailable("libpulse could not start: \(error)")
        }
        if answered { return .available("an audio server answers (PulseAudio, or PipeWire through pipewire-pulse)") }
        return failedOnce.load(ordering: .relaxed)
            ? .unavailable("no audio server answers (PULSE_SERVER, or the user's runtime socket)")
            : .unavailable("the audio server did not answer within \(timeoutSeconds) s")
    }

    /// The system bus and logind: sleep needs logind on the bus, the session switch also a login
    /// session for this process.
    package static func logind() -> (sleep: Availability, sessionSwitch: Availability) {
        let bus: LogindBus
        do {
            bus = try LogindBus(address: nil)
        } catch {
            let reason = Availability.unavailable("no system bus (\(error))")
            return (reason, reason)
        }
        do {
            let session = try bus.findSessionPath()
            return (.available("logind answers on the system bus"), .available("login session \(session)"))
        } catch {
            // GetSessionByPID fails both without logind and outside a login session.
            let reason = Availability.unavailable("logind does not place this process in a login session (\(error))")
            return (.unavailable("the system bus is there, but logind did not answer for this process (\(error))"), reason)
        }
    }
}
