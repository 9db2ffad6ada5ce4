#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The engine's loaded files by canonical path (`realpath`: symbolic links and `..` resolved),
/// so the same file loaded twice, by any spelling of its path, is decoded once and gives the same
/// ``Sound``. A file being loaded asynchronously is listed too, so loads of it that start
/// meanwhile wait for that one decode instead of starting their own.
///
/// An entry lives as long as its sound is loaded: ``SoundEngine/unloadSound(_:)`` removes it, and
/// a later load decodes the file again. Thread-safe; never held while decoding.
final class SoundCache: Sendable {
    private enum Entry {
        case loaded(Sound)
        case loading(Task<Sound, any Error>)
    }

    private let entries = AnnotatedMutex([String: Entry]())

    /// The canonical form of `path`, or nil when the file cannot be resolved (missing, say):
    /// such a path is not cached, and the decoder then names the problem.
    static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The sound loaded from `canonicalPath`, if any.
    func sound(at canonicalPath: String) -> Sound? {
        entries.withLock { entries in
            if case .loaded(let sound) = entries[canonicalPath] { return sound }
            return nil
        }
    }

    /// The sound at `canonicalPath`: the one loaded, the one being loaded, or a new load that
    /// `start` begins (and that later callers then share). A failed load leaves no entry.
    func sound(at canonicalPath: String, orStart start: @escaping @Sendable () async throws -> Sound) async throws -> Sound {
        let entry = entries.withLock { entries -> Entry in
            if let existing = entries[canonicalPath] { return existing }
            let task = Task { try await start() }
            entries[canonicalPath] = .loading(task)
            return .loading(task)
        }
        let task: Task<Sound, any Error>
        switch entry {
        case .loaded(let sound): return sound
        case .loading(let loading): task = loading
        }
        do {
            let sound = try await task.value
            entries.withLock { entries in
                if case .loading = entries[canonicalPath] { entries[canonicalPath] = .loaded(sound) }
            }
            return sound
        } catch {
            entries.withLock { entries in
                if case .loading = entries[canonicalPath] { entries[canonicalPath] = nil }
            }
            throw error
        }
    }

    /// Keeps `sound` as the one loaded from `canonicalPath`, unless one is already there, which is
    /// returned instead (two synchronous loads that raced: the first registered wins).
    func keep(_ sound: Sound, at canonicalPath: String) -> Sound {
        entries.withLock { entries in
            if case .loaded(let existing) = entries[canonicalPath] { return existing }
            entries[canonicalPath] = .loaded(sound)
            return sound
        }
    }

    /// Forgets every entry of `sound`: it was unloaded.
    func remove(_ sound: Sound) {
        entries.withLock { entries in
            for (path, entry) in entries {
                if case .loaded(let loaded) = entry, loaded === sound { entries[path] = nil }
            }
        }
    }
}
