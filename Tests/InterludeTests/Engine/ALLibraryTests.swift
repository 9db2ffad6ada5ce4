import Testing
@testable import Interlude

extension EngineSuites {
    /// What the engine knows of the OpenAL Soft library before its first call, against what the
    /// running library says: the configuration file written before that call depends on it.
    @Suite struct ALLibraryTests {
        @Test("The release read from the library file's name is the one AL_VERSION names, and decides allow-moves and the PipeWire backend")
        func fileReleaseIsTheRunningOne() throws {
            let engine = try SoundEngine(configuration: .init(output: .offline()))
            defer { engine.shutdown() }
            let running = try #require(engine.readCore { $0.device.openDevice?.release }, "AL_VERSION named no release")
            let file = try #require(ALLibrary.fileRelease, "the mapped libopenal.so names no release")
            #expect(file == running)
            // 1.19 sets PA_STREAM_DONT_MOVE unless allow-moves = true; 1.20 and later move by default.
            #expect(ALLibrary.movesStreamsByDefault == (running >= ALRelease(major: 1, minor: 20, patch: 0)))
            // The native PipeWire backend came in 1.22.
            #expect(ALLibrary.hasPipeWireBackend == (running >= ALRelease(major: 1, minor: 22, patch: 0)))
        }

        @Test("A release is read from a dotted word; a word without major and minor names none")
        func dottedReleases() {
            #expect(ALRelease(dotted: "1.24.2") == ALRelease(major: 1, minor: 24, patch: 2))
            #expect(ALRelease(dotted: "1.19") == ALRelease(major: 1, minor: 19, patch: 0))
            #expect(ALRelease(dotted: "1.19.1 (deleted)") == ALRelease(major: 1, minor: 19, patch: 1))
            #expect(ALRelease(dotted: "1") == nil)
            #expect(ALRelease(versionString: "1.1 ALSOFT 1.24.2") == ALRelease(major: 1, minor: 24, patch: 2))
        }
    }
}
