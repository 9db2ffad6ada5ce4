import CDesktopLibraries
import Dispatch
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The engine's own connection to the audio server (PulseAudio, or PipeWire through
/// pipewire-pulse), on libpulse's threaded main loop: its own thread, never the engine's lock.
///
/// It subscribes to the server's sink inputs and keeps a table of them (role, corked, muted,
/// ours or not), follows the default sink, and sees the server go away the moment the socket
/// closes. A stream is ours when it, or else its client, carries this process's id
/// (`application.process.id`): PulseAudio copies the client's properties onto each stream, but
/// pipewire-pulse shows a stream made through PipeWire's own protocol (OpenAL Soft 1.22 and
/// later's native backend) as a sink input without them, and only its client has the id; so the
/// connection also subscribes to the server's clients and keeps each one's process id.
///
/// A connection that fails, or a server that is not there, is tried again on the main loop's
/// thread, 100 ms after the failure, doubling to ``longestRetrySeconds`` once a server has been
/// reached, or to ``longestRetrySecondsNeverReached`` while none has (a machine with no audio
/// server, where each try costs about half a millisecond of CPU for nothing). For
/// ``promptRetrySeconds`` after a server went away, though, every try is ``firstRetrySeconds``
/// after the last: a restarted server (its user's restart, or systemd's after a crash) answers
/// within a fraction of a second (pipewire-pulse about 70 ms after its start, measured), and
/// the game's output comes back only once this connection sees it, so it is seen within 0.1 s
/// rather than up to half a second later. It never spawns a server.
///
/// What it sees goes to `handler` as ``Event``s, in order, on a serial dispatch queue: never on
/// the main loop's thread, so the handler may call the engine (which takes its lock), or ask the
/// connection to move our streams, while the main loop keeps running.
///
/// `@unchecked Sendable`: the libpulse objects and the table are touched only on the main
/// loop's thread (every callback runs there) or with the main loop's lock held
/// (``start()`` and ``stop()``).
final class PulseConnection: @unchecked Sendable {
    /// What the connection reports.
    enum Event: Sendable {
        /// Connected to the server (after a start, or again after a loss).
        case connected
        /// The server's sink inputs, by index, after any of them appeared, changed or went.
        case sinkInputs([UInt32: PulseSinkInput])
        /// The server's default sink, by name: read when connected and after each server change.
        case defaultSink(String)
        /// The connection ended or could not be made (the log says why). `wasConnected`: it had
        /// been ready, so the server went away (died, or dropped us) rather than never answering.
        case disconnected(wasConnected: Bool)
    }

    /// The first wait before connecting again; it doubles after each failure.
    static let firstRetrySeconds = 0.1
    /// The longest wait between two connection attempts after a server was reached: how late a
    /// returning server may be seen at worst.
    static let longestRetrySeconds = 0.5
    /// The longest wait while no server has been reached since ``start()``: how late a server
    /// that starts after the game may be seen at worst.
    static let longestRetrySecondsNeverReached = 4.0
    /// How long after a server went away the connection tries again every
    /// ``firstRetrySeconds``, before backing off: about 100 tries, 50 ms of CPU.
    static let promptRetrySeconds = 10.0

    private let logger: Logger
    private let queue: DispatchQueue
    private let handler: @Sendable (Event, PulseConnection) -> Void
    /// libpulse, loaded when the first connection is made.
    private let pa: ILPulseFunctions
    private let mainloop: OpaquePointer
    /// The current context; replaced after each failure (main loop thread or lock only).
    private var context: OpaquePointer?
    /// The pending reconnection timer.
    private var retryTimer: OpaquePointer?
    private var retrySeconds = PulseConnection.firstRetrySeconds
    /// The current context reached READY.
    private var isReady = false
    /// A context of this connection has reached READY at least once.
    private var wasEverReady = false
    /// When the server last went away from a ready connection (nil while connected, and
    /// before any loss): the prompt retries run until ``promptRetrySeconds`` after it.
    private var lostInstant: BootInstant?
    /// The last failure was logged: a server that is not there is reported once, not on every try.
    private var failureLogged = false
    /// Set under the main loop's lock by ``stop()``: no new context or timer after it.
    private var isStopped = false
    /// ``stop()`` ran (or is running): the main loop is freed, or about to be.
    private let hasStopped = Atomic<Bool>(false)
    /// True once ``stop()`` has freed the main loop. Held while a caller other than ``start()``
    /// takes the main loop's lock (``moveOwnStreams(to:completion:)``), so it never locks a
    /// freed one.
    private let isFreed = AnnotatedMutex(false)
    private var sinkInputs: [UInt32: PulseSinkInput] = [:]
    /// The client of each sink input that carries no process id of its own (a native PipeWire
    /// stream on pipewire-pulse): whether it is ours is its client's process id.
    private var clientOfSinkInput: [UInt32: UInt32] = [:]
    /// Each client's `application.process.id`, by client index (nil value: the client has none).
    private var clientProcessIDs: [UInt32: Int32?] = [:]
    /// Moves asked of the server and not yet answered, oldest first.
    private var pendingMoves: [StreamMove] = []

