import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The game's terminal: raw-ish input (no line buffering, no echo, but ISIG kept so Ctrl-Z
/// still sends SIGTSTP to the engine's job-control source), an alternate screen, and keys.
///
/// The saved settings are put back on every way out: `restore()` on quit, and the SIGINT and
/// SIGTERM handlers installed by `installSignalHandlers`. After `fg` (SIGCONT) the shell has put
/// its own settings back, so the game calls `enterGameMode()` again.
final class Terminal: Sendable {
    /// A key the game reacts to.
    enum Key: Equatable {
        case up, down, left, right
        case character(Character)
    }

    /// The settings found at launch; nil when standard input is not a terminal.
    private let original: termios?

    init() {
        var settings = termios()
        original = tcgetattr(STDIN_FILENO, &settings) == 0 ? settings : nil
    }

    /// Line buffering and echo off, signals on; the alternate screen, cursor hidden.
    func enterGameMode() {
        if var settings = original {
            settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
            settings.c_lflag |= tcflag_t(ISIG)
            // VMIN 0, VTIME 0: read() returns what is there; the game waits in poll().
            withUnsafeMutableBytes(of: &settings.c_cc) { cc in
                cc[Int(VMIN)] = 0
                cc[Int(VTIME)] = 0
            }
            tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        }
        Self.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Puts the terminal back as it was found.
    func restore() {
        Self.write("\u{1B}[?25h\u{1B}[?1049l")
        if var settings = original {
            tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        }
    }

    /// SIGINT and SIGTERM restore the terminal, run `cleanUp`, and exit. SIGCONT (after `fg`)
    /// re-enters game mode and calls `continued`. Dispatch sources, not signal handlers, so the
    /// work runs on an ordinary thread.
    func installSignalHandlers(cleanUp: @escaping @Sendable () -> Void, continued: @escaping @Sendable () -> Void)
        -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "Arcade signals")
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [self] in
                restore()
                cleanUp()
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
        let continueSource = DispatchSource.makeSignalSource(signal: SIGCONT, queue: queue)
        continueSource.setEventHandler { [self] in
            enterGameMode()
            continued()
        }
        continueSource.resume()
        sources.append(continueSource)
        return sources
    }

    /// Waits up to `milliseconds` for input, and returns the keys read (possibly none).
    func readKeys(waitingMilliseconds milliseconds: Int32) -> [Key] {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        guard count > 0 else { return [] }
        return Self.parse(Array(buffer[..<count]))
    }

    /// Arrow keys arrive as ESC [ A/B/C/D (ESC O A... in application mode); anything else
    /// printable is a character.
    static func parse(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") || bytes[index + 1] == UInt8(ascii: "O") {
                switch bytes[index + 2] {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                default: break
                }
                index += 3
            } else {
                if byte >= 0x20, byte < 0x7F { keys.append(.character(Character(UnicodeScalar(byte)))) }
                index += 1
            }
        }
        return keys
    }

    /// Writes all of `text` to standard output, unbuffered.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }
}
