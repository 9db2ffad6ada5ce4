import COpenAL

/// The entry points of AL_SOFT_map_buffer, which OpenAL Soft 1.19 exports under its experimental
/// name AL_SOFTX_map_buffer (1.19's headers do not declare them; the signatures and flag values
/// are the final extension's). A buffer's storage is allocated without data
/// (`alBufferStorageSOFT` with NULL, which touches no page), then written in place through a
/// mapping, so loading a sound never holds its PCM twice; mapped for reading, it gives the PCM
/// back, which a stereo sound's mono downmix is made from.
struct ALBufferMapping {
    typealias StorageFunction = @convention(c) (ALuint, ALenum, UnsafeRawPointer?, ALsizei, ALsizei, ALuint) -> Void
    typealias MapFunction = @convention(c) (ALuint, ALsizei, ALsizei, ALuint) -> UnsafeMutableRawPointer?
    typealias UnmapFunction = @convention(c) (ALuint) -> Void

    /// AL_MAP_READ_BIT_SOFT.
    static let readBit: ALuint = 0x01
    /// AL_MAP_WRITE_BIT_SOFT.
    static let writeBit: ALuint = 0x02
    /// AL_MAP_PERSISTENT_BIT_SOFT: a buffer stored with it may be mapped while a source plays it
    /// (OpenAL Soft refuses any other mapping of a buffer in use).
    static let persistentBit: ALuint = 0x04

    let storage: StorageFunction
    let map: MapFunction
    let unmap: UnmapFunction

    /// The entry points, or nil when the library lacks any of them.
    static func load() -> ALBufferMapping? {
        guard let storage = alGetProcAddress("alBufferStorageSOFT"), let map = alGetProcAddress("alMapBufferSOFT"),
              let unmap = alGetProcAddress("alUnmapBufferSOFT") else { return nil }
        return ALBufferMapping(storage: unsafeBitCast(storage, to: StorageFunction.self),
                               map: unsafeBitCast(map, to: MapFunction.self),
                               unmap: unsafeBitCast(unmap, to: UnmapFunction.self))
    }
}
