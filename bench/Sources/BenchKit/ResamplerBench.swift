import Interlude

/// Scenario 18: the reference scene once per resampler, the engine and the C baseline setting
/// the same one on every source, so each row is what that resampler costs the engine over raw
/// OpenAL Soft, and the C column across rows is what it costs OpenAL Soft itself.
extension Bench {
    /// The reference scene's spec with every source resampling through `resampler`.
    func resamplerScene(_ resampler: Resampler, seconds: Double) -> SceneSpec {
        var spec = SceneSpec(emitterCount: sizes.referenceEmitterCount, seconds: seconds, musicPath: sceneTrackPath)
        spec.resampler = resampler
        return spec
    }

    /// Both sides' renders of the reference scene through `resampler`, for checking they match.
    public func resamplerRenders(_ resampler: Resampler, seconds: Double) throws -> (engine: [Float], baseline: [Float]) {
        let spec = resamplerScene(resampler, seconds: seconds)
        return (try runner.renderEngine(spec, keep: true).samples, try runner.renderBaseline(spec, keep: true))
    }

    /// One CPU row and one render-match row per resampler; the goal (<= 1.00, min of rounds over
    /// min of rounds) is on OpenAL Soft's own default, linear, which is the engine's default too.
    public func resamplers() throws -> [BenchRow] {
        progress("18. resamplers")
        var rows: [BenchRow] = []
        for resampler in Resampler.allCases {
            let scenario = "18. Resampler \(resampler.rawValue)"
            let (engine, baseline) = try compareScene(resamplerScene(resampler, seconds: sizes.sceneSeconds))
            let minRatio = engine.min()! / baseline.min()!
            let isDefault = resampler == .linear
            rows.append(BenchRow(scenario: scenario,
                                 measure: "reference scene, \(sizes.referenceEmitterCount) voices + soundtrack, \(Int(sizes.sceneSeconds)) s offline: CPU time",
                                 unit: "s", engine: Measure.median(engine), baseline: Measure.median(baseline),
                                 ratio: Measure.median(engine) / Measure.median(baseline), minRatio: minRatio,
                                 ratioMeaning: "engine / C",
                                 goal: isDefault ? "<= 1.00 min / min (the default)" : "reported",
                                 isGoalMet: isDefault ? minRatio <= 1.00 : nil,
                                 engineSamples: engine, baselineSamples: baseline))
            let renders = try resamplerRenders(resampler, seconds: min(5, sizes.sceneSeconds))
            let difference = rootMeanSquareDifference(renders.engine, renders.baseline) / rootMeanSquare(renders.baseline)
            rows.append(BenchRow(scenario: scenario, measure: "engine vs C render, first \(Int(min(5, sizes.sceneSeconds))) s: RMS difference / RMS signal",
                                 unit: "", engine: difference, goal: "< 0.01 (asserted in make test)", isGoalMet: difference < 0.01))
        }
        return rows
    }
}
