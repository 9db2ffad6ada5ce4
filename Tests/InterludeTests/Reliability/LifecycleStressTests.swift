import Foundation
import SoakScenario
import Synchronization
import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// Offline engines created and destroyed from 8 threads at once, for
    /// INTERLUDE_LIFECYCLE_SECONDS (default 5): each plays, renders, is interrupted from several
    /// sources, moves the listener, and then ends in one of four ways: shut down during an
    /// interruption, during a device loss (a rebuild pending), during a fade, or by dropping its
    /// last reference (deinit shuts it down). An engine released on its own driver thread is
    /// DriverThreadTests' (a child process: the null backend must be chosen before OpenAL Soft
    /// starts, so it cannot be opened in this process once another test has started it). Nothing may crash or deadlock, no AL call of an engine's
    /// own may fail, and every ending must have been reached.
    @Suite struct LifecycleStressTests {
        static let durationSeconds = ProcessInfo.processInfo.environment["INTERLUDE_LIFECYCLE_SECONDS"].flatMap(Double.init) ?? 5
        static let threadCount = 8

        enum Ending: Int, CaseIterable { case duringInterruption, duringDeviceLoss, duringFade, lastReferenceDropped }

        final class Tally: Sendable {
            let endings = AnnotatedMutex<[Int]>(Array(repeating: 0, count: Ending.allCases.count))
            let failures = AnnotatedMutex<[String]>([])
            let finishedThreads = Atomic<Int>(0)

            func record(_ failure: String) { failures.withLock { $0.append(failure) } }
        }

        @Test("engines created, used and destroyed from 8 threads at once end cleanly every way")
        func enginesComeAndGoFromManyThreads() throws {
            let tally = Tally()
            let deadline = ContinuousClock.now + .seconds(Self.durationSeconds)
            for thread in 0..<Self.threadCount {
                Thread.detachNewThread {
                    var random = SplitMix64(seed: 0x11FE_C7C1 &+ UInt64(thread))
                    var lifecycle = 0
                    while ContinuousClock.now < deadline {
                        do {
                            try Self.lifecycle(ending: Ending(rawValue: lifecycle % Ending.allCases.count)!, random: &random, tally: tally)
                        } catch {
                            tally.record("thread \(thread), lifecycle \(lifecycle): \(error)")
                        }
                        lifecycle += 1
                    }
                    tally.finishedThreads.add(1, ordering: .releasing)
                }
            }
            // A deadlock shows as threads that never finish.
            let limit = ContinuousClock.now + .seconds(Self.durationSeconds + 120)
            while tally.finishedThreads.load(ordering: .acquiring) < Self.threadCount && ContinuousClock.now < limit {
                Thread.sleep(forTimeInterval: 0.01)
            }
            let finished = tally.finishedThreads.load(ordering: .acquiring)
            try #require(finished == Self.threadCount, "\(Self.threadCount - finished) threads never finished: a deadlock")
            let failures = tally.failures.withLock { $0 }
            #expect(failures.isEmpty, "\(failures.prefix(10))")
            let endings = tally.endings.withLock { $0 }
            for ending in Ending.allCases {
                #expect(endings[ending.rawValue] > 0, "no engine ended \(ending)")
            }
            print("lifecycle stress: \(endings.reduce(0, +)) engines from \(Self.threadCount) threads in \(Self.durationSeconds) s; endings \(endings)")
        }

        /// One engine's life, ended as `ending` says.
        static func lifecycle(ending: Ending, random: inout SplitMix64, tally: Tally) throws {
            var configuration = SoundEngine.Configuration(output: .offline(sampleRate: 8_000, channelCount: 1))
            configuration.mediaRole = nil
            let live = try SoundEngine(configuration: configuration)
            let tone = TestEngine.sineSamples(frequency: 440, frameCount: 800, sampleRate: 8_000)
            let sound = try live.makeSound(name: "tone", format: AudioFormat(sampleRate: 8_000, channelCount: 1), samples: tone)
            var parameters = VoiceParameters()
            parameters.isLooping = true
            let voice = try live.play(sound, parameters: parameters)
            try live.play(sound)
            let sources = ["game", "call", "sleep"].map { InterruptionSource($0) }
            for _ in 0..<Int.random(in: 2...6, using: &random) {
                switch Int.random(in: 0..<5, using: &random) {
                case 0: try live.beginInterruption(reason: .call, source: sources.randomElement(using: &random)!)
                case 1: try live.endInterruption(shouldResume: true, source: sources.randomElement(using: &random)!)
                case 2: try live.activate()
                case 3: try live.changeListener { $0.position.x += 1 }
                default: _ = try live.render(frameCount: Int.random(in: 16...400, using: &random))
                }
            }
            try live.activate()
            if live.statistics.internalErrorCount != 0 { tally.record("internal AL errors: \(live.statistics.internalErrorCount)") }
            switch ending {
            case .duringInterruption:
                try live.beginInterruption(reason: .call, source: .game)
                live.shutdown()
            case .duringDeviceLoss:
                live.disconnectDevice()
                live.shutdown()
            case .duringFade:
                try live.setGain(0, of: voice, fadeSeconds: 5)
                try live.setGain(0.1, of: .sfx, fadeSeconds: 5)
                _ = try live.render(frameCount: 160)
                live.shutdown()
            case .lastReferenceDropped:
                // No shutdown: the last reference goes when this function returns, and deinit
                // shuts the engine down on this thread while the other threads run theirs.
                break
            }
            tally.endings.withLock { $0[ending.rawValue] += 1 }
        }
    }
}
