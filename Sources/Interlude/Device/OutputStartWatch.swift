/// Decides, from readings of a device's clock (ALC_SOFT_device_clock), when its output really
/// runs.
///
/// A freshly opened device can sit for a while with its backend taking nothing: on PulseAudio
/// the mixer writes one buffer ahead and then waits until the server starts the stream, which
/// on an idle sink took up to 1.8 s here. Sounds played meanwhile are heard late, and a source
/// played twice in that window is heard once. The device clock counts the audio the mixer has
/// produced, so it stands still for exactly that wait.
///
/// The output runs once, over a window of wall time that begins after the clock first moved,
/// the clock advanced by at least three quarters of that window, and it is still moving on (see
/// below). The first buffer, written ahead in one go, is about `bufferSeconds` and the window is
/// at least twice as long, so that buffer alone never passes for a running output.
///
/// It also runs once the clock, which starts at 0 on a new device, reads twice the buffer
/// while it is seen moving on: the mixer is never more than a buffer ahead of the backend, so
/// the backend has taken a buffer's worth, and it still takes audio (the clock moved on by a
/// period over the last one and a half, two periods or more after the first reading). Moving
/// on guards against a first fill larger than the buffer the engine asked for (a user's
/// alsoft.conf may say more periods), which stands still on a sink that holds the stream. On a
/// sink that starts a new stream at once that comes about a buffer after the open, well before
/// the window would.
struct OutputStartWatch {
    /// One reading: wall time and device clock, both in seconds.
    private struct Reading {
        var wallSeconds: Double
        var clockSeconds: Double
    }

    /// The wall time the clock must be seen advancing over.
    private let windowSeconds: Double
    /// A clock reading at least this, while it moves on, proves the backend took audio.
    private let takenClockSeconds: Double
    /// One mixer period: the clock's step.
    private let periodSeconds: Double
    /// The newest reading at least one and a half periods old and every later one, oldest first.
    private var recent: [Reading] = []
    /// Readings since the clock first moved, oldest first; only the one that opens the window
    /// and the later ones are kept.
    private var readings: [Reading] = []
    /// The first reading: the clock counts as moved once above its value.
    private var first: Reading?

    /// The share of the window the clock must advance by.
    static let steadyShare = 0.75
    /// The shortest window, whatever the buffer.
    static let shortestWindowSeconds = 0.06

    /// A watch for a device whose backend buffer holds `bufferSeconds` of audio, mixed in
    /// periods of `periodSeconds`.
    init(bufferSeconds: Double, periodSeconds: Double) {
        windowSeconds = max(Self.shortestWindowSeconds, 2 * bufferSeconds)
        takenClockSeconds = 2 * bufferSeconds
        self.periodSeconds = periodSeconds
    }

    /// Takes a reading of a new device's clock; returns true once the output runs.
    mutating func observe(clockSeconds: Double, wallSeconds: Double) -> Bool {
        let reading = Reading(wallSeconds: wallSeconds, clockSeconds: clockSeconds)
        guard let first else {
            first = reading
            recent = [reading]
            return false
        }
        recent.append(reading)
        // The newest reading at least one and a half periods old becomes the oldest kept.
        if let past = recent.lastIndex(where: { wallSeconds - $0.wallSeconds >= 1.5 * periodSeconds }), past > 0 {
            recent.removeFirst(past)
        }
        let isMovingOn = wallSeconds - first.wallSeconds >= 2 * periodSeconds
            && wallSeconds - recent[0].wallSeconds >= 1.5 * periodSeconds
            && clockSeconds - recent[0].clockSeconds >= 0.9 * periodSeconds
        if clockSeconds >= takenClockSeconds && isMovingOn { return true }
        if readings.isEmpty && clockSeconds <= first.clockSeconds { return false }
        readings.append(reading)
        // The newest reading at least a window old opens the window; older ones are not needed.
        guard let opening = readings.lastIndex(where: { wallSeconds - $0.wallSeconds >= windowSeconds }) else {
            return false
        }
        readings.removeFirst(opening)
        let start = readings[0]
        let elapsedSeconds = wallSeconds - start.wallSeconds
        return clockSeconds - start.clockSeconds >= Self.steadyShare * elapsedSeconds && isMovingOn
    }
}
