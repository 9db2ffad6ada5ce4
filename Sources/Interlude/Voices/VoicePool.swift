/// A candidate for a real source in the voice pool's selection: a voice's slot and its score.
struct ScoredSlot {
    var score: Double
    var slot: Int32
    /// The voice held a source when scored: only those need looking at again when they lose.
    var isReal: Bool
}

/// The voice pool's algorithm: walks the pool entries, moves virtual voices' time on, counts
/// what plays per group, scores the voices and chooses which of them get the real sources the
/// budget allows. It makes no AL call and touches no `Voice`: it reads and advances entries and
/// returns a plan (``demotedSlots``, ``promotedSlots``, ``endedSlots``) that the voice player
/// carries out. Its buffers are reused, so an update allocates nothing once they have grown.
final class VoicePool {
    /// The selection buffer: its first ``candidateCount`` are this update's candidates.
    @exclusivity(unchecked) private var candidates: [ScoredSlot] = []
    @exclusivity(unchecked) private var candidateCount = 0
    /// Voices that are not real and score below this are left out of ``candidates``: most of a
    /// large pool is far below the budget's last place (see ``candidateFloor(below:)``).
    @exclusivity(unchecked) private var candidateFloor = -Double.infinity
    /// How many of the candidates scored at least ``candidateFloor``.
    @exclusivity(unchecked) private var candidatesAboveFloor = 0
    @exclusivity(unchecked) private var playingCounts: [Int] = []
    /// Playing voices without a source, in groups not paused, found by the last walk.
    @exclusivity(unchecked) private var virtualPlayingCount = 0
    @exclusivity(unchecked) private var ended: [Int32] = []
    @exclusivity(unchecked) private var demoted: [Int32] = []
    @exclusivity(unchecked) private var promoted: [Int32] = []

    /// Voices playing per group in the last walk, for ducking.
    var playingCountsByGroup: [Int] { playingCounts }
    /// One-shots that ended while virtual, found by walks since ``clearEnded()``: the caller
    /// releases them.
    var endedSlots: [Int32] { ended }
    /// The plan's real voices that lose their source.
    var demotedSlots: [Int32] { demoted }
    /// The plan's voices that get a source.
    var promotedSlots: [Int32] { promoted }

    /// Forgets the ended slots once they were released.
    func clearEnded() {
        ended.removeAll(keepingCapacity: true)
    }

    /// Walks every playing voice's entry: moves virtual voices' time on by `elapsedSeconds`
    /// (listing one-shots that end while virtual in ``endedSlots``), counts playing voices per
    /// group and, with `scoresCandidates`, scores them into the candidates: every real voice,
    /// and the others that score at least the floor. Returns how many voices are playing.
    func scan(_ storage: VoicePoolStorage, groups: GroupMixer, scoring: VoiceScoring,
              elapsedSeconds: Double, scoresCandidates: Bool) -> Int {
        walk(storage, groups: groups, listener: scoring.listener, model: scoring.model, realBonus: scoring.realBonus,
             elapsedSeconds: elapsedSeconds, scoresCandidates: scoresCandidates)
    }

    /// The loop of ``scan(_:groups:scoring:elapsedSeconds:scoresCandidates:)``. The scoring
    /// arrives as scalars, so in registers, and is rebuilt per voice for free. Measured: with the
    /// `VoiceScoring` passed by reference, the loop reloaded the listener from the caller's memory
    /// for every voice, behind the loop's stores to the entries, and an update at 10k voices took
    /// twice as long (0.23 against 0.11 ms). Not inlined, so that it keeps its own arguments.
    @inline(never)
    private func walk(_ storage: VoicePoolStorage, groups: GroupMixer, listener: Vector3, model: DistanceModel,
                      realBonus: Float, elapsedSeconds: Double, scoresCandidates: Bool) -> Int {
        let isPaused = groups.pausedGroups
        if playingCounts.count < isPaused.count {
            playingCounts.append(contentsOf: repeatElement(0, count: isPaused.count - playingCounts.count))
        }
        for index in playingCounts.indices { playingCounts[index] = 0 }
        candidateCount = 0
        virtualPlayingCount = 0
        guard !isPaused[GroupTable.masterIndex] else { return 0 }
        if scoresCandidates && candidates.count < storage.count {
            candidates = Array(repeating: ScoredSlot(score: 0, slot: 0, isReal: false), count: storage.count)
        }
        var playingCount = 0
        var virtualCount = 0
        var scoredCount = 0
        var aboveFloorCount = 0
        let floor = candidateFloor
        var ended: [Int32] = []
        swap(&ended, &self.ended)
        defer { swap(&ended, &self.ended) }
        isPaused.withUnsafeBufferPointer { isPaused in
        groups.effectiveGains.withUnsafeBufferPointer { gains in
        playingCounts.withUnsafeMutableBufferPointer { counts in
        candidates.withUnsafeMutableBufferPointer { scored in
            storage.withEntries { entries in
                for slot in entries.indices where entries[slot].isPlaying {
                    let group = entries[slot].groupIndex
                    if isPaused[group] { continue }
                    if !entries[slot].isReal && !entries[slot].advance(bySeconds: elapsedSeconds) {
                        // A one-shot that ended while virtual: the caller releases it.
                        entries[slot].state = nil
                        ended.append(Int32(slot))
                        continue
                    }
                    counts[group] += 1
                    playingCount += 1
                    if !entries[slot].isReal { virtualCount += 1 }
                    if scoresCandidates {
                        let scoring = VoiceScoring(listener: listener, model: model, realBonus: realBonus)
                        let score = scoring.score(of: entries[slot], groupGains: gains)
                        let isAboveFloor = score >= floor
                        if isAboveFloor || entries[slot].isReal {
                            scored[scoredCount] = ScoredSlot(score: score, slot: Int32(slot), isReal: entries[slot].isReal)
                            scoredCount += 1
                            if isAboveFloor { aboveFloorCount += 1 }
                        }
                    }
                }
            }
        }
        }
        }
        }
        candidateCount = scoredCount
        candidatesAboveFloor = aboveFloorCount
        virtualPlayingCount = virtualCount
        return playingCount
    }

