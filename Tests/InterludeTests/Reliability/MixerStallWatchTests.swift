import Testing
@testable import Interlude

/// When a running device's mixer stands still, and when it runs again (MixerStallWatch), from
/// clock readings taken at the driver's 10 ms pace. What the engine does with it is heard in
/// PulseFaultTests.frozenServer.
@Suite struct MixerStallWatchTests {
    /// The clock of a mixer that writes 21 ms periods, running from wall second `start`.
    static func periodClock(from clock: Double, wallSeconds: Double, since start: Double) -> Double {
        clock + ((wallSeconds - start) / 0.021).rounded(.down) * 0.021
    }

    /// Feeds readings every 10 ms from `from` to `to`; returns the changes with their times.
    static func feed(_ watch: inout MixerStallWatch, from: Double, to: Double,
                     clock: (Double) -> Double) -> [(change: MixerStallWatch.Change, wallSeconds: Double)] {
        var changes: [(MixerStallWatch.Change, Double)] = []
        var wall = from
        while wall < to {
            if let change = watch.observe(clockSeconds: clock(wall), wallSeconds: wall) { changes.append((change, wall)) }
            wall += 0.01
        }
        return changes
    }

    @Test func aMixerWritingPeriodsIsNeverStalled() {
        var watch = MixerStallWatch()
        let changes = Self.feed(&watch, from: 0, to: 30) { Self.periodClock(from: 0.064, wallSeconds: $0, since: 0) }
        #expect(changes.isEmpty, "\(changes)")
    }

    @Test func anOutputNotStartedYetIsNotStalled() {
        var watch = MixerStallWatch()
        var changes = Self.feed(&watch, from: 0, to: 2) { _ in 0.064 }
        changes += Self.feed(&watch, from: 2, to: 4) { Self.periodClock(from: 0.064, wallSeconds: $0, since: 2) }
        #expect(changes.isEmpty, "\(changes)")
        #expect(!watch.isStalled)
    }

    /// A mixer running 1 s, frozen 5 s, then catching up the 5 s it missed at `burstSpeed` times
    /// real time, then running on: returns the changes.
    static func freezeAndCatchUp(burstSpeed: Double) -> [(change: MixerStallWatch.Change, wallSeconds: Double)] {
        var watch = MixerStallWatch()
        var changes = feed(&watch, from: 0, to: 1) { periodClock(from: 0, wallSeconds: $0, since: 0) }
        let frozenClock = periodClock(from: 0, wallSeconds: 0.999, since: 0)
        changes += feed(&watch, from: 1, to: 6) { _ in frozenClock }
        // The burst makes up the 5 s missed while the wall clock runs on during it.
        let burstSeconds = 5 / (burstSpeed - 1)
        changes += feed(&watch, from: 6, to: 6 + burstSeconds) { frozenClock + ($0 - 6) * burstSpeed }
        let afterBurst = frozenClock + burstSeconds * burstSpeed
        changes += feed(&watch, from: 6 + burstSeconds, to: 8 + burstSeconds) {
            periodClock(from: afterBurst, wallSeconds: $0, since: 6 + burstSeconds)
        }
        return changes
    }

