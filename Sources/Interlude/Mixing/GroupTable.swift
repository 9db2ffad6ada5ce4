/// Named gain groups. Every voice and stream belongs to one; its gain is multiplied by its
/// group's gain (fades, mute and ducking included) and by the master group's.
///
/// Groups are kept by index so the update's per-voice work is an array read, not a string
/// lookup; names are resolved once, when a voice starts.
struct GroupTable {
    static let masterIndex = 0

    private var names: [String] = []
    private var indexByName: [String: Int] = [:]
    private var gains: [Float] = []
    private var fades: [Fade?] = []
    /// A pause's or resume's fade, apart from the game's gain: 1 but while one runs.
    private var transportGains: [Float] = []
    private var transportFades: [Fade?] = []
    /// Groups whose pause waits for their transport fade to reach silence.
    private var pausesAtFadeEnd: [Bool] = []
    /// Groups whose pause fade ended in the last advance: the engine pauses them now.
    private var pausesDue: [Int] = []
    /// Groups whose gain, pause or resume fade reached its end in the last advance.
    private var fadesFinished: [Int] = []
    private var isMuted: [Bool] = []
    private var paused: [Bool] = []
    private var duckFactors: [Float] = []
    private var duckRules: [DuckRule] = []
    /// A call on the desktop is on: rules whose trigger is ``callTriggerIndex`` duck.
    private var isCallOn = false
    /// Effective gain per group, recomputed when anything changes.
    private var effectiveGains: [Float] = []
    /// Set when an effective gain changed and voices must be brought in line.
    private var dirty = false
    /// The mix snapshots' gain factor per group (1 without snapshots).
    private var mixGains: [Float] = []
    /// The mix snapshots' low-pass factor per group (1 without snapshots).
    private var mixLowPasses: [Float] = []
    /// Effective low-pass per group: its own snapshot factor times the master's.
    private var effectiveLowPasses: [Float] = []
    /// Set when an effective low-pass changed and voices and streams must be brought in line.
    private var lowPassDirty = false

    init() {
        for group in GroupID.builtIn { _ = index(of: group.name) }
    }

    /// Effective gain per group: its own (with fade, mute and ducking) times the master's.
    var effective: [Float] { effectiveGains }
    /// Whether each group is paused by itself.
    var isPaused: [Bool] { paused }
    /// An effective gain changed since ``clearDirty()``: voices must be brought in line.
    var isDirty: Bool { dirty }

    /// The voices and streams were brought in line with the gains.
    mutating func clearDirty() {
        dirty = false
    }

    /// An effective low-pass changed since ``clearLowPassDirty()``.
    var isLowPassDirty: Bool { lowPassDirty }

    /// The voices and streams were brought in line with the low-passes.
    mutating func clearLowPassDirty() {
        lowPassDirty = false
    }

    /// The high-frequency gain the mix snapshots give a member of group `index`, master's
    /// included (1: no filter).
    @inline(__always)
    func effectiveLowPass(of index: Int) -> Float { effectiveLowPasses[index] }

    /// Sets the mix snapshots' factors, one per group by index (groups made since are 1).
    mutating func setMix(gains: [Float], lowPasses: [Float]) {
        for index in names.indices {
            let gain = index < gains.count ? gains[index] : 1
            let lowPass = index < lowPasses.count ? lowPasses[index] : 1
            if mixGains[index] != gain {
                mixGains[index] = gain
                dirty = true
            }
            if mixLowPasses[index] != lowPass {
                mixLowPasses[index] = lowPass
                lowPassDirty = true
            }
        }
        if dirty { recompute() }
        if lowPassDirty {
            let master = mixLowPasses[Self.masterIndex]
            for index in names.indices {
                effectiveLowPasses[index] = index == Self.masterIndex ? master : min(1, master * mixLowPasses[index])
            }
        }
    }

