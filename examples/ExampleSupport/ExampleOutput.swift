import Foundation
import Interlude
import InterludeScene
import Logging

/// Where an example's sound goes: the default device when one opens, otherwise (on OpenAL Soft's
/// null backend, where nothing is heard) an offline engine whose render is written to
/// `renders/NAME.wav`, so every example runs headless too.
public final class ExampleOutput {
    /// The engine to use.
    public let engine: SoundEngine
    /// True when playing on a real device.
    public let isLive: Bool
    private let name: String
    private var rendered: [Float] = []

    /// The repository's root, for assets and renders.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The path of a file in assets/.
    public static func asset(_ relativePath: String) -> String {
        packageRoot.appendingPathComponent("assets").appendingPathComponent(relativePath).path
    }

    /// The engine's routine log stays out of an example's output; errors still show.
    private static let quietLogging: Void = LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = .error
        return handler
    }

    /// Opens the default device, or an offline engine with `configure` applied to either.
    public init(name: String, configure: (inout SoundEngine.Configuration) -> Void = { _ in }) throws {
        Self.quietLogging
        self.name = name
        var live = SoundEngine.Configuration(output: .systemDefaultOrNull)
        configure(&live)
        let liveEngine = CommandLine.arguments.contains("--offline") ? nil : try? SoundEngine(configuration: live)
        if let liveEngine, liveEngine.currentOutput != .null {
            self.engine = liveEngine
            isLive = true
        } else {
            liveEngine?.shutdown()
            var offline = live
            offline.output = .offline(sampleRate: 48_000, channelCount: 2)
            engine = try SoundEngine(configuration: offline)
            isLive = false
        }
    }

    /// Lets `seconds` of audio happen: waits on a real device, renders offline.
    /// Returns the rendered samples offline (interleaved stereo), nothing live.
    @discardableResult
    public func advance(seconds: Double) throws -> [Float] {
        if isLive {
            Thread.sleep(forTimeInterval: seconds)
            return []
        }
        let samples = try engine.render(frameCount: Int(seconds * 48_000))
        rendered += samples
        return samples
    }

    /// Shuts the engine down; offline, writes the render and says where.
    public func finish() throws {
        engine.shutdown()
        guard !isLive else { return }
        let folder = Self.packageRoot.appendingPathComponent("renders")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("\(name).wav").path
        try WAVFileWriter.write(samples: rendered, format: AudioFormat(sampleRate: 48_000, channelCount: 2), sampleType: .int16, to: path)
        print("(no sound device: rendered offline to \(path))")
    }

    /// RMS of one channel of interleaved stereo samples.
    public static func rms(_ samples: [Float], channel: Int) -> Double {
        let frameCount = samples.count / 2
        guard frameCount > 0 else { return 0 }
        var sum = 0.0
        for frame in 0..<frameCount { sum += Double(samples[2 * frame + channel] * samples[2 * frame + channel]) }
        return (sum / Double(frameCount)).squareRoot()
    }
}
