/// Which voices hold a real OpenAL source: the budget, a new or resumed voice admitted (or left
/// virtual when it is outranked), and the ``VoicePool``'s walk and plan that give the most
/// important playing voices the sources. A voice made virtual keeps its place on its own clock.
/// ``VoiceSources`` runs it; what the pool finds ended is handed back for VoiceSources to end.
final class SourceAssignment {
    private let configuration: SoundEngine.Configuration
    private let table: VoiceTable
    private let pool = VoicePool()
    private let renderer: ALRenderer
    /// The groups' gains and pauses, for the scores and for who may sound.
    private let mixer: GroupMixer
    /// The listener, for the scores.
    private let world: SpatialWorld
    /// The time since the update, for a voice made virtual between updates.
    private let clock: UpdateClock
    private let gate: ALGate

    init(configuration: SoundEngine.Configuration, table: VoiceTable, renderer: ALRenderer, mixer: GroupMixer,
         world: SpatialWorld, clock: UpdateClock, gate: ALGate) {
        self.configuration = configuration
        self.table = table
        self.renderer = renderer
        self.mixer = mixer
        self.world = world
        self.clock = clock
        self.gate = gate
    }

    /// How many voices may hold a real source at once.
    var realVoiceBudget: Int {
        let available = configuration.monoSourceCount + configuration.stereoSourceCount - SoundEngine.Configuration.streamSourceCount
        return min(configuration.realVoiceBudget ?? available, available)
    }

    /// Voices playing per group in the last update, for ducking.
    var playingCountsByGroup: [Int] { pool.playingCountsByGroup }

    /// Gives a new or resumed voice a source if the budget has one, or if it outranks the least
    /// important real voice; otherwise it stays virtual until an update finds it room.
    func admit(_ voice: Voice) throws {
        if mixer.pauses(voice.groupIndex) { return }
        guard mayGetSourceNow(voice) else {
            startVirtualClock(of: voice)
            return
        }
        if renderer.realVoiceCount >= realVoiceBudget {
            guard let weakest = weakestRealVoice(), score(of: voice) > score(of: weakest) else {
                startVirtualClock(of: voice)
                return
            }
            try makeVirtual(weakest)
        }
        try renderer.start(voice)
    }

    /// The pool's one walk over every entry (``VoicePool/scan(_:groups:scoring:elapsedSeconds:scoresCandidates:)``):
    /// virtual clocks moved on, the playing voices counted, and, with `scoresCandidates`, scored.
    /// Returns how many play.
    func scan(elapsedSeconds: Double, scoresCandidates: Bool) -> Int {
        pool.scan(table.entries, groups: mixer, scoring: world.scoring(realBonus: VoiceScoring.selectionRealBonus),
                  elapsedSeconds: elapsedSeconds, scoresCandidates: scoresCandidates)
    }

    /// Gives the most important playing voices, up to the budget, a real source, and makes the
    /// rest virtual; voices that stay in the budget keep their source (no AL churn). The
    /// one-shots the pool found ended while virtual go to `end` first.
    func plan(knownPlayingCount: Int?, candidatesAreScored: Bool, end: (Voice) -> Void) throws {
        pool.plan(budget: realVoiceBudget, storage: table.entries, groups: mixer,
                  scoring: world.scoring(realBonus: VoiceScoring.selectionRealBonus),
                  knownPlayingCount: knownPlayingCount, candidatesAreScored: candidatesAreScored)
        releaseEnded(end)
        for slot in pool.demotedSlots {
            if let voice = table.voice(inSlot: Int(slot)) { try makeVirtual(voice) }
        }
        for slot in pool.promotedSlots {
            if let voice = table.voice(inSlot: Int(slot)), !voice.isReal, mayGetSourceNow(voice) {
                try renderer.start(voice)
            }
        }
    }

    /// Hands the one-shots the pool found ended while virtual to `end`.
    func releaseEnded(_ end: (Voice) -> Void) {
        guard !pool.endedSlots.isEmpty else { return }
        for slot in pool.endedSlots {
            if let voice = table.voice(inSlot: Int(slot)) { end(voice) }
        }
        pool.clearEnded()
    }

    /// Takes a real voice's source away, keeping its position: it goes on as a virtual voice.
    private func makeVirtual(_ voice: Voice) throws {
        guard try renderer.takeSource(from: voice) else { return }
        startVirtualClock(of: voice)
    }

    /// A voice goes virtual between updates: the next update must advance it only by the time
    /// since now, not since the last update.
    private func startVirtualClock(of voice: Voice) {
        voice.discountTime(seconds: clock.secondsSinceUpdate())
    }

    /// How much a voice matters (see ``VoiceScoring``).
    private func score(of voice: Voice) -> Double {
        let scoring = world.scoring(realBonus: 1)
        return mixer.effectiveGains.withUnsafeBufferPointer { scoring.score(of: table.entries[voice.handle.slot], groupGains: $0) }
    }

    /// The least important voice holding a source that may be made virtual. Real voices are
    /// all in the serviced list, so this looks at a few dozen entries, not the pool.
    private func weakestRealVoice() -> Voice? {
        var weakestSlot: Int?
        var weakestScore = Double.infinity
        let scoring = world.scoring(realBonus: 1)
        let entries = table.entries
        mixer.effectiveGains.withUnsafeBufferPointer { gains in
            for slot in entries.servicedSlots.lazy.map(Int.init) {
                let entry = entries[slot]
                guard entry.isReal && !entry.isProtected else { continue }
                let slotScore = scoring.score(of: entry, groupGains: gains)
                // Ties go to the lowest slot: the choice does not depend on the serviced list's order.
                if slotScore < weakestScore || (slotScore == weakestScore && slot < weakestSlot ?? .max) {
                    weakestSlot = slot
                    weakestScore = slotScore
                }
            }
        }
        return weakestSlot.flatMap { table.voice(inSlot: $0) }
    }

    /// While the mixer is held a source is not played (``ALGate/startsSources``), and one never
    /// played reads its offset as 0: a sound that would start past its first frame waits as a
    /// virtual voice, keeping its place, until the hold ends. A stream keeps its own position.
    private func mayGetSourceNow(_ voice: Voice) -> Bool {
        gate.startsSources || voice.positionInFrames == 0 || voice.stream != nil
    }
}