    /// The group's index, creating the group (gain 1) if it is new.
    mutating func index(of name: String) -> Int {
        if let index = indexByName[name] { return index }
        let index = names.count
        names.append(name)
        indexByName[name] = index
        gains.append(1)
        fades.append(nil)
        transportGains.append(1)
        transportFades.append(nil)
        pausesAtFadeEnd.append(false)
        isMuted.append(false)
        paused.append(false)
        duckFactors.append(1)
        mixGains.append(1)
        mixLowPasses.append(1)
        effectiveLowPasses.append(names.count > 1 ? effectiveLowPasses[Self.masterIndex] : 1)
        effectiveGains.append(1)
        recompute()
        return index
    }

    /// The index of an existing group.
    func existingIndex(of name: String) -> Int? { indexByName[name] }

    /// The gain a member of group `index` gets: its group's (with fade, mute and ducking) times
    /// the master's.
    @inline(__always)
    func effectiveGain(of index: Int) -> Float { effectiveGains[index] }

    /// The gain the game set for a group (without mute or ducking).
    func gain(of index: Int) -> Float { gains[index] }

    /// Sets a group's gain at once, or fading over `durationSeconds`.
    mutating func setGain(_ gain: Float, of index: Int, overSeconds durationSeconds: Double, curve: FadeCurve) {
        if durationSeconds > 0 {
            fades[index] = Fade(startGain: gains[index], targetGain: gain, durationSeconds: durationSeconds, curve: curve)
        } else {
            fades[index] = nil
            gains[index] = gain
            recompute()
        }
    }

    /// Fades the group to silence over `durationSeconds`, then lists it in ``takePausesDue()``.
    mutating func fadeOutToPause(_ index: Int, overSeconds durationSeconds: Double) {
        transportFades[index] = Fade(startGain: transportGains[index], targetGain: 0, durationSeconds: durationSeconds, curve: .linear)
        pausesAtFadeEnd[index] = true
    }

    /// Ends any pause fade: the group is heard at once (a pause, or a resume without a fade),
    /// or fades in from silence over `durationSeconds` (a resume with a fade).
    mutating func resetTransport(of index: Int, fadeInSeconds durationSeconds: Double) {
        pausesAtFadeEnd[index] = false
        if durationSeconds > 0 {
            transportGains[index] = 0
            transportFades[index] = Fade(startGain: 0, targetGain: 1, durationSeconds: durationSeconds, curve: .linear)
        } else {
            transportGains[index] = 1
            transportFades[index] = nil
        }
        recompute()
    }

    /// The groups whose fade (gain, pause or resume) reached its end since the last call.
    mutating func takeFadesFinished() -> [GroupID] {
        guard !fadesFinished.isEmpty else { return [] }
        defer { fadesFinished.removeAll(keepingCapacity: true) }
        return fadesFinished.map { GroupID(name: names[$0]) }
    }

    /// The groups whose pause fade reached silence since the last call.
    mutating func takePausesDue() -> [Int] {
        guard !pausesDue.isEmpty else { return [] }
        defer { pausesDue.removeAll(keepingCapacity: true) }
        return pausesDue
    }

    mutating func setMuted(_ muted: Bool, of index: Int) {
        isMuted[index] = muted
        recompute()
    }

    func muted(_ index: Int) -> Bool { isMuted[index] }

    mutating func setPaused(_ paused: Bool, of index: Int) {
        self.paused[index] = paused
    }

    /// True when the group, or master, is paused.
    @inline(__always)
    func pauses(_ index: Int) -> Bool { paused[index] || paused[Self.masterIndex] }

    /// Lowers `target` by `decibels` while any voice of `trigger` plays.
    mutating func addDucking(_ rule: DuckRule) {
        duckRules.removeAll { $0.targetIndex == rule.targetIndex && $0.triggerIndex == rule.triggerIndex }
        duckRules.append(rule)
    }

    /// The trigger of the ducking under a desktop call (a phone stream on the audio server):
    /// no group, triggered while ``setCallOn(_:)`` says so.
    static let callTriggerIndex = -1

