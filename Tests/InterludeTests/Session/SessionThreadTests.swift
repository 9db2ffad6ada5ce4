import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Interlude

/// Interruptions fired from other threads while the game's thread plays, stops and renders.
/// Run under the thread sanitizer too: `swift test --sanitize=thread --filter SessionThreadTests`.
/// It passes there, but TSan prints warnings: on Linux it cannot see Synchronization.Mutex (a
/// futex lock in the uninstrumented standard library), so every pair of accesses made under the
/// engine's lock is reported. An 8-line program incrementing a counter under a Mutex from four
/// threads gets the same reports with the right total; every report here had both accesses
/// inside the engine's lock.
extension EngineSuites {
    @Suite struct SessionThreadTests {
        @Test("Begins, ends and activations from four threads while the test thread plays, stops and renders")
        func interruptionsFromOtherThreads() throws {
            let rig = try SessionRig(sampleRate: 8_000, channelCount: 1)
            let engine = rig.engine
            let format = AudioFormat(sampleRate: 8_000, channelCount: 1)
            let samples = (0..<400).map { Float(0.3 + 0.2 * sin(Double($0) * 0.4)) }
            let sound = try engine.makeSound(name: "thread", format: format, samples: samples)
            try engine.playMusic(path: SessionAssets.sweep)

            let done = Atomic<Int>(0)
            let workers = 4
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    var generator = SystemRandomNumberGenerator()
                    for _ in 0..<400 {
                        switch Int.random(in: 0..<5, using: &generator) {
                        case 0, 1: engine.beginInterruptionRecordingErrors(reason: InterruptionReason("thread\(worker)"))
                        case 2, 3: try? engine.endInterruption(shouldResume: Bool.random(using: &generator))
                        default: try? engine.activate()
                        }
                        _ = engine.sessionState
                        _ = engine.musicPosition()
                        if Bool.random(using: &generator) { usleep(UInt32.random(in: 0...200, using: &generator)) }
                    }
                    done.add(1, ordering: .releasing)
                }
            }

            var handles: [VoiceHandle] = []
            var renders = 0
            var silentWhileInterrupted = true
            var musicShouldPlay = true
            while done.load(ordering: .acquiring) < workers || renders < 50 {
                switch renders % 7 {
                case 0:
                    var parameters = VoiceParameters()
                    parameters.isLooping = renders % 2 == 0
                    handles.append(try engine.play(sound, parameters: parameters))
                case 1: if let handle = handles.randomElement() { try engine.pause(handle) }
                case 2: if let handle = handles.randomElement() { try engine.resume(handle) }
                case 3: if !handles.isEmpty { try engine.stop(handles.removeFirst()) }
                case 4: try engine.playSystemSound(sound)
                case 5:
                    musicShouldPlay.toggle()
                    if musicShouldPlay { try engine.resume(engine.track()) } else { try engine.pause(engine.track()) }
                default: break
                }
                // Render under the engine's lock so the session cannot change in between.
                var block = [Float](repeating: 1, count: 256)
                let wasInterrupted = engine.readCore { core -> Bool in
                    let interrupted = !core.session.state.isActive
                    block.withUnsafeMutableBufferPointer { block in
                        var rendered = 0
                        while rendered < block.count {
                            rendered += core.renderStretch(into: block.baseAddress! + rendered, frameCount: block.count - rendered, channelCount: 1)
                        }
                    }
                    return interrupted
                }
                if wasInterrupted && block.contains(where: { $0 != 0 }) { silentWhileInterrupted = false }
                renders += 1
            }

            #expect(silentWhileInterrupted)
            try engine.activate()
            #expect(engine.sessionState == .active)
            #expect(rig.engineContextIsCurrent)
            // The test thread's last music command decides, whether it was given while active or tracked.
            #expect(engine.isTrackPlaying() == musicShouldPlay)
            let events = rig.takeEvents()
            let began = events.filter { if case .session(.began) = $0 { true } else { false } }.count
            let ended = events.filter {
                switch $0 {
                case .session(.ended), .session(.activated): true
                default: false
                }
            }.count
            print("threads: \(renders) renders, \(began) begins, \(ended) ends/activations, \(events.count) events")
            #expect(began == ended, "every begin was ended exactly once")
            for handle in handles { try engine.stop(handle) }
            try engine.stop(engine.track())
            try rig.render(frames: 800)
            let pooled = engine.readCore { $0.alRenderer.freeSourceCount }
            let statistics = engine.statistics
            #expect(statistics.voiceCount == 0)
            #expect(statistics.alSourceCount == pooled)
            #expect(statistics.internalErrorCount == 0)
        }
    }
}
