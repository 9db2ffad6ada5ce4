import COpenAL

/// The EFX entry points (ALC_EXT_EFX), loaded with `alGetProcAddress`, and the checked calls
/// made through them: reverb effects in auxiliary slots, and low-pass filters on sources.
struct ALEFX {
    private let genEffects: LPALGENEFFECTS
    private let deleteEffects: LPALDELETEEFFECTS
    private let effecti: LPALEFFECTI
    private let effectf: LPALEFFECTF
    private let genSlots: LPALGENAUXILIARYEFFECTSLOTS
    private let deleteSlots: LPALDELETEAUXILIARYEFFECTSLOTS
    private let sloti: LPALAUXILIARYEFFECTSLOTI
    private let genFilters: LPALGENFILTERS
    private let deleteFilters: LPALDELETEFILTERS
    private let filteri: LPALFILTERI
    private let filterf: LPALFILTERF

    /// Loads the entry points; nil when the device lacks ALC_EXT_EFX.
    init?(device: OpaquePointer?) {
        guard alcIsExtensionPresent(device, "ALC_EXT_EFX") != 0 else { return nil }
        func load<T>(_ name: String, as type: T.Type) -> T? {
            alGetProcAddress(name).map { unsafeBitCast($0, to: type) }
        }
        guard let genEffects = load("alGenEffects", as: LPALGENEFFECTS.self),
              let deleteEffects = load("alDeleteEffects", as: LPALDELETEEFFECTS.self),
              let effecti = load("alEffecti", as: LPALEFFECTI.self),
              let effectf = load("alEffectf", as: LPALEFFECTF.self),
              let genSlots = load("alGenAuxiliaryEffectSlots", as: LPALGENAUXILIARYEFFECTSLOTS.self),
              let deleteSlots = load("alDeleteAuxiliaryEffectSlots", as: LPALDELETEAUXILIARYEFFECTSLOTS.self),
              let sloti = load("alAuxiliaryEffectSloti", as: LPALAUXILIARYEFFECTSLOTI.self),
              let genFilters = load("alGenFilters", as: LPALGENFILTERS.self),
              let deleteFilters = load("alDeleteFilters", as: LPALDELETEFILTERS.self),
              let filteri = load("alFilteri", as: LPALFILTERI.self),
              let filterf = load("alFilterf", as: LPALFILTERF.self) else { return nil }
        self.genEffects = genEffects
        self.deleteEffects = deleteEffects
        self.effecti = effecti
        self.effectf = effectf
        self.genSlots = genSlots
        self.deleteSlots = deleteSlots
        self.sloti = sloti
        self.genFilters = genFilters
        self.deleteFilters = deleteFilters
        self.filteri = filteri
        self.filterf = filterf
    }

    /// `alGenEffects` + AL_EFFECT_TYPE reverb + the preset's parameters (`alEffectf`).
    func makeReverb(_ preset: ReverbPreset) throws -> ALuint {
        var effect: ALuint = 0
        genEffects(1, &effect)
        try ALCheck.al("alGenEffects")
        effecti(effect, AL_EFFECT_TYPE, AL_EFFECT_REVERB)
        try ALCheck.al("alEffecti(AL_EFFECT_TYPE)")
        let parameters: [(ALenum, Float)] = [
            (AL_REVERB_DENSITY, preset.density), (AL_REVERB_DIFFUSION, preset.diffusion), (AL_REVERB_GAIN, preset.gain),
            (AL_REVERB_GAINHF, preset.gainHF), (AL_REVERB_DECAY_TIME, preset.decaySeconds),
            (AL_REVERB_DECAY_HFRATIO, preset.decayHFRatio), (AL_REVERB_REFLECTIONS_GAIN, preset.reflectionsGain),
            (AL_REVERB_REFLECTIONS_DELAY, preset.reflectionsDelaySeconds), (AL_REVERB_LATE_REVERB_GAIN, preset.lateReverbGain),
            (AL_REVERB_LATE_REVERB_DELAY, preset.lateReverbDelaySeconds),
            (AL_REVERB_AIR_ABSORPTION_GAINHF, preset.airAbsorptionGainHF), (AL_REVERB_ROOM_ROLLOFF_FACTOR, preset.roomRolloffFactor),
        ]
        for (parameter, value) in parameters {
            effectf(effect, parameter, value)
            try ALCheck.al("alEffectf")
        }
        return effect
    }

    /// `alDeleteEffects`.
    func deleteEffect(_ effect: ALuint) {
        var name = effect
        deleteEffects(1, &name)
        ALCheck.clearAL()
    }

    /// `alGenAuxiliaryEffectSlots` + AL_EFFECTSLOT_EFFECT: a slot that runs `effect`.
    func makeSlot(running effect: ALuint) throws -> ALuint {
        var slot: ALuint = 0
        genSlots(1, &slot)
        try ALCheck.al("alGenAuxiliaryEffectSlots")
        sloti(slot, AL_EFFECTSLOT_EFFECT, ALint(bitPattern: effect))
        try ALCheck.al("alAuxiliaryEffectSloti(AL_EFFECTSLOT_EFFECT)")
        return slot
    }

    /// `alDeleteAuxiliaryEffectSlots`.
    func deleteSlot(_ slot: ALuint) {
        var name = slot
        deleteSlots(1, &name)
        ALCheck.clearAL()
    }

    /// `alGenFilters` + AL_FILTER_TYPE low-pass.
    func makeLowPass() throws -> ALuint {
        var filter: ALuint = 0
        genFilters(1, &filter)
        try ALCheck.al("alGenFilters")
        filteri(filter, AL_FILTER_TYPE, AL_FILTER_LOWPASS)
        try ALCheck.al("alFilteri(AL_FILTER_TYPE)")
        return filter
    }

    /// `alDeleteFilters`.
    func deleteFilter(_ filter: ALuint) {
        var name = filter
        deleteFilters(1, &name)
        ALCheck.clearAL()
    }

    /// Sets a low-pass filter's AL_LOWPASS_GAINHF (high frequencies' gain, 0...1).
    func setLowPass(_ filter: ALuint, gainHF: Float) throws {
        filterf(filter, AL_LOWPASS_GAIN, 1)
        filterf(filter, AL_LOWPASS_GAINHF, gainHF)
        try ALCheck.al("alFilterf(AL_LOWPASS_GAINHF)")
    }
}

extension ALSource {
    /// AL_DIRECT_FILTER: OpenAL copies the filter's settings into the source now; 0 removes it.
    func setDirectFilter(_ filter: ALuint) throws {
        alSourcei(name, AL_DIRECT_FILTER, ALint(bitPattern: filter))
        try ALCheck.al("alSourcei(AL_DIRECT_FILTER)")
    }

    /// AL_AUXILIARY_SEND_FILTER on send 0: feeds the source to an effect slot (0: none).
    func setAuxiliarySend(slot: ALuint) throws {
        alSource3i(name, AL_AUXILIARY_SEND_FILTER, ALint(bitPattern: slot), 0, ALint(AL_FILTER_NULL))
        try ALCheck.al("alSource3i(AL_AUXILIARY_SEND_FILTER)")
    }
}
