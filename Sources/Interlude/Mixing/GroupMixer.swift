/// The mix above the voices: the gain groups (gains, fades, mute, pause, ducking) and the reverb
/// zones, by name, with the zone each group sends to. The zones' AL objects belong to the
/// ``ALRenderer``; this keeps what the game asked for, so a new device gets it all again.
final class GroupMixer {
    @exclusivity(unchecked) private var table = GroupTable()
    @exclusivity(unchecked) private var zonePresets: [ReverbZoneID: ReverbPreset] = [:]
    /// The reverb zone each group sends to, by group index.
    @exclusivity(unchecked) private var groupZones: [Int: ReverbZoneID] = [:]

    /// Each group's effective gain (its own gain, fades, ducking, and the master's), by index.
    /// Read alone, not as a copy of the whole table: copying its fifteen arrays twice an update
    /// cost the reference scene 10 M instructions of retains and releases.
    var effectiveGains: [Float] { table.effective }
    /// Whether each group is paused, by index.
    var pausedGroups: [Bool] { table.isPaused }

    /// Makes a group (or finds it, when it exists).
    func makeGroup(named name: String) -> GroupID {
        _ = table.index(of: name)
        return GroupID(name: name)
    }
    /// The index of a group made before, or nil.
    func index(of group: GroupID) -> Int? { table.existingIndex(of: group.name) }

    /// The index of a group made before, or `.invalidArgument` naming `call`: a misspelt group is
    /// an error, never a new group.
    func existingIndex(of group: GroupID, in call: @autoclosure () -> String) throws -> Int {
        guard let index = table.existingIndex(of: group.name) else {
            throw InterludeError(.invalidArgument, "\(call()): no group named \"\(group.name)\"; make it with makeGroup(named:)")
        }
        return index
    }
    /// The gain a member of group `index` gets, master included.
    func effectiveGain(of index: Int) -> Float { table.effectiveGain(of: index) }
    /// The gain the game set for a group.
    func gain(of index: Int) -> Float { table.gain(of: index) }
    /// The group, or master, is paused.
    func pauses(_ index: Int) -> Bool { table.pauses(index) }
    /// An effective gain changed since the voices were last brought in line.
    var isDirty: Bool { table.isDirty }
    /// The voices and streams were brought in line with the gains.
    func clearDirty() { table.clearDirty() }
    /// The high-frequency gain the mix snapshots give a member of group `index` (1: none).
    func effectiveLowPass(of index: Int) -> Float { table.effectiveLowPass(of: index) }
    /// An effective low-pass changed since the voices and streams were last brought in line.
    var isLowPassDirty: Bool { table.isLowPassDirty }
    /// The voices and streams were brought in line with the low-passes.
    func clearLowPassDirty() { table.clearLowPassDirty() }
    /// Sets the mix snapshots' gain and low-pass factors, by group index.
    func setMix(gains: [Float], lowPasses: [Float]) { table.setMix(gains: gains, lowPasses: lowPasses) }
    /// The gains by name, for snapshots.
    var gainsByName: [String: Float] { table.snapshot }

    func setGain(_ gain: Float, of index: Int, overSeconds durationSeconds: Double, curve: FadeCurve) {
        table.setGain(gain, of: index, overSeconds: durationSeconds, curve: curve)
    }

    func setMuted(_ muted: Bool, of index: Int) { table.setMuted(muted, of: index) }
    func setPaused(_ paused: Bool, of index: Int) { table.setPaused(paused, of: index) }
    /// Fades a group to silence, then lists it in ``takePausesDue()`` for the engine to pause.
    func fadeOutToPause(_ index: Int, overSeconds seconds: Double) { table.fadeOutToPause(index, overSeconds: seconds) }
    /// Ends a pause fade: heard at once, or fading in over `fadeInSeconds`.
    func resetTransport(of index: Int, fadeInSeconds: Double) { table.resetTransport(of: index, fadeInSeconds: fadeInSeconds) }
    /// The groups whose pause fade reached silence since the last call.
    func takePausesDue() -> [Int] { table.takePausesDue() }
    /// The groups whose fade (gain, pause or resume) reached its end since the last call.
    func takeFadesFinished() -> [GroupID] { table.takeFadesFinished() }
    func addDucking(_ rule: DuckRule) { table.addDucking(rule) }
    func removeDucking(target: Int, trigger: Int) { table.removeDucking(target: target, trigger: trigger) }

    /// A desktop call began (`isOn`) or ended: `group` (made if new) ducks to `duckedGain` while
    /// it lasts, ramping over `attackSeconds` down and `releaseSeconds` back, on the update.
    func duckForCall(_ isOn: Bool, group: GroupID, duckedGain: Float, attackSeconds: Double, releaseSeconds: Double) {
        table.addDucking(DuckRule(targetIndex: table.index(of: group.name), triggerIndex: GroupTable.callTriggerIndex,
                                  duckedGain: duckedGain, attackSeconds: attackSeconds, releaseSeconds: releaseSeconds))
        table.setCallOn(isOn)
    }

    /// Moves fades and ducking on by `seconds`, given the voices playing per group.
    func advance(bySeconds seconds: Double, playingCounts: [Int]) {
        table.advance(bySeconds: seconds, playingCounts: playingCounts)
    }

    /// No fade or ducking would move on an update, given the voices playing per group.
    func isSettled(playingCounts: [Int]) -> Bool {
        table.isSettled(playingCounts: playingCounts)
    }

    // MARK: Reverb zones

    /// The preset of a zone, if it was added.
    func preset(ofZone zone: ReverbZoneID) -> ReverbPreset? { zonePresets[zone] }

    /// Adds or replaces a zone.
    func setZone(_ zone: ReverbZoneID, preset: ReverbPreset) { zonePresets[zone] = preset }

    /// Sends a group to a zone (nil: none).
    func setZone(_ zone: ReverbZoneID?, ofGroup index: Int) { groupZones[index] = zone }

    /// The zone a voice sends to: its own, or its group's.
    func zone(ownZone: ReverbZoneID?, groupIndex: Int) -> ReverbZoneID? { ownZone ?? groupZones[groupIndex] }

    /// `.invalidArgument` naming `call` when `zone` was never added.
    func checkZone(_ zone: ReverbZoneID?, in call: @autoclosure () -> String) throws {
        guard let zone, zonePresets[zone] == nil else { return }
        throw InterludeError(.invalidArgument, "\(call()): no reverb zone named \"\(zone.name)\"; make it with makeReverbZone(named:preset:)")
    }
}
