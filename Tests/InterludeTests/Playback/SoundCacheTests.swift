import Foundation
import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// Loading through the cache: a file is decoded once whatever its path's spelling, async loads
    /// run off the caller's thread and share one decode, and unloading lets the file load afresh.
    @Suite struct SoundCacheTests {
        static func engine() throws -> SoundEngine {
            var configuration = SoundEngine.Configuration(output: .offline(sampleRate: 48_000, channelCount: 2))
            configuration.mediaRole = nil
            return try SoundEngine(configuration: configuration)
        }

        /// The same tone file reached by a symbolic link and by a path through "..".
        static func spellings() throws -> (folder: String, paths: [String]) {
            let folder = try SessionAssets.temporaryFolder()
            let sub = folder + "/sub"
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            let real = folder + "/tone.wav"
            try FileManager.default.copyItem(atPath: SessionAssets.tone440, toPath: real)
            try FileManager.default.createSymbolicLink(atPath: folder + "/link.wav", withDestinationPath: real)
            return (folder, [real, folder + "/link.wav", sub + "/../tone.wav"])
        }

        /// The synchronous overload (in an async context Swift picks the async one).
        static func loadSynchronously(_ engine: SoundEngine, _ path: String) throws -> Sound {
            try engine.loadSound(path: path)
        }

        @Test func theSameFileLoadsOnceByAnySpelling() throws {
            let (folder, paths) = try Self.spellings()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let engine = try Self.engine()
            let first = try engine.loadSound(path: paths[0])
            let buffersAfterFirst = engine.statistics.alBufferCount
            for path in paths.dropFirst() {
                #expect(try engine.loadSound(path: path) === first, "\(path)")
            }
            #expect(engine.statistics.loadedSoundCount == 1)
            #expect(engine.statistics.alBufferCount == buffersAfterFirst)
            // The cached sound plays: the 440 Hz tone.
            try engine.play(first)
            let rendered = try engine.render(frameCount: 24_000)
            #expect(abs(StreamMeasure.frequency(rendered, frames: 2_400..<24_000) - 440) < 2)
        }

        @Test func unloadingForgetsTheFile() throws {
            let (folder, paths) = try Self.spellings()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let engine = try Self.engine()
            let first = try engine.loadSound(path: paths[0])
            try engine.unloadSound(first)
            #expect(engine.statistics.loadedSoundCount == 0)
            let again = try engine.loadSound(path: paths[1])
            #expect(again !== first)
            #expect(engine.statistics.loadedSoundCount == 1)
        }

        @Test func overlappingAsyncLoadsShareOneDecode() async throws {
            let (folder, paths) = try Self.spellings()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let engine = try Self.engine()
            let sounds = try await withThrowingTaskGroup(of: Sound.self) { group in
                for index in 0..<12 { group.addTask { try await engine.loadSound(path: paths[index % paths.count]) } }
                return try await group.reduce(into: [Sound]()) { $0.append($1) }
            }
            #expect(sounds.count == 12)
            #expect(sounds.allSatisfy { $0 === sounds[0] })
            #expect(engine.statistics.loadedSoundCount == 1)
            // The synchronous call finds it too.
            #expect(try Self.loadSynchronously(engine, paths[2]) === sounds[0])
        }

        @Test func asyncLoadsOfDifferentFilesGiveEachItsOwnSound() async throws {
            let engine = try Self.engine()
            let names = ["beep.wav", "chime.wav", "click.wav", "footstep.wav", "noise.wav", "tone440.wav"]
            let paths = names.map { SessionAssets.root + "/assets/sfx/" + $0 } + [SessionAssets.sweep]
            let sounds = try await withThrowingTaskGroup(of: (String, Sound).self) { group in
                for path in paths { group.addTask { (path, try await engine.loadSound(path: path)) } }
                return try await group.reduce(into: [String: Sound]()) { $0[$1.0] = $1.1 }
            }
            #expect(sounds.count == paths.count)
            #expect(Set(sounds.values.map(\.id)).count == paths.count)
            #expect(engine.statistics.loadedSoundCount == paths.count)
            for (path, sound) in sounds {
                let decoded = try DecoderFactory.decodeAll(path: path)
                #expect(sound.frameCount * sound.format.channelCount == decoded.samples.count, "\(path)")
                #expect(sound.format == decoded.format)
            }
        }

        @Test func aMissingFileFailsAsyncNamingIt() async throws {
            let engine = try Self.engine()
            let path = "/nonexistent/interlude/missing.ogg"
            await #expect {
                _ = try await engine.loadSound(path: path)
            } throws: { error in
                guard let error = error as? InterludeError else { return false }
                return error.code == .fileNotFound && error.message.contains(path)
            }
            #expect(engine.statistics.loadedSoundCount == 0)
        }
    }
}
