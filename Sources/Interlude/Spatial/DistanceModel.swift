/// How a positional voice's gain falls off with distance from the listener: OpenAL's distance
/// models, named as in scene files.
public enum DistanceModel: String, Sendable, Codable, CaseIterable {
    /// No attenuation: every voice plays at its own gain wherever it is.
    case none
    /// ref / (ref + rolloff x (distance - ref)), unclamped.
    case inverse
    /// The inverse model with the distance clamped to reference...max distance: OpenAL's default.
    case inverseClamped
    /// Falls linearly from 1 at the reference distance to 0 at the max distance.
    case linear
    /// The linear model with the distance clamped to reference...max distance.
    case linearClamped
    /// (distance / ref) ^ -rolloff.
    case exponent
    /// The exponent model with the distance clamped to reference...max distance.
    case exponentClamped

    /// The gain OpenAL applies at `distance`, per the OpenAL 1.1 specification's formulas.
    /// - Parameters:
    ///   - distance: from the listener to the source, in world units.
    ///   - referenceDistance: where the gain is 1.
    ///   - maxDistance: where attenuation stops (clamped models) or reaches 0 (linear).
    ///   - rolloff: how fast the gain falls.
    public func gain(atDistance distance: Float, referenceDistance: Float, maxDistance: Float, rolloff: Float) -> Float {
        var d = distance
        switch self {
        case .none:
            return 1
        case .inverseClamped, .linearClamped, .exponentClamped:
            d = max(d, referenceDistance)
            d = min(d, maxDistance)
        case .inverse, .linear, .exponent:
            break
        }
        switch self {
        case .none:
            return 1
        case .inverse, .inverseClamped:
            let denominator = referenceDistance + rolloff * (d - referenceDistance)
            return denominator > 0 ? referenceDistance / denominator : 1
        case .linear, .linearClamped:
            let span = maxDistance - referenceDistance
            guard span > 0 else { return 1 }
            return max(0, 1 - rolloff * (d - referenceDistance) / span)
        case .exponent, .exponentClamped:
            guard d > 0, referenceDistance > 0 else { return 1 }
            return Float(pow(Double(d / referenceDistance), Double(-rolloff)))
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
