/// A failure of the bench's own machinery (a child that did not run, an unreadable result).
public struct BenchError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
