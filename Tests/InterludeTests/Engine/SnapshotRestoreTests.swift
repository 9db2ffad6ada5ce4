import Foundation
import Testing
@testable import Interlude

/// Snapshots written on interruption and shutdown, read back and restored in a new engine.
extension EngineSuites {
    @Suite struct SnapshotRestoreTests {
        @Test("Round trip: interrupt at 1.5 s (snapshot written), shut down, restore: the music continues from the saved frame")
        func roundTrip() throws {
            let folder = try SessionAssets.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let statePath = folder + "/state.json"
            var listener = Listener()
            listener.position = Vector3(1, 0, 0)
            do {
                let rig = try SessionRig(statePath: statePath)
                let tone = try rig.engine.loadSound(path: SessionAssets.tone440)
                try rig.engine.playMusic(path: SessionAssets.sweep)
                let ambience = try rig.engine.makeGroup(named: "ambience")
                try rig.engine.setGain(0, of: ambience)
                try rig.engine.setListener(listener)
                try rig.engine.play(tone, parameters: VoiceParameters(position: Vector3(0, 0, -2), isLooping: true, group: ambience))
                try rig.render(seconds: 1.5)
                try rig.engine.beginInterruption(reason: .focusLost)
                let written = try SavedState.read(from: statePath)
                let track = try #require(written.tracks.first)
                #expect(abs(track.positionInFrames - 66_150) <= 44, "saved at \(track.positionInFrames)")
                #expect(track.wasPlaying)
                rig.engine.shutdown()
            }
            let snapshot = try SavedState.read(from: statePath)
            let saved = try #require(snapshot.tracks.first).positionInFrames
            #expect(snapshot.loopingVoices.count == 1)
            let voiceFrame = try #require(snapshot.loopingVoices.first).positionInFrames

            let rig = try SessionRig()
            try rig.engine.restore(snapshot)
            #expect(rig.engine.musicPosition() == saved)
            #expect(rig.engine.isTrackPlaying())
            #expect(rig.engine.listener == listener)
            #expect(rig.engine.gain(of: try #require(rig.engine.group(named: "ambience"))) == 0)
            #expect(rig.engine.statistics.voiceCount == 1)
            #expect(rig.engine.readCore { $0.voiceTable.liveVoices.first?.positionInFrames } == voiceFrame)
            try rig.render(seconds: 0.3)
            let error = (rig.sweepSeconds(at: 0..<2_400) - Double(saved) / 44_100) * 1000
            print("snapshot restore: music starts \(error) ms from the saved frame")
            #expect(abs(error) < 5)
            #expect(rig.engine.statistics.internalErrorCount == 0)
        }

        @Test("The game parameters and the mix snapshots are saved, and a fresh engine that made them is restored to their values and heard so")
        func parametersAndSnapshots() throws {
            func makeDesign(_ engine: SoundEngine) throws -> MixSnapshotID {
                try engine.makeParameter(named: "speed", range: 0...10)
                return try engine.makeMixSnapshot(named: "quiet", groups: [.sfx: GroupMix(gain: 0.25)])
            }
            let first = try SessionRig()
            let quiet = try makeDesign(first.engine)
            try first.engine.setParameter(7, of: "speed")
            try first.engine.blendIn(quiet)
            let saved = try first.engine.savedState()
            #expect(saved.parameterValues == ["speed": 7])
            #expect(saved.snapshotIntensities == ["quiet": 1])

            // A fresh engine with the same parameter and snapshot, before and after the restore.
            let rig = try SessionRig()
            let restoredQuiet = try makeDesign(rig.engine)
            let tone = try rig.engine.loadSound(path: SessionAssets.tone440)
            let voice = try rig.engine.play(tone, parameters: VoiceParameters(position: nil, isLooping: true))
            let before = rig.rms(try rig.render(seconds: 0.2))
            try rig.engine.restore(saved)
            #expect(rig.engine.parameterValue(of: "speed") == 7)
            #expect(rig.engine.intensity(of: restoredQuiet) == 1)
            try rig.render(seconds: 0.05)
            let after = rig.rms(try rig.render(seconds: 0.2))
            #expect(abs(after / before - 0.25) < 0.01, "level \(after / before) of before, the snapshot's 0.25 expected")
            #expect(rig.engine.isPlaying(voice))

            // An engine that has not made them: each is named, nothing else is lost.
            let bare = try SessionRig()
            let error = #expect(throws: InterludeError.self) { try bare.engine.restore(saved) }
            #expect(error?.message.contains("speed") == true && error?.message.contains("quiet") == true, "\(error?.message ?? "")")
        }

