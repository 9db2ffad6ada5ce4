import Logging

/// One engine's audio-server sources: it takes the events of the engine's ``PulseConnection``
/// (on the connection's queue, one at a time), asks the ``PhoneStreamWatcher``, the
/// ``ServerLossWatcher`` and the ``DefaultSinkWatcher``, and calls the engine, which takes its
/// own lock. On a new default sink it first has the connection move our stream there, outside
/// the engine lock. Following the default sink here is what OpenAL Soft 1.19 needs (it reports
/// no default-device change); 1.24 reports one itself (``ALSystemEvents``), but this connection
/// stays the one that follows, on every release, as it also sees phone streams and the server's
/// death. It holds the engine weakly: the engine owns the connection through
/// ``AudioServerSources``, not the other way.
final class AudioServerWatch: Sendable {
    private weak let engine: (any AudioServerSink)?
    private let settings: SoundEngine.Configuration.AudioServer
    private let watchers: AnnotatedMutex<(phone: PhoneStreamWatcher, loss: ServerLossWatcher, route: DefaultSinkWatcher)>

    init(engine: any AudioServerSink, settings: SoundEngine.Configuration.AudioServer) {
        self.engine = engine
        self.settings = settings
        watchers = AnnotatedMutex((PhoneStreamWatcher(settings: settings), ServerLossWatcher(), DefaultSinkWatcher()))
    }

    /// Acts on one event of `connection`.
    func handle(_ event: PulseConnection.Event, from connection: PulseConnection) {
        guard let engine else { return }
        switch event {
        case .connected:
            // A server that is (back) there: a device lost with it is rebuilt now.
            if settings.detectsServerLoss { engine.audioServerReturned() }
        case .sinkInputs(let sinkInputs):
            let change = watchers.withLock { watchers -> PhoneStreamWatcher.Change? in
                watchers.loss.update(sinkInputs)
                return watchers.phone.update(sinkInputs)
            }
            guard let change else { return }
            switch settings.callResponse {
            case .interrupt:
                if change == .begin {
                    engine.beginOwnInterruption(reason: .call, source: .phoneStream, outlivesActivation: true)
                } else {
                    engine.endOwnInterruption(source: .phoneStream)
                }
            case .duck(let group, let decibels, let attackSeconds, let releaseSeconds):
                engine.duckForCall(change == .begin, group: group, byDecibels: decibels,
                                   attackSeconds: attackSeconds, releaseSeconds: releaseSeconds)
            }
        case .defaultSink(let name):
            guard settings.followsDefaultSink, let move = watchers.withLock({ $0.route.update(name) }),
                  engine.isOnSystemDefault else { return }
            // The server moves our stream to its new default (it may have done so already); where
            // it may not, the engine rebuilds on the new default instead.
            connection.moveOwnStreams(to: move.to) { [weak engine] moved in
                engine?.followDefaultSink(from: move.from, to: move.to, streamMoved: moved)
            }
        case .disconnected(let wasConnected):
            let isDeviceLost = watchers.withLock { watchers -> Bool in
                watchers.route.forget()
                return watchers.loss.isDeviceLost(connectionWasReady: wasConnected)
            }
            guard settings.detectsServerLoss, wasConnected else { return }
            if isDeviceLost {
                engine.audioServerLost()
            } else {
                // Our stream may have been on it unseen (not listed yet, or a backend whose
                // streams carry no process id): the mixer's standing still will tell.
                engine.audioServerWentAway()
            }
        }
    }
}
