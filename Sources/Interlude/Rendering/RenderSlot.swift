/// A voice's place in the renderer: opaque to the voices, which only keep it and ask whether
/// they hold one; ``ALRenderer`` maps it to the AL source that plays the voice.
struct RenderSlot: Equatable, Sendable {
    /// The AL source's name (never 0: AL names no object 0).
    let sourceName: UInt32

    /// The AL source in this place.
    var source: ALSource { ALSource(name: sourceName) }

    init(sourceName: UInt32) {
        self.sourceName = sourceName
    }

    /// The place of `source`.
    init(_ source: ALSource) {
        sourceName = source.name
    }
}
