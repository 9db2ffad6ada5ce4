import Foundation
import SoakScenario
import Testing
@testable import Interlude

/// The engine checked against ``EngineModel``: random sequences of 50 steps (plays, pauses,
/// sets, the soundtrack and its crossfades, group gains, interruptions from several sources,
/// device losses and switches, snapshots restored into a fresh engine, renders of random length)
/// run on a real loopback engine and on the model, compared after every step. A failing
/// sequence is shrunk to a minimal one, printed with the seed that replays it.
///
/// `make test` runs 2,000 sequences from a fixed seed; `make check-model` a long campaign from a
/// fresh seed. INTERLUDE_MODEL_SEED and INTERLUDE_MODEL_SEQUENCES set them.
extension EngineSuites {
    @Suite struct ModelBasedTests {
        static let stepCount = 50
        static let defaultSequenceCount = 2_000
        static let defaultSeed: UInt64 = 0x1D_0118

        /// The steps of the sequence with this seed, and the resume policy it runs under.
        static func sequence(seed: UInt64) -> (policy: EngineModel.Policy, steps: [ModelStep]) {
            var generator = SplitMix64(seed: seed)
            let policy: EngineModel.Policy = Bool.random(using: &generator) ? .alwaysResume : .honorShouldResume
            return (policy, (0..<stepCount).map { _ in ModelStep.random(using: &generator) })
        }

        @Test("random sequences keep the engine and its reference model in step")
        func engineFollowsTheModel() throws {
            let environment = ProcessInfo.processInfo.environment
            let baseSeed = environment["INTERLUDE_MODEL_SEED"].flatMap { UInt64($0) } ?? Self.defaultSeed
            let sequenceCount = environment["INTERLUDE_MODEL_SEQUENCES"].flatMap { Int($0) } ?? Self.defaultSequenceCount
            print("model-based test: \(sequenceCount) sequences of \(Self.stepCount) steps from seed \(baseSeed)")
            let folder = try SessionAssets.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let assets = try ModelHarness.Assets.write(in: folder)
            let start = ContinuousClock.now
            for index in 0..<sequenceCount {
                let seed = baseSeed &+ UInt64(index)
                let (policy, steps) = Self.sequence(seed: seed)
                let harness = ModelHarness(assets: assets, policy: policy)
                guard let difference = try harness.run(steps) else { continue }
                let shrinker = SequenceShrinker<ModelStep>(simplifications: \.simplifications) { try harness.run($0) != nil }
                let (minimal, attempts) = try shrinker.shrink(steps)
                let minimalDifference = try harness.run(minimal) ?? difference
                Issue.record("""
                    the engine left its model: sequence seed \(seed) (policy \(policy)), replay with \
                    INTERLUDE_MODEL_SEED=\(seed) INTERLUDE_MODEL_SEQUENCES=1
                    shrunk from \(steps.count) to \(minimal.count) steps (\(attempts) candidates):
                      \(minimal.map(\.description).joined(separator: "\n  "))
                    \(minimalDifference)
                    """)
                return
            }
            print("model-based test: \(sequenceCount) sequences, \(sequenceCount * Self.stepCount) steps in \(ContinuousClock.now - start)")
        }
    }
}
