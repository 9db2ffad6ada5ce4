import Foundation
import Synchronization
import Testing
@_spi(Tools) @testable import Interlude
@testable import InterludeScene
import SoakScenario

extension EngineSuites {
    /// Fires interruptions, plays, stops, device switches and snapshot saves at one offline
    /// engine from 8 threads while another renders, for INTERLUDE_STRESS_SECONDS (default 10).
    /// Nothing may crash or deadlock, no AL call of the engine's own may fail, and once
    /// everything is ended the engine must be consistent and play again.
    @Suite struct ConcurrencyStressTests {
        static let durationSeconds = ProcessInfo.processInfo.environment["INTERLUDE_STRESS_SECONDS"].flatMap(Double.init) ?? 10

        @Test func eightThreadsOfSessionVoiceAndDeviceCallsLeaveTheEngineConsistent() throws {
            var configuration = SoundEngine.Configuration(output: .offline())
            configuration.runsDriverThread = false
            let folder = NSTemporaryDirectory() + "interlude-stress-\(getpid())"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            configuration.statePath = folder + "/state.json"
            let engine = try SoundEngine(configuration: configuration)
            defer { engine.shutdown() }
            let tone = (0..<4_800).map { sinf(Float($0) * 0.06) * 0.5 }
            let sound = try engine.makeSound(name: "tone", format: AudioFormat(sampleRate: 48_000, channelCount: 1), samples: tone)
            let trackPath = folder + "/track.wav"
            let track = (0..<96_000).map { sinf(Float($0 / 2) * 0.03) * 0.3 }
            try WAVFileWriter.write(samples: track, format: AudioFormat(sampleRate: 48_000, channelCount: 2), sampleType: .float32, to: trackPath)

            let deadline = ContinuousClock.now.advanced(by: .seconds(Self.durationSeconds))
            let log = StressLog()
            let workers: [@Sendable (inout SplitMix64) -> Void] = [
                { _ in log.attempt { _ = try engine.render(frameCount: 480) } },
                { random in
                    switch random.next() % 3 {
                    case 0: engine.beginInterruptionRecordingErrors(reason: .call)
                    case 1: log.attempt { try engine.endInterruption(shouldResume: random.next() % 2 == 0) }
                    default: log.attempt { try engine.activate() }
                    }
                    log.count()
                },
                { random in
                    log.attempt {
                        let parameters = VoiceParameters(position: Vector3(Float(random.next() % 20) - 10, 0, -3), gain: 0.2,
                                                         isLooping: random.next() % 2 == 0)
                        let handle = try engine.play(sound, parameters: parameters)
                        log.handles.withLock { $0.append(handle) }
                    }
                },
                { random in
                    let handle = log.handles.withLock { $0.isEmpty ? nil : $0.remove(at: Int(random.next() % UInt64($0.count))) }
                    if let handle {
                        if random.next() % 4 == 0 { log.attempt { try engine.setGain(0.1, of: handle) } }
                        log.attempt { try engine.stop(handle) }
                    }
                    log.count()
                },
                { random in
                    if random.next() % 2 == 0 { engine.disconnectDevice() } else { log.attempt { try engine.reconnectDevice() } }
                    Thread.sleep(forTimeInterval: 0.002)
                },
                { _ in log.attempt { _ = try engine.savedState() } },
                { random in
                    switch random.next() % 4 {
                    case 0: log.attempt { try engine.playMusic(path: trackPath, gain: 0.4) }
                    case 1: if let music = engine.music() { log.attempt { try engine.pause(music) } } else { log.count() }
                    case 2: if let music = engine.music() { log.attempt { try engine.resume(music) } } else { log.count() }
                    default: _ = engine.musicPosition(); log.count()
                    }
                },
                { random in
                    let handle = log.handles.withLock { $0.last }
                    if let handle { _ = engine.positionInFrames(of: handle); _ = engine.isPlaying(handle) }
                    _ = engine.statistics
                    _ = engine.sessionState
                    engine.update()
                    log.count()
                },
            ]
            #expect(workers.count == 8)
            let group = DispatchGroup()
            for (index, work) in workers.enumerated() {
                let thread = Thread {
                    var random = SplitMix64(seed: UInt64(index + 1) &* 0x9E37_79B9)
                    while ContinuousClock.now < deadline { work(&random) }
                    group.leave()
                }
                group.enter()
                thread.start()
            }
            group.wait()
            #expect(log.unexpected.withLock { $0 }.isEmpty, "\(log.unexpected.withLock { $0 }.prefix(5))")
            #expect(log.calls.load(ordering: .relaxed) > 1_000)

            // Settle: back to an active session on a device, stop everything, and play again.
            log.attempt { try engine.reconnectDevice() }
            try engine.activate()
            #expect(engine.sessionState == .active)
            for handle in log.handles.withLock({ $0 }) { try engine.stop(handle) }
            if let music = engine.music() { try engine.stop(music) }
            _ = try engine.render(frameCount: 4_800)
            var statistics = engine.statistics
            #expect(statistics.internalErrorCount == 0)
            #expect(statistics.voiceCount == 0)
            #expect(statistics.deviceName != nil)
            #expect(statistics.loadedSoundCount == 1)

            let voice = try engine.play(sound, parameters: VoiceParameters(position: nil, gain: 0.5, isLooping: true))
            let samples = try engine.render(frameCount: 4_800)
            let peak = samples.reduce(0) { max($0, abs($1)) }
            #expect(peak > 0.1, "the engine plays after the storm (peak \(peak))")
            try engine.stop(voice)
            statistics = engine.statistics
            #expect(statistics.voiceCount == 0)
            #expect(statistics.internalErrorCount == 0)
            print("stress: \(log.calls.load(ordering: .relaxed)) calls in \(Self.durationSeconds) s; \(statistics)")
        }
    }
}

/// What the stress threads share: the handles they play, the calls made, and any error the API
/// does not document for these calls.
private final class StressLog: Sendable {
    let handles = AnnotatedMutex<[VoiceHandle]>([])
    let unexpected = AnnotatedMutex<[String]>([])
    let calls = Atomic<Int>(0)
    /// Errors the API documents for these calls in these states; anything else is a failure.
    private let allowed: Set<InterludeError.Code> = [.tooManyVoices, .deviceUnavailable, .invalidArgument]

    func count() {
        calls.add(1, ordering: .relaxed)
    }

    func attempt(_ body: () throws -> Void) {
        count()
        do {
            try body()
        } catch let error as InterludeError where allowed.contains(error.code) {
        } catch {
            unexpected.withLock { $0.append("\(error)") }
        }
    }
}
