/// The loaded sounds, and when each gets its buffers on the current device
/// (``SoundBufferStore`` holds them). A sound's buffers are made on first use and made again on
/// a new device; buffers of a sound unloaded while no AL call may be made are deleted when one
/// may. A stereo sound's mono downmix is made only when a
/// positional voice first needs it, from the sound's own buffer; a new device gets it again
/// only if the old one had it.
///
/// A file sound's samples live only in OpenAL's buffer: a new device decodes the file again off
/// the engine lock (``SoundUpload``). One whose samples the engine still keeps in Swift (loaded
/// while no AL call could be made) lets them go once uploaded. A sound whose file changed or
/// vanished before a new device could decode it is lost: its voices go, playing it throws, and
/// ``takeLostSounds()`` hands it to the session to say so.
final class SoundBank {
    private var sounds: [Int: Sound] = [:]
    private let store: SoundBufferStore
    /// Stereo sounds whose mono downmix a positional voice has needed: uploaded again on a new
    /// device.
    private var soundsWithMono: Set<Int> = []
    /// Sounds that cannot come back on this device, and why.
    private var lostSounds: [Int: String] = [:]
    /// Sounds lost since ``takeLostSounds()`` was last called.
    private var newlyLost: [(sound: Sound, reason: String)] = []

    /// A sound a new device needs, and whether with its mono downmix: what an upload made off
    /// the engine lock (``DevicePreparation``) works from.
    struct Upload: Sendable {
        var sound: Sound
        var withMono: Bool
    }

    init(gate: ALGate) {
        store = SoundBufferStore(gate: gate)
    }

    /// How many sounds are loaded.
    var count: Int { sounds.count }

    /// The sound is loaded here.
    func contains(_ sound: Sound) -> Bool { sounds[sound.id] != nil }

    /// Keeps `sound`; its buffers are made by ``buffers(for:)``.
    func register(_ sound: Sound) {
        sounds[sound.id] = sound
    }

    /// Keeps `sound` with its buffer on the current device, already written (a file streamed
    /// straight into it).
    func register(_ sound: Sound, filled: BufferFill) {
        sounds[sound.id] = sound
        store.keep(filled, forSoundID: sound.id)
    }

    /// A buffer made on the current device for a load that gave up: deleted with the next
    /// deferred releases.
    func discard(_ fill: BufferFill) {
        store.release(fill)
    }

    /// Forgets `sound`; its buffers wait for ``deleteUnloadedBuffers()``. Call once no voice
    /// plays it.
    func unload(_ sound: Sound) {
        store.releaseBuffers(ofSoundID: sound.id)
        soundsWithMono.remove(sound.id)
        lostSounds[sound.id] = nil
        sounds[sound.id] = nil
    }

    /// Throws `.fileNotFound`, saying why, for a sound lost to a changed or vanished file.
    func checkNotLost(_ sound: Sound) throws {
        if let reason = lostSounds[sound.id] { throw InterludeError(.fileNotFound, reason) }
    }

    /// The buffers a voice of `sound` plays from on the current device, with the mono downmix
    /// when a positional voice of a stereo sound needs it (`mono`). Uploads what is missing.
    func buffers(for sound: Sound, mono: Bool) throws -> SoundBuffers {
        let buffers = try buffers(for: sound)
        guard mono, sound.format.channelCount == 2, buffers.mono == nil else { return buffers }
        let withMono = try store.addMono(of: sound)
        soundsWithMono.insert(sound.id)
        return withMono
    }

    /// The sound's buffers on the current device, uploading its kept samples on first use, and
    /// its mono downmix when a positional voice needed it on an earlier device. Throws for a
    /// lost sound.
    func buffers(for sound: Sound) throws -> SoundBuffers {
        if let existing = store.buffers(ofSoundID: sound.id) { return existing }
        if let reason = lostSounds[sound.id] { throw InterludeError(.fileNotFound, reason) }
        guard let samples = sound.kept.current else {
            // Only a device's preparation decodes files: one that missed this sound cannot.
            let reason = "\(sound.name): not decoded for the new device, and its samples are not kept; load it again"
            markLost(sound, reason: reason)
            throw InterludeError(.fileNotFound, reason)
        }
        let buffers = try store.upload(samples, of: sound)
        if sound.file != nil && store.mapsBuffers { sound.kept.drop() }
        if soundsWithMono.contains(sound.id) { return try store.addMono(of: sound) }
        return buffers
    }

    /// Uploads every loaded sound to a new device (those it does not have yet). A sound that
    /// cannot be is lost (``takeLostSounds()``); the others are uploaded all the same.
    func uploadAll() throws {
        for sound in sounds.values.sorted(by: { $0.id < $1.id }) where lostSounds[sound.id] == nil {
            do {
                _ = try buffers(for: sound)
            } catch let error as InterludeError where error.code == .fileNotFound {
                continue
            }
        }
    }

    /// What a new device needs uploaded: every loaded sound not lost, in load order.
    var uploads: [Upload] {
        sounds.values.filter { lostSounds[$0.id] == nil }.sorted { $0.id < $1.id }
            .map { Upload(sound: $0, withMono: soundsWithMono.contains($0.id)) }
    }

    /// Takes the buffers uploaded to the new device off the lock, by sound id, and the sounds
    /// its preparation found lost (their file changed or vanished), with why. A sound unloaded
    /// since has its buffers deleted with the next deferred releases; one loaded since is
    /// uploaded by ``uploadAll()``.
    /// `mapsBuffers`: the new device maps buffers, so a file sound's kept samples (loaded while
    /// no device could take them) may go once it has them.
    func adopt(_ prepared: [Int: SoundBuffers], lost: [Int: String], mapsBuffers: Bool) {
        for (id, buffers) in prepared.sorted(by: { $0.key < $1.key }) {
            if let sound = sounds[id], store.buffers(ofSoundID: id) == nil {
                store.keep(buffers, forSoundID: id)
                if sound.file != nil && mapsBuffers { sound.kept.drop() }
            } else {
                store.release(buffers)
            }
        }
        for (id, reason) in lost.sorted(by: { $0.key < $1.key }) {
            guard let sound = sounds[id], store.buffers(ofSoundID: id) == nil else { continue }
            markLost(sound, reason: reason)
        }
    }

    /// The sounds lost since the last call, with why: the session removes their voices and
    /// raises ``DeviceEvent/soundLost(name:reason:)``.
    func takeLostSounds() -> [(sound: Sound, reason: String)] {
        defer { newlyLost = [] }
        return newlyLost
    }

    /// Before the device closes for a switch whose new device was prepared without them: keeps
    /// in Swift the samples of the sounds loaded meanwhile (`prepared` lacks them), read back
    /// from their buffers, so the new device gets them with ``uploadAll()``. Call with the old
    /// device's context current.
    func keepSamplesMissing(from prepared: Set<Int>) throws {
        guard store.mapsBuffers else { return }
        for id in store.soundIDs where !prepared.contains(id) {
            guard let sound = sounds[id], sound.kept.current == nil,
                  let samples = try store.readSamples(of: sound) else { continue }
            sound.kept.restore(samples)
        }
    }

    /// Deletes the buffers of sounds unloaded meanwhile. Call after the sources that held them
    /// were released.
    func deleteUnloadedBuffers() throws {
        try store.deleteReleased()
    }

    /// Forgets every buffer name: the device that held them is gone.
    func forgetDevice() {
        store.forgetDevice()
    }

    private func markLost(_ sound: Sound, reason: String) {
        lostSounds[sound.id] = reason
        soundsWithMono.remove(sound.id)
        newlyLost.append((sound, reason))
    }
}
