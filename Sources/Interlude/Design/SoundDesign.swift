/// The sound designer's layer: cues, game parameters with the curves that follow them, and mix
/// snapshots. It plays cue voices through the ``VoicePlayer`` like any voice (and has it end
/// stolen ones), keeps each cue voice's curve factors in its ``Voice``, and
/// gives the ``GroupMixer`` the snapshots' group factors. Random choices come from one ``SeededRandom`` (SplitMix64) seeded by
/// ``SoundEngine/Configuration/seed``. Parameters and snapshots move in the engine's own time
/// (rendered frames offline), interrupted or not.
final class SoundDesign {
    private let table: VoiceTable
    private let player: VoicePlayer
    private let mixer: GroupMixer
    private let events: EventQueue
    private let clock: UpdateClock
    @exclusivity(unchecked) private var random: SeededRandom
    @exclusivity(unchecked) private var cues: [String: CueState] = [:]
    @exclusivity(unchecked) private var parameters = ParameterTable()
    @exclusivity(unchecked) private var snapshots = MixSnapshotTable()
    /// The cue voices with curves; ended ones are dropped when the list is next walked.
    @exclusivity(unchecked) private var followers: [CurveFollower] = []
    /// Followers whose voices own a moving parameter value.
    @exclusivity(unchecked) private var hasOwnMoves = false
    /// The follower count past which a play drops ended followers first.
    @exclusivity(unchecked) private var followerPruneCount = 64

    init(seed: UInt64, table: VoiceTable, player: VoicePlayer, mixer: GroupMixer, events: EventQueue, clock: UpdateClock) {
        random = SeededRandom(seed: seed)
        self.table = table
        self.player = player
        self.mixer = mixer
        self.events = events
        self.clock = clock
    }

    // MARK: Cues

    /// Makes a cue, or replaces the one of that name (its voices play on; the next play
    /// follows the new definition). `variantLoudnessLUFS`: each variant's integrated loudness,
    /// for a loudness target (measured off the engine's lock by the caller).
    func makeCue(named name: String, _ definition: CueDefinition, variantLoudnessLUFS: [Double]?, call: String) throws -> CueID {
        guard !name.isEmpty else { throw InterludeError(.invalidArgument, "\(call): a cue needs a name") }
        try definition.validate(in: call)
        for sound in definition.variants { try player.checkLoaded(sound, in: "\(call): variant") }
        _ = try mixer.existingIndex(of: definition.group, in: call)
        let curves = try definition.curves.map { curve in
            guard let index = parameters.index(of: curve.parameter) else {
                throw InterludeError(.invalidArgument, "\(call): the \(curve.property.rawValue) curve reads \"\(curve.parameter)\", which is no parameter; make it with makeParameter(named:range:defaultValue:)")
            }
            return CurveFollower.Resolved(curve: curve, parameterIndex: index)
        }
        let id = CueID(name: name)
        cues[name] = CueState(id: id, definition: definition, curves: curves, variantLoudnessLUFS: variantLoudnessLUFS)
        return id
    }

    /// The cue named `name`, if made.
    func cue(named name: String) -> CueID? { cues[name]?.id }