    /// Loads libpulse and makes the main loop; ``start()`` connects. Throws
    /// `.deviceUnavailable` when libpulse cannot be loaded or the main loop made.
    init(logger: Logger, handler: @escaping @Sendable (Event, PulseConnection) -> Void) throws {
        let pa = try DesktopLibraries.pulse()
        self.pa = pa
        guard let mainloop = pa.threaded_mainloop_new() else {
            throw InterludeError(.deviceUnavailable, "PulseConnection: pa_threaded_mainloop_new failed")
        }
        self.mainloop = mainloop
        self.logger = logger
        self.handler = handler
        self.queue = DispatchQueue(label: "Interlude audio server")
    }

    deinit {
        stop()
    }

    /// Starts the main loop's thread and the first connection attempt.
    func start() throws {
        pa.threaded_mainloop_set_name(mainloop, "IL pulse")
        guard pa.threaded_mainloop_start(mainloop) >= 0 else {
            throw InterludeError(.deviceUnavailable, "PulseConnection: pa_threaded_mainloop_start failed")
        }
        pa.threaded_mainloop_lock(mainloop)
        connect()
        pa.threaded_mainloop_unlock(mainloop)
    }

    /// Disconnects, stops the main loop's thread and waits for it. Events already queued may
    /// still reach the handler. Idempotent. Not from the main loop's own thread (no callback
    /// calls it: the handler runs on its own queue).
    func stop() {
        guard !hasStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard pa.threaded_mainloop_in_thread(mainloop) == 0 else {
            logger.error("PulseConnection.stop() on the main loop's own thread: left running")
            return
        }
        isFreed.withLock { isFreed in
            pa.threaded_mainloop_lock(mainloop)
            isStopped = true
            cancelRetry()
            dropContext()
            pa.threaded_mainloop_unlock(mainloop)
            pa.threaded_mainloop_stop(mainloop)
            pa.threaded_mainloop_free(mainloop)
            isFreed = true
        }
    }

    /// Asks the server to move this process's own streams (OpenAL Soft's) to the sink `name`.
    /// `completion` gets, on the connection's queue, whether every one of them is on that sink
    /// now: true also when the server had moved them already; false with no stream of ours, no
    /// connection, or a server that refuses (OpenAL Soft makes its stream with
    /// PA_STREAM_DONT_MOVE unless `allow-moves` is configured). Not from the main loop's thread.
    func moveOwnStreams(to name: String, completion: @escaping @Sendable (Bool) -> Void) {
        let queue = queue
        let started = isFreed.withLock { isFreed -> Bool in
            guard !isFreed else { return false }
            pa.threaded_mainloop_lock(mainloop)
            defer { pa.threaded_mainloop_unlock(mainloop) }
            let own = sinkInputs.filter(\.value.isOwn).map(\.key)
            guard !isStopped, isReady, let context, !own.isEmpty else {
                logger.info("no stream of ours to move to \(name) (connected: \(isReady), streams listed: \(sinkInputs.count))")
                return false
            }
            logger.debug("moving \(own.count) streams of ours to \(name)")
            // The server answers in the order it was asked: each answer counts for the oldest move.
            pendingMoves.append(StreamMove(count: own.count, queue: queue, completion: completion))
            for index in own {
                let operation = pa.context_move_sink_input_by_name(context, index, name, { context, success, userdata in
                    PulseConnection.connection(userdata)?.moveAnswered(succeeded: success != 0, context: context)
                }, userdata)
                if let operation {
                    pa.operation_unref(operation)
                } else {
                    moveAnswered(succeeded: false, context: context)
                }
            }
            return true
        }
        if !started { queue.async { completion(false) } }
    }

    /// One stream's move was answered (or could not be asked); a refusal is logged with the
    /// server's reason.
    private func moveAnswered(succeeded: Bool, context: OpaquePointer?) {
        if !succeeded {
            let reason = pa.strerror(pa.context_errno(context)).map { String(cString: $0) } ?? "unknown error"
            logger.info("the server did not move our stream: \(reason)")
        }
        guard let move = pendingMoves.first else { return }
        if move.finishOne(succeeded: succeeded) { pendingMoves.removeFirst() }
    }

    // MARK: On the main loop's thread

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func connection(_ userdata: UnsafeMutableRawPointer?) -> PulseConnection? {
        userdata.map { Unmanaged<PulseConnection>.fromOpaque($0).takeUnretainedValue() }
    }

    private func deliver(_ event: Event) {
        let handler = handler
        queue.async { [self] in handler(event, self) }
    }

