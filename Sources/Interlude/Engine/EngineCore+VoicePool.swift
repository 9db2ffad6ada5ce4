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

    /// How much a voice matters (see ``VoicePoolEntry/score(groupGains:listener:model:realBonus:)``).
    func score(of voice: Voice, realBonus: Double = 1) -> Double {
        groups.effective.withUnsafeBufferPointer { gains in
            pool.entries[voice.handle.slot].score(groupGains: gains, listener: listener.position, model: distanceModel, realBonus: realBonus)
        }
    }

    /// The least important voice holding a source that may be made virtual.
    func weakestRealVoice() -> Voice? {
        var weakestSlot: Int?
        var weakestScore = Double.infinity
        groups.effective.withUnsafeBufferPointer { gains in
            pool.entries.withUnsafeBufferPointer { entries in
                for slot in entries.indices where entries[slot].isPlaying && entries[slot].isReal && !entries[slot].isProtected {
                    let slotScore = entries[slot].score(groupGains: gains, listener: listener.position, model: distanceModel, realBonus: 1)
                    if slotScore < weakestScore {
                        weakestSlot = slot
                        weakestScore = slotScore
                    }
                }
            }
        }
        return weakestSlot.flatMap { voiceSlots[$0] }
    }

    /// One update of the voices, in two passes so the thousands of virtual ones cost only a walk
    /// over their pool entries. First the voices that need their object: real ones (finished
    /// one-shots, positions read from OpenAL every ``positionReadPeriod`` updates and advanced by
    /// the clock in between) and fading ones. Then ``scanPlayingVoices(elapsedSeconds:scoresCandidates:)``.
    /// Returns how many voices are playing.
    func serviceVoices(elapsedSeconds: Double, scoresCandidates: Bool = false) throws -> Int {
        var objectSlots: [Int32] = []
        swap(&objectSlots, &slotScratch)
        defer { swap(&objectSlots, &slotScratch) }
        objectSlots.removeAll(keepingCapacity: true)
        let isPaused = groups.isPaused
        let isMasterPaused = isPaused[GroupTable.masterIndex]
        pool.entries.withUnsafeBufferPointer { entries in
            for slot in entries.indices where entries[slot].isPlaying && (entries[slot].isReal || entries[slot].hasFade)
                && !isMasterPaused && !isPaused[entries[slot].groupIndex] {
                objectSlots.append(Int32(slot))
            }
        }
        for slot in objectSlots {
            guard let voice = voiceSlots[Int(slot)] else { continue }
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
    /// ducking) and, with `scoresCandidates`, scores them into ``candidates``. Makes no AL call.
    /// Returns how many voices are playing.
    func scanPlayingVoices(elapsedSeconds: Double, scoresCandidates: Bool) -> Int {
        let isPaused = groups.isPaused
        let isMasterPaused = isPaused[GroupTable.masterIndex]
        var counts: [Int] = []
        var scored: [ScoredSlot] = []
        var ended: [Int32] = []
        swap(&counts, &groups.playingCounts)
        swap(&scored, &candidates)
        swap(&ended, &endedScratch)
        defer {
            swap(&counts, &groups.playingCounts)
            swap(&scored, &candidates)
            swap(&ended, &endedScratch)
        }
        for index in counts.indices { counts[index] = 0 }
        scored.removeAll(keepingCapacity: true)
        ended.removeAll(keepingCapacity: true)
        var playingCount = 0
        let listenerPosition = listener.position
        let model = distanceModel
        groups.effective.withUnsafeBufferPointer { gains in
            pool.entries.withUnsafeMutableBufferPointer { entries in
                for slot in entries.indices where entries[slot].isPlaying {
                    let group = entries[slot].groupIndex
                    if isMasterPaused || isPaused[group] { continue }
                    if !entries[slot].isReal && !entries[slot].advance(bySeconds: elapsedSeconds) {
                        // A one-shot that ended while virtual is released.
                        entries[slot].isPlaying = false
                        ended.append(Int32(slot))
                        continue
                    }
                    counts[group] += 1
                    playingCount += 1
                    if scoresCandidates {
                        scored.append(ScoredSlot(score: entries[slot].score(groupGains: gains, listener: listenerPosition, model: model, realBonus: 1.01),
                                                 slot: Int32(slot), isReal: entries[slot].isReal))
                    }
                }
            }
        }
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
        if candidates.count > budget {
            selectHighest(budget)
            for index in budget..<candidates.count where candidates[index].isReal {
                if let voice = voiceSlots[Int(candidates[index].slot)], voice.source != nil { try makeVirtual(voice) }
            }
        }
        for index in 0..<min(budget, candidates.count) {
            if let voice = voiceSlots[Int(candidates[index].slot)], voice.source == nil { try startOnAL(voice, on: device) }
        }
    }

    private func selectHighest(_ count: Int) {
        candidates.withUnsafeMutableBufferPointer { items in
            var low = 0
            var high = items.count - 1
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