    /// Plays a cue: draws a variant, a gain and a pitch (in that order), and starts a voice of
    /// it like ``VoicePlayer/play(_:parameters:origin:startFrame:startsPaused:factors:)``.
    /// A one-shot cue while interrupted is dropped before anything is drawn; a play within the
    /// cooldown, or past the voice limit without stealing, is dropped with a
    /// ``DesignEvent/cueDropped(cue:reason:)``. A dropped play returns a stale handle.
    /// `call` names the public call in errors; it is built only for one.
    func play(cue id: CueID, position: Vector3?, gain: Float, call: @autoclosure () -> String) throws -> VoiceHandle {
        guard let cue = cues[id.name] else {
            throw InterludeError(.invalidArgument, "\(call()): no cue named \"\(id.name)\"; make it with makeCue(named:_:)")
        }
        try Validate.gain(gain, in: call())
        let definition = cue.definition
        var parameters = VoiceParameters(position: position, gain: gain, isLooping: definition.isLooping,
                                         group: definition.group, priority: definition.priority)
        if player.dropsPlay(isLooping: definition.isLooping) {
            // Dropped by the player as any one-shot while interrupted, nothing drawn.
            return try player.play(definition.variants[0], parameters: parameters, origin: .cue)
        }
        if let position { try Validate.vector(position, "position", in: call()) }
        let now = clock.ticks()
        if definition.cooldownSeconds > 0, let last = cue.lastPlay,
           clock.seconds(fromTicks: last, to: now) < definition.cooldownSeconds {
            return drop(cue, reason: .cooldown)
        }
        if definition.maxVoices > 0 {
            var count = cue.countLiveVoices { player.isLiveNow($0) }
            if count >= definition.maxVoices {
                guard definition.steal == .oldest else { return drop(cue, reason: .maxVoices) }
                while count >= definition.maxVoices, let oldest = cue.takeOldestVoice() {
                    player.steal(oldest)
                    count -= 1
                }
            }
        }
        let variant = cue.pickVariant(&random)
        let drawnGain = random.value(in: definition.gainRange)
        let drawnPitch = random.value(in: definition.pitchRange)
        parameters.gain = drawnGain * gain * cue.variantGain(variant)
        parameters.pitch = drawnPitch
        let factors = CurveFollower.factors(of: cue.curves, self.parameters)
        let handle = try player.play(definition.variants[variant], parameters: parameters, origin: .cue, factors: factors)
        adopt(handle, into: cue, atTicks: now)
        events.emit(.design(.cuePlayed(cue: id, voice: handle, variantIndex: variant, gain: drawnGain, pitch: drawnPitch)))
        return handle
    }

    /// Records a voice the cue started: counted against its voice limit, following its curves.
    private func adopt(_ handle: VoiceHandle, into cue: CueState, atTicks ticks: Int64) {
        cue.recordPlay(of: handle, atTicks: ticks)
        guard !cue.curves.isEmpty else { return }
        if followers.count >= followerPruneCount {
            followers.removeAll { table.voice(for: $0.handle) == nil }
            followerPruneCount = max(64, 2 * followers.count)
        }
        followers.append(CurveFollower(handle: handle, cueName: cue.id.name, curves: cue.curves))
    }

    /// The cue that started a voice still following its curves or counted by its voice limit,
    /// for a ``SavedState``; nil for any other voice.
    func cueName(of voice: VoiceHandle) -> String? {
        followers.first { $0.handle == voice }?.cueName ?? cues.values.first { $0.holds(voice) }?.id.name
    }

    /// Restores a saved voice of the cue named `name` as the cue's own (its curves followed, its
    /// voice limit counting it), with its saved parameters: nothing is drawn. nil, playing
    /// nothing, when no cue has that name.
    func restoreVoice(ofCue name: String, sound: Sound, parameters: VoiceParameters, startFrame: Int,
                      startsPaused: Bool) throws -> VoiceHandle? {
        guard let cue = cues[name] else { return nil }
        let factors = CurveFollower.factors(of: cue.curves, self.parameters)
        let handle = try player.play(sound, parameters: parameters, origin: .cue, startFrame: startFrame,
                                     startsPaused: startsPaused, factors: factors)
        adopt(handle, into: cue, atTicks: clock.ticks())
        return handle
    }

    /// A dropped play: the event, and a handle that is already stale.
    private func drop(_ cue: CueState, reason: CueDropReason) -> VoiceHandle {
        let handle = table.staleHandle()
        events.emit(.design(.cueDropped(cue: cue.id, reason: reason)))
        return handle
    }

    // MARK: Parameters

    /// Makes a parameter at `defaultValue` (nil: the range's lower bound), or remakes one.
    func makeParameter(named name: String, range: ClosedRange<Float>, defaultValue: Float?, call: String) throws {
        guard !name.isEmpty else { throw InterludeError(.invalidArgument, "\(call): a parameter needs a name") }
        guard range.lowerBound.isFinite, range.upperBound.isFinite, range.lowerBound < range.upperBound else {
            throw InterludeError(.invalidArgument, "\(call): the range must be finite with min < max, got \(range)")
        }
        let value = defaultValue ?? range.lowerBound
        guard range.contains(value) else {
            throw InterludeError(.invalidArgument, "\(call): the default \(value) is outside \(range)")
        }
        parameters.make(named: name, range: range, value: value)
        refreshFollowers()
    }

