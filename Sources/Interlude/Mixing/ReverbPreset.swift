/// The parameters of an EFX reverb (the standard reverb, not EAX), with OpenAL Soft's presets.
public struct ReverbPreset: Sendable, Equatable, Codable {
    /// Modal density, 0...1 (EFX `AL_REVERB_DENSITY`).
    public var density: Float
    /// Echo density, 0...1 (`AL_REVERB_DIFFUSION`).
    public var diffusion: Float
    /// The reverb's overall gain, 0...1 (`AL_REVERB_GAIN`).
    public var gain: Float
    /// High-frequency attenuation, 0...1 (`AL_REVERB_GAINHF`).
    public var gainHF: Float
    /// Decay time, 0.1...20 s (`AL_REVERB_DECAY_TIME`).
    public var decaySeconds: Float
    /// High-frequency decay time relative to ``decaySeconds``, 0.1...2 (`AL_REVERB_DECAY_HFRATIO`).
    public var decayHFRatio: Float
    /// Early reflections' gain, 0...3.16 (`AL_REVERB_REFLECTIONS_GAIN`).
    public var reflectionsGain: Float
    /// Delay before the early reflections, 0...0.3 s (`AL_REVERB_REFLECTIONS_DELAY`).
    public var reflectionsDelaySeconds: Float
    /// Late reverberation's gain, 0...10 (`AL_REVERB_LATE_REVERB_GAIN`).
    public var lateReverbGain: Float
    /// Delay of the late reverberation after the reflections, 0...0.1 s (`AL_REVERB_LATE_REVERB_DELAY`).
    public var lateReverbDelaySeconds: Float
    /// High-frequency air absorption per metre, 0.892...1 (`AL_REVERB_AIR_ABSORPTION_GAINHF`).
    public var airAbsorptionGainHF: Float
    /// How fast the reverb falls with distance, 0...10 (`AL_REVERB_ROOM_ROLLOFF_FACTOR`).
    public var roomRolloffFactor: Float

    /// efx-presets.h: EFX_REVERB_PRESET_GENERIC.
    public static let generic = ReverbPreset(density: 1, diffusion: 1, gain: 0.3162, gainHF: 0.8913, decaySeconds: 1.49, decayHFRatio: 0.83,
                                             reflectionsGain: 0.05, reflectionsDelaySeconds: 0.007, lateReverbGain: 1.2589,
                                             lateReverbDelaySeconds: 0.011, airAbsorptionGainHF: 0.9943, roomRolloffFactor: 0)
    /// efx-presets.h: EFX_REVERB_PRESET_ROOM.
    public static let room = ReverbPreset(density: 0.4287, diffusion: 1, gain: 0.3162, gainHF: 0.5929, decaySeconds: 0.4, decayHFRatio: 0.83,
                                          reflectionsGain: 0.1503, reflectionsDelaySeconds: 0.002, lateReverbGain: 1.0629,
                                          lateReverbDelaySeconds: 0.003, airAbsorptionGainHF: 0.9943, roomRolloffFactor: 0)
    /// efx-presets.h: EFX_REVERB_PRESET_CONCERTHALL.
    public static let hall = ReverbPreset(density: 1, diffusion: 1, gain: 0.3162, gainHF: 0.5623, decaySeconds: 3.92, decayHFRatio: 0.7,
                                          reflectionsGain: 0.2427, reflectionsDelaySeconds: 0.02, lateReverbGain: 0.9977,
                                          lateReverbDelaySeconds: 0.029, airAbsorptionGainHF: 0.9943, roomRolloffFactor: 0)
    /// efx-presets.h: EFX_REVERB_PRESET_CAVE.
    public static let cave = ReverbPreset(density: 1, diffusion: 1, gain: 0.3162, gainHF: 1, decaySeconds: 2.91, decayHFRatio: 1.3,
                                          reflectionsGain: 0.5, reflectionsDelaySeconds: 0.015, lateReverbGain: 0.7063,
                                          lateReverbDelaySeconds: 0.022, airAbsorptionGainHF: 0.9943, roomRolloffFactor: 0)

    /// The presets by name, as scene files and `interlude info` use them.
    public static let named: [String: ReverbPreset] = ["generic": .generic, "room": .room, "hall": .hall, "cave": .cave]

    /// A preset from each of its EFX reverb values; see each property for its range.
    public init(density: Float, diffusion: Float, gain: Float, gainHF: Float, decaySeconds: Float, decayHFRatio: Float,
                reflectionsGain: Float, reflectionsDelaySeconds: Float, lateReverbGain: Float, lateReverbDelaySeconds: Float,
                airAbsorptionGainHF: Float, roomRolloffFactor: Float) {
        self.density = density
        self.diffusion = diffusion
        self.gain = gain
        self.gainHF = gainHF
        self.decaySeconds = decaySeconds
        self.decayHFRatio = decayHFRatio
        self.reflectionsGain = reflectionsGain
        self.reflectionsDelaySeconds = reflectionsDelaySeconds
        self.lateReverbGain = lateReverbGain
        self.lateReverbDelaySeconds = lateReverbDelaySeconds
        self.airAbsorptionGainHF = airAbsorptionGainHF
        self.roomRolloffFactor = roomRolloffFactor
    }
}
