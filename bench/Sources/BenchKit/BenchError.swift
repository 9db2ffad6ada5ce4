/// A failure of the bench's own machinery (a child that did not run, an unreadable result).
public struct BenchError: Error, CustomStringConvertible {
    /// What failed, naming the child or file.
    public var description: String

    /// A failure described by `description`.
    public init(_ description: String) {
        self.description = description
    }
}