    /// A new context, connecting: without autospawn, to the server libpulse's own rules name
    /// (PULSE_SERVER, client.conf, the user's runtime folder).
    private func connect() {
        guard !isStopped else { return }
        let api = pa.threaded_mainloop_get_api(mainloop)
        guard let context = pa.context_new(api, "Interlude session") else {
            logger.error("PulseConnection: pa_context_new failed")
            scheduleRetry()
            return
        }
        self.context = context
        isReady = false
        pa.context_set_state_callback(context, { _, userdata in
            PulseConnection.connection(userdata)?.contextStateChanged()
        }, userdata)
        if pa.context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            failed(message: pa.strerror(pa.context_errno(context)).map { String(cString: $0) } ?? "unknown error")
        }
    }

    private func contextStateChanged() {
        guard let context else { return }
        switch pa.context_get_state(context) {
        case PA_CONTEXT_READY:
            isReady = true
            wasEverReady = true
            lostInstant = nil
            retrySeconds = Self.firstRetrySeconds
            failureLogged = false
            let server = pa.context_get_server(context).map { String(cString: $0) } ?? "?"
            logger.debug("audio server connection ready (\(server))")
            deliver(.connected)
            pa.context_set_subscribe_callback(context, { _, type, index, userdata in
                PulseConnection.connection(userdata)?.serverEvent(type, index: index)
            }, userdata)
            let mask = pa_subscription_mask_t(PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue | PA_SUBSCRIPTION_MASK_SERVER.rawValue
                                              | PA_SUBSCRIPTION_MASK_CLIENT.rawValue)
            let subscribed = pa.context_subscribe(context, mask, nil, nil)
            if let subscribed { pa.operation_unref(subscribed) }
            readServerInfo()
            // Before the sink inputs: the server answers in order, so every client is known when
            // the streams that need it are read.
            let clients = pa.context_get_client_info_list(context, { _, info, eol, userdata in
                PulseConnection.connection(userdata)?.clientInfo(info, eol: eol)
            }, userdata)
            if let clients { pa.operation_unref(clients) }
            let listed = pa.context_get_sink_input_info_list(context, { _, info, eol, userdata in
                PulseConnection.connection(userdata)?.sinkInputInfo(info, eol: eol)
            }, userdata)
            if let listed { pa.operation_unref(listed) }
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            failed(message: pa.strerror(pa.context_errno(context)).map { String(cString: $0) } ?? "unknown error")
        default:
            break
        }
    }

    /// The context failed (or never connected): report it, forget the table, try again later.
    private func failed(message: String) {
        let wasConnected = isReady
        isReady = false
        if wasConnected {
            lostInstant = .now
            logger.warning("audio server connection lost: \(message)")
        } else if !failureLogged {
            logger.debug("no audio server connection: \(message); trying again every \(longestRetrySeconds) s at most")
        }
        failureLogged = true
        sinkInputs = [:]
        clientOfSinkInput = [:]
        clientProcessIDs = [:]
        deliver(.disconnected(wasConnected: wasConnected))
        deliver(.sinkInputs([:]))
        scheduleRetry()
    }

    private func serverEvent(_ type: pa_subscription_event_type_t, index: UInt32) {
        let facility = type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        if facility == PA_SUBSCRIPTION_EVENT_SERVER.rawValue {
            readServerInfo()
            return
        }
        guard let context else { return }
        let isRemoval = type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue
        if facility == PA_SUBSCRIPTION_EVENT_CLIENT.rawValue {
            if isRemoval {
                clientProcessIDs.removeValue(forKey: index)
                return
            }
            let operation = pa.context_get_client_info(context, index, { _, info, eol, userdata in
                PulseConnection.connection(userdata)?.clientInfo(info, eol: eol)
            }, userdata)
            if let operation { pa.operation_unref(operation) }
            return
        }
        guard facility == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue else { return }
        if isRemoval {
            clientOfSinkInput.removeValue(forKey: index)
            if sinkInputs.removeValue(forKey: index) != nil { deliver(.sinkInputs(sinkInputs)) }
            return
        }
        let operation = pa.context_get_sink_input_info(context, index, { _, info, eol, userdata in
            PulseConnection.connection(userdata)?.sinkInputInfo(info, eol: eol)
        }, userdata)
        if let operation { pa.operation_unref(operation) }
    }

    /// Asks for the server's info, for its default sink.
    private func readServerInfo() {
        guard let context else { return }
        let operation = pa.context_get_server_info(context, { _, info, userdata in
            guard let name = info?.pointee.default_sink_name else { return }
            PulseConnection.connection(userdata)?.deliver(.defaultSink(String(cString: name)))
        }, userdata)
        if let operation { pa.operation_unref(operation) }
    }

    /// One sink input read (eol 0), or the end of a reply (eol 1, or -1 when the stream had
    /// already gone): the table is reported once per reply.
    private func sinkInputInfo(_ info: UnsafePointer<pa_sink_input_info>?, eol: Int32) {
        guard eol == 0 else {
            deliver(.sinkInputs(sinkInputs))
            return
        }
        guard let info = info?.pointee else { return }
        let role = pa.proplist_gets(info.proplist, "media.role").map { String(cString: $0) }
        var processID = self.processID(in: info.proplist)
        if processID == nil && info.client != UInt32.max {  // PA_INVALID_INDEX, which Swift cannot import
            // A native PipeWire stream: its client says whose it is.
            clientOfSinkInput[info.index] = info.client
            processID = clientProcessIDs[info.client] ?? nil
        } else {
            clientOfSinkInput.removeValue(forKey: info.index)
        }
        sinkInputs[info.index] = PulseSinkInput(role: role, isCorked: info.corked != 0, isMuted: info.mute != 0,
                                                isOwn: processID == getpid())
    }

    /// One client read (eol 0; the end of a reply is ignored): its process id is kept, and a
    /// sink input that is known by it and changes hands (a client whose stream was read before
    /// it) is reported at once.
    private func clientInfo(_ info: UnsafePointer<pa_client_info>?, eol: Int32) {
        guard eol == 0, let info = info?.pointee else { return }
        let processID = self.processID(in: info.proplist)
        clientProcessIDs[info.index] = .some(processID)
        var changed = false
        for (input, client) in clientOfSinkInput where client == info.index {
            let isOwn = processID == getpid()
            if sinkInputs[input]?.isOwn != isOwn {
                sinkInputs[input]?.isOwn = isOwn
                changed = true
            }
        }
        if changed { deliver(.sinkInputs(sinkInputs)) }
    }

    /// A property list's `application.process.id`.
    private func processID(in proplist: OpaquePointer?) -> Int32? {
        pa.proplist_gets(proplist, "application.process.id").flatMap { Int32(String(cString: $0)) }
    }

    // MARK: Retrying

    private func scheduleRetry() {
        guard !isStopped, retryTimer == nil, let api = pa.threaded_mainloop_get_api(mainloop) else { return }
        var due = timeval()
        _ = pa.gettimeofday(&due)
        if let lostInstant, BootInstant.now.seconds(since: lostInstant) < Self.promptRetrySeconds {
            _ = pa.timeval_add(&due, pa_usec_t(Self.firstRetrySeconds * 1_000_000))
        } else {
            _ = pa.timeval_add(&due, pa_usec_t(retrySeconds * 1_000_000))
            retrySeconds = min(longestRetrySeconds, retrySeconds * 2)
        }
        retryTimer = api.pointee.time_new(api, &due, { _, _, _, userdata in
            PulseConnection.connection(userdata)?.retryDue()
        }, userdata)
    }

    /// The cap on the wait between tries: short once a server was reached, long before.
    private var longestRetrySeconds: Double {
        wasEverReady ? Self.longestRetrySeconds : Self.longestRetrySecondsNeverReached
    }

    private func retryDue() {
        cancelRetry()
        dropContext()
        connect()
    }

    private func cancelRetry() {
        guard let retryTimer, let api = pa.threaded_mainloop_get_api(mainloop) else { return }
        api.pointee.time_free(retryTimer)
        self.retryTimer = nil
    }

    private func dropContext() {
        // A context that goes answers nothing more: its moves did not happen.
        for move in pendingMoves { move.fail() }
        pendingMoves = []
        guard let context else { return }
        pa.context_set_state_callback(context, nil, nil)
        pa.context_set_subscribe_callback(context, nil, nil)
        pa.context_disconnect(context)
        pa.context_unref(context)
        self.context = nil
        isReady = false
    }
}

/// One ``PulseConnection/moveOwnStreams(to:completion:)``: counts the server's answers and
/// reports once, on the connection's queue, when the last has come. Touched only on the main
/// loop's thread (or with its lock held).
private final class StreamMove {
    private var remaining: Int
    private var allSucceeded = true
    private let queue: DispatchQueue
    private let completion: @Sendable (Bool) -> Void

    init(count: Int, queue: DispatchQueue, completion: @escaping @Sendable (Bool) -> Void) {
        remaining = count
        self.queue = queue
        self.completion = completion
    }

    /// One stream's answer; returns true when it was the last, and the move is reported.
    func finishOne(succeeded: Bool) -> Bool {
        allSucceeded = allSucceeded && succeeded
        remaining -= 1
        guard remaining == 0 else { return false }
        report(allSucceeded)
        return true
    }

    /// The connection went before every answer came: reported as not moved.
    func fail() {
        guard remaining > 0 else { return }
        remaining = 0
        report(false)
    }

    private func report(_ result: Bool) {
        let completion = completion
        queue.async { completion(result) }
    }
}
