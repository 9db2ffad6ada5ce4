/// The game parameters by name: each one's range, value, and the linear move it may be making
/// (a ``Fade`` of the value), which the update advances in the engine's own time, interrupted
/// or not.
struct ParameterTable {
    private var indexByName: [String: Int] = [:]
    private var ranges: [ClosedRange<Float>] = []
    private var values: [Float] = []
    private var moves: [Fade?] = []
    /// How many parameters are moving: the update skips the walk when none is.
    private var movingCount = 0

    /// The index of the parameter named `name`, or nil.
    func index(of name: String) -> Int? { indexByName[name] }

    /// The parameter's value now.
    @inline(__always)
    func value(at index: Int) -> Float { values[index] }

    /// The parameter's range.
    func range(at index: Int) -> ClosedRange<Float> { ranges[index] }

    /// Makes a parameter at `value`, or remakes one of that name (its move stops).
    mutating func make(named name: String, range: ClosedRange<Float>, value: Float) {
        if let index = indexByName[name] {
            if moves[index] != nil { movingCount -= 1 }
            ranges[index] = range
            values[index] = value
            moves[index] = nil
            return
        }
        indexByName[name] = values.count
        ranges.append(range)
        values.append(value)
        moves.append(nil)
    }

    /// Moves the parameter to `value` linearly over `seconds` (0: at once).
    mutating func set(_ value: Float, at index: Int, overSeconds seconds: Double) {
        if moves[index] != nil { movingCount -= 1 }
        if seconds > 0 {
            moves[index] = Fade(startGain: values[index], targetGain: value, durationSeconds: seconds, curve: .linear)
            movingCount += 1
        } else {
            moves[index] = nil
            values[index] = value
        }
    }

    /// Moves the moving parameters on by `seconds`; true when any value changed.
    mutating func advance(bySeconds seconds: Double) -> Bool {
        guard movingCount > 0 else { return false }
        for index in moves.indices {
            guard var move = moves[index] else { continue }
            move.advance(bySeconds: seconds)
            values[index] = move.gain
            if move.isFinished {
                moves[index] = nil
                movingCount -= 1
            } else {
                moves[index] = move
            }
        }
        return true
    }
}
