/// Values that may each be moving linearly to a target (a ``Fade`` of the value), advanced by
/// the update in the engine's own time: the game parameters' values and the mix snapshots'
/// intensities.
struct LinearRamps {
    private var values: [Float] = []
    private var moves: [Fade?] = []
    /// How many values are moving: the update skips the walk when none is.
    private var movingCount = 0

    /// Adds a value, at rest.
    mutating func append(_ value: Float) {
        values.append(value)
        moves.append(nil)
    }

    /// The value now.
    @inline(__always)
    func value(at index: Int) -> Float { values[index] }

    /// The value is moving.
    func isMoving(_ index: Int) -> Bool { moves[index] != nil }

    /// Moves the value to `target` linearly over `seconds`; at once (its move stopped) for 0.
    mutating func move(_ index: Int, to target: Float, overSeconds seconds: Double) {
        if moves[index] != nil { movingCount -= 1 }
        if seconds > 0 {
            moves[index] = Fade(startGain: values[index], targetGain: target, durationSeconds: seconds, curve: .linear)
            movingCount += 1
        } else {
            moves[index] = nil
            values[index] = target
        }
    }

    /// Moves the moving values on by `seconds`; true when any value changed.
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
