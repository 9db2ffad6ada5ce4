import Foundation
import Testing
@_spi(Tools) @testable import Interlude

extension EngineSuites {
    /// A sound loaded from a file keeps no Swift copy of its samples: a new device decodes the
    /// file again. What is heard after a device loss and restore is the same as for a sound
    /// whose samples the engine keeps, and a file that changed or vanished meanwhile loses its
    /// sound (an event naming the file, silence for its voices) instead of playing wrong.
    @Suite struct FileSoundRebuildTests {
        /// 1.5 s of stereo: 440 Hz on the left, 660 Hz on the right, at 48 kHz.
        static func stereoTones(frameCount: Int = 72_000, left: Double = 440, right: Double = 660) -> [Float] {
            let leftTone = TestEngine.sineSamples(frequency: left, frameCount: frameCount, amplitude: 0.4)
            let rightTone = TestEngine.sineSamples(frequency: right, frameCount: frameCount, amplitude: 0.3)
            return (0..<frameCount).flatMap { [leftTone[$0], rightTone[$0]] }
        }

        /// How the sound gets to a new device.
        enum Rebuild: String, CaseIterable, CustomTestStringConvertible {
            case lossAndRestore, switchDevice
            var testDescription: String { rawValue }
        }

        /// Plays `sound` looping, unplaced and placed to the right (its mono downmix), renders
        /// across a device loss and restore (or a switch to another device), and returns
        /// everything rendered.
        static func renderAcrossALoss(_ engine: SoundEngine, _ sound: Sound, _ rebuild: Rebuild) throws -> [Float] {
            var looping = VoiceParameters()
            looping.isLooping = true
            looping.gain = 0.5
            try engine.play(sound, parameters: looping)
            var placed = looping
            placed.position = Vector3(3, 0, 0)
            try engine.play(sound, parameters: placed)
            var rendered = try engine.render(frameCount: 30_000)
            switch rebuild {
            case .lossAndRestore:
                engine.disconnectDevice()
                rendered += try engine.render(frameCount: 4_800)
                try engine.reconnectDevice()
            case .switchDevice:
                try engine.switchDevice(to: .offline(sampleRate: 48_000, channelCount: 2))
                rendered += try engine.render(frameCount: 4_800)
            }
            rendered += try engine.render(frameCount: 96_000)
            return rendered
        }

        @Test(arguments: ["16-bit WAV", "Vorbis"], Rebuild.allCases)
        func aFileSoundIsHeardAfterARebuildExactlyAsAKeptOne(source: String, rebuild: Rebuild) throws {
            let folder = try StreamFixtureFolder()
            let wavPath = try folder.writeWAV("tones.wav", Self.stereoTones(), sampleType: .int16)
            let path = source == "Vorbis" ? try folder.encodeOgg(wavPath: wavPath, name: "tones.ogg") : wavPath

            let fileEngine = try TestEngine.offline { $0.runsDriverThread = false }
            defer { fileEngine.shutdown() }
            let fromFile = try fileEngine.loadSound(path: path)
            #expect(fromFile.kept.current == nil, "a loaded file sound keeps no Swift copy")
            #expect(fromFile.isFloat == (source == "Vorbis"))
            let heardFromFile = try Self.renderAcrossALoss(fileEngine, fromFile, rebuild)
            #expect(fromFile.kept.current == nil, "nor does the rebuild make one")
            #expect(fileEngine.statistics.internalErrorCount == 0)

            // The same samples, kept by the engine (makeSound): the reference.
            let keptEngine = try TestEngine.offline { $0.runsDriverThread = false }
            defer { keptEngine.shutdown() }
            let decoded = try DecoderFactory.decodeAll(path: path)
            let kept = try keptEngine.makeSound(name: "kept", format: decoded.format, samples: decoded.samples)
            let heardFromKept = try Self.renderAcrossALoss(keptEngine, kept, rebuild)

            #expect(heardFromFile.count == heardFromKept.count)
            let firstDifference = zip(heardFromFile, heardFromKept).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(firstDifference == nil, "first differing sample \(firstDifference ?? -1)")
            // And it is the tones, after the rebuild as before: 440 Hz on the left.
            let restored = (30_000 + 4_800 + 4_800)..<(30_000 + 4_800 + 96_000)
            let frequency = SignalMeasure.zeroCrossingFrequency(heardFromFile, channel: 0, channelCount: 2, sampleRate: 48_000, frames: restored)
            #expect(abs(frequency - 440) < 15, "left channel at \(frequency) Hz")
            #expect(SignalMeasure.rms(heardFromFile, channel: 0, channelCount: 2, frames: restored) > 0.05)
        }

        @Test func aFileSoundLoadedWhileTheDeviceIsLostPlaysAfterTheRestoreAndLetsItsCopyGo() throws {
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("tones.wav", Self.stereoTones(), sampleType: .int16)
            let engine = try TestEngine.offline { $0.runsDriverThread = false }
            defer { engine.shutdown() }
            engine.disconnectDevice()
            let sound = try engine.loadSound(path: path)
            #expect(sound.kept.current != nil, "no device to write into: kept until uploaded")
            try engine.reconnectDevice()
            #expect(sound.kept.current == nil, "uploaded: the copy went")
            var looping = VoiceParameters()
            looping.isLooping = true
            try engine.play(sound, parameters: looping)
            let rendered = try engine.render(frameCount: 48_000)
            let frequency = SignalMeasure.zeroCrossingFrequency(rendered, channel: 1, channelCount: 2, sampleRate: 48_000, frames: 4_800..<48_000)
            #expect(abs(frequency - 660) < 2, "right channel at \(frequency) Hz")
        }

