/// The voice pool's entries by slot, shared by the voice table and its voices: a `Voice` reads
/// and writes its own entry; the update reads and advances them all.
///
/// It also keeps the list of ``servicedSlots``: the playing voices the update must look at one
/// by one (real ones, and fading ones), so the update never walks the whole pool to find the
/// few dozen it services.
final class VoicePoolStorage {
    private var entries: [VoicePoolEntry] = []
    /// Slots whose entry is playing and real or fading, in no particular order.
    private var serviced: [Int32] = []

    /// How many slots have an entry.
    var count: Int { entries.count }

    /// The serviced slots (see the type's comment).
    var servicedSlots: [Int32] { serviced }

    /// One slot's entry.
    subscript(slot: Int) -> VoicePoolEntry {
        @inline(__always) get { entries[slot] }
        @inline(__always) _modify { yield &entries[slot] }
    }

    /// Runs `body` over every entry through a raw buffer: the update's hot loops.
    func withEntries<Result>(_ body: (UnsafeMutableBufferPointer<VoicePoolEntry>) throws -> Result) rethrows -> Result {
        try entries.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// Gives `slot` a fresh entry, growing the pool when the slot is new.
    func resetEntry(at slot: Int) {
        while entries.count <= slot { entries.append(VoicePoolEntry()) }
        entries[slot].state = nil
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
            entries[slot].servicedIndex = Int32(serviced.count)
            serviced.append(Int32(slot))
        } else if !isWanted && index >= 0 {
            let last = serviced.removeLast()
            if Int(last) != slot {
                serviced[index] = last
                entries[Int(last)].servicedIndex = Int32(index)
            }
            entries[slot].servicedIndex = -1
        }
    }
}
