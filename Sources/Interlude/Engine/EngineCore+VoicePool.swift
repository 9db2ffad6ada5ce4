/// A candidate for a real source in the voice pool's selection: a voice's slot and its score.
struct ScoredSlot {
    var score: Double
    var slot: Int32
    /// The voice held a source when scored: only those need looking at again when they lose.
    var isReal: Bool
}

extension EngineCore {
    /// How many voices may hold a real source at once.
    var realVoiceBudget: Int {
        let available = configuration.monoSourceCount + configuration.stereoSourceCount - SoundEngine.Configuration.streamSourceCount
        return min(configuration.realVoiceBudget ?? available, available)
    }

    /// Real voices' positions are read from OpenAL every this many updates (staggered by slot),
    /// and advanced by the clock in between: the reads were a third of the engine's overhead over
    /// raw OpenAL. Exact positions (interruptions, teardown, queries) still read OpenAL directly.
    static let positionReadPeriod = 10

    /// Scoring against the listener and distance model as they are now.
    func voiceScoring(realBonus: Float) -> VoiceScoring {
        VoiceScoring(listener: listener.position, model: distanceModel, realBonus: realBonus)
    }

    /// How much a voice matters (see ``VoiceScoring``).
    func score(of voice: Voice) -> Double {
        let scoring = voiceScoring(realBonus: 1)
        return groups.effective.withUnsafeBufferPointer { scoring.score(of: pool.entries[voice.handle.slot], groupGains: $0) }
    }

    /// The least important voice holding a source that may be made virtual. Real voices are
    /// all in the pool's serviced list, so this looks at a few dozen entries, not the pool.
    func weakestRealVoice() -> Voice? {
        var weakestSlot: Int?
        var weakestScore = Double.infinity
        let scoring = voiceScoring(realBonus: 1)
        groups.effective.withUnsafeBufferPointer { gains in
            for slot in pool.servicedSlots.lazy.map(Int.init) {
                let entry = pool.entries[slot]
                guard entry.isReal && !entry.isProtected else { continue }
                let slotScore = scoring.score(of: entry, groupGains: gains)
                // Ties go to the lowest slot, as when the whole pool was walked in order.
                if slotScore < weakestScore || (slotScore == weakestScore && slot < weakestSlot ?? .max) {
                    weakestSlot = slot
                    weakestScore = slotScore
                }
            }
        }
        return weakestSlot.flatMap { voiceSlots[$0] }
    }

    /// One update of the voices. First the voices that need their object, which the pool keeps
    /// listed (``VoicePoolStorage/servicedSlots``): real ones (finished one-shots, positions
    /// read from OpenAL every ``positionReadPeriod`` updates and advanced by the clock in
    /// between) and fading ones. Then ``scanPlayingVoices(elapsedSeconds:scoresCandidates:)``,
    /// the one walk over the whole pool. Returns how many voices are playing.
    func serviceVoices(elapsedSeconds: Double, scoresCandidates: Bool = false) throws -> Int {
        var objectSlots: [Int32] = []
        swap(&objectSlots, &slotScratch)
        defer { swap(&objectSlots, &slotScratch) }
        objectSlots.removeAll(keepingCapacity: true)
        objectSlots.append(contentsOf: pool.servicedSlots)
        for slot in objectSlots {
            guard let voice = voiceSlots[Int(slot)], !groups.pauses(voice.groupIndex) else { continue }
            if voice.gainFade != nil || voice.pitchFade != nil {
                guard try advanceFades(of: voice, bySeconds: elapsedSeconds) else { continue }
            }
            guard let source = voice.source else { continue }
            // Only a one-shot stops by itself: a looping source is stopped by the engine alone.
            if !voice.parameters.isLooping, try source.state() == .stopped {
                removeVoice(voice)
            } else if (updateCount &+ Int(slot)) % Self.positionReadPeriod == 0 {
                voice.positionInFrames = try source.sampleOffset()
            } else {
                // A one-shot past its end stays there until its source reports it stopped.
                _ = pool.entries[Int(slot)].advance(bySeconds: elapsedSeconds)
            }
        }

        return scanPlayingVoices(elapsedSeconds: elapsedSeconds, scoresCandidates: scoresCandidates)
    }

