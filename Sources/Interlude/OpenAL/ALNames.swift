import COpenAL

/// Every AL name one device's context made and has not deleted: sources, buffers, and the EFX
/// effects, slots and filters. ``ALDevice`` makes and deletes names only through it, so closing
/// a device deletes all of them and nothing leaks when a device is lost and rebuilt. The
/// context must be current for every call but the counts and ``forgetAll()``.
final class ALNames {
    @exclusivity(unchecked) private var sources: Set<ALuint> = []
    @exclusivity(unchecked) private var buffers: Set<ALuint> = []
    @exclusivity(unchecked) private var effects: Set<ALuint> = []
    @exclusivity(unchecked) private var slots: Set<ALuint> = []
    @exclusivity(unchecked) private var filters: Set<ALuint> = []

    /// The number of source names made and not yet deleted.
    var sourceCount: Int { sources.count }
    /// The number of buffer names made and not yet deleted.
    var bufferCount: Int { buffers.count }
    /// The number of EFX objects (effects, slots, filters) made and not yet deleted.
    var effectObjectCount: Int { effects.count + slots.count + filters.count }

    /// `alGenSources` for one source, given the resampler at `resamplerIndex` when set.
    func makeSource(resamplerIndex: Int32?) throws -> ALSource {
        #if DEBUG
        try ALFaults.check(.genSources, "alGenSources", error: "AL_OUT_OF_MEMORY")
        #endif
        var source: ALuint = 0
        alGenSources(1, &source)
        try ALCheck.al("alGenSources")
        sources.insert(source)
        let made = ALSource(name: source)
        if let resamplerIndex { try made.setResampler(index: resamplerIndex) }
        return made
    }

    /// `alDeleteSources` for one source made here.
    func deleteSource(_ source: ALSource) throws {
        guard sources.remove(source.name) != nil else { return }
        var sourceName = source.name
        alDeleteSources(1, &sourceName)
        try ALCheck.al("alDeleteSources")
    }

    /// `alGenBuffers` for one buffer.
    func makeBuffer() throws -> ALBuffer {
        #if DEBUG
        try ALFaults.check(.genBuffers, "alGenBuffers", error: "AL_OUT_OF_MEMORY")
        #endif
        var buffer: ALuint = 0
        alGenBuffers(1, &buffer)
        try ALCheck.al("alGenBuffers")
        buffers.insert(buffer)
        return ALBuffer(name: buffer)
    }

    /// `alDeleteBuffers` for one buffer made here.
    func deleteBuffer(_ buffer: ALBuffer) throws {
        guard buffers.remove(buffer.name) != nil else { return }
        var bufferName = buffer.name
        alDeleteBuffers(1, &bufferName)
        try ALCheck.al("alDeleteBuffers")
    }

    /// A reverb effect in its own auxiliary slot.
    func makeReverbSlot(_ preset: ReverbPreset, with efx: ALEFX) throws -> (effect: ALuint, slot: ALuint) {
        let effect = try efx.makeReverb(preset)
        effects.insert(effect)
        let slot = try efx.makeSlot(running: effect)
        slots.insert(slot)
        return (effect, slot)
    }

    /// A low-pass filter.
    func makeLowPassFilter(with efx: ALEFX) throws -> ALuint {
        let filter = try efx.makeLowPass()
        filters.insert(filter)
        return filter
    }

    /// Deletes a reverb slot and its effect made here.
    func deleteReverbSlot(effect: ALuint, slot: ALuint, with efx: ALEFX) {
        if slots.remove(slot) != nil { efx.deleteSlot(slot) }
        if effects.remove(effect) != nil { efx.deleteEffect(effect) }
    }

    /// Deletes every source and then every buffer still alive (sources first: a buffer attached
    /// to a source cannot be deleted), then the EFX objects.
    func deleteAll(efx: ALEFX?) {
        for source in sources {
            var sourceName = source
            alSourceStop(sourceName)
            alDeleteSources(1, &sourceName)
        }
        sources.removeAll()
        for buffer in buffers {
            var bufferName = buffer
            alDeleteBuffers(1, &bufferName)
        }
        buffers.removeAll()
        if let efx {
            slots.forEach(efx.deleteSlot)
            effects.forEach(efx.deleteEffect)
            filters.forEach(efx.deleteFilter)
        }
        forgetAll()
        ALCheck.clearAL()
    }

    /// Forgets every name without deleting it: the context that held them is gone.
    func forgetAll() {
        sources.removeAll()
        buffers.removeAll()
        slots.removeAll()
        effects.removeAll()
        filters.removeAll()
    }
}
