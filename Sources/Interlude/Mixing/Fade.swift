#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A gain moving from `startGain` to `targetGain` over `durationSeconds`, advanced on the update.
struct Fade: Equatable {
    var startGain: Float
    var targetGain: Float
    var durationSeconds: Double
    var curve: FadeCurve
    var elapsedSeconds: Double = 0

    /// True once the fade has reached its target.
    var isFinished: Bool { elapsedSeconds >= durationSeconds }

    /// The gain now.
    var gain: Float {
        guard durationSeconds > 0 else { return targetGain }
        let progress = Float(min(1, elapsedSeconds / durationSeconds))
        switch curve {
        case .linear:
            return startGain + (targetGain - startGain) * progress
        case .equalPower:
            // Rising: sin(p * pi/2); falling: cos(p * pi/2), scaled between the two gains.
            if targetGain >= startGain {
                return startGain + (targetGain - startGain) * sin(progress * .pi / 2)
            }
            return targetGain + (startGain - targetGain) * cos(progress * .pi / 2)
        }
    }

    mutating func advance(bySeconds seconds: Double) {
        elapsedSeconds = min(durationSeconds, elapsedSeconds + seconds)
    }
}
