// Shared by the fuzz harnesses: the decoders read files through stdio (DecoderFile over FILE*),
// so each input is written to one tmpfs file in /dev/shm and decoded from there. This keeps the
// product code unchanged: the fuzzer exercises exactly the path a game's file takes.
#if canImport(Glibc)
import Glibc
#endif
import Interlude

enum FuzzInput {
    /// One file per process (libFuzzer workers run in separate processes), reused for every input.
    static let path: String = {
        let folder = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        return "\(folder)/interlude-fuzz-\(getpid())"
    }()
    nonisolated(unsafe) static var isRegistered = false

    /// Replaces the file's contents with the input; returns its path.
    static func write(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
        if !isRegistered {
            isRegistered = true
            atexit { unlink(FuzzInput.path) }
        }
        let handle = fopen(path, "wb")!
        if size > 0 { _ = fwrite(data, 1, size, handle) }
        fclose(handle)
        return path
    }

    /// Decodes every frame through `decoder` with a small buffer, then seeks back to a few
    /// frames and reads again, so reads, seeks and the end of data all run on fuzzed input.
    /// Every decode error must be a thrown InterludeError; anything else crashes the harness.
    static func exercise(_ decoder: any AudioDecoder, maximumFrames: Int) {
        let channelCount = decoder.format.channelCount
        precondition(channelCount >= 1 && channelCount <= 2, "decoder reported \(channelCount) channels")
        precondition(decoder.frameCount >= 0, "negative frame count")
        var buffer = [Float](repeating: 0, count: 1024 * channelCount)
        var total = 0
        while total < maximumFrames {
            guard let frames = try? buffer.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }) else { break }
            precondition(frames >= 0 && frames <= 1024, "read returned \(frames) frames for a 1024-frame buffer")
            if frames == 0 { break }
            total += frames
        }
        for frame in [0, decoder.frameCount / 2, decoder.frameCount, decoder.frameCount + 1, -1] {
            if (try? decoder.seek(toFrame: frame)) != nil {
                _ = try? buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            }
        }
    }
}
