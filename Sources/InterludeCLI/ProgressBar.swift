import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on standard error for long offline renders: it appears only on a
/// terminal, and only once the work has taken about 2 s, so short renders and piped output
/// never show one.
final class ProgressBar {
    private let label: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let started = ContinuousClock.now
    private var lastFilledWidth = -1

    /// Work shorter than this shows no bar.
    static let delay = Duration.seconds(2)

    init(label: String) {
        self.label = label
    }

    /// Redraws the bar at `fraction` (0...1) when it has moved.
    func update(fraction: Double) {
        guard isTerminal, ContinuousClock.now - started >= Self.delay else { return }
        let width = 40
        let filled = Int((min(1, max(0, fraction)) * Double(width)).rounded(.down))
        guard filled != lastFilledWidth else { return }
        lastFilledWidth = filled
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(Int(fraction * 100))%".utf8))
    }

    /// Draws the bar again at the next update even if it has not moved: after the process was
    /// stopped (Ctrl-Z) and continued, the terminal's line may have been overwritten.
    func redrawAtNextUpdate() {
        if lastFilledWidth >= 0 { lastFilledWidth = -2 }
    }

    /// Ends the bar's line, when one was drawn.
    func finish() {
        guard lastFilledWidth != -1 else { return }
        lastFilledWidth = -1
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
