/// The low-pass a renderer puts on its sources' direct path: one EFX filter on the current
/// device, made on first use. OpenAL copies a filter's settings into a source when it is
/// attached, so one filter serves every source, each with its own cutoff.
struct DirectLowPass {
    private var filter: UInt32?

    /// Filters `source` with `lowPass` (its high-frequency gain; 1 removes the filter).
    mutating func apply(_ lowPass: Float, to source: ALSource, efx: ALEFX, on device: ALDevice) throws {
        guard lowPass < 1 else {
            try source.setDirectFilter(0)
            return
        }
        if filter == nil { filter = try device.makeLowPassFilter() }
        guard let filter else { return }
        try efx.setLowPass(filter, gainHF: lowPass)
        try source.setDirectFilter(filter)
    }

    /// The device is gone, and the filter with it.
    mutating func forgetDevice() {
        filter = nil
    }
}
