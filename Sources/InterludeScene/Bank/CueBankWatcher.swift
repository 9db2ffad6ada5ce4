#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Interlude

/// Loads a cue bank file again whenever it changes on disk, so that a sound designer can tune
/// cues while the game runs. Made by ``Interlude/SoundEngine/watchBank(path:)``; it watches
/// until ``stop()`` or until it is released.
///
/// It watches the file's folder with inotify on a thread of its own, so an editor that saves by
/// writing a new file and renaming it over the old one is seen too. Once the file has been quiet
/// for ``settleSeconds`` it is loaded as ``Interlude/SoundEngine/loadBank(path:)`` loads it: off
/// the engine lock, and all checked before anything is made. Voices already playing go on; the
/// next plays follow the new bank. Each reload raises ``Interlude/DesignEvent/bankReloaded(path:)``,
/// or ``Interlude/DesignEvent/bankReloadFailed(path:error:)`` with the previous bank kept whole.
public final class CueBankWatcher: Sendable {
    /// How long the file must be quiet after a change before it is read: an editor's save is
    /// often several writes.
    public static let settleSeconds = 0.05
    /// The watching thread's name, as /proc and `top -H` show it.
    static let threadName = "IL bank watch"

    /// The pipe's write end: a byte written there ends the watching thread.
    private let stopDescriptor: Int32
    /// Signalled when the watching thread has ended.
    private let finished = DispatchSemaphore(value: 0)
    /// The watching thread's id, once it runs (shared with the thread, so held by reference).
    private final class ThreadID: Sendable {
        let value = AnnotatedMutex<pthread_t?>(nil)
    }
    private let watchingThread = ThreadID()
    private let isStopped = AnnotatedMutex(false)

    /// Starts watching the bank file at `path` for `engine`. Throws `.unreadableFile` naming
    /// the path when its folder cannot be watched.
    init(engine: SoundEngine, path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let fileName = url.lastPathComponent
        func failure(_ call: String) -> InterludeError {
            InterludeError(.unreadableFile, "watchBank(path: \(path)): \(call): \(String(cString: strerror(errno)))")
        }
        let inotify = inotify_init1(Int32(IN_CLOEXEC))
        guard inotify >= 0 else { throw failure("inotify_init1") }
        guard inotify_add_watch(inotify, folder, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)) >= 0 else {
            let error = failure("watching \(folder)")
            close(inotify)
            throw error
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            let error = failure("pipe")
            close(inotify)
            throw error
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stopDescriptor = ends[1]
        let wakeDescriptor = ends[0]
        let finished = finished
        let watchingThread = watchingThread
        // Returns once the thread is named and known, so that it shows in /proc by its name and
        // a stop() made at once can tell whether it runs on it.
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            ThreadName.set(Self.threadName)
            watchingThread.value.withLock { $0 = pthread_self() }
            started.signal()
            Self.watch(inotify: inotify, wake: wakeDescriptor, fileName: fileName, path: path, engine: engine)
            close(inotify)
            close(wakeDescriptor)
            finished.signal()
        }
        thread.start()
        started.wait()
    }

    deinit { stop() }

    /// Stops watching, and waits for a reload under way to finish (unless called from the
    /// watching thread itself, from an event handler, say). Idempotent.
    public func stop() {
        let isFirst = isStopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard isFirst else { return }
        var byte: UInt8 = 1
        _ = write(stopDescriptor, &byte, 1)
        close(stopDescriptor)
        if watchingThread.value.withLock({ $0 }) != pthread_self() { finished.wait() }
    }

    /// The watching thread: waits for a change to the file, for the file to settle, then reloads;
    /// returns once the stop pipe is readable.
    private static func watch(inotify: Int32, wake: Int32, fileName: String, path: String, engine: SoundEngine) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var isChanged = false
        while true {
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, isChanged ? Int32(settleSeconds * 1000) : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { return }
            if ready == 0 {
                isChanged = false
                reload(path, into: engine)
                continue
            }
            let count = read(inotify, &buffer, buffer.count)
            if count > 0, names(in: buffer[..<count]).contains(fileName) { isChanged = true }
        }
    }

    /// The file names of the inotify events in `bytes`.
    static func names(in bytes: ArraySlice<UInt8>) -> [String] {
        var names: [String] = []
        var offset = bytes.startIndex
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= bytes.endIndex {
            let nameLength = bytes[(offset + 12)..<(offset + 16)].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
            let nameBytes = bytes[(offset + headerSize)..<min(bytes.endIndex, offset + headerSize + nameLength)]
            names.append(String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self))
            offset += headerSize + nameLength
        }
        return names
    }

    /// Loads the bank again and tells the game how it went.
    private static func reload(_ path: String, into engine: SoundEngine) {
        do {
            try engine.loadBank(path: path)
            engine.deliver(.design(.bankReloaded(path: path)))
        } catch let error as InterludeError {
            engine.deliver(.design(.bankReloadFailed(path: path, error: error)))
        } catch {
            engine.deliver(.design(.bankReloadFailed(path: path, error: InterludeError(.unreadableFile, "\(path): \(error)"))))
        }
    }
}

extension SoundEngine {
    /// Loads a cue bank file as ``loadBank(path:)`` does, then loads it again whenever the file
    /// changes (``CueBankWatcher``), until the watcher is stopped or released. Throws as
    /// ``loadBank(path:)`` does, and watches nothing then. Any thread.
    public func watchBank(path: String) throws -> CueBankWatcher {
        let watcher = try CueBankWatcher(engine: self, path: path)
        do {
            try loadBank(path: path)
        } catch {
            watcher.stop()
            throw error
        }
        return watcher
    }
}
