import Foundation
import Testing
@_spi(Tools) import Interlude

extension EngineSuites {
    /// Found while writing the soak (and confirmed: this test fails without the fix): an offline engine reopened a lost device by itself once 100 ms of wall
    /// time had passed, so a render's `device.lost` ... `device.restored` span ended at a frame that
    /// depended on the machine's speed (and sounded inside the loss). Offline, only
    /// reconnectDevice() restores the device.
    @Suite struct OfflineDeviceLossTests {
        @Test func aLostOfflineDeviceStaysLostUntilReconnectDeviceHoweverLongTheRenderTakes() throws {
            var configuration = SoundEngine.Configuration(output: .offline())
            configuration.runsDriverThread = false
            let engine = try SoundEngine(configuration: configuration)
            defer { engine.shutdown() }
            let sound = try engine.makeSound(name: "tone", format: AudioFormat(sampleRate: 48_000, channelCount: 1),
                                             samples: (0..<4_800).map { sinf(Float($0) * 0.06) * 0.5 })
            try engine.play(sound, parameters: VoiceParameters(position: nil, isLooping: true))
            #expect(try engine.render(frameCount: 4_800).contains { $0 != 0 })
            engine.disconnectDevice()
            // Longer than the realtime driver's first reopen backoff (100 ms).
            Thread.sleep(forTimeInterval: 0.25)
            let duringLoss = try engine.render(frameCount: 48_000)
            #expect(duringLoss.allSatisfy { $0 == 0 })
            #expect(engine.statistics.deviceName == nil)
            #expect(engine.sessionState == .interrupted(reason: .deviceLost))
            try engine.reconnectDevice()
            #expect(try engine.render(frameCount: 4_800).contains { $0 != 0 })
            #expect(engine.statistics.internalErrorCount == 0)
        }
    }
}
