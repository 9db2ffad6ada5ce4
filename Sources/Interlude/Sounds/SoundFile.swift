/// The file a loaded sound was decoded from: what a new device needs to decode it again instead
/// of keeping its samples in Swift, and to make sure it is still the same audio (the same
/// format, the same length and the same samples, by ``PCMChecksum``).
struct SoundFile: Sendable {
    /// The path it was loaded by.
    let path: String
    /// The decoded samples' checksum.
    let checksum: PCMChecksum
}
