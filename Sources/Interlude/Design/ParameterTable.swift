/// The game parameters by name: each one's range, value, and the linear move it may be making
/// (a ``Fade`` of the value), which the update advances in the engine's own time, interrupted
/// or not.
struct ParameterTable {
    private var indexByName: [String: Int] = [:]
    private var ranges: [ClosedRange<Float>] = []
    private var values = LinearRamps()

    /// The index of the parameter named `name`, or nil.
    func index(of name: String) -> Int? { indexByName[name] }

    /// The parameter's value now.
    @inline(__always)
    func value(at index: Int) -> Float { values.value(at: index) }

    /// The parameter's range.
    func range(at index: Int) -> ClosedRange<Float> { ranges[index] }

    /// Makes a parameter at `value`, or remakes one of that name (its move stops).
    mutating func make(named name: String, range: ClosedRange<Float>, value: Float) {
        if let index = indexByName[name] {
            ranges[index] = range
            values.move(index, to: value, overSeconds: 0)
            return
        }
        indexByName[name] = ranges.count
        ranges.append(range)
        values.append(value)
    }

    /// Moves the parameter to `value` linearly over `seconds` (0: at once).
    mutating func set(_ value: Float, at index: Int, overSeconds seconds: Double) {
        values.move(index, to: value, overSeconds: seconds)
    }

    /// Every parameter's value now, by name.
    var valuesByName: [String: Float] { indexByName.mapValues { values.value(at: $0) } }

    /// Moves the moving parameters on by `seconds`; true when any value changed.
    mutating func advance(bySeconds seconds: Double) -> Bool {
        values.advance(bySeconds: seconds)
    }
}
