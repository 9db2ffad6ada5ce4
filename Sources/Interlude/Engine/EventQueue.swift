/// Session events raised under the engine's lock, handed to the game once it is released.
final class EventQueue {
    @exclusivity(unchecked) private var pending: [SessionEvent] = []

    /// Raises `event`.
    func emit(_ event: SessionEvent) {
        pending.append(event)
    }

    /// The events raised since the last take, leaving none. Most calls raise none, and then
    /// this allocates nothing (returning the array while also clearing it would copy it).
    func take() -> [SessionEvent] {
        guard !pending.isEmpty else { return [] }
        var taken: [SessionEvent] = []
        swap(&taken, &pending)
        return taken
    }

    /// Drops what a failed call raised.
    func discard() {
        guard !pending.isEmpty else { return }
        pending.removeAll()
    }
}