    /// Chooses which playing voices hold the `budget` real sources: the most important ones.
    /// Voices that stay in the budget keep their source (no AL churn), so the plan lists only
    /// the changes: ``demotedSlots`` lose their source, ``promotedSlots`` get one.
    /// - Parameters:
    ///   - knownPlayingCount: the count from a walk just made, if any.
    ///   - candidatesAreScored: that walk scored the candidates.
    func plan(budget: Int, storage: VoicePoolStorage, groups: GroupMixer, scoring: VoiceScoring,
              knownPlayingCount: Int? = nil, candidatesAreScored: Bool = false) {
        demoted.removeAll(keepingCapacity: true)
        promoted.removeAll(keepingCapacity: true)
        let playingCount = knownPlayingCount
            ?? scan(storage, groups: groups, scoring: scoring, elapsedSeconds: 0, scoresCandidates: false)
        if playingCount <= budget {
            // Everything fits: no scores to compute, only voices still without a source to start
            // (none when the walk just made found every playing voice real: the steady state).
            let isPaused = groups.pausedGroups
            guard !isPaused[GroupTable.masterIndex], knownPlayingCount == nil || virtualPlayingCount > 0 else { return }
            storage.withEntries { entries in
                for slot in entries.indices where entries[slot].isPlaying && !entries[slot].isReal
                    && !isPaused[entries[slot].groupIndex] {
                    promoted.append(Int32(slot))
                }
            }
            return
        }
        if !candidatesAreScored {
            _ = scan(storage, groups: groups, scoring: scoring, elapsedSeconds: 0, scoresCandidates: true)
        }
        if candidatesAboveFloor < budget && candidateFloor > -.infinity {
            // The floor may have left out voices that belong in the budget (real voices pass
            // whatever they score, so only those above it count): score them all.
            candidateFloor = -.infinity
            _ = scan(storage, groups: groups, scoring: scoring, elapsedSeconds: 0, scoresCandidates: true)
        }
        if candidateCount > budget {
            selectHighest(budget)
            candidateFloor = Self.candidateFloor(below: candidates[budget - 1].score)
            for index in budget..<candidateCount where candidates[index].isReal {
                demoted.append(candidates[index].slot)
            }
        }
        for index in 0..<min(budget, candidateCount) where !storage[Int(candidates[index].slot)].isReal {
            promoted.append(candidates[index].slot)
        }
    }

    /// The next plan's floor, from this plan's lowest score to get a source: the same priority,
    /// half the audibility. A voice would have to lose half its audibility in one update to fall
    /// below while it still belongs in the budget; and if that happens, too few candidates pass
    /// and ``plan(budget:storage:groups:scoring:knownPlayingCount:candidatesAreScored:)`` scores
    /// them all again. So the floor changes the cost, never the choice.
    static func candidateFloor(below lowestChosenScore: Double) -> Double {
        guard lowestChosenScore.isFinite else { return -.infinity }
        let priorityPart = (lowestChosenScore / 1e6).rounded(.down) * 1e6
        return priorityPart + (lowestChosenScore - priorityPart) * 0.5
    }

    /// Moves the `count` highest-scoring candidates to the front (quickselect, in place).
    private func selectHighest(_ count: Int) {
        let candidateCount = candidateCount
        candidates.withUnsafeMutableBufferPointer { items in
            var low = 0
            var high = candidateCount - 1
            let target = count - 1
            while low < high {
                let pivot = items[(low + high) / 2].score
                var left = low
                var right = high
                while left <= right {
                    while items[left].score > pivot { left += 1 }
                    while items[right].score < pivot { right -= 1 }
                    if left <= right {
                        items.swapAt(left, right)
                        left += 1
                        right -= 1
                    }
                }
                if target <= right {
                    high = right
                } else if target >= left {
                    low = left
                } else {
                    return
                }
            }
        }
    }
}
