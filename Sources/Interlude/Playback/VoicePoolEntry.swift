/// What the voice pool's update needs of one voice, kept in one contiguous array by slot: the
/// update walks thousands of these without touching the `Voice` objects (no cache miss, no
/// reference counting, no exclusivity check per voice). Each `Voice` writes its entry whenever
/// its parameters, state, source or fades change; the entry owns the voice's play position.
struct VoicePoolEntry {
    /// A live voice that is playing (the group's pause is checked separately).
    var isPlaying = false
    var isReal = false
    var isLooping = false
    var isProtected = false
    var hasFade = false
    var hasPosition = false
    var isRelativeToListener = false
    var groupIndex = 0
    var priority = 0
    var gain: Float = 1
    var position: Vector3 = .zero
    var referenceDistance: Float = 1
    var maxDistance: Float = .greatestFiniteMagnitude
    var rolloffFactor: Float = 1
    /// Frames of the sound per second of playback: its rate times its pitch.
    var framesPerSecond = 0.0
    var frameCount = 0
    /// How far into its sound the voice has played, in frames.
    var positionInFrames = 0
    /// The fraction of a frame the clock has advanced beyond ``positionInFrames``.
    var frameRemainder = 0.0
    /// Where the slot is in ``VoicePoolStorage/servicedSlots``, or -1.
    var servicedIndex: Int32 = -1

    /// Moves the position on by `seconds` of playback. Returns false when a one-shot has ended
    /// (the position then stays where it was).
    @inline(__always)
    mutating func advance(bySeconds seconds: Double) -> Bool {
        guard seconds > 0 else { return positionInFrames < frameCount || isLooping }
        let frames = seconds * framesPerSecond + frameRemainder
        // Truncation, corrected for a negative remainder: `rounded(.down)` is a libm call.
        var wholeFrames = Double(Int(frames))
        if wholeFrames > frames { wholeFrames -= 1 }
        frameRemainder = frames - wholeFrames
        let position = positionInFrames + Int(wholeFrames)
        if position >= frameCount {
            guard isLooping else { return false }
            positionInFrames = position % max(1, frameCount)
        } else {
            positionInFrames = position
        }
        return true
    }
}

/// The voice pool's entries, shared by the engine and its voices: a `Voice` writes its own
/// entry; the update reads and advances them all.
///
/// It also keeps the list of ``servicedSlots``: the playing voices the update must look at
/// one by one (real ones, and fading ones), so the update never walks the whole pool to find
/// the few dozen it services.
final class VoicePoolStorage {
    var entries: [VoicePoolEntry] = []
    /// Slots whose entry is playing and real or fading, in no particular order.
    private(set) var servicedSlots: [Int32] = []

    /// Gives `slot` a fresh entry, growing the pool when the slot is new.
    func resetEntry(at slot: Int) {
        while entries.count <= slot { entries.append(VoicePoolEntry()) }
        entries[slot].isPlaying = false
        refreshServiced(slot)
        entries[slot] = VoicePoolEntry()
    }

    /// Brings ``servicedSlots`` in line with the entry at `slot`, after its playing, real or
    /// fading state may have changed.
    func refreshServiced(_ slot: Int) {
        let entry = entries[slot]
        let isWanted = entry.isPlaying && (entry.isReal || entry.hasFade)
        let index = Int(entry.servicedIndex)
        if isWanted && index < 0 {
            entries[slot].servicedIndex = Int32(servicedSlots.count)
            servicedSlots.append(Int32(slot))
        } else if !isWanted && index >= 0 {
            let last = servicedSlots.removeLast()
            if Int(last) != slot {
                servicedSlots[index] = last
                entries[Int(last)].servicedIndex = Int32(index)
            }
            entries[slot].servicedIndex = -1
        }
    }
}
