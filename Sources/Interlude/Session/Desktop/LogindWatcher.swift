import Dispatch
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// logind's sleep and session-switch sources for one engine: a thread of its own with a system
/// bus connection of its own, which it polls, and acts on through ``LogindResponder``. With no
/// system bus it logs that once, plainly, and tries again now and then (1 s, doubling to 30 s);
/// a bus that goes away mid-run is the same. Stopping wakes the thread at once and waits for it,
/// except on the thread itself.
final class LogindWatcher: Sendable {
    /// Where the watcher is, for ``SoundEngine`` and the tests.
    enum Status: Sendable, Equatable {
        /// Connecting (at start, and again after the bus went away).
        case connecting
        /// Subscribed: signals act on the engine from now on.
        case watching
        /// No system bus, or logind would not answer: why. Retried in the background.
        case unavailable(String)
    }

    private let stopRequested = Atomic<Bool>(false)
    private let currentStatus = AnnotatedMutex(Status.connecting)
    /// A pipe whose read end the thread polls beside the bus: a byte written wakes it to stop.
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let threadID = AnnotatedMutex<pthread_t?>(nil)

    private static let firstRetrySeconds = 1.0
    private static let longestRetrySeconds = 30.0

    /// Starts watching for `engine` what `settings` turns on; nil when nothing is on.
    static func start(for engine: any SessionSink, settings: SoundEngine.Configuration.LogindSources.Resolved,
                      logger: Logger) -> LogindWatcher? {
        guard settings.watchesSleep || settings.watchesSessionSwitch else { return nil }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            logger.error("logind sources off: pipe: \(String(cString: strerror(errno)))")
            return nil
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        do {
            return try LogindWatcher(engine: engine, settings: settings, logger: logger, wakeReader: ends[0], wakeWriter: ends[1])
        } catch {
            // The watcher was made, so its deinit closes the pipe.
            logger.error("logind sources off: \(error)")
            return nil
        }
    }

    private init(engine: any SessionSink, settings: SoundEngine.Configuration.LogindSources.Resolved, logger: Logger,
                 wakeReader: Int32, wakeWriter: Int32) throws {
        self.wakeReader = wakeReader
        self.wakeWriter = wakeWriter
        // The responder (and its weak engine) is made here and lives on the thread only.
        nonisolated(unsafe) let responder = LogindResponder(engine: engine, settings: settings, logger: logger)
        try NamedThread.start("IL logind") { [self] in
            threadID.withLock { $0 = pthread_self() }
            run(responder, address: settings.systemBusAddress, logger: logger)
            finished.signal()
        }
    }

    deinit {
        close(wakeReader)
        close(wakeWriter)
    }

    /// Where the watcher is now.
    var status: Status {
        currentStatus.withLock { $0 }
    }

    /// Stops the thread and waits for it; the bus connection and the inhibitor lock close with
    /// it. On the thread itself (the engine's last reference went while it responded) it only
    /// marks the stop: the loop ends when the response returns.
    func stop() {
        guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
        guard !isOnThread else { return }
        finished.wait()
    }

    // MARK: The thread

    private var isStopping: Bool { stopRequested.load(ordering: .acquiring) }

    private var isOnThread: Bool {
        threadID.withLock { id in id.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Connects, serves until the bus goes away, and connects again, until stopped.
    private func run(_ responder: LogindResponder, address: String?, logger: Logger) {
        var retrySeconds = Self.firstRetrySeconds
        var hasReportedUnavailable = false
        while !isStopping && responder.engineIsAlive {
            currentStatus.withLock { $0 = .connecting }
            do {
                let bus = try LogindBus(address: address)
                try responder.connected(to: bus)
                currentStatus.withLock { $0 = .watching }
                logger.debug("logind: watching sleep and session signals on the system bus")
                retrySeconds = Self.firstRetrySeconds
                hasReportedUnavailable = false
                serve(bus, responder)
                responder.disconnected()
                guard !isStopping else { return }
                logger.warning("logind: the system bus went away; sleep and session sources are off until it is back")
                hasReportedUnavailable = true
            } catch {
                responder.disconnected()
                currentStatus.withLock { $0 = .unavailable("\(error)") }
                if !hasReportedUnavailable {
                    logger.debug("logind: sleep and session sources are off (\(error)); will try again in the background")
                    hasReportedUnavailable = true
                } else {
                    logger.debug("logind: still unavailable (\(error))")
                }
            }
            waitForWake(descriptor: nil, events: 0, timeoutMilliseconds: Int32(retrySeconds * 1000))
            retrySeconds = min(Self.longestRetrySeconds, retrySeconds * 2)
        }
    }

    /// Dispatches the bus's signals until it goes away or the watcher stops.
    private func serve(_ bus: LogindBus, _ responder: LogindResponder) {
        while !isStopping && responder.engineIsAlive {
            do {
                for signal in try bus.drain() {
                    responder.respond(to: signal, on: bus)
                }
            } catch {
                currentStatus.withLock { $0 = .unavailable("\(error)") }
                return
            }
            let request = bus.pollRequest
            waitForWake(descriptor: request.descriptor, events: request.events, timeoutMilliseconds: request.timeoutMilliseconds)
        }
    }

    /// Sleeps until the bus has something, the timeout passes (nil: none), or a stop.
    private func waitForWake(descriptor: Int32?, events: Int16, timeoutMilliseconds: Int32?) {
        var descriptors = [pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)]
        if let descriptor, descriptor >= 0 {
            descriptors.append(pollfd(fd: descriptor, events: events, revents: 0))
        }
        let result = poll(&descriptors, nfds_t(descriptors.count), timeoutMilliseconds ?? -1)
        if result > 0 && descriptors[0].revents != 0 {
            var byte: UInt8 = 0
            while read(wakeReader, &byte, 1) > 0 {}
        }
    }
}