        @Test func aFileSoundLoadedWhileASwitchIsPreparedIsReadBackFromTheOldDevice() throws {
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("tones.wav", Self.stereoTones(), sampleType: .int16)
            let engine = try TestEngine.offline { $0.runsDriverThread = false }
            defer { engine.shutdown() }
            let output = OutputDevice.offline(sampleRate: 48_000, channelCount: 2)
            // switchDevice(to:) in its three steps, with a load between the first two: the new
            // device is prepared without the sound, which lives only in the old device's buffer.
            let prepared = try engine.withCore("switch") { try $0.router.prepareSwitch(to: output) }
            let sound = try engine.loadSound(path: path)
            #expect(sound.kept.current == nil)
            #expect(prepared.run())
            #expect(prepared.buffers.isEmpty)
            try engine.withCore("switch") { try $0.router.switchDevice(to: output, opened: prepared) }
            #expect(sound.kept.current == nil, "read back, uploaded to the new device, let go")
            var looping = VoiceParameters()
            looping.isLooping = true
            try engine.play(sound, parameters: looping)
            let rendered = try engine.render(frameCount: 48_000)
            let left = SignalMeasure.zeroCrossingFrequency(rendered, channel: 0, channelCount: 2, sampleRate: 48_000, frames: 4_800..<48_000)
            let right = SignalMeasure.zeroCrossingFrequency(rendered, channel: 1, channelCount: 2, sampleRate: 48_000, frames: 4_800..<48_000)
            #expect(abs(left - 440) < 2 && abs(right - 660) < 2, "left \(left) Hz, right \(right) Hz")
            #expect(engine.statistics.internalErrorCount == 0)
        }

        @Test(arguments: ["replaced", "deleted", "shortened", "touched"])
        func aFileChangedBeforeTheRebuildLosesItsSoundNotTheEngine(change: String) throws {
            let folder = try StreamFixtureFolder()
            let path = try folder.writeWAV("tones.wav", Self.stereoTones(), sampleType: .int16)
            let engine = try TestEngine.offline { $0.runsDriverThread = false }
            defer { engine.shutdown() }
            let events = SessionEventLog()
            engine.setEventHandler { event in events.append(event) }
            let sound = try engine.loadSound(path: path)
            // Another sound, kept in memory, plays on throughout: 1 kHz, mono, unplaced.
            let other = try TestEngine.sine(engine, frequency: 1_000, frameCount: 48_000, amplitude: 0.25)
            var looping = VoiceParameters()
            looping.isLooping = true
            let voice = try engine.play(sound, parameters: looping)
            try engine.play(other, parameters: looping)
            _ = try engine.render(frameCount: 9_600)
            engine.disconnectDevice()

            switch change {
            case "replaced": _ = try folder.writeWAV("tones.wav", Self.stereoTones(left: 300, right: 500), sampleType: .int16)
            case "deleted": try FileManager.default.removeItem(atPath: path)
            case "shortened": _ = try folder.writeWAV("tones.wav", Array(Self.stereoTones().prefix(2 * 48_000)), sampleType: .int16)
            default: _ = try folder.writeWAV("tones.wav", Self.stereoTones(), sampleType: .int16)
            }
            try engine.reconnectDevice()
            let rendered = try engine.render(frameCount: 48_000)
            #expect(engine.statistics.internalErrorCount == 0)

            let lost = events.take().compactMap { event -> (String, String)? in
                if case .device(.soundLost(let name, let reason)) = event { return (name, reason) }
                return nil
            }
            if change == "touched" {
                // The same audio written again: nothing is lost, and the tones play on.
                #expect(lost.isEmpty)
                let frequency = SignalMeasure.zeroCrossingFrequency(rendered, channel: 1, channelCount: 2, sampleRate: 48_000, frames: 4_800..<48_000)
                #expect(frequency > 600, "right channel at \(frequency) Hz: the tones and the 1 kHz sine")
                return
            }
            #expect(lost.count == 1)
            #expect(lost.first?.0 == path)
            #expect(lost.first?.1.contains(path) == true, "\(lost.first?.1 ?? "")")
            // Its voice went; only the other sound is heard: 1 kHz, the same on both sides.
            #expect(!engine.isPlaying(voice))
            for channel in 0..<2 {
                let frequency = SignalMeasure.zeroCrossingFrequency(rendered, channel: channel, channelCount: 2, sampleRate: 48_000, frames: 4_800..<48_000)
                #expect(abs(frequency - 1_000) < 2, "channel \(channel) at \(frequency) Hz")
            }
            let left = SignalMeasure.channel(rendered, 0, channelCount: 2)
            let right = SignalMeasure.channel(rendered, 1, channelCount: 2)
            #expect(left == right, "nothing of the stereo tones is left")
            let error = try #require(throws: InterludeError.self) { try engine.play(sound) }
            #expect(error.code == .fileNotFound)
            #expect(error.message.contains(path))
            // Unloaded, the file loads afresh as it is now.
            try engine.unloadSound(sound)
            if change != "deleted" {
                let again = try engine.loadSound(path: path)
                #expect(again !== sound)
                try engine.play(again)
            }
        }
    }
}
