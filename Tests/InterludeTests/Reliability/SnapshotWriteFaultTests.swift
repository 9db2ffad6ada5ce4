import Foundation
import Testing
@testable import Interlude

extension EngineSuites {
    /// The snapshot path on a file system that refuses the write: really full (ENOSPC, a 64 KB
    /// tmpfs filled up) or really read-only (EROFS, the tmpfs remounted read-only). The previous
    /// snapshot stays byte for byte, no temporary file is left beside it, the game's own write
    /// gets a typed error naming the path, and the engine's automatic snapshots never stop the
    /// audio: the game hears of their failure through `snapshotWriteFailed`.
    @Suite(.enabled(if: TmpfsMount.isAvailable, "this machine forbids this user a user and mount namespace (unshare -r -m), where the tmpfs is mounted"))
    struct SnapshotWriteFaultTests {
        enum Fault: String, CaseIterable {
            case noSpace, readOnly

            /// strerror's words for the fault.
            var systemMessage: String {
                switch self {
                case .noSpace: "No space left on device"
                case .readOnly: "Read-only file system"
                }
            }
        }

        /// A tmpfs holding a previous snapshot at `state.json`, then made to fail.
        struct FailingFolder {
            let mount: TmpfsMount
            let fault: Fault
            let statePath: String
            let previousBytes: Data
            let previous: SavedState

            init(_ fault: Fault) throws {
                mount = try TmpfsMount(sizeKilobytes: 64)
                self.fault = fault
                statePath = mount.path("state.json")
                previous = SavedState(tracks: [], loopingVoices: [], groupGains: ["sfx": 0.25], listener: Listener())
                try previous.write(to: statePath)
                previousBytes = try Data(contentsOf: URL(fileURLWithPath: statePath))
                switch fault {
                case .noSpace: try mount.fill(name: "filler")
                case .readOnly: try mount.remount(readOnly: true)
                }
            }

            /// The folder's names, hidden ones included.
            var names: [String] {
                get throws { try FileManager.default.contentsOfDirectory(atPath: mount.directory.path).sorted() }
            }

            /// Only the previous snapshot (and the filler) are there, and the snapshot is intact.
            func expectPreviousKept(sourceLocation: SourceLocation = #_sourceLocation) throws {
                #expect(try Data(contentsOf: URL(fileURLWithPath: statePath)) == previousBytes,
                        "the previous snapshot changed", sourceLocation: sourceLocation)
                #expect(try names == (fault == .noSpace ? ["filler", "state.json"] : ["state.json"]),
                        "a temporary file was left", sourceLocation: sourceLocation)
            }

            /// The errors of the `snapshotWriteFailed` events among `events`, with their paths.
            static func snapshotFailures(in events: [EngineEvent]) -> [(path: String, error: InterludeError)] {
                events.compactMap { event in
                    guard case .savedStateWriteFailed(let path, let error) = event else { return nil }
                    return (path, error)
                }
            }

