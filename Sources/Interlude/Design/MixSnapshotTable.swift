/// The mix snapshots: each one's group factors, its intensity in 0...1 and the linear move it
/// may be making, advanced by the update in the engine's own time.
struct MixSnapshotTable {
    private var indexByName: [String: Int] = [:]
    private var groups: [[(index: Int, mix: GroupMix)]] = []
    private var intensities: [Float] = []
    private var moves: [Fade?] = []
    private var movingCount = 0

    /// The index of the snapshot named `name`, or nil.
    func index(of name: String) -> Int? { indexByName[name] }

    /// The snapshot's intensity now.
    func intensity(at index: Int) -> Float { intensities[index] }

    /// Makes a snapshot at intensity 0, or replaces the groups of one of that name (keeping its
    /// intensity). `groups` are by group index.
    mutating func make(named name: String, groups mixes: [(index: Int, mix: GroupMix)]) {
        if let index = indexByName[name] {
            groups[index] = mixes
            return
        }
        indexByName[name] = groups.count
        groups.append(mixes)
        intensities.append(0)
        moves.append(nil)
    }

    /// Moves the snapshot's intensity to `target` linearly over `seconds` (0: at once).
    mutating func move(_ index: Int, to target: Float, overSeconds seconds: Double) {
        if moves[index] != nil { movingCount -= 1 }
        if seconds > 0 && intensities[index] != target {
            moves[index] = Fade(startGain: intensities[index], targetGain: target, durationSeconds: seconds, curve: .linear)
            movingCount += 1
        } else {
            moves[index] = nil
            intensities[index] = target
        }
    }

    /// The snapshot is at 0 and not moving.
    func isAtRest(_ index: Int) -> Bool { intensities[index] == 0 && moves[index] == nil }

    /// Moves the moving snapshots on by `seconds`; true when any intensity changed.
    mutating func advance(bySeconds seconds: Double) -> Bool {
        guard movingCount > 0 else { return false }
        for index in moves.indices {
            guard var move = moves[index] else { continue }
            move.advance(bySeconds: seconds)
            intensities[index] = move.gain
            if move.isFinished {
                moves[index] = nil
                movingCount -= 1
            } else {
                moves[index] = move
            }
        }
        return true
    }

    /// Every group's gain and low-pass factors at the intensities now, by group index: at
    /// intensity i a factor f acts as 1 + i x (f - 1), and the snapshots' factors multiply.
    func factors() -> (gains: [Float], lowPasses: [Float]) {
        let groupCount = groups.lazy.flatMap { $0.map(\.index) }.max().map { $0 + 1 } ?? 0
        var gains = [Float](repeating: 1, count: groupCount)
        var lowPasses = [Float](repeating: 1, count: groupCount)
        for (snapshot, mixes) in groups.enumerated() {
            let intensity = intensities[snapshot]
            guard intensity > 0 else { continue }
            for (index, mix) in mixes {
                gains[index] *= 1 + intensity * (mix.gain - 1)
                lowPasses[index] *= 1 + intensity * (mix.lowPassGainHF - 1)
            }
        }
        return (gains, lowPasses)
    }
}
