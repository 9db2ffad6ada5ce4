import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on standard error, shown only on a terminal and only for work that
/// is expected to take more than about 2 s. Piped output gets no bar.
final class ProgressBar {
    private let label: String
    private let isShown: Bool
    private var lastWidth = -1

    init(label: String, expectedWorkSeconds: Double) {
        self.label = label
        self.isShown = isatty(STDERR_FILENO) == 1 && expectedWorkSeconds > 2
    }

    /// Redraws the bar at `fraction` (0...1) when it has moved.
    func update(fraction: Double) {
        guard isShown else { return }
        let width = 40
        let filled = Int((min(1, max(0, fraction)) * Double(width)).rounded(.down))
        guard filled != lastWidth else { return }
        lastWidth = filled
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(Int(fraction * 100))%".utf8))
    }

    /// Ends the bar's line.
    func finish() {
        guard isShown, lastWidth >= 0 else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