    /// The index of a parameter and a checked value, or `.invalidArgument` naming `call`.
    private func checkedParameter(_ name: String, value: Float, fadeSeconds: Double, call: @autoclosure () -> String) throws -> Int {
        guard let index = parameters.index(of: name) else {
            throw InterludeError(.invalidArgument, "\(call()): no parameter named \"\(name)\"; make it with makeParameter(named:range:defaultValue:)")
        }
        let range = parameters.range(at: index)
        guard value.isFinite, range.contains(value) else {
            throw InterludeError(.invalidArgument, "\(call()): \(value) is outside the range of \"\(name)\", \(range)")
        }
        try Validate.seconds(fadeSeconds, "fadeSeconds", in: call())
        return index
    }

    /// Moves a global parameter to `value` over `fadeSeconds` (0: at once, and the curves
    /// follow at once).
    func setParameter(_ value: Float, of name: String, fadeSeconds: Double, call: @autoclosure () -> String) throws {
        let index = try checkedParameter(name, value: value, fadeSeconds: fadeSeconds, call: call())
        parameters.set(value, at: index, overSeconds: fadeSeconds)
        if fadeSeconds == 0 { refreshFollowers() }
    }

    /// Sets a parameter's value for one cue voice's curves alone; returns whether the voice
    /// took it. A stale handle, or a voice without curves, does nothing (false) once the value
    /// is checked.
    func setParameter(_ value: Float, of name: String, on voice: VoiceHandle, fadeSeconds: Double, call: @autoclosure () -> String) throws -> Bool {
        let index = try checkedParameter(name, value: value, fadeSeconds: fadeSeconds, call: call())
        guard let follower = followers.firstIndex(where: { $0.handle == voice }), let live = table.voice(for: voice) else { return false }
        followers[follower].setOwn(value, of: index, current: parameters.value(at: index), overSeconds: fadeSeconds)
        if fadeSeconds > 0 { hasOwnMoves = true }
        live.setFactors(followers[follower].factors(parameters))
        return true
    }

    /// Every global parameter's value now, by name, for a ``SavedState``.
    var parameterValues: [String: Float] { parameters.valuesByName }

    /// Every mix snapshot's intensity now, by name, for a ``SavedState``.
    var snapshotIntensities: [String: Float] { snapshots.intensitiesByName }

    /// Puts back a saved snapshot intensity, at once. Throws `.invalidArgument` naming `call`
    /// for a snapshot not made, or an intensity outside 0...1.
    func restoreIntensity(_ intensity: Float, of name: String, call: String) throws {
        guard let index = snapshots.index(of: name) else {
            throw InterludeError(.invalidArgument, "\(call): no snapshot named \"\(name)\"; make it before restoring")
        }
        guard intensity.isFinite, (0...1).contains(intensity) else {
            throw InterludeError(.invalidArgument, "\(call): snapshot \"\(name)\" intensity \(intensity) is outside 0...1")
        }
        snapshots.move(index, to: intensity, overSeconds: 0)
        applySnapshots()
    }

    /// A global parameter's value now, or nil when there is none of that name.
    func parameterValue(of name: String) -> Float? {
        parameters.index(of: name).map { parameters.value(at: $0) }
    }

    /// The value a cue voice's curves read for a parameter: its own, else the global one; nil
    /// for an unknown parameter or a stale handle.
    func parameterValue(of name: String, on voice: VoiceHandle) -> Float? {
        guard let index = parameters.index(of: name), table.voice(for: voice) != nil else { return nil }
        return followers.first { $0.handle == voice }?.ownValue(of: index) ?? parameters.value(at: index)
    }

    /// Brings every curve-following voice in line with the parameters, dropping ended ones.
    private func refreshFollowers() {
        var index = 0
        while index < followers.count {
            guard let voice = table.voice(for: followers[index].handle) else {
                followers.swapAt(index, followers.count - 1)
                followers.removeLast()
                continue
            }
            voice.setFactors(followers[index].factors(parameters))
            index += 1
        }
    }

