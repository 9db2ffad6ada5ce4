/// How OpenAL Soft resamples a sound whose rate differs from the output's, or that plays at a
/// pitch other than 1 (AL_SOFT_source_resampler). Sharper filters leave fewer images of the
/// sound above its own band, at more cost per voice.
public enum Resampler: String, CaseIterable, Sendable {
    /// Nearest sample: cheapest, and full of images.
    case point
    /// Linear interpolation: OpenAL Soft 1.19's own default.
    case linear
    /// Cubic (4-point) interpolation: "Cubic" in 1.19, "Cubic Spline" (the default) from 1.23.
    case cubic
    /// Band-limited sinc, 12 points.
    case bsinc12
    /// Band-limited sinc, 24 points: the cleanest.
    case bsinc24

    /// The names OpenAL Soft reports for it (`alGetStringiSOFT(AL_RESAMPLER_NAME_SOFT, i)`):
    /// 1.19.1 reports "Nearest", "Linear", "Cubic", "11th order Sinc" and "23rd order Sinc";
    /// 1.24 calls its cubic one "Cubic Spline" and adds "4-point Gaussian" and the two
    /// "(fast)" sincs, which Interlude does not offer.
    var openALNames: [String] {
        switch self {
        case .point: ["Nearest", "Point"]
        case .linear: ["Linear"]
        case .cubic: ["Cubic", "Cubic Spline"]
        case .bsinc12: ["11th order Sinc"]
        case .bsinc24: ["23rd order Sinc"]
        }
    }
}
