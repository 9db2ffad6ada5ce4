extension Voice {
    /// The AL source in the voice's place in the renderer, while it is real.
    var source: ALSource? {
        get { renderSlot?.source }
        set { renderSlot = newValue.map(RenderSlot.init) }
    }
}
