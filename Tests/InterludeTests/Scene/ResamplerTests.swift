import Foundation
import Testing
@testable import Interlude
@testable import InterludeScene
import SoakScenario

extension EngineSuites {
    /// The `resampler` of a scene and of the engine's configuration (AL_SOFT_source_resampler):
    /// an 11025 Hz sound played at 48 kHz leaves images above its 5.5 kHz band, many with the
    /// point resampler and few with bsinc24.
    @Suite struct ResamplerTests {
        /// Renders a looping burst of 11025 Hz white noise, unpositioned, for 1 s at 48 kHz mono.
        static func renderNoise(resampler: String?, folder: StreamFixtureFolder) throws -> [Float] {
            var generator = SplitMix64(seed: 7)
            let noise = (0..<11_025).map { _ in Float.random(in: -0.5...0.5, using: &generator) }
            try WAVFileWriter.write(samples: noise, format: AudioFormat(sampleRate: 11_025, channelCount: 1),
                                    sampleType: .float32, to: folder.path("noise.wav"))
            let key = resampler.map { #""resampler": "\#($0)","# } ?? ""
            let json = """
            { \(key) "duration": 1, "channels": 1, "sounds": { "noise": "noise.wav" },
              "events": [ { "at": 0, "do": "play", "sound": "noise", "loop": true } ] }
            """
            let scene = try SceneParser.parse(data: Data(json.utf8), sceneFolder: folder.directory.path, fileName: "resampler.json")
            var samples: [Float] = []
            _ = try SceneRenderer(scene: scene, sceneName: "resampler.json").render(output: { samples += $0 })
            return samples
        }

        /// The share of the energy above 5.6 kHz in 4096 frames from frame 9600, Hann-windowed.
        static func highBandShare(_ samples: [Float]) -> Double {
            let count = 4096
            let window = (0..<count).map { index in
                Double(samples[9600 + index]) * (0.5 - 0.5 * cos(2 * .pi * Double(index) / Double(count)))
            }
            var high = 0.0, total = 0.0
            for bin in 1..<(count / 2) {
                var real = 0.0, imaginary = 0.0
                let step = 2 * .pi * Double(bin) / Double(count)
                for (index, value) in window.enumerated() {
                    real += value * cos(step * Double(index))
                    imaginary -= value * sin(step * Double(index))
                }
                let power = real * real + imaginary * imaginary
                total += power
                if Double(bin) * 48_000 / Double(count) > 5_600 { high += power }
            }
            return high / total
        }

        @Test func pointLeavesImagesThatBSinc24Removes() throws {
            let folder = try StreamFixtureFolder()
            let point = Self.highBandShare(try Self.renderNoise(resampler: "point", folder: folder))
            let bsinc24 = Self.highBandShare(try Self.renderNoise(resampler: "bsinc24", folder: folder))
            #expect(point > 0.05, "point: \(point) of the energy above 5.6 kHz")
            #expect(bsinc24 < point / 10, "bsinc24: \(bsinc24), point: \(point)")
        }

        /// The library's own default resampler (AL_DEFAULT_RESAMPLER_SOFT) by version, and the
        /// engine's value for it.
        static var expectedDefault: (name: String, resampler: String) {
            OpenALStack.release >= ALRelease(major: 1, minor: 24, patch: 2) ? ("Cubic Spline", "cubic") : ("Linear", "linear")
        }

        @Test("A scene without resampler renders as the library's default does: linear on 1.19, cubic spline on 1.24.2")
        func noResamplerKeyRendersAsTheLibrarysDefault() throws {
            let engine = try SoundEngine.streamTestEngine()
            let defaultName = engine.readCore { core in
                (try? core.device.withContext { device in try ALResamplers.defaultName(using: device.extensions) }) ?? nil
            }
            engine.shutdown()
            let expected = Self.expectedDefault
            #expect(defaultName == expected.name, "\(OpenALStack.name)")
            let folder = try StreamFixtureFolder()
            let byDefault = try Self.renderNoise(resampler: nil, folder: folder)
            #expect(byDefault == (try Self.renderNoise(resampler: expected.resampler, folder: folder)))
            let other = expected.resampler == "linear" ? "cubic" : "linear"
            #expect(byDefault != (try Self.renderNoise(resampler: other, folder: folder)))
        }

        /// What each release offers: 1.19.1's five, and 1.24.2's eight (it renames cubic to
        /// "Cubic Spline" and adds a Gaussian and two fast sincs, which Interlude does not name).
        static var expectedNames: [String] {
            OpenALStack.release >= ALRelease(major: 1, minor: 24, patch: 0)
                ? ["Nearest", "Linear", "Cubic Spline", "4-point Gaussian", "11th order Sinc (fast)", "11th order Sinc",
                   "23rd order Sinc (fast)", "23rd order Sinc"]
                : ["Nearest", "Linear", "Cubic", "11th order Sinc", "23rd order Sinc"]
        }

        @Test(arguments: Resampler.allCases)
        func everyResamplerIsOfferedByThisOpenAL(_ resampler: Resampler) throws {
            let engine = try SoundEngine.streamTestEngine { $0.resampler = resampler }
            let names = try engine.readCore { core in
                Result { try core.device.withContext { device in try ALResamplers.names(using: device.extensions) } }
            }.get()
            #expect(names == .some(Self.expectedNames), "\(OpenALStack.name)")
            #expect((names ?? nil)?.contains { resampler.openALNames.contains($0) } == true)
            engine.shutdown()
        }
    }
}
