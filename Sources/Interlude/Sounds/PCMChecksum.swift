/// A 64-bit FNV-1a style hash of a sound's decoded samples, one step per sample (its 16-bit
/// value or its float's bits), so it does not depend on how the samples were cut into chunks.
/// Taken when a file sound is decoded at load and again when a new device decodes it anew: a
/// file replaced by other audio of the same length is caught before it plays.
struct PCMChecksum: Sendable, Equatable {
    private var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The checksum of nothing yet.
    init() {}

    /// The checksum of `samples`.
    init(of samples: SoundSamples) {
        switch samples {
        case .int16(let values): values.withUnsafeBufferPointer { add($0) }
        case .float32(let values): values.withUnsafeBufferPointer { add($0) }
        }
    }

    /// Adds 16-bit samples.
    mutating func add(_ samples: UnsafeBufferPointer<Int16>) {
        var hash = value
        for sample in samples { hash = (hash ^ UInt64(UInt16(bitPattern: sample))) &* 0x100_0000_01b3 }
        value = hash
    }

    /// Adds float samples, by their bits.
    mutating func add(_ samples: UnsafeBufferPointer<Float>) {
        var hash = value
        for sample in samples { hash = (hash ^ UInt64(sample.bitPattern)) &* 0x100_0000_01b3 }
        value = hash
    }
}
