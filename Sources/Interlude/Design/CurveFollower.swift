/// A cue voice whose curves the update keeps following: its handle, its curves with their
/// parameters resolved to indices, and the values of parameters set on this voice alone,
/// which override the global ones for its curves.
struct CurveFollower {
    /// A curve and the index of the parameter it reads.
    struct Resolved {
        var curve: CueCurve
        var parameterIndex: Int
    }

    /// A parameter's value set on this voice alone, with its move.
    private struct OwnValue {
        var parameterIndex: Int
        var value: Float
        var move: Fade?
    }

    let handle: VoiceHandle
    /// The cue that played the voice, for a saved state.
    let cueName: String
    private let curves: [Resolved]
    private var ownValues: [OwnValue] = []

    init(handle: VoiceHandle, cueName: String, curves: [Resolved]) {
        self.handle = handle
        self.cueName = cueName
        self.curves = curves
    }

    /// What the curves make of the voice, at the parameters' values now.
    func factors(_ parameters: ParameterTable) -> CurveFactors {
        Self.factors(of: curves, parameters) { index in ownValues.first { $0.parameterIndex == index }?.value }
    }

    /// What `curves` make of a voice at the global values, or at `own` where it gives one.
    static func factors(of curves: [Resolved], _ parameters: ParameterTable,
                        own: (Int) -> Float? = { _ in nil }) -> CurveFactors {
        var factors = CurveFactors.unity
        for resolved in curves {
            let x = own(resolved.parameterIndex) ?? parameters.value(at: resolved.parameterIndex)
            let y = resolved.curve.value(at: x)
            switch resolved.curve.property {
            case .gain: factors.gain *= y
            case .pitch: factors.pitch *= y
            case .lowpass: factors.lowPass *= y
            }
        }
        return factors
    }

    /// The voice's own value of a parameter, if one was set on it.
    func ownValue(of parameterIndex: Int) -> Float? {
        ownValues.first { $0.parameterIndex == parameterIndex }?.value
    }

    /// Sets the voice's own value of a parameter, moving from where it is (its own value, else
    /// `current`, the global one) over `seconds`.
    mutating func setOwn(_ value: Float, of parameterIndex: Int, current: Float, overSeconds seconds: Double) {
        let move = seconds > 0 ? Fade(startGain: ownValue(of: parameterIndex) ?? current, targetGain: value,
                                      durationSeconds: seconds, curve: .linear) : nil
        let now = move?.gain ?? value
        if let index = ownValues.firstIndex(where: { $0.parameterIndex == parameterIndex }) {
            ownValues[index].value = now
            ownValues[index].move = move
        } else {
            ownValues.append(OwnValue(parameterIndex: parameterIndex, value: now, move: move))
        }
    }

    /// Moves the voice's own values on by `seconds`; true when any changed.
    mutating func advance(bySeconds seconds: Double) -> Bool {
        var moved = false
        for index in ownValues.indices {
            guard var move = ownValues[index].move else { continue }
            move.advance(bySeconds: seconds)
            ownValues[index].value = move.gain
            ownValues[index].move = move.isFinished ? nil : move
            moved = true
        }
        return moved
    }
}