        @Test("A cue's looping voice is saved with its cue and restored as the cue's own: its curve follows the parameter after the restore")
        func cueVoiceFollowsItsCurveAfterRestore() throws {
            func makeDesign(_ engine: SoundEngine) throws -> CueID {
                try engine.makeParameter(named: "speed", range: 0...10)
                var hum = CueDefinition(variants: [try engine.loadSound(path: SessionAssets.tone440)])
                hum.isLooping = true
                hum.curves = [CueCurve(.gain, parameter: "speed", points: [.init(x: 0, y: 0.25), .init(x: 10, y: 1)])]
                return try engine.makeCue(named: "hum", hum)
            }
            let first = try SessionRig()
            try first.engine.play(cue: try makeDesign(first.engine))
            let saved = try first.engine.savedState()
            #expect(saved.loopingVoices.map(\.cueName) == ["hum"])

            let rig = try SessionRig()
            _ = try makeDesign(rig.engine)
            try rig.engine.restore(saved)
            try rig.render(seconds: 0.05)
            let quiet = rig.rms(try rig.render(seconds: 0.2))
            try rig.engine.setParameter(10, of: "speed")
            try rig.render(seconds: 0.05)
            let loud = rig.rms(try rig.render(seconds: 0.2))
            #expect(quiet > 0.01)
            #expect(abs(loud / quiet - 4) < 0.1, "the restored voice went from \(quiet) to \(loud): its curve does not follow")

            // Without the cue made, the voice is restored as a plain looping voice.
            let bare = try SessionRig()
            try bare.engine.makeParameter(named: "speed", range: 0...10)
            try bare.engine.restore(saved)
            #expect(bare.engine.statistics.voiceCount == 1)
        }

        @Test("A track saved paused is restored loaded and paused at its frame")
        func pausedTrack() throws {
            let snapshot = SavedState(
                tracks: [.init(path: SessionAssets.sweep, channel: .music, positionInFrames: 220_500, isLooping: true,
                               gain: 1, wasPlaying: false)],
                loopingVoices: [], groupGains: [:], listener: Listener())
            let rig = try SessionRig()
            try rig.engine.restore(snapshot)
            #expect(!rig.engine.isTrackPlaying())
            #expect(rig.engine.musicPosition() == 220_500)
            let paused = try rig.render(seconds: 0.2)
            #expect(rig.isExactlySilent(paused))
            try rig.engine.resume(rig.engine.track())
            let start = rig.frame
            try rig.render(seconds: 0.2)
            let error = (rig.sweepSeconds(at: start..<start + 2_400) - 5.0) * 1000
            #expect(abs(error) < 5, "\(error) ms")
        }

        @Test("A missing sound is reported by name and everything else is still restored")
        func missingSound() throws {
            let missing = "/nonexistent/interlude-gone.wav"
            var voice = VoiceParameters()
            voice.isLooping = true
            let snapshot = SavedState(
                tracks: [.init(path: SessionAssets.sweep, channel: .music, positionInFrames: 44_100, isLooping: true,
                               gain: 1, wasPlaying: true)],
                loopingVoices: [.init(soundPath: missing, parameters: voice, positionInFrames: 0, wasPlaying: true),
                                .init(soundPath: SessionAssets.tone440, parameters: voice, positionInFrames: 100, wasPlaying: true)],
                groupGains: ["sfx": 0.5], listener: Listener())
            let rig = try SessionRig()
            let error = #expect(throws: InterludeError.self) { try rig.engine.restore(snapshot) }
            #expect(error?.code == .fileNotFound)
            #expect(error?.message.contains(missing) == true)
            #expect(rig.engine.isTrackPlaying())
            #expect(rig.engine.musicPosition() == 44_100)
            #expect(rig.engine.statistics.voiceCount == 1)
            #expect(rig.engine.gain(of: .sfx) == 0.5)
        }

        @Test("A corrupt or missing snapshot file is .badSavedState naming the file")
        func badFiles() throws {
            let folder = try SessionAssets.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let corrupt = folder + "/corrupt.json"
            try Data(#"{"version": 1, "tracks": [{"path": 3"#.utf8).write(to: URL(fileURLWithPath: corrupt))
            let corruptError = #expect(throws: InterludeError.self) { try SavedState.read(from: corrupt) }
            #expect(corruptError?.code == .badSavedState)
            #expect(corruptError?.message.contains(corrupt) == true)
            let missing = folder + "/missing.json"
            let missingError = #expect(throws: InterludeError.self) { try SavedState.read(from: missing) }
            #expect(missingError?.code == .badSavedState)
            #expect(missingError?.message.contains(missing) == true)
        }
    }
}
