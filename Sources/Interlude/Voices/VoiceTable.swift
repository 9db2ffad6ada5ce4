/// The voices by slot: which slots hold a live voice, each slot's generation (so a handle to an
/// ended voice goes stale), the free slots, and the pool entries that hold the voices' hot
/// fields.
final class VoiceTable {
    private let engineID: Int
    @exclusivity(unchecked) private var voiceSlots: [Voice?] = []
    @exclusivity(unchecked) private var slotGenerations: [UInt32] = []
    @exclusivity(unchecked) private var freeSlots: [Int] = []
    @exclusivity(unchecked) private var liveCount = 0
    @exclusivity(unchecked) private var streamedCount = 0
    /// What the pool's update needs of each voice, by slot, in one contiguous array.
    private let storage = VoicePoolStorage()

    init(engineID: Int) {
        self.engineID = engineID
    }

    /// `engineID` is this table's engine (a sound or handle from another is foreign).
    func isOwnEngine(_ engineID: Int) -> Bool { engineID == self.engineID }

    /// The entries the voices keep their hot fields in.
    var entries: VoicePoolStorage { storage }

    /// How many voices are live.
    var liveVoiceCount: Int { liveCount }
    /// How many of them are streamed.
    var streamedVoiceCount: Int { streamedCount }

    /// The live voice a handle names, or nil for a stale or foreign handle.
    func voice(for handle: VoiceHandle) -> Voice? {
        guard handle.engineID == engineID, handle.slot >= 0, handle.slot < voiceSlots.count,
              slotGenerations[handle.slot] == handle.generation else { return nil }
        return voiceSlots[handle.slot]
    }

    /// The slot of the live voice a handle names, or nil for a stale or foreign handle:
    /// ``voice(for:)`` without taking a reference to the voice, for the setters' hot path.
    func liveSlot(for handle: VoiceHandle) -> Int? {
        guard handle.engineID == engineID, handle.slot >= 0, handle.slot < voiceSlots.count,
              slotGenerations[handle.slot] == handle.generation, voiceSlots[handle.slot] != nil else { return nil }
        return handle.slot
    }

    /// Moves the positional voice in `slot` (see ``VoicePoolStorage/movePositional(_:to:)``):
    /// the setters' hot path, through the table so the entries are not retained per call.
    @inline(__always)
    func movePositional(_ slot: Int, to position: Vector3) -> Bool {
        storage.movePositional(slot, to: position)
    }

    /// The voice in `slot` (a live one) has a position: read from the entries, without taking
    /// the voice.
    @inline(__always)
    func isPositional(_ slot: Int) -> Bool {
        storage.hasPosition(slot)
    }

    /// The live voice in `slot`, if any.
    func voice(inSlot slot: Int) -> Voice? {
        voiceSlots[slot]
    }

    /// Every live voice (allocates: not for the update's hot path).
    var liveVoices: [Voice] { voiceSlots.compactMap { $0 } }

    /// Calls `body` with every live voice, in slot order, allocating nothing: for work the
    /// update may do (group gains while a group fades).
    func forEachLiveVoice(_ body: (Voice) throws -> Void) rethrows {
        for case let voice? in voiceSlots { try body(voice) }
    }

    /// Takes a free slot and returns its handle.
    func allocateSlot() -> VoiceHandle {
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
        } else {
            slot = voiceSlots.count
            voiceSlots.append(nil)
            slotGenerations.append(1)
        }
        return VoiceHandle(slot: slot, generation: slotGenerations[slot], engineID: engineID)
    }

    /// A handle that names no voice, for a play that is dropped: a slot taken and given back at
    /// once, so the handle is stale from the start and never names a later voice.
    func staleHandle() -> VoiceHandle {
        let handle = allocateSlot()
        slotGenerations[handle.slot] &+= 1
        freeSlots.append(handle.slot)
        return handle
    }

    /// Puts a new voice in its handle's slot.
    func insert(_ voice: Voice) {
        voiceSlots[voice.handle.slot] = voice
        liveCount += 1
        if voice.stream != nil { streamedCount += 1 }
    }

    /// Ends a voice: its handle goes stale and its slot is free. Returns its place in the
    /// renderer, which the caller releases; nil when it had none or was not live.
    func remove(_ voice: Voice) -> RenderSlot? {
        let slot = voice.handle.slot
        guard voiceSlots[slot] === voice else { return nil }
        let renderSlot = voice.renderSlot
        voice.markRemoved()
        voiceSlots[slot] = nil
        slotGenerations[slot] &+= 1
        freeSlots.append(slot)
        liveCount -= 1
        if voice.stream != nil { streamedCount -= 1 }
        return renderSlot
    }

    /// Every voice forgets its source, and a streamed voice its buffers: the device that held
    /// them is gone.
    func forgetSources() {
        for case let voice? in voiceSlots {
            voice.renderSlot = nil
            voice.stream?.forgetDevice()
        }
    }

    /// Ends every voice at once (shutdown).
    func removeAll() {
        for case let voice? in voiceSlots { _ = remove(voice) }
    }
}