            /// `events` hold exactly one `snapshotWriteFailed`: for the state path, `writeFailed`
            /// naming it and the fault.
            func expectOneFailure(in events: [EngineEvent], sourceLocation: SourceLocation = #_sourceLocation) {
                let failures = Self.snapshotFailures(in: events)
                #expect(failures.count == 1, "\(events)", sourceLocation: sourceLocation)
                guard let failure = failures.first else { return }
                #expect(failure.path == statePath, sourceLocation: sourceLocation)
                #expect(failure.error.code == .writeFailed, sourceLocation: sourceLocation)
                #expect(failure.error.message.hasPrefix(statePath + ": ") && failure.error.message.contains(fault.systemMessage),
                        "\(failure.error.message)", sourceLocation: sourceLocation)
            }

            /// Takes the fault away.
            func clear() throws {
                switch fault {
                case .noSpace: try FileManager.default.removeItem(atPath: mount.path("filler"))
                case .readOnly: try mount.remount(readOnly: false)
                }
            }
        }

        @Test("The game's snapshot write on a full or read-only file system throws .writeFailed naming the path and the cause",
              arguments: Fault.allCases)
        func gameWriteThrows(fault: Fault) throws {
            let folder = try FailingFolder(fault)
            let rig = try SessionRig()
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 0.5)
            let snapshot = try rig.engine.savedState()
            let error = try #require(throws: InterludeError.self) { try snapshot.write(to: folder.statePath) }
            #expect(error.code == .writeFailed)
            #expect(error.message.hasPrefix(folder.statePath + ": ") && error.message.contains(fault.systemMessage), "\(error.message)")
            try folder.expectPreviousKept()
            #expect(try SavedState.read(from: folder.statePath) == folder.previous)
            // The engine is untouched: the soundtrack plays on.
            let after = try rig.render(seconds: 0.25)
            #expect(rig.rms(after) > 0.1)
            // Once the file system takes writes again, the same snapshot is written whole.
            try folder.clear()
            try snapshot.write(to: folder.statePath)
            #expect(try SavedState.read(from: folder.statePath) == snapshot)
        }

        @Test("The engine's own snapshots (statePath) on a full or read-only file system: snapshotWriteFailed naming the path and the cause, the interruption goes on, the soundtrack resumes on its frame, the previous snapshot is kept",
              arguments: Fault.allCases)
        func automaticSnapshotFailureIsReported(fault: Fault) throws {
            let folder = try FailingFolder(fault)
            let rig = try SessionRig(statePath: folder.statePath)
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 1)
            let beginFrame = rig.frame
            try rig.engine.beginInterruption(reason: .call)
            let held = try #require(rig.engine.musicPosition())
            let began = rig.takeEvents()
            #expect(began.contains(.session(.began(reason: .call, source: .game))))
            #expect(began.contains(.music(.suspended(positionInFrames: held))))
            // beginInterruption returns once its snapshot is written or has failed, and the
            // failure is raised before that: it is here already, once.
            folder.expectOneFailure(in: began)
            try folder.expectPreviousKept()
            let interrupted = try rig.render(seconds: 0.25)
            #expect(rig.isExactlySilent(interrupted))

            let endFrame = rig.frame
            try rig.engine.endInterruption(shouldResume: true)
            let ended = rig.takeEvents()
            #expect(ended.contains(.music(.resumed(positionInFrames: held))))
            #expect(FailingFolder.snapshotFailures(in: ended).isEmpty)
            try rig.render(seconds: 0.5)
            let window = 2_400
            let before = rig.sweepSeconds(at: beginFrame - window..<beginFrame) + Double(window) / Double(rig.sampleRate)
            let after = rig.sweepSeconds(at: endFrame..<endFrame + window)
            #expect(abs(after - before) < 0.005, "resumed \((after - before) * 1000) ms away from where it stopped")
            #expect(rig.engine.statistics.internalErrorCount == 0)

            // Once writes work again, the next interruption's snapshot lands whole.
            try folder.clear()
            try rig.engine.beginInterruption(reason: .call)
            #expect(FailingFolder.snapshotFailures(in: rig.takeEvents()).isEmpty)
            let saved = try SavedState.read(from: folder.statePath)
            #expect(saved.tracks.first?.path == SessionAssets.sweep)
            #expect(saved.tracks.first?.positionInFrames == rig.engine.musicPosition())
            #expect(try folder.names.filter { $0.hasPrefix(".") }.isEmpty)
        }

        @Test("A snapshot that fails at shutdown still reaches the game, through the handler and through a stream before it ends",
              arguments: Fault.allCases)
        func shutdownSnapshotFailureIsReported(fault: Fault) async throws {
            let folder = try FailingFolder(fault)
            let rig = try SessionRig(statePath: folder.statePath)
            try rig.engine.playMusic(path: SessionAssets.sweep)
            try rig.render(seconds: 0.5)
            let stream = rig.engine.events()
            rig.engine.shutdown()
            // The stream ends at shutdown, after the snapshot's failure was raised.
            var streamed: [EngineEvent] = []
            for await event in stream { streamed.append(event) }
            folder.expectOneFailure(in: rig.takeEvents())
            folder.expectOneFailure(in: streamed)
            try folder.expectPreviousKept()
        }
    }
}
