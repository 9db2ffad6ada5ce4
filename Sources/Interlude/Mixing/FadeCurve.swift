/// The shape of a fade from one gain to another.
public enum FadeCurve: String, Sendable, Codable, CaseIterable {
    /// Gain moves in a straight line.
    case linear
    /// Gain follows a quarter sine (out: a quarter cosine), so two crossing fades keep constant power.
    case equalPower
}
