/// A named reverb: the preset the game chose, and its effect and slot on the current device
/// (made on first use, made again after a rebuild).
struct ReverbZone {
    var preset: ReverbPreset
    var effect: UInt32?
    var slot: UInt32?
}

extension EngineCore {
    /// Sends a real voice to its reverb zone (its own, or its group's) and sets its occlusion
    /// low-pass. Without ALC_EXT_EFX this does nothing.
    func applyEffects(of voice: Voice) throws {
        guard let source = voice.source, let device, let efx = device.efx else { return }
        let zoneName = voice.parameters.reverbZone ?? groupReverbZones[voice.groupIndex]
        try source.setAuxiliarySend(slot: try zoneName.map { try slot(ofZone: $0, on: device) } ?? 0)
        if voice.parameters.lowPassGainHF < 1 {
            if lowPassFilter == nil { lowPassFilter = try device.makeLowPassFilter() }
            guard let filter = lowPassFilter else { return }
            // OpenAL copies a filter's settings into the source when attached, so one filter serves all.
            try efx.setLowPass(filter, gainHF: voice.parameters.lowPassGainHF)
            try source.setDirectFilter(filter)
        } else {
            try source.setDirectFilter(0)
        }
    }

    /// The zone's slot on `device`, made on first use.
    private func slot(ofZone name: String, on device: ALDevice) throws -> UInt32 {
        guard var zone = reverbZones[name] else { return 0 }
        if let slot = zone.slot { return slot }
        guard let made = try device.makeReverbSlot(zone.preset) else { return 0 }
        zone.effect = made.effect
        zone.slot = made.slot
        reverbZones[name] = zone
        return made.slot
    }

    /// Forgets every EFX name: the device that held them is gone.
    func forgetEffects() {
        for name in reverbZones.keys {
            reverbZones[name]?.effect = nil
            reverbZones[name]?.slot = nil
        }
        lowPassFilter = nil
    }
}
