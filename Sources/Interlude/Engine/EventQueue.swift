/// Engine events raised under the engine's lock, handed to the game once it is released.
final class EventQueue {
    @exclusivity(unchecked) private var pending: [EngineEvent] = []
    /// The voice properties reported changed while the session is interrupted: a repeat is
    /// not raised again until the session is active.
    @exclusivity(unchecked) private var deferredChanges: [VoiceHandle: VoiceProperties] = [:]
    /// The other changes (``DeferredCommand/isCoalesced``) reported while interrupted, likewise.
    @exclusivity(unchecked) private var deferredOthers: Set<DeferredCommand> = []

    /// Raises `event`.
    func emit(_ event: EngineEvent) {
        pending.append(event)
    }

    /// Raises a session event.
    func emit(_ event: SessionEvent) {
        switch event {
        case .ended, .activated:
            deferredChanges.removeAll()
            deferredOthers.removeAll()
        default: break
        }
        emit(.session(event))
    }

    /// Raises ``DeferredCommand/change(_:_:)`` for those of `properties` not yet reported
    /// changed for this voice during the interruption.
    func emitDeferredChange(of voice: VoiceHandle, _ properties: VoiceProperties) {
        let reported = deferredChanges[voice, default: []]
        let new = properties.subtracting(reported)
        guard !new.isEmpty else { return }
        deferredChanges[voice] = reported.union(new)
        emit(.session(.commandDeferred(.change(voice, new))))
    }

    /// Raises `command` as deferred: a change (``DeferredCommand/isCoalesced``) only the first
    /// time in the interruption, any other command each time.
    func emitDeferred(_ command: DeferredCommand) {
        if command.isCoalesced {
            guard deferredOthers.insert(command).inserted else { return }
        }
        emit(.session(.commandDeferred(command)))
    }
    /// Raises a voice event.
    func emit(_ event: VoiceEvent) { emit(.voice(event)) }
    /// Raises a music event.
    func emit(_ event: MusicEvent) { emit(.music(event)) }
    /// Raises a device event.
    func emit(_ event: DeviceEvent) { emit(.device(event)) }
    /// Raises a sound-design event.
    func emit(_ event: DesignEvent) { emit(.design(event)) }

    /// The events raised since the last take, leaving none; nil when there are none. Most calls
    /// raise none, and nil then costs the caller no retain and release of an empty array, as
    /// `[]` would on a setter called for every voice in every frame (returning the array while
    /// also clearing it would copy it).
    func take() -> [EngineEvent]? {
        guard !pending.isEmpty else { return nil }
        var taken: [EngineEvent] = []
        swap(&taken, &pending)
        return taken
    }

    /// Drops what a failed call raised.
    func discard() {
        guard !pending.isEmpty else { return }
        pending.removeAll()
    }
}
