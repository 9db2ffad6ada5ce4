import Foundation
@testable import Interlude

/// Offline engines and generated sounds for engine tests. Use only inside ``EngineSuites``.
enum TestEngine {
    static let sampleRate = 48_000

    /// An offline (loopback) engine at 48 kHz stereo unless told otherwise.
    static func offline(sampleRate: Int = sampleRate, channelCount: Int = 2,
                        _ adjust: (inout SoundEngine.Configuration) -> Void = { _ in }) throws -> SoundEngine {
        var configuration = SoundEngine.Configuration(output: .offline(sampleRate: sampleRate, channelCount: channelCount))
        configuration.mediaRole = nil
        adjust(&configuration)
        return try SoundEngine(configuration: configuration)
    }

    /// Mono sine samples.
    static func sineSamples(frequency: Double, frameCount: Int, sampleRate: Int = sampleRate, amplitude: Float = 0.5) -> [Float] {
        (0..<frameCount).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / Double(sampleRate))) }
    }

    /// A mono sine sound. A whole number of periods when `frameCount` allows, so it loops cleanly.
    static func sine(_ engine: SoundEngine, frequency: Double = 440, frameCount: Int = 48_000,
                     sampleRate: Int = sampleRate, amplitude: Float = 0.5) throws -> Sound {
        try engine.makeSound(name: "sine\(Int(frequency))", format: AudioFormat(sampleRate: sampleRate, channelCount: 1),
                             samples: sineSamples(frequency: frequency, frameCount: frameCount, sampleRate: sampleRate, amplitude: amplitude))
    }

    /// A stereo sound with a sine on the left and exact zeros on the right.
    static func leftOnlySine(_ engine: SoundEngine, frequency: Double = 500, frameCount: Int = 48_000) throws -> (Sound, [Float]) {
        let mono = sineSamples(frequency: frequency, frameCount: frameCount)
        var samples = [Float](repeating: 0, count: 2 * frameCount)
        for frame in 0..<frameCount { samples[2 * frame] = mono[frame] }
        let sound = try engine.makeSound(name: "leftSine", format: AudioFormat(sampleRate: sampleRate, channelCount: 2), samples: samples)
        return (sound, mono)
    }
}
