/// Decides when the server's default sink moved: a new name while connected. The first name
/// after a (re)connection is only remembered: a device rebuilt after a loss already opened the
/// server's default as it was then.
struct DefaultSinkWatcher {
    /// The default sink the connection last reported, nil until it reports one.
    private var current: String?

    /// Takes the server's default sink; returns the move it makes, if any.
    mutating func update(_ name: String) -> (from: String, to: String)? {
        defer { current = name }
        guard let current, current != name else { return nil }
        return (current, name)
    }

    /// The connection ended: the next name is a first one again.
    mutating func forget() {
        current = nil
    }
}
