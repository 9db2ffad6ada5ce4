/// Named gain groups. Every voice and stream belongs to one; its gain is multiplied by its
/// group's gain and by the master group's.
struct GroupTable {
    /// The built-in groups.
    static let builtIn = ["master", "music", "sfx", "ui", "voice"]

    private(set) var gains: [String: Float]
    private var fades: [String: Fade] = [:]
    /// Set when a gain changed and voices must be brought in line.
    var isDirty = false

    init() {
        gains = Dictionary(uniqueKeysWithValues: Self.builtIn.map { ($0, 1) })
    }

    /// The gain a member of `group` gets: its group's times the master's.
    func effectiveGain(of group: String) -> Float {
        let master = gains["master"] ?? 1
        return group == "master" ? master : master * (gains[group] ?? 1)
    }

    /// Sets a group's gain at once, or fading over `durationSeconds`. Creates the group if new.
    mutating func setGain(_ gain: Float, of group: String, overSeconds durationSeconds: Double, curve: FadeCurve) {
        let current = gains[group] ?? 1
        if durationSeconds > 0 {
            fades[group] = Fade(startGain: current, targetGain: gain, durationSeconds: durationSeconds, curve: curve)
        } else {
            fades[group] = nil
            gains[group] = gain
        }
        isDirty = true
    }

    /// Moves every running fade on by `seconds`.
    mutating func advance(bySeconds seconds: Double) {
        guard !fades.isEmpty else { return }
        for (group, var fade) in fades {
            fade.advance(bySeconds: seconds)
            gains[group] = fade.gain
            fades[group] = fade.isFinished ? nil : fade
        }
        isDirty = true
    }

    /// The gains as they are now (for snapshots).
    var snapshot: [String: Float] { gains }

    /// Replaces the gains (from a snapshot).
    mutating func restore(_ saved: [String: Float]) {
        for (group, gain) in saved { gains[group] = gain }
        fades.removeAll()
        isDirty = true
    }
}
