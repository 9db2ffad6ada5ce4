/// What the audio server's watch (``AudioServerWatch``) may ask of the engine it watches for,
/// beyond a ``SessionSink``'s holds: the server's loss and return, a new default sink, and
/// ducking for a call. Held weakly.
protocol AudioServerSink: SessionSink {
    /// The server went away with the engine's stream on it: the device is lost now.
    func audioServerLost()
    /// The server went away without the engine's stream seen on it.
    func audioServerWentAway()
    /// The server is there (again).
    func audioServerReturned()
    /// The engine plays to an open `.systemDefault` device.
    var isOnSystemDefault: Bool { get }
    /// The default sink moved from `old` to `new`; `streamMoved`: the server moved our stream.
    func followDefaultSink(from old: String, to new: String, streamMoved: Bool)
    /// A phone stream began (`isOn`) or ended under a duck response.
    func duckForCall(_ isOn: Bool, group: GroupID, byDecibels decibels: Float, attackSeconds: Double, releaseSeconds: Double)
}

extension SoundEngine: AudioServerSink {}
