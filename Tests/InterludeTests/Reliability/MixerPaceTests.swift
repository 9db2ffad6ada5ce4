import Testing
@testable import Interlude

/// When the driver updates against OpenAL Soft's mixes (MixerPace), on a simulated mixer: the
/// null backend's, which mixes each 1,024-frame period at 44.1 kHz up to half a period after it
/// is due. A driver that sleeps what the pace says, wakes up to 0.5 ms late and works 0.1 ms.
@Suite struct MixerPaceTests {
    static let periodSeconds = 1_024.0 / 44_100

    /// A mixer whose mixes are due every period from `startSeconds` and run late by a drawn
    /// fraction of half a period.
    struct SimulatedMixer {
        var startSeconds = 0.0137
        var clockBaseSeconds = 0.0
        /// Each mix's wall time, in order.
        var mixWallSeconds: [Double] = []

        init(seconds: Double, seed: UInt64) {
            var random = SeededRandom(seed: seed)
            var due = startSeconds
            while due < seconds {
                mixWallSeconds.append(due + random.unitInterval() * MixerPaceTests.periodSeconds / 2)
                due += MixerPaceTests.periodSeconds
            }
        }

        /// The clock at `wallSeconds`: every mix run by then, a period each.
        func clock(at wallSeconds: Double) -> Double {
            var low = 0, high = mixWallSeconds.count
            while low < high {
                let middle = (low + high) / 2
                if mixWallSeconds[middle] <= wallSeconds { low = middle + 1 } else { high = middle }
            }
            return clockBaseSeconds + Double(low) * MixerPaceTests.periodSeconds
        }
    }

    /// Runs the driver against `mixer` for `seconds`; returns each update's wall time.
    static func drive(_ mixer: SimulatedMixer, seconds: Double, updatesPerSecond: Double, seed: UInt64) -> [Double] {
        var pace = MixerPace(updatesPerSecond: updatesPerSecond)
        var random = SeededRandom(seed: seed)
        var wall = 0.002
        var updates: [Double] = []
        while wall < seconds {
            updates.append(wall)
            pace.observe(clockSeconds: mixer.clock(at: wall), wallSeconds: wall)
            wall += 0.0001
            let wait = pace.secondsUntilNextMix(wallSeconds: wall, marginSeconds: 0.002) ?? 0.01
            wall += wait + random.unitInterval() * 0.0005
        }
        return updates
    }

    @Test("once the pace is learnt, exactly one update lands before each mix, and none long before it",
          arguments: [(43.0, UInt64(1)), (43.0, 2), (44.0, 3), (40.0, 4)])
    func oneUpdateBeforeEachMix(updatesPerSecond: Double, seed: UInt64) {
        let mixer = SimulatedMixer(seconds: 10, seed: seed)
        let updates = Self.drive(mixer, seconds: 10, updatesPerSecond: updatesPerSecond, seed: seed &+ 100)
        var missed = 0, doubled = 0, leads: [Double] = []
        for (index, mix) in mixer.mixWallSeconds.enumerated() where index > 0 && mix > 1 && mix < 9.9 {
            let previous = mixer.mixWallSeconds[index - 1]
            let between = updates.filter { $0 > previous && $0 < mix }
            if between.isEmpty { missed += 1 }
            if between.count > 1 { doubled += 1 }
            if let last = between.last { leads.append(mix - last) }
        }
        #expect(missed == 0, "mixes with no update since the one before: \(missed)")
        #expect(doubled == 0, "mixes with two updates or more since the one before: \(doubled)")
        // 2 ms of margin, the mix's own lateness (up to half a period), less the wake-up's.
        #expect(leads.allSatisfy { $0 > 0 && $0 < 0.0021 + Self.periodSeconds / 2 }, "leads: \(leads.min() ?? 0)...\(leads.max() ?? 0)")
        let perSecond = Double(updates.filter { $0 > 1 && $0 < 9 }.count) / 8
        #expect(abs(perSecond - 1 / Self.periodSeconds) < 1, "\(perSecond) updates a second")
    }

    @Test func aClockThatFellBehindForGoodIsFollowedAgain() {
        var mixer = SimulatedMixer(seconds: 10, seed: 9)
        // From wall second 4 every mix runs 0.9 s later: a server that skipped a stall.
        mixer.mixWallSeconds = mixer.mixWallSeconds.map { $0 < 4 ? $0 : $0 + 0.9 }
        let updates = Self.drive(mixer, seconds: 10, updatesPerSecond: 43, seed: 10)
        var missed = 0
        for (index, mix) in mixer.mixWallSeconds.enumerated() where index > 0 && mix > 5.5 && mix < 9.9 {
            if !updates.contains(where: { $0 > mixer.mixWallSeconds[index - 1] && $0 < mix }) { missed += 1 }
        }
        #expect(missed == 0)
    }

    @Test func noPredictionBeforeTheFirstReading() {
        let pace = MixerPace(updatesPerSecond: 43)
        #expect(pace.secondsUntilNextMix(wallSeconds: 1, marginSeconds: 0.002) == nil)
        #expect(abs(pace.mixPeriodSeconds - 1 / 43) < 1e-12)
    }
}
