import Interlude
import Synchronization

/// The soundtrack's underrun and recovery frames, as its events report them.
final class UnderrunMarks: Sendable {
    private let marks = Mutex<(underruns: [Int], recoveries: [Int])>(([], []))

    /// Notes an underrun or a recovery; other events are not its concern.
    func note(_ event: EngineEvent) {
        switch event {
        case .music(.underrun(_, let frame)): marks.withLock { $0.underruns.append(frame) }
        case .music(.recovered(_, let frame)): marks.withLock { $0.recoveries.append(frame) }
        default: break
        }
    }

    /// The frames so far, in order.
    var frames: (underruns: [Int], recoveries: [Int]) { marks.withLock { $0 } }
}