    /// Walks every playing voice's pool entry: moves virtual voices' time on by `elapsedSeconds`
    /// (releasing one-shots that end while virtual), counts playing voices per group (for
    /// ducking) and, with `scoresCandidates`, scores them into ``candidates`` (the first
    /// ``candidateCount``): every real voice, and the others that score at least
    /// ``candidateFloor``. Makes no AL call and, once the buffers have grown to the pool,
    /// no allocation: the loop writes through raw buffers, thousands of times per update.
    /// Returns how many voices are playing.
    func scanPlayingVoices(elapsedSeconds: Double, scoresCandidates: Bool) -> Int {
        var counts: [Int] = []
        var ended: [Int32] = []
        swap(&counts, &groups.playingCounts)
        swap(&ended, &endedScratch)
        defer {
            swap(&counts, &groups.playingCounts)
            swap(&ended, &endedScratch)
        }
        for index in counts.indices { counts[index] = 0 }
        ended.removeAll(keepingCapacity: true)
        candidateCount = 0
        let isPaused = groups.isPaused
        guard !isPaused[GroupTable.masterIndex] else { return 0 }
        if scoresCandidates && candidates.count < pool.entries.count {
            candidates = Array(repeating: ScoredSlot(score: 0, slot: 0, isReal: false), count: pool.entries.count)
        }
        var playingCount = 0
        var scoredCount = 0
        var aboveFloorCount = 0
        let scoring = voiceScoring(realBonus: VoiceScoring.selectionRealBonus)
        let floor = candidateFloor
        isPaused.withUnsafeBufferPointer { isPaused in
        groups.effective.withUnsafeBufferPointer { gains in
        counts.withUnsafeMutableBufferPointer { counts in
        candidates.withUnsafeMutableBufferPointer { scored in
            pool.entries.withUnsafeMutableBufferPointer { entries in
                for slot in entries.indices where entries[slot].isPlaying {
                    let group = entries[slot].groupIndex
                    if isPaused[group] { continue }
                    if !entries[slot].isReal && !entries[slot].advance(bySeconds: elapsedSeconds) {
                        // A one-shot that ended while virtual is released.
                        entries[slot].isPlaying = false
                        ended.append(Int32(slot))
                        continue
                    }
                    counts[group] += 1
                    playingCount += 1
                    if scoresCandidates {
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
        for slot in ended {
            if let voice = voiceSlots[Int(slot)] { removeVoice(voice) }
        }
        return playingCount
    }

    /// Gives the most important playing voices, up to the budget, a real source, and makes the
    /// rest virtual. Voices that stay in the budget keep their source: no AL churn.
    func assignSources(on device: ALDevice, knownPlayingCount: Int? = nil, candidatesAreScored: Bool = false) throws {
        let budget = realVoiceBudget
        let playingCount = knownPlayingCount ?? scanPlayingVoices(elapsedSeconds: 0, scoresCandidates: false)
        if playingCount <= budget {
            // Everything fits: no scores to compute, only voices still without a source to start.
            var waiting: [Int32] = []
            swap(&waiting, &slotScratch)
            defer { swap(&waiting, &slotScratch) }
            waiting.removeAll(keepingCapacity: true)
            let isPaused = groups.isPaused
            pool.entries.withUnsafeBufferPointer { entries in
                for slot in entries.indices where entries[slot].isPlaying && !entries[slot].isReal
                    && !isPaused[GroupTable.masterIndex] && !isPaused[entries[slot].groupIndex] {
                    waiting.append(Int32(slot))
                }
            }
            for slot in waiting {
                if let voice = voiceSlots[Int(slot)] { try startOnAL(voice, on: device) }
            }
            return
        }
        if !candidatesAreScored {
            _ = scanPlayingVoices(elapsedSeconds: 0, scoresCandidates: true)
        }
        if candidatesAboveFloor < budget && candidateFloor > -.infinity {
            // The floor may have left out voices that belong in the budget (real voices pass
            // whatever they score, so only those above it count): score them all.
            candidateFloor = -.infinity
            _ = scanPlayingVoices(elapsedSeconds: 0, scoresCandidates: true)
        }
        if candidateCount > budget {
            selectHighest(budget)
            candidateFloor = Self.candidateFloor(below: candidates[budget - 1].score)
            for index in budget..<candidateCount where candidates[index].isReal {
                if let voice = voiceSlots[Int(candidates[index].slot)], voice.source != nil { try makeVirtual(voice) }
            }
        }
        for index in 0..<min(budget, candidateCount) {
            if let voice = voiceSlots[Int(candidates[index].slot)], voice.source == nil { try startOnAL(voice, on: device) }
        }
    }

    /// The next update's ``candidateFloor``, from this update's lowest score to get a source:
    /// the same priority, half the audibility. A voice would have to lose half its audibility
    /// in one update to fall below while it still belongs in the budget; and if that happens,
    /// too few candidates pass and ``assignSources(on:knownPlayingCount:candidatesAreScored:)``
    /// scores them all again. So the floor changes the cost, never the choice.
    static func candidateFloor(below lowestChosenScore: Double) -> Double {
        guard lowestChosenScore.isFinite else { return -.infinity }
        let priorityPart = (lowestChosenScore / 1e6).rounded(.down) * 1e6
        return priorityPart + (lowestChosenScore - priorityPart) * 0.5
    }

    private func selectHighest(_ count: Int) {
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
