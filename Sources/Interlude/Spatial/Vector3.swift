/// A position, velocity or direction in OpenAL's right-handed space: +x right, +y up,
/// -z forward (the default listener faces -z). Distances are in world units (metres by convention).
public struct Vector3: Sendable, Equatable, Hashable, Codable {
    /// Right, in world units.
    public var x: Float
    /// Up.
    public var y: Float
    /// Backwards (towards the default listener's back).
    public var z: Float

    /// Creates a vector.
    public init(_ x: Float, _ y: Float, _ z: Float) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The origin.
    public static let zero = Vector3(0, 0, 0)

    /// True when every component is a finite number.
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    /// Euclidean length.
    public var length: Float { (x * x + y * y + z * z).squareRoot() }

    /// The difference, component by component.
    public static func - (lhs: Vector3, rhs: Vector3) -> Vector3 {
        Vector3(lhs.x - rhs.x, lhs.y - rhs.y, lhs.z - rhs.z)
    }

    /// The sum, component by component.
    public static func + (lhs: Vector3, rhs: Vector3) -> Vector3 {
        Vector3(lhs.x + rhs.x, lhs.y + rhs.y, lhs.z + rhs.z)
    }

    /// Each component times `rhs`.
    public static func * (lhs: Vector3, rhs: Float) -> Vector3 {
        Vector3(lhs.x * rhs, lhs.y * rhs, lhs.z * rhs)
    }
}
