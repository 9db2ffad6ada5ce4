#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The integrated loudness of the streamed tracks a loudness target asked for, by file: a
/// track is measured (decoded whole, on the thread that starts it, never under the engine
/// lock) the first time a target needs it, and again only when its file changed (another size
/// or modification time). Thread-safe; never held while measuring.
final class TrackLoudnessCache: Sendable {
    /// What identifies a file's contents here.
    private struct FileIdentity: Equatable {
        var byteCount: Int
        var modificationSeconds: Int
        var modificationNanoseconds: Int
    }

    private struct Entry {
        var identity: FileIdentity
        var loudness: Loudness
    }

    private let entries = AnnotatedMutex([String: Entry]())
    private let measurements = AnnotatedMutex(0)

    /// How many tracks this cache has measured: a track measured once and played again is not
    /// measured again.
    package var measurementCount: Int { measurements.withLock { $0 } }

    /// The loudness of the track at `path`: the cached one while the file is unchanged, else
    /// measured now on the calling thread. Throws `.fileNotFound`, `.unreadableFile`,
    /// `.unsupportedFormat` or `.corruptData` (damage that ends the decode), naming the file.
    func loudness(ofPath path: String) throws -> Loudness {
        guard let canonicalPath = SoundCache.canonicalPath(path), let identity = Self.identity(ofPath: canonicalPath) else {
            // Not a file that resolves: the decoder names the problem.
            return try measure(path: path)
        }
        if let entry = entries.withLock({ $0[canonicalPath] }), entry.identity == identity {
            return entry.loudness
        }
        let loudness = try measure(path: canonicalPath)
        entries.withLock { $0[canonicalPath] = Entry(identity: identity, loudness: loudness) }
        return loudness
    }

    private func measure(path: String) throws -> Loudness {
        let loudness = try Loudness.measure(path: path)
        measurements.withLock { $0 += 1 }
        return loudness
    }

    private static func identity(ofPath path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(byteCount: Int(status.st_size), modificationSeconds: Int(status.st_mtim.tv_sec),
                            modificationNanoseconds: Int(status.st_mtim.tv_nsec))
    }
}
