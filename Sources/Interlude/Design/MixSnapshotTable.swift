/// The mix snapshots: each one's group factors, its intensity in 0...1 and the linear move it
/// may be making, advanced by the update in the engine's own time.
struct MixSnapshotTable {
    private var indexByName: [String: Int] = [:]
    private var groups: [[(index: Int, mix: GroupMix)]] = []
    private var intensities = LinearRamps()

    /// The index of the snapshot named `name`, or nil.
    func index(of name: String) -> Int? { indexByName[name] }

    /// The snapshot's intensity now.
    func intensity(at index: Int) -> Float { intensities.value(at: index) }

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
    }

    /// Moves the snapshot's intensity to `target` linearly over `seconds` (0, or already there:
    /// at once).
    mutating func move(_ index: Int, to target: Float, overSeconds seconds: Double) {
        intensities.move(index, to: target, overSeconds: intensities.value(at: index) != target ? seconds : 0)
    }

    /// Every snapshot's intensity now, by name.
    var intensitiesByName: [String: Float] { indexByName.mapValues { intensities.value(at: $0) } }

    /// The snapshot is at 0 and not moving.
    func isAtRest(_ index: Int) -> Bool { intensities.value(at: index) == 0 && !intensities.isMoving(index) }

    /// Moves the moving snapshots on by `seconds`; true when any intensity changed.
    mutating func advance(bySeconds seconds: Double) -> Bool {
        intensities.advance(bySeconds: seconds)
    }

    /// Every group's gain and low-pass factors at the intensities now, by group index: at
    /// intensity i a factor f acts as 1 + i x (f - 1), and the snapshots' factors multiply.
    func factors() -> (gains: [Float], lowPasses: [Float]) {
        let groupCount = groups.lazy.flatMap { $0.map(\.index) }.max().map { $0 + 1 } ?? 0
        var gains = [Float](repeating: 1, count: groupCount)
        var lowPasses = [Float](repeating: 1, count: groupCount)
        for (snapshot, mixes) in groups.enumerated() {
            let intensity = intensities.value(at: snapshot)
            guard intensity > 0 else { continue }
            for (index, mix) in mixes {
                gains[index] *= 1 + intensity * (mix.gain - 1)
                lowPasses[index] *= 1 + intensity * (mix.lowPassGainHF - 1)
            }
        }
        return (gains, lowPasses)
    }
}
