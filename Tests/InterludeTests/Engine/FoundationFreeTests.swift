import Foundation
import Testing

/// The engine keeps Foundation out of a game that does not import it: Dispatch,
/// FoundationEssentials (files, JSON) and POSIX threads cover what it needs, so a game importing
/// Interlude alone maps neither libFoundation nor ICU. The game runs in its own process,
/// FoundationFreeGame, which reads its own memory map while it plays.
///
/// The decoders' libraries (libFLAC, libmpg123, libopusfile) are likewise loaded only when a
/// file of theirs is first opened: the game maps none while it plays WAV and Ogg Vorbis, and
/// each once it loads a FLAC, an MP3 and an Opus file.
@Suite struct FoundationFreeTests {
    @Test("a game importing Interlude alone plays voices and a streamed track with no libFoundation or ICU mapped")
    func noFoundationMapped() throws {
        let root = TestPaths.packageRoot
        let fixture = try CodecFixture()
        let wav = try fixture.writeWAV("tone.wav", (0..<24_000).map { Int16(8000 * sin(Double($0) * 0.05)) }, channelCount: 1)
        let later = try [Codec.flac, .mp3CBR, .opus].map { codec in
            let path = fixture.path("tone.\(codec.fileExtension)")
            try codec.encode(wav, to: path)
            return path
        }
        let run = try ProductProcess.run("FoundationFreeGame",
                                         [root.appendingPathComponent("assets/sfx/beep.wav").path,
                                          root.appendingPathComponent("assets/music/theme.ogg").path] + later,
                                         environment: ["ALSOFT_DRIVERS": "null"], limitSeconds: 30)
        #expect(!run.wasKilled && run.status == 0, "FoundationFreeGame: status \(run.status)\n\(run.standardOutput)\n\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("playing 8"), "\(run.standardOutput)")
        let musicFrames = lines.first { $0.hasPrefix("music_frames ") }.flatMap { Int($0.dropFirst("music_frames ".count)) } ?? -1
        // A second of the soundtrack has played (the null backend mixes in real time).
        #expect(musicFrames > 22_050, "\(run.standardOutput)")
        let mapped = lines.filter { $0.hasPrefix("mapped ") }.map { String($0.dropFirst("mapped ".count)) }
        // FoundationEssentials is the one part it uses, and has no ICU.
        #expect(mapped.allSatisfy { $0.hasPrefix("libFoundationEssentials") || $0.hasPrefix("lib_FoundationCollections") },
                "mapped: \(mapped)")
        #expect(!mapped.contains { $0 == "libFoundation.so" || $0.contains("ICU") || $0.contains("Internationalization") })
        // No decoder's library while only WAV and Ogg Vorbis play; each once a file of its own is loaded.
        #expect(!mapped.contains { $0.contains("FLAC") || $0.contains("mpg123") || $0.contains("opus") }, "mapped: \(mapped)")
        let loaded = lines.filter { $0.hasPrefix("loaded ") }.compactMap { Int($0.dropFirst("loaded ".count)) }
        #expect(loaded.count == 3 && loaded.allSatisfy { $0 >= 24_000 }, "\(run.standardOutput)")
        let after = lines.filter { $0.hasPrefix("mapped_after ") }.map { String($0.dropFirst("mapped_after ".count)) }
        for library in ["libFLAC", "libmpg123", "libopusfile", "libopus."] {
            #expect(after.contains { $0.hasPrefix(library) }, "\(library) not mapped after loading its file: \(after)")
        }
    }
}