    /// A desktop call began or ended: rules triggered by ``callTriggerIndex`` ramp down or back.
    mutating func setCallOn(_ isOn: Bool) {
        isCallOn = isOn
    }

    /// Removes the ducking of `target` by `trigger`.
    mutating func removeDucking(target: Int, trigger: Int) {
        duckRules.removeAll { $0.targetIndex == target && $0.triggerIndex == trigger }
        duckFactors[target] = 1
        recompute()
    }

    /// Moves fades and ducking on by `seconds`; `playingCounts` are the voices playing per group
    /// (a group made since they were counted has none).
    mutating func advance(bySeconds seconds: Double, playingCounts: [Int]) {
        var changed = false
        for index in fades.indices {
            guard var fade = fades[index] else { continue }
            fade.advance(bySeconds: seconds)
            gains[index] = fade.gain
            fades[index] = fade.isFinished ? nil : fade
            if fade.isFinished { fadesFinished.append(index) }
            changed = true
        }
        for index in transportFades.indices {
            guard var fade = transportFades[index] else { continue }
            fade.advance(bySeconds: seconds)
            transportGains[index] = fade.gain
            transportFades[index] = fade.isFinished ? nil : fade
            if fade.isFinished && !fadesFinished.contains(index) { fadesFinished.append(index) }
            if fade.isFinished && pausesAtFadeEnd[index] {
                pausesAtFadeEnd[index] = false
                pausesDue.append(index)
            }
            changed = true
        }
        for rule in duckRules {
            let isTriggered = isTriggered(rule, playingCounts: playingCounts)
            let target = isTriggered ? rule.duckedGain : 1
            let current = duckFactors[rule.targetIndex]
            guard current != target else { continue }
            let rampSeconds = isTriggered ? rule.attackSeconds : rule.releaseSeconds
            let step = rampSeconds > 0 ? Float(seconds / rampSeconds) * (1 - rule.duckedGain) : 1
            duckFactors[rule.targetIndex] = current < target ? min(target, current + step) : max(target, current - step)
            changed = true
        }
        if changed { recompute() }
    }

    /// No fade runs and every ducking has reached its gain, given the voices playing per group:
    /// ``advance(bySeconds:playingCounts:)`` would change nothing.
    func isSettled(playingCounts: [Int]) -> Bool {
        fades.allSatisfy { $0 == nil } && transportFades.allSatisfy { $0 == nil } && pausesDue.isEmpty
            && duckRules.allSatisfy { rule in
            duckFactors[rule.targetIndex] == (isTriggered(rule, playingCounts: playingCounts) ? rule.duckedGain : 1)
        }
    }

    /// The rule's trigger is on: its group plays, or the call is on.
    private func isTriggered(_ rule: DuckRule, playingCounts: [Int]) -> Bool {
        rule.triggerIndex == Self.callTriggerIndex
            ? isCallOn
            : rule.triggerIndex < playingCounts.count && playingCounts[rule.triggerIndex] > 0
    }

    private mutating func recompute() {
        let master = isMuted[Self.masterIndex] ? 0
            : gains[Self.masterIndex] * duckFactors[Self.masterIndex] * transportGains[Self.masterIndex] * mixGains[Self.masterIndex]
        for index in names.indices {
            let own = isMuted[index] ? 0 : gains[index] * duckFactors[index] * transportGains[index] * mixGains[index]
            effectiveGains[index] = index == Self.masterIndex ? master : master * own
        }
        dirty = true
    }

    /// The gains as they are now, by name (for snapshots).
    var snapshot: [String: Float] {
        Dictionary(uniqueKeysWithValues: names.indices.map { (names[$0], gains[$0]) })
    }
}

/// Lowers one group while another plays: the music under dialogue, say.
struct DuckRule: Equatable {
    var targetIndex: Int
    var triggerIndex: Int
    /// The target's gain factor while ducked: 10^(-dB/20).
    var duckedGain: Float
    var attackSeconds: Double
    var releaseSeconds: Double
}
