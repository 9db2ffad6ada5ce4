/// The voice pool's entries by slot, shared by the voice table and its voices: a `Voice` reads
/// and writes its own entry; the update reads and advances them all.
///
/// It also keeps the list of ``servicedSlots``: the playing voices the update must look at one
/// by one (real ones, and fading ones), so the update never walks the whole pool to find the
/// few dozen it services.
///
/// And it keeps the list of changed slots: voices whose parameters a setter changed while they
/// held a source, which the update sends to OpenAL (``drainChanges(_:)``) without walking the pool.
final class VoicePoolStorage {
    /// The entries, in memory this storage alone owns (entries 0..<entryCount initialized, room
    /// for `capacity`): the setters and the update reach an entry without the uniqueness check
    /// an array's mutable access calls into the runtime for, once per `setPosition` and per
    /// loop of the update (10 M instructions in the 60 s reference scene).
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<VoicePoolEntry>?
    @exclusivity(unchecked) private var capacity = 0
    @exclusivity(unchecked) private var entryCount = 0
    /// Slots whose entry is playing and real or fading, in no particular order.
    @exclusivity(unchecked) private var serviced: [Int32] = []
    /// Slots with changes to send, each listed once, in the order they first changed. Emptied
    /// keeping its capacity, so steady state allocates nothing.
    @exclusivity(unchecked) private var changed: [Int32] = []

    deinit {
        base?.deinitialize(count: entryCount)
        base?.deallocate()
    }

    /// How many slots have an entry.
    var count: Int { entryCount }

    /// The serviced slots (see the type's comment).
    var servicedSlots: [Int32] { serviced }

    /// One slot's entry.
    subscript(slot: Int) -> VoicePoolEntry {
        @inline(__always) get { entry(slot).pointee }
        @inline(__always) _modify { yield &entry(slot).pointee }
    }

    /// Runs `body` over every entry through a raw buffer: the update's hot loops.
    func withEntries<Result>(_ body: (UnsafeMutableBufferPointer<VoicePoolEntry>) throws -> Result) rethrows -> Result {
        try body(entries)
    }

    /// Every entry, as a buffer (unchecked in release builds: the update's loops index it by
    /// slots the table gave out).
    private var entries: UnsafeMutableBufferPointer<VoicePoolEntry> {
        UnsafeMutableBufferPointer(start: base, count: entryCount)
    }

    /// The entry at `slot`, which must have one.
    @inline(__always)
    private func entry(_ slot: Int) -> UnsafeMutablePointer<VoicePoolEntry> {
        precondition(slot >= 0 && slot < entryCount, "voice pool slot \(slot) of \(entryCount)")
        return base.unsafelyUnwrapped + slot
    }