    @Test("A server frozen for 5 s, then catching up at 34, 8 or 1.3 times real time: stalled a quarter second in, running again only after the burst",
          arguments: [34.0, 8, 1.3])
    func aFrozenServerAndItsCatchUpBurst(burstSpeed: Double) throws {
        let changes = Self.freezeAndCatchUp(burstSpeed: burstSpeed)
        let burstEnd = 6 + 5 / (burstSpeed - 1)
        try #require(changes.count == 2, "\(changes)")
        #expect(changes[0].change == .stalled)
        #expect(changes[0].wallSeconds >= 1.2 && changes[0].wallSeconds <= 1.3, "stalled at \(changes[0].wallSeconds) s")
        #expect(changes[1].change == .running)
        #expect(changes[1].wallSeconds > burstEnd && changes[1].wallSeconds <= burstEnd + 0.7,
                "running at \(changes[1].wallSeconds) s, the burst ended at \(burstEnd) s")
    }

    @Test("A server that comes back without catching up the time it stood still: running again within about a second")
    func aServerThatDoesNotSkipIsLetGo() throws {
        var watch = MixerStallWatch()
        var changes = Self.feed(&watch, from: 0, to: 1) { $0 }
        changes += Self.feed(&watch, from: 1, to: 6) { _ in 1 }
        changes += Self.feed(&watch, from: 6, to: 9) { Self.periodClock(from: 1, wallSeconds: $0, since: 6) }
        try #require(changes.count == 2, "\(changes)")
        #expect(changes[1].change == .running)
        #expect(changes[1].wallSeconds > 6.5 && changes[1].wallSeconds <= 7.6, "running at \(changes[1].wallSeconds) s")
    }

    @Test("A server that catches up only 1.15 s of the 5 s it stood still, then runs at real time (pipewire-pulse): the output is left 3.85 s behind, still held; judged anew after it starts over, it runs once the new stream does")
    func aPartCatchUpLeavesTheOutputBehind() throws {
        var watch = MixerStallWatch()
        var changes = Self.feed(&watch, from: 0, to: 1) { Self.periodClock(from: 0, wallSeconds: $0, since: 0) }
        let frozenClock = Self.periodClock(from: 0, wallSeconds: 0.999, since: 0)
        changes += Self.feed(&watch, from: 1, to: 6) { _ in frozenClock }
        // As measured: 1.152 s made up within 50 ms, then periods at real time.
        changes += Self.feed(&watch, from: 6, to: 6.05) { frozenClock + ($0 - 6) / 0.05 * 1.152 }
        changes += Self.feed(&watch, from: 6.05, to: 7.2) { Self.periodClock(from: frozenClock + 1.152, wallSeconds: $0, since: 6.05) }
        try #require(changes.count == 2, "\(changes)")
        #expect(changes[0].change == .stalled)
        guard case .leftBehind(let seconds) = changes[1].change else {
            Issue.record("expected leftBehind, got \(changes[1].change)")
            return
        }
        #expect(abs(seconds - 3.85) < 0.1, "left \(seconds) s behind")
        #expect(changes[1].wallSeconds > 6.9 && changes[1].wallSeconds < 7.2, "found at \(changes[1].wallSeconds) s")
        #expect(watch.isStalled)
        // The output starts over 30 ms later on a new stream: its clock starts at 0.
        watch.judgeAnew(clockSeconds: 0, wallSeconds: 7.23)
        var after = Self.feed(&watch, from: 7.24, to: 7.3) { _ in 0 }
        #expect(watch.isStalled)
        after += Self.feed(&watch, from: 7.3, to: 10) { Self.periodClock(from: 0, wallSeconds: $0, since: 7.3) }
        #expect(after.map(\.change) == [.running], "\(after)")
        #expect(!watch.isStalled)
    }

    @Test("A driver that misses 400 ms of ticks on a loaded machine, while the mixer runs, sees no stall")
    func lateReadingsOfARunningMixerAreNoStall() {
        var watch = MixerStallWatch()
        var changes = Self.feed(&watch, from: 0, to: 1) { $0 }
        for wall in [1.4, 1.8, 2.3] {
            if let change = watch.observe(clockSeconds: wall, wallSeconds: wall) { changes.append((change, wall)) }
        }
        changes += Self.feed(&watch, from: 2.31, to: 3) { $0 }
        #expect(changes.isEmpty, "\(changes)")
    }

    @Test("A mixer that comes back at a third of real-time speed is still held")
    func aCrawlingMixerStaysStalled() {
        var watch = MixerStallWatch()
        var changes = Self.feed(&watch, from: 0, to: 1) { $0 }
        changes += Self.feed(&watch, from: 1, to: 2) { _ in 1 }
        changes += Self.feed(&watch, from: 2, to: 4) { 1 + ($0 - 2) / 3 }
        #expect(changes.map(\.change) == [.stalled])
        #expect(watch.isStalled)
    }

    /// A mixer running from 0 s that stops at wall second 1 (its server killed then, as
    /// OpenAL Soft 1.24's native PipeWire backend leaves it), read until `to`.
    static func stoppedAtOne(until to: Double) -> MixerStallWatch {
        var watch = MixerStallWatch()
        _ = feed(&watch, from: 0, to: 1) { periodClock(from: 0, wallSeconds: $0, since: 0) }
        let frozenClock = periodClock(from: 0, wallSeconds: 0.999, since: 0)
        _ = feed(&watch, from: 1, to: to) { _ in frozenClock }
        return watch
    }

    @Test("A stall around the audio server's going is a loss; one long after it, or without it, is held")
    func aStallWithTheServerGoneIsALoss() {
        // Not stalled yet a tenth of a second in: nothing is lost, whatever the server did.
        #expect(!Self.stoppedAtOne(until: 1.1).isLost(serverGoneWallSeconds: 1.0))
        let stalled = Self.stoppedAtOne(until: 1.5)
        #expect(stalled.isStalled)
        // The connection dropped just after the mixer's last period, or a little before it.
        #expect(stalled.isLost(serverGoneWallSeconds: 1.003))
        #expect(stalled.isLost(serverGoneWallSeconds: 0.5))
        // A frozen server killed while the mixer was held.
        #expect(stalled.isLost(serverGoneWallSeconds: 1.45))
        // No server went away: a frozen server, held until it runs again.
        #expect(!stalled.isLost(serverGoneWallSeconds: nil))
        // The server went away long before, and the mixer played on through its return.
        #expect(!stalled.isLost(serverGoneWallSeconds: 1.0 - MixerStallWatch.serverGraceSeconds - 0.5))
    }
}
