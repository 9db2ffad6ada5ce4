/// A cue voice's gain, pitch or low-pass as a function of a game parameter: piecewise linear
/// through its points, flat beyond the first and the last. The voice's own value is multiplied
/// by it, on every update while the voice plays.
public struct CueCurve: Sendable, Equatable {
    /// What a curve drives.
    public enum Property: String, Sendable, CaseIterable {
        /// The voice's gain (factor >= 0).
        case gain
        /// The voice's pitch (factor > 0).
        case pitch
        /// The high-frequency gain of a low-pass at 5 kHz over the voice (factor 0...1).
        case lowpass
    }

    /// One point: at parameter value `x` the factor is `y`.
    public struct Point: Sendable, Equatable {
        /// The parameter's value.
        public var x: Float
        /// The factor there.
        public var y: Float

        /// A point of a curve.
        public init(x: Float, y: Float) {
            self.x = x
            self.y = y
        }
    }

    /// What it drives.
    public var property: Property
    /// The game parameter it reads (``SoundEngine/makeParameter(named:range:defaultValue:)``).
    public var parameter: String
    /// One or more points, x strictly increasing.
    public var points: [Point]

    /// A curve of `property` over `parameter`.
    public init(_ property: Property, parameter: String, points: [Point]) {
        self.property = property
        self.parameter = parameter
        self.points = points
    }

    /// The factor at `x`: linear between the points around it, flat beyond the ends.
    func value(at x: Float) -> Float {
        guard let first = points.first, let last = points.last else { return 1 }
        if x <= first.x { return first.y }
        if x >= last.x { return last.y }
        var upper = 1
        while points[upper].x < x { upper += 1 }
        let low = points[upper - 1], high = points[upper]
        let fraction = (Double(x) - Double(low.x)) / (Double(high.x) - Double(low.x))
        return Float(Double(low.y) + fraction * (Double(high.y) - Double(low.y)))
    }

    /// Throws `.invalidArgument` naming `call` for no points, x not strictly increasing, or a
    /// factor its property cannot take. Package access: scene files check their curves with it.
    package func validate(in call: String) throws {
        guard !points.isEmpty else {
            throw InterludeError(.invalidArgument, "\(call): the \(property.rawValue) curve has no points")
        }
        for (index, point) in points.enumerated() {
            guard point.x.isFinite, point.y.isFinite else {
                throw InterludeError(.invalidArgument, "\(call): the \(property.rawValue) curve's point \(index) is not finite")
            }
            if index > 0, point.x <= points[index - 1].x {
                throw InterludeError(.invalidArgument, "\(call): the \(property.rawValue) curve's x must be strictly increasing (point \(index): \(point.x) after \(points[index - 1].x))")
            }
            let fits = switch property {
            case .gain: point.y >= 0
            case .pitch: point.y > 0
            case .lowpass: (0...1).contains(point.y)
            }
            guard fits else {
                let range = switch property {
                case .gain: ">= 0"
                case .pitch: "> 0"
                case .lowpass: "in 0...1"
                }
                throw InterludeError(.invalidArgument, "\(call): the \(property.rawValue) curve's point \(index) has y \(point.y); it must be \(range)")
            }
        }
    }
}
