// FoundationFreeGame: launched by FoundationFreeTests. A game that imports the engine and
// nothing else: an engine on OpenAL Soft's null backend plays eight looping positional voices
// and a streamed soundtrack for a second, then prints, one per line, `playing N` (the voices
// still playing), `music_frames N` (the soundtrack's position), `mapped NAME` for each shared
// library in /proc/self/maps whose name holds "Foundation", "ICU" or a decoder's library
// (FLAC, mpg123, opus), and `peak_rss_kib N`. Then it loads each LATER file as a sound and
// prints `loaded FRAMES` for it, and the decoders' libraries mapped after as `mapped_after NAME`.
// Exits 1 with a message on standard error when the engine fails.
import Interlude
#if canImport(Glibc)
import Glibc
#endif

/// Each line of the file at `path` (a /proc file: read to the end, whatever its reported size).
func lines(of path: String) -> [String] {
    guard let file = fopen(path, "r") else { return [] }
    defer { fclose(file) }
    var result: [String] = []
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) >= 0, let line {
        result.append(String(cString: line))
    }
    return result
}

/// Writes `text` to standard error (descriptor 2: Glibc's `stderr` is a shared mutable global).
func printError(_ text: String) {
    _ = text.withCString { write(2, $0, strlen($0)) }
}

/// The shared libraries in /proc/self/maps whose file names hold one of `parts`.
func mappedLibraries(_ parts: [String]) -> [String] {
    var mapped: Set<String> = []
    for line in lines(of: "/proc/self/maps") {
        guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last else { continue }
        let name = String(path.split(separator: "/").last ?? "").filter { $0 != "\n" }
        if name.hasPrefix("lib"), parts.contains(where: { name.contains($0) }) { mapped.insert(name) }
    }
    return mapped.sorted()
}

let decoderLibraries = ["FLAC", "mpg123", "opus"]
guard CommandLine.arguments.count >= 3 else {
    printError("usage: FoundationFreeGame SOUND.wav MUSIC.ogg [LATER...]\n")
    exit(2)
}
do {
    var configuration = SoundEngine.Configuration(output: .null)
    configuration.mediaRole = nil
    let engine = try SoundEngine(configuration: configuration)
    let sound = try engine.loadSound(path: CommandLine.arguments[1])
    try engine.playMusic(path: CommandLine.arguments[2])
    var voices: [VoiceHandle] = []
    for index in 0..<8 {
        voices.append(try engine.play(sound, parameters: VoiceParameters(position: Vector3(Float(index) - 4, 0, -2), isLooping: true)))
    }
    sleep(1)
    print("playing \(voices.filter { engine.isPlaying($0) }.count)")
    print("music_frames \(engine.music().flatMap { engine.positionInFrames(of: $0) } ?? -1)")
    for name in mappedLibraries(["Foundation", "ICU"] + decoderLibraries) { print("mapped \(name)") }
    for line in lines(of: "/proc/self/status") where line.hasPrefix("VmHWM:") {
        print("peak_rss_kib \(line.split(separator: " ", omittingEmptySubsequences: true)[1])")
    }
    for path in CommandLine.arguments.dropFirst(3) {
        print("loaded \(try engine.loadSound(path: path).frameCount)")
    }
    for name in mappedLibraries(decoderLibraries) { print("mapped_after \(name)") }
    engine.shutdown()
} catch {
    printError("FoundationFreeGame: \(error)\n")
    exit(1)
}
