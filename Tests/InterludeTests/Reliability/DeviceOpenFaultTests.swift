import Foundation
import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// Opening a device fails at the raw layer (`ALFaults`: `alcOpenDevice` /
    /// `alcLoopbackOpenDeviceSOFT` returning NULL, `alcCreateContext` failing): the engine's
    /// creation throws a typed error, and a rebuild after a loss fails as often as the device
    /// does, then rebuilds everything on the frame it stopped.
    @Suite struct DeviceOpenFaultTests {
        @Test("Creating an engine whose device will not open or whose context fails throws .deviceUnavailable naming the call; the next one plays")
        func creationFailsThenWorks() throws {
            defer { ALFaults.disarmAll() }
            ALFaults.arm(.openDevice, count: 1)
            let openError = try #require(throws: InterludeError.self) { try TestEngine.offline() }
            #expect(openError.code == .deviceUnavailable)
            #expect(openError.message.contains("alcLoopbackOpenDeviceSOFT"), "\(openError.message)")
            ALFaults.arm(.createContext, count: 1)
            let contextError = try #require(throws: InterludeError.self) { try TestEngine.offline() }
            #expect(contextError.code == .deviceUnavailable)
            #expect(contextError.message.contains("alcCreateContext: ALC_INVALID_VALUE"), "\(contextError.message)")

            let engine = try TestEngine.offline()
            let tone = try TestEngine.sine(engine)
            try engine.play(tone)
            let rendered = try engine.render(frameCount: TestEngine.sampleRate / 2)
            #expect(SignalMeasure.rms(rendered, channel: 0, channelCount: 2) > 0.1)
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test("A rebuild whose device fails to open twice and whose context fails once throws each time, stays silent, then resumes on the frame")
        func rebuildRetriesThenResumesOnTheFrame() throws {
            defer { ALFaults.disarmAll() }
            let rig = try SessionRig()
            // A silent looping voice beside the sweep: its position is checked, its sound would
            // blur the sweep's frequency.
            let tone = try TestEngine.sine(rig.engine, frequency: 1000, frameCount: 3 * TestEngine.sampleRate)
            try rig.engine.playMusic(path: SessionAssets.sweep)
            let hum = try rig.engine.play(tone, parameters: VoiceParameters(position: nil, gain: 0, isLooping: true))
            try rig.render(seconds: 1)
            let baseline = rig.engine.statistics
            let lossFrame = rig.frame
            rig.engine.disconnectDevice()
            let held = try #require(rig.engine.musicPosition())
            let humHeld = try #require(rig.engine.positionInFrames(of: hum))
            _ = rig.takeEvents()

            ALFaults.arm(.openDevice, count: 2)
            ALFaults.arm(.createContext, count: 1)
            let expectedCalls = ["alcLoopbackOpenDeviceSOFT", "alcLoopbackOpenDeviceSOFT", "alcCreateContext"]
            for (attempt, call) in expectedCalls.enumerated() {
                let error = try #require(throws: InterludeError.self) { try rig.engine.reconnectDevice() }
                #expect(error.code == .deviceUnavailable)
                #expect(error.message.contains(call), "attempt \(attempt): \(error.message)")
                let lost = try rig.render(seconds: 0.1)
                #expect(rig.isExactlySilent(lost), "attempt \(attempt)")
                #expect(rig.engine.sessionState == .interrupted(reason: .deviceLost))
                #expect(rig.engine.statistics.alSourceCount == 0)
                #expect(rig.engine.statistics.deviceReopenAttemptCount == baseline.deviceReopenAttemptCount + attempt + 1)
            }
            #expect(rig.engine.musicPosition() == held)
            #expect(rig.engine.positionInFrames(of: hum) == humHeld)

            let restoreFrame = rig.frame
            try rig.engine.reconnectDevice()
            let events = rig.takeEvents()
            #expect(events.contains(.music(.resumed(positionInFrames: held))))
            #expect(events.contains(.voice(.resumed(hum, positionInFrames: humHeld))))
            try rig.render(seconds: 0.5)
            let window = 2_400
            let before = rig.sweepSeconds(at: lossFrame - window..<lossFrame) + Double(window) / Double(rig.sampleRate)
            let after = rig.sweepSeconds(at: restoreFrame..<restoreFrame + window)
            #expect(abs(after - before) < 0.005, "resumed \((after - before) * 1000) ms away from where it stopped")
            let statistics = rig.engine.statistics
            #expect(statistics.alSourceCount == baseline.alSourceCount)
            #expect(statistics.alBufferCount == baseline.alBufferCount)
            #expect(statistics.internalErrorCount == 0)
        }
    }
}
