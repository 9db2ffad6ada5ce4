import Foundation
@testable import Interlude

/// One logind test's rig: a private system bus, the stand-in logind on it (LogindStub), and an
/// offline engine (``SessionRig``) playing the sweep with the sleep and/or session sources
/// watching that bus. A test ends it with `defer { logind.shutdown() }`, which also keeps the bus
/// and logind alive to the end of the test.
final class LogindRig {
    let bus: PrivateSystemBus
    let session: SessionRig
    /// The stand-in logind now on the bus, if one is.
    private var currentLogind: LogindStubProcess?

    /// Starts the bus and, with `startsLogind`, the stand-in logind; makes the engine, plays the
    /// sweep, and waits until the sources watch the bus.
    init(sleep: Bool, session watchesSession: Bool, statePath: String? = nil, startsLogind: Bool = true) throws {
        bus = try PrivateSystemBus()
        try bus.start()
        currentLogind = startsLogind ? try LogindStubProcess(on: bus) : nil
        let address = bus.address
        session = try SessionRig(statePath: statePath) {
            $0.logind = .init(watchesSleep: sleep, watchesSessionSwitch: watchesSession, systemBusAddress: address)
        }
        try session.engine.playMusic(path: SessionAssets.sweep)
        guard EngineSuites.LogindSourceTests.eventually({ session.engine.logindStatus == .watching }) else {
            session.engine.shutdown()
            throw TestFailure("the logind sources do not watch the bus: \(String(describing: session.engine.logindStatus))")
        }
    }

    /// Shuts the engine down.
    func shutdown() {
        session.engine.shutdown()
    }

    /// The stand-in logind on the bus; fails when none is.
    func stub() throws -> LogindStubProcess {
        guard let currentLogind else { throw TestFailure("no stand-in logind on the bus") }
        return currentLogind
    }

    /// Starts a stand-in logind on the bus (`preparingForSleep`: the machine is going to sleep).
    @discardableResult
    func startLogind(preparingForSleep: Bool = false) throws -> LogindStubProcess {
        let logind = try LogindStubProcess(on: bus, preparingForSleep: preparingForSleep)
        currentLogind = logind
        return logind
    }

    /// The bus dies, logind with it.
    func killBus() {
        bus.stop(SIGKILL)
        currentLogind?.stop()
        currentLogind = nil
    }

    /// The bus is back, with a stand-in logind on it.
    @discardableResult
    func restartBus(preparingForSleep: Bool = false) throws -> LogindStubProcess {
        try bus.start()
        return try startLogind(preparingForSleep: preparingForSleep)
    }
}
