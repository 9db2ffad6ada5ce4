/// A new device made ready off the engine lock: opened (``DeviceOpener``), then every loaded
/// sound uploaded to it on its own context. The session builds one under the lock (a reopen
/// attempt after a loss, a switch, following the server's default sink), the calling thread
/// runs it with the lock released, and the session installs it under the lock again, or
/// hands it back to be discarded when the session moved on meanwhile (``epoch``).
///
/// The uploads take only the process-wide ``ALContextLock``, one AL step at a time, never the
/// engine lock: the engine makes no AL call on this device before it installs it, and taking
/// the context lock without an engine lock keeps the lock order (engine, then context). A file
/// sound is decoded again from its file here (``SoundUpload``); one whose file changed or
/// vanished is listed in ``lostSounds`` instead of failing the device.
///
/// Its device has one owner at a time: the thread running it, from the open until it hands it
/// to the session under the lock, which keeps it (``DeviceHost`` then closes it) or hands it
/// back; then that thread closes it (``discard()``), before ``SoundEngine/shutdown()`` returns
/// (``OutputChanges``).
///
/// `@unchecked Sendable`: built under the engine lock, run by one thread with the lock
/// released, then handed back under the lock; one thread holds it at a time.
final class DevicePreparation: @unchecked Sendable {
    private let output: OutputDevice
    private let opener: DeviceOpener
    private let uploads: [SoundBank.Upload]
    private let reopenEpoch: Int
    private var start: OutputStart?
    private var prepared: [Int: SoundBuffers] = [:]
    private var lost: [Int: String] = [:]
    private var error: (any Error)?

    /// - Parameter epoch: the ``DeviceHost`` reopen epoch the preparation was made in; a
    ///   reopen attempt is installed only if it is still current.
    init(output: OutputDevice, opener: DeviceOpener, uploads: [SoundBank.Upload], epoch: Int) {
        self.output = output
        self.opener = opener
        self.uploads = uploads
        self.reopenEpoch = epoch
    }

    /// The reopen epoch it was made in.
    var epoch: Int { reopenEpoch }
    /// The opened device, once ``run()`` succeeded.
    var opened: OutputStart? { start }
    /// The sounds' buffers on the opened device, by sound id.
    var buffers: [Int: SoundBuffers] { prepared }
    /// The sounds that could not be put on the device because their file changed or vanished
    /// since they were loaded, by sound id, with why.
    var lostSounds: [Int: String] { lost }
    /// Why ``run()`` failed (the device is then already closed).
    var failure: (any Error)? { error }

    /// Opens the device and uploads every sound, without the engine lock. On failure the
    /// device is closed and ``failure`` says why. Returns whether it succeeded.
    @discardableResult
    func run() -> Bool {
        do {
            let start = try opener.start(output)
            self.start = start
            let device = start.opened
            for upload in uploads {
                switch try SoundUpload.prepare(upload, on: device) {
                case .ready(let buffers): prepared[upload.sound.id] = buffers
                case .lost(let reason): lost[upload.sound.id] = reason
                }
            }
            return true
        } catch {
            self.error = error
            discard()
            return false
        }
    }

    /// Fails it without opening anything (the engine is shutting down): ``failure`` is
    /// `reason`. Instead of ``run()``, off the engine lock.
    func cancel(_ reason: any Error) {
        error = reason
    }

    /// Closes the opened device, with every buffer made on it. Off the engine lock.
    func discard() {
        guard let start else { return }
        DeviceHost.discard(start)
        self.start = nil
        prepared = [:]
        lost = [:]
    }
}
