// TEMPORARY: replaced by the plot branch. Never commit.
public enum RenderPlot {
    public static func write(_ timeline: RenderTimeline, to path: String) throws {}
}