    /// Makes room for `count` entries, doubling the buffer.
    private func reserve(_ count: Int) {
        guard count > capacity else { return }
        let newCapacity = max(count, capacity * 2, 16)
        let newBase = UnsafeMutablePointer<VoicePoolEntry>.allocate(capacity: newCapacity)
        if let base {
            newBase.moveInitialize(from: base, count: entryCount)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }

    /// Gives `slot` a fresh entry, growing the pool when the slot is new. A new voice has no
    /// changes to send (starting sends all its parameters), but the slot stays listed if it was.
    func resetEntry(at slot: Int) {
        if slot >= entryCount {
            reserve(slot + 1)
            (base.unsafelyUnwrapped + entryCount).initialize(repeating: VoicePoolEntry(), count: slot + 1 - entryCount)
            entryCount = slot + 1
        }
        self[slot].state = nil
        refreshServiced(slot)
        let isListed = self[slot].isListedChanged
        self[slot] = VoicePoolEntry()
        self[slot].isListedChanged = isListed
    }

    /// There are changes to send.
    var hasChanges: Bool { !changed.isEmpty }

    /// Moves on, in one pass over the entries, the clocks of the serviced voices that need
    /// nothing else from this update: real, looping, of a loaded sound (not streamed), with no
    /// fade, their group not paused. When `readsPositions`, those also go into `reads`, to have
    /// their position read from OpenAL (the clock's stays where a read fails): the caller reads
    /// them in one batch (``readPositions(ofSlots:_:)``). Every other serviced slot goes into
    /// `others`: the caller services those through their objects. Most of a game's real voices
    /// are of the first kind, so the update skips their objects. Both lists are emptied first.
    func advanceClocks(bySeconds seconds: Double, groups: GroupMixer, readsPositions: Bool,
                       reads: inout [Int32], others: inout [Int32]) {
        reads.removeAll(keepingCapacity: true)
        others.removeAll(keepingCapacity: true)
        let buffer = entries
        for slot in serviced {
            let index = Int(slot)
            guard buffer[index].isLooping, !buffer[index].hasFade, !buffer[index].isStreamed,
                  buffer[index].isReal, !groups.pauses(buffer[index].groupIndex) else {
                others.append(slot)
                continue
            }
            _ = buffer[index].advance(bySeconds: seconds)
            if readsPositions { reads.append(slot) }
        }
    }

    /// Sets the positions of the real voices in `slots` to what `read` returns for each one's
    /// source name and tracked position in frames, dropping the clock's fraction of a frame: the
    /// update's batch of OpenAL offset reads, in one access to the entries.
    func readPositions(ofSlots slots: [Int32], _ read: (_ sourceName: UInt32, _ trackedFrames: Int) -> Int) {
        let buffer = entries
        for slot in slots {
            let index = Int(slot)
            buffer[index].positionInFrames = read(buffer[index].sourceName, buffer[index].positionInFrames)
            buffer[index].frameRemainder = 0
        }
    }

    /// The source name and position of a real positional voice, for sending a move alone
    /// without its object; nil for any other entry.
    @inline(__always)
    func realPosition(ofSlot slot: Int) -> (sourceName: UInt32, position: Vector3)? {
        let entry = entry(slot)
        guard entry.pointee.isReal, entry.pointee.hasPosition, entry.pointee.state != nil else { return nil }
        return (entry.pointee.sourceName, entry.pointee.position)
    }

    /// Records that `changes` of the voice in `slot` must reach its source.
    @inline(__always)
    func markChanged(_ slot: Int, _ changes: VoiceChanges) {
        let entry = entry(slot)
        entry.pointee.changes.formUnion(changes)
        if !entry.pointee.isListedChanged {
            entry.pointee.isListedChanged = true
            changed.append(Int32(slot))
        }
    }

    /// The voice in `slot` has a position.
    @inline(__always)
    func hasPosition(_ slot: Int) -> Bool {
        entry(slot).pointee.hasPosition
    }

    /// Moves the positional voice in `slot` and, when it holds a source, records the move for the
    /// update: `setPosition`'s hot path, one bounds check and no copy. False, moving nothing,
    /// when the voice is unpositioned. The slot must hold a live voice.
    func movePositional(_ slot: Int, to position: Vector3) -> Bool {
        let entry = entry(slot)
        guard entry.pointee.hasPosition else { return false }
        entry.pointee.position = position
        if entry.pointee.isReal { markChanged(slot, .position) }
        return true
    }

    /// Calls `body` with each changed slot and its changes, clearing them: a slot whose voice
    /// ended, or lost its source, since is passed all the same and skipped by `body`. A voice
    /// whose changes fail does not stop the others; the first error is thrown at the end, and
    /// every change is cleared, so a failing voice is not retried forever.
    func drainChanges(_ body: (_ slot: Int, _ changes: VoiceChanges) throws -> Void) throws {
        var failure: (any Error)?
        // By index, holding no second reference to the list: emptying it then keeps its buffer.
        var index = 0
        while index < changed.count {
            let slot = Int(changed[index])
            index += 1
            let entry = entry(slot)
            let changes = entry.pointee.changes
            entry.pointee.changes = []
            entry.pointee.isListedChanged = false
            guard !changes.isEmpty else { continue }
            do {
                try body(slot, changes)
            } catch {
                failure = failure ?? error
            }
        }
        changed.removeAll(keepingCapacity: true)
        if let failure { throw failure }
    }

    /// Brings ``servicedSlots`` in line with the entry at `slot`, after its playing, real or
    /// fading state may have changed.
    func refreshServiced(_ slot: Int) {
        let entry = self[slot]
        let isWanted = entry.isPlaying && (entry.isReal || entry.hasFade)
        let index = Int(entry.servicedIndex)
        if isWanted && index < 0 {
            self[slot].servicedIndex = Int32(serviced.count)
            serviced.append(Int32(slot))
        } else if !isWanted && index >= 0 {
            let last = serviced.removeLast()
            if Int(last) != slot {
                serviced[index] = last
                self[Int(last)].servicedIndex = Int32(index)
            }
            self[slot].servicedIndex = -1
        }
    }
}
