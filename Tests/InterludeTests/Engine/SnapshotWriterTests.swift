import Foundation
import Synchronization
import Testing
@testable import Interlude

/// Snapshots are encoded and written off the engine lock, in order, latest wins.
extension EngineSuites {
    @Suite struct SnapshotWriterTests {
        /// Polls `condition` until it holds or `seconds` pass.
        static func eventually(within seconds: Double = 30, _ condition: () -> Bool) -> Bool {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < deadline {
                if condition() { return true }
                Thread.sleep(forTimeInterval: 0.002)
            }
            return condition()
        }

        @Test("While a snapshot write is stuck, game calls complete; the begin returns once the latest snapshot is on disk")
        func gameCallsDoNotWaitForTheWrite() throws {
            let folder = try SessionAssets.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let statePath = folder + "/state.json"
            let rig = try SessionRig(statePath: statePath)
            defer { rig.engine.shutdown() }
            let tone = try rig.engine.loadSound(path: SessionAssets.tone440)
            let voice = try rig.engine.play(tone, parameters: VoiceParameters(position: Vector3(0, 0, -2), isLooping: true))
            try rig.render(seconds: 0.1)
            let writer = try #require(rig.engine.readCore { $0.snapshotWriter })
            // The disk does not answer: the writer stops before it takes a snapshot.
            writer.hold(true)
            var released = false
            defer { if !released { writer.hold(false) } }

            let firstBeginReturned = Atomic<Bool>(false)
            let first = Thread { [engine = rig.engine] in
                try? engine.beginInterruption(reason: .focusLost)
                firstBeginReturned.store(true, ordering: .releasing)
            }
            first.start()
            #expect(Self.eventually { writer.lastSubmitted == 1 }, "the begin handed its snapshot over")

            // The game keeps calling, on its own thread: if the write held the engine lock, none
            // of these could complete until the writer is let go.
            let callCount = 200
            let completed = Atomic<Int>(0)
            var moved = Listener()
            moved.position = Vector3(7, 0, 0)
            let game = Thread { [engine = rig.engine, moved] in
                for index in 0..<callCount {
                    try? engine.setPosition(Vector3(Float(index % 10), 0, -2), of: voice)
                    _ = try? engine.play(tone)
                    completed.wrappingAdd(1, ordering: .releasing)
                }
                try? engine.setListener(moved)
                try? engine.endInterruption(shouldResume: true)
                // A second snapshot, handed over while the first still waits.
                try? engine.beginInterruption(reason: .call)
            }
            game.start()
            #expect(Self.eventually { completed.load(ordering: .acquiring) == callCount },
                    "\(completed.load(ordering: .acquiring)) of \(callCount) game calls completed while the write was stuck")
            #expect(Self.eventually { writer.lastSubmitted == 2 }, "the second begin handed its snapshot over")
            // By order, not time: nothing was written yet, and the first begin still waits for it.
            #expect(writer.lastWritten == 0)
            #expect(!FileManager.default.fileExists(atPath: statePath))
            let returnedBeforeTheWrite = firstBeginReturned.load(ordering: .acquiring)
            #expect(!returnedBeforeTheWrite)

            writer.hold(false)
            released = true
            #expect(Self.eventually { firstBeginReturned.load(ordering: .acquiring) }, "the begin returned once the write went through")
            // The latest snapshot won: the listener the game set after the first begin.
            let saved = try SavedState.read(from: statePath)
            #expect(saved.listener == moved)
            #expect(saved.loopingVoices.count == 1)
            #expect(writer.lastWritten == 2)
            #expect(rig.engine.sessionState == .interrupted(reason: .call))
        }

        @Test("Shutdown returns once its snapshot is on disk")
        func shutdownWaitsForItsSnapshot() throws {
            let folder = try SessionAssets.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let statePath = folder + "/state.json"
            let rig = try SessionRig(statePath: statePath)
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 0.5)
            rig.engine.shutdown()
            let saved = try SavedState.read(from: statePath)
            let track = try #require(saved.tracks.first)
            #expect(abs(track.positionInFrames - 22_050) <= 44, "saved at \(track.positionInFrames)")
        }
    }
}
