/// One cue as the engine keeps it: its definition, its curves resolved to parameters, and what
/// its plays so far decide about the next (the last variant, the shuffle round, the place in
/// the sequence, its voices, its last play's time).
final class CueState {
    let id: CueID
    let definition: CueDefinition
    /// The curves, their parameters resolved.
    let curves: [CurveFollower.Resolved]
    /// Each variant's extra gain: with a loudness target, the gain that brings that variant's
    /// own integrated loudness to it (1 for a silent variant); otherwise 1.
    private let variantGains: [Float]
    @exclusivity(unchecked) private var lastVariant: Int?
    /// The shuffle round's remaining variants, next last.
    @exclusivity(unchecked) private var round: [Int] = []
    @exclusivity(unchecked) private var nextInSequence = 0
    /// The cue's voices in the order they started (kept only with a voice limit).
    @exclusivity(unchecked) private var voices: [VoiceHandle] = []
    /// The engine time of the last play that was not dropped (``UpdateClock/ticks()``).
    @exclusivity(unchecked) private var lastPlayTicks: Int64?

    /// `variantLoudnessLUFS`: each variant's integrated loudness, measured before the engine's
    /// lock was taken; nil without a loudness target.
    init(id: CueID, definition: CueDefinition, curves: [CurveFollower.Resolved], variantLoudnessLUFS: [Double]?) {
        self.id = id
        self.definition = definition
        self.curves = curves
        if let target = definition.loudnessLUFS, let variantLoudnessLUFS {
            variantGains = variantLoudnessLUFS.map { Loudness(integratedLUFS: $0).gain(toTarget: Double(target)) }
        } else {
            variantGains = Array(repeating: 1, count: definition.variants.count)
        }
    }

    /// The extra gain of the variant at `index`.
    func variantGain(_ index: Int) -> Float { variantGains[index] }

    /// When the last play that was not dropped happened, in engine ticks.
    var lastPlay: Int64? { lastPlayTicks }

    /// Picks the next play's variant, drawing from `random` as the order needs.
    func pickVariant(_ random: inout SeededRandom) -> Int {
        let count = definition.variants.count
        let picked: Int
        switch definition.order {
        case .random:
            picked = random.index(below: count)
        case .randomNoRepeat:
            if let lastVariant, count > 1 {
                let other = random.index(below: count - 1)
                picked = other >= lastVariant ? other + 1 : other
            } else {
                picked = random.index(below: count)
            }
        case .shuffle:
            if round.isEmpty { round = newRound(&random) }
            picked = round.removeLast()
        case .sequence:
            picked = nextInSequence
            nextInSequence = (nextInSequence + 1) % count
        }
        lastVariant = picked
        return picked
    }

    /// A new shuffle round (Fisher-Yates), next last, never starting with the variant just
    /// played.
    private func newRound(_ random: inout SeededRandom) -> [Int] {
        var order = Array(0..<definition.variants.count)
        for index in stride(from: order.count - 1, to: 0, by: -1) {
            order.swapAt(index, random.index(below: index + 1))
        }
        if order.count > 1, let lastVariant, order[0] == lastVariant {
            order.swapAt(0, 1 + random.index(below: order.count - 1))
        }
        return order.reversed()
    }

    /// Forgets the voices for which `isLive` is false; returns how many are left.
    func countLiveVoices(_ isLive: (VoiceHandle) -> Bool) -> Int {
        voices.removeAll { !isLive($0) }
        return voices.count
    }

    /// The voice is on the cue's list (kept only with a voice limit).
    func holds(_ voice: VoiceHandle) -> Bool { voices.contains(voice) }

    /// Takes the oldest voice off the cue's list.
    func takeOldestVoice() -> VoiceHandle? {
        voices.isEmpty ? nil : voices.removeFirst()
    }

    /// Records a play that was not dropped.
    func recordPlay(of voice: VoiceHandle, atTicks ticks: Int64) {
        lastPlayTicks = ticks
        if definition.maxVoices > 0 { voices.append(voice) }
    }
}
