/// A scene's game parameter (top-level `parameters`, version 3): its range and starting value.
///
/// A plain value: any thread may use it.
public struct SceneParameter: Sendable, Equatable {
    /// The lowest value.
    public var min: Float
    /// The highest value, above `min`.
    public var max: Float
    /// In min...max; min when the scene gives none.
    public var defaultValue: Float
}
