/// A candidate for a real source in the voice pool's selection: a voice's slot and its score.
struct ScoredSlot {
    var score: Double
    var slot: Int32
    /// The voice held a source when scored: only those need looking at again when they lose,
    /// which saves a cache miss per virtual voice on every update.
    var isReal: Bool
}

extension EngineCore {
    /// How many voices may hold a real source at once.
    var realVoiceBudget: Int {
        let available = configuration.monoSourceCount + configuration.stereoSourceCount - SoundEngine.Configuration.streamSourceCount
        return min(configuration.realVoiceBudget ?? available, available)
    }

    /// How much a voice matters: protected voices above all, then priority, then audibility
    /// (its gain times its group's times the distance attenuation at the listener). Real voices
    /// get `realBonus` on their audibility, so near-ties do not swap sources back and forth.
    @inline(__always)
    func score(of voice: Voice, realBonus: Double = 1) -> Double {
        if voice.isProtected { return .infinity }
        let parameters = voice.parameters
        var audibility = Double(parameters.gain * groups.effectiveGain(of: voice.groupIndex))
        if let position = parameters.position {
            let distance = parameters.isRelativeToListener ? position.length : (position - listener.position).length
            audibility *= Double(distanceModel.gain(atDistance: distance, referenceDistance: parameters.referenceDistance,
                                                    maxDistance: parameters.maxDistance, rolloff: parameters.rolloffFactor))
        }
        if voice.source != nil { audibility *= realBonus }
        let priority = Double(max(-999, min(999, parameters.priority)))
        return priority * 1e6 + min(audibility, 999_999)
    }

    /// The least important voice holding a source that may be made virtual.
    func weakestRealVoice() -> Voice? {
        var weakest: Voice?
        var weakestScore = Double.infinity
        for case let voice? in voiceSlots where voice.source != nil && !voice.isProtected {
            let voiceScore = score(of: voice)
            if voiceScore < weakestScore {
                weakest = voice
                weakestScore = voiceScore
            }
        }
        return weakest
    }

    /// Real voices' positions are read from OpenAL every this many updates (staggered by slot),
    /// and advanced by the clock in between: the reads were a third of the engine's overhead over
    /// raw OpenAL. Exact positions (interruptions, teardown, queries) still read OpenAL directly.
    static let positionReadPeriod = 10

    /// One update of the voices: fades, finished one-shots, positions read from OpenAL for real
    /// voices and advanced by time for virtual ones, and the count of playing voices per group.
    /// - Parameter scoresCandidates: also fill ``candidates`` for ``assignSources(on:knownPlayingCount:candidatesAreScored:)``
    ///   in this same pass: with thousands of voices, each pass over them is mostly cache misses.
    @discardableResult
    func serviceVoices(elapsedSeconds: Double, scoresCandidates: Bool = false) throws -> Int {
        for index in groups.playingCounts.indices { groups.playingCounts[index] = 0 }
        if scoresCandidates { candidates.removeAll(keepingCapacity: true) }
        var playingCount = 0
        for case let voice? in voiceSlots {
            guard voice.state == .playing, !groups.pauses(voice.groupIndex) else { continue }
            if voice.gainFade != nil || voice.pitchFade != nil {
                guard try advanceFades(of: voice, bySeconds: elapsedSeconds) else { continue }
            }
            if let source = voice.source {
                // Only a one-shot stops by itself: a looping source is stopped by the engine alone.
                if !voice.parameters.isLooping, try source.state() == .stopped {
                    removeVoice(voice)
                    continue
                }
                if (updateCount &+ voice.handle.slot) % Self.positionReadPeriod == 0 {
                    voice.positionInFrames = try source.sampleOffset()
                    voice.virtualFrameRemainder = 0
                } else {
                    // Between reads the position runs on the clock, as a virtual voice's does; a
                    // one-shot past its end stays there until its source reports it stopped.
                    _ = voice.advanceVirtualTime(bySeconds: elapsedSeconds)
                }
            } else if !voice.advanceVirtualTime(bySeconds: elapsedSeconds) {
                // A one-shot that ended while virtual is released.
                removeVoice(voice)
                continue
            }
            groups.playingCounts[voice.groupIndex] += 1
            playingCount += 1
            if scoresCandidates {
                candidates.append(ScoredSlot(score: score(of: voice, realBonus: 1.01), slot: Int32(voice.handle.slot), isReal: voice.source != nil))
            }
        }
        return playingCount
    }

    /// Gives the most important playing voices, up to the budget, a real source, and makes the
    /// rest virtual. Voices that stay in the budget keep their source: no AL churn.
    /// - Parameter knownPlayingCount: the voices playing in unpaused groups, when the caller has
    ///   just counted them (the update has, in ``serviceVoices(elapsedSeconds:)``).
    /// - Parameter candidatesAreScored: ``candidates`` already holds every such voice, scored.
    func assignSources(on device: ALDevice, knownPlayingCount: Int? = nil, candidatesAreScored: Bool = false) throws {
        let budget = realVoiceBudget
        var playingCount = 0
        if let knownPlayingCount {
            playingCount = knownPlayingCount
        } else {
            for case let voice? in voiceSlots where voice.state == .playing && !groups.pauses(voice.groupIndex) {
                playingCount += 1
            }
        }
        if playingCount <= budget {
            // Everything fits: no scores to compute, only voices still without a source to start.
            for case let voice? in voiceSlots where voice.state == .playing && voice.source == nil && !groups.pauses(voice.groupIndex) {
                try startOnAL(voice, on: device)
            }
            return
        }
        if !candidatesAreScored {
            candidates.removeAll(keepingCapacity: true)
            for case let voice? in voiceSlots where voice.state == .playing && !groups.pauses(voice.groupIndex) {
                candidates.append(ScoredSlot(score: score(of: voice, realBonus: 1.01), slot: Int32(voice.handle.slot), isReal: voice.source != nil))
            }
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

    /// Reorders ``candidates`` so its first `count` entries are the highest scores (Hoare's
    /// selection, deterministic pivot: the same scene always picks the same voices).
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
