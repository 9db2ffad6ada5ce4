/// The engine lock: the ``EngineCore`` behind its mutex, and the sinks its events reach once the
/// lock is released. The facade and the helpers that work for it across several lock sections
/// (``SoundLoader``, ``OfflineRenderer``) reach the core only through it. Every call that may
/// change the core (``callCore(_:_:)``, ``withCore(_:_:)``, ``withLiveCore(_:)``) is bracketed
/// by ``EngineCore/beginCall()`` and ``EngineCore/endCall()``, so a parked driver wakes for it.
final class EngineLock: Sendable {
    private let core: AnnotatedMutex<EngineCore>
    private let sinks: EventSinks

    init(_ core: EngineCore, sinks: EventSinks) {
        self.core = AnnotatedMutex(core)
        self.sinks = sinks
    }

    /// Runs `body` on the core under the lock, then delivers the events it raised.
    /// - Parameter call: names the call in the `.shutDown` error; built only then.
    func withCore<Result>(_ call: @autoclosure () -> String, _ body: (EngineCore) throws -> Result) throws -> Result {
        let (result, raised) = try callCore(call(), body)
        if let raised { sinks.deliver(raised) }
        return result
    }

    /// Runs `body` on the live core under the lock; returns its result and the events it raised
    /// (nil: none), for a caller that delivers them later (``deliver(_:)``).
    func callCore<Result>(_ call: @autoclosure () -> String, _ body: (EngineCore) throws -> Result) throws -> (Result, [EngineEvent]?) {
        try core.withLock { core throws -> (Result, [EngineEvent]?) in
            try core.checkAlive(call())
            // A call that throws drops the events it raised with it.
            defer { core.events.discard() }
            core.beginCall()
            defer { core.endCall() }
            return (try body(core), core.events.take())
        }
    }

    /// Like ``withCore(_:_:)`` for calls that cannot fail: after shutdown they do nothing.
    func withLiveCore(_ body: (EngineCore) -> Void) {
        let raised = core.withLock { core -> [EngineEvent]? in
            guard !core.hasShutDown else { return nil }
            core.beginCall()
            body(core)
            core.endCall()
            return core.events.take()
        }
        if let raised { sinks.deliver(raised) }
    }

    /// Like ``withLiveCore(_:)``, but returns what `body` returned and the events it raised (nil:
    /// none), for a caller that delivers them later (``deliver(_:)``). nil after shutdown: `body`
    /// does not run. A `body` that throws drops the events it raised with it.
    func callLiveCore<Result, E: Error>(_ body: (EngineCore) throws(E) -> Result) throws(E) -> (Result, [EngineEvent]?)? {
        try core.withLock { core throws(E) -> (Result, [EngineEvent]?)? in
            guard !core.hasShutDown else { return nil }
            defer { core.events.discard() }
            core.beginCall()
            defer { core.endCall() }
            return (try body(core), core.events.take())
        }
    }

    /// Hands the core its driver thread, which a call that gives a parked driver work wakes.
    func attach(driver: DriverThread) {
        core.withLock { $0.attach(driver: driver) }
    }

    /// Shuts the core down (idempotent); the events it raises are not delivered.
    func shutDown() {
        core.withLock { $0.shutDown() }
    }

    /// Throws `.shutDown` naming `call` after shutdown.
    func ensureAlive(_ call: @autoclosure () -> String) throws {
        try core.withLock { try $0.checkAlive(call()) }
    }

    /// Reads from the core under the lock (raising no events).
    func readCore<Result>(_ body: (EngineCore) -> Result) -> Result {
        core.withLock { body($0) }
    }

    /// Delivers events raised under the lock, with the lock released.
    func deliver(_ raised: [EngineEvent]) {
        sinks.deliver(raised)
    }
}
