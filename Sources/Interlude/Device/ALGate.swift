import Logging

/// When the rooms may call OpenAL: only with a device open and the session active, inside the
/// process-wide context lock with the engine's context current. An AL error from the engine's
/// own calls is a bug: it is logged and counted, and never crashes the game.
final class ALGate {
    private let host: DeviceHost
    private let session: AudioSession
    private let logger: Logger
    /// True while ``run(_:_:)`` runs its body: a nested call (a one-shot ending inside the
    /// update) runs its body directly, inside the lock already held.
    private var isInside = false
    private var errorCount = 0

    init(host: DeviceHost, session: AudioSession, logger: Logger) {
        self.host = host
        self.session = session
        self.logger = logger
    }

    /// AL calls may be made: a device is open and the session is active.
    var isOpen: Bool { host.isOpen && session.isActive }

    /// Nothing holds the session: a command acts now. While it is interrupted, the rooms track
    /// their commands and apply them at its end.
    var isSessionActive: Bool { session.isActive }

    /// A device is open, whether or not the session lets AL be called (a lost device has none).
    var hasDevice: Bool { host.isOpen }

    /// Sources may be started: the mixer is not held (``DeviceHost/isMixerStalled``). While it
    /// is, a play leaves its source where it stands, and the hold's end starts it: a source
    /// played and paused again would sound for as long as the thread was preempted in between,
    /// and a server catching up mixes at about 200 times real time.
    var startsSources: Bool { !host.isMixerStalled }

    /// The open device, for the renderers' work inside ``run(_:_:)`` (they make and delete its
    /// objects), so that no room above them has to carry it. Outside the gate there is none: a
    /// call there throws rather than touch a context that may not be current.
    func device() throws -> ALDevice {
        guard isInside, let device = host.openDevice else { throw InterludeError(.openAL, "AL work outside ALGate.run") }
        return device
    }

    /// Runs `body`, inside ``run(_:_:)``, with the context's updates deferred
    /// (``ALContext/deferringUpdates(_:)``): every property it sets reaches the mixer at once.
    func deferringUpdates(_ body: () throws -> Void) throws {
        try device().context.deferringUpdates(body)
    }

    /// AL errors counted so far.
    var internalErrorCount: Int { errorCount }

    /// Runs AL work when the gate is open; otherwise does nothing. `call` names the work in the
    /// log and is only built when something fails.
    func run(_ call: @autoclosure () -> String, _ body: (ALDevice) throws -> Void) {
        do {
            try runThrowing(body)
        } catch {
            count(error, in: call())
        }
    }

    /// Runs AL work when the gate is open, as ``run(_:_:)`` does, but hands an error to the
    /// caller: for work whose failure the game is told about (a seek the decoder refuses).
    func runThrowing(_ body: (ALDevice) throws -> Void) throws {
        guard isOpen else { return }
        let isNested = isInside
        isInside = true
        defer { isInside = isNested }
        if isNested {
            _ = try host.withContextAlreadyCurrent(body)
        } else {
            _ = try host.withContext(body)
        }
    }

    /// Runs one part of a larger AL block on its own: an error in it is counted and the block
    /// goes on with its other parts.
    func attempt(_ call: @autoclosure () -> String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            count(error, in: call())
        }
    }

    /// Logs and counts an AL error from the engine's own call.
    func count(_ error: any Error, in call: String) {
        errorCount += 1
        logger.error("\(call): \(error)")
    }
}