    // MARK: Mix snapshots

    /// Makes a snapshot at intensity 0 (or replaces the groups of one, keeping its intensity).
    func makeSnapshot(named name: String, groups: [GroupID: GroupMix], call: String) throws -> MixSnapshotID {
        guard !name.isEmpty else { throw InterludeError(.invalidArgument, "\(call): a snapshot needs a name") }
        var mixes: [(index: Int, mix: GroupMix)] = []
        for (group, mix) in groups.sorted(by: { $0.key.name < $1.key.name }) {
            guard mix.gain.isFinite, mix.gain >= 0 else {
                throw InterludeError(.invalidArgument, "\(call): group \"\(group.name)\": gain must be a finite number >= 0, got \(mix.gain)")
            }
            guard mix.lowPassGainHF.isFinite, (0...1).contains(mix.lowPassGainHF) else {
                throw InterludeError(.invalidArgument, "\(call): group \"\(group.name)\": lowPassGainHF must be 0...1, got \(mix.lowPassGainHF)")
            }
            mixes.append((try mixer.existingIndex(of: group, in: call), mix))
        }
        snapshots.make(named: name, groups: mixes)
        applySnapshots()
        return MixSnapshotID(name: name)
    }

    /// The snapshot named `name`, if made.
    func snapshot(named name: String) -> MixSnapshotID? {
        snapshots.index(of: name).map { _ in MixSnapshotID(name: name) }
    }

    private func checkedSnapshot(_ snapshot: MixSnapshotID, fadeSeconds: Double, call: String) throws -> Int {
        guard let index = snapshots.index(of: snapshot.name) else {
            throw InterludeError(.invalidArgument, "\(call): no snapshot named \"\(snapshot.name)\"; make it with makeMixSnapshot(named:groups:)")
        }
        try Validate.seconds(fadeSeconds, "fadeSeconds", in: call)
        return index
    }

    /// Moves a snapshot's intensity to 1 over `fadeSeconds`.
    func start(_ snapshot: MixSnapshotID, fadeSeconds: Double, call: String) throws {
        let index = try checkedSnapshot(snapshot, fadeSeconds: fadeSeconds, call: call)
        snapshots.move(index, to: 1, overSeconds: fadeSeconds)
        applySnapshots()
        events.emit(.design(.snapshotStarted(snapshot, fadeSeconds: fadeSeconds)))
    }

    /// Moves a snapshot's intensity to 0 over `fadeSeconds`; one already at rest at 0 is
    /// ignored (``DesignEvent/snapshotStopIgnored(_:)``).
    func stop(_ snapshot: MixSnapshotID, fadeSeconds: Double, call: String) throws {
        let index = try checkedSnapshot(snapshot, fadeSeconds: fadeSeconds, call: call)
        guard !snapshots.isAtRest(index) else {
            events.emit(.design(.snapshotStopIgnored(snapshot)))
            return
        }
        snapshots.move(index, to: 0, overSeconds: fadeSeconds)
        applySnapshots()
        events.emit(.design(.snapshotStopped(snapshot, fadeSeconds: fadeSeconds)))
    }

    /// A snapshot's intensity now, or nil when there is none of that name.
    func intensity(of snapshot: MixSnapshotID) -> Float? {
        snapshots.index(of: snapshot.name).map { snapshots.intensity(at: $0) }
    }

    /// Gives the mixer the snapshots' group factors at their intensities now.
    private func applySnapshots() {
        let factors = snapshots.factors()
        mixer.setMix(gains: factors.gains, lowPasses: factors.lowPasses)
    }

    // MARK: The update

    /// Moves parameters, voices' own values and snapshots on by `seconds` of engine time, and
    /// brings the curve-following voices and the mixer in line. Costs nothing while nothing
    /// moves.
    func advance(bySeconds seconds: Double) {
        var moved = parameters.advance(bySeconds: seconds)
        if hasOwnMoves {
            hasOwnMoves = false
            for index in followers.indices where followers[index].advance(bySeconds: seconds) {
                moved = true
                hasOwnMoves = true
            }
        }
        if moved { refreshFollowers() }
        if snapshots.advance(bySeconds: seconds) { applySnapshots() }
    }
}
