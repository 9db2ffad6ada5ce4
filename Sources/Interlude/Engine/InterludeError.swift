/// Every error Interlude throws: a code to switch on and a message that names the file or
/// call at fault and the problem.
///
/// Errors come from the environment or the input (a missing file, bad data, no device, a call
/// after shutdown). The engine's state is unchanged by a call that throws.
public struct InterludeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: String, Sendable, Equatable, Codable {
        /// A file does not exist.
        case fileNotFound
        /// A file exists but cannot be read.
        case unreadableFile
        /// A file's data is corrupt or truncated.
        case corruptData
        /// A file is well formed but uses a format Interlude does not decode.
        case unsupportedFormat
        /// A parameter is out of range or not a finite number.
        case invalidArgument
        /// No output device could be opened.
        case deviceUnavailable
        /// OpenAL reported an error for a call.
        case openAL
        /// The voice limit was reached.
        case tooManyVoices
        /// The engine has been shut down.
        case shutDown
        /// An object from another engine was passed in.
        case foreignObject
        /// A scene file is malformed.
        case badScene
        /// A state snapshot is missing or corrupt.
        case badSavedState
        /// Writing an output file failed.
        case writeFailed
    }

    /// What kind of problem this is.
    public var code: Code
    /// One line naming the file or call at fault and the problem.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message: the call or file, and the problem.
    public var description: String { message }
}
