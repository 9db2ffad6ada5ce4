import Interlude

/// Draws a ``RenderTimeline`` as an SVG for `interlude render --plot`: each channel's level in
/// dBFS against time, interruptions and device loss shaded and labelled, events marked on the
/// time axis, and a legend.
///
/// The output depends only on the timeline: numbers are written with fixed decimals, so the same
/// timeline always gives byte-identical text. Pure functions; any thread may call them.
///
/// ```swift
/// try RenderPlot.write(timeline, to: "take.render.svg")
/// ```
public enum RenderPlot {
    /// The SVG document for `timeline`, about 1200 x 500 px.
    ///
    /// Levels below -60 dBFS sit on the floor of the plot. Channels with more than
    /// ``maximumPointCount`` windows are decimated by taking the loudest of adjacent windows,
    /// so short peaks stay visible. Any thread may call this.
    public static func svg(_ timeline: RenderTimeline) -> String {
        Drawing(timeline).document()
    }

    /// Writes ``svg(_:)`` to `path` atomically: the text goes to a temporary file beside `path`,
    /// which is then renamed into place, so `path` is either untouched or complete.
    ///
    /// Throws ``InterludeError`` with `.writeFailed` and a message naming `path` if the folder
    /// is missing or not writable, or any step fails. Any thread may call this.
    public static func write(_ timeline: RenderTimeline, to path: String) throws {
        try AtomicFile.write(svg(timeline), to: path)
    }

    /// Most points drawn per channel.
    public static let maximumPointCount = 2000

    /// The smallest step from the usual ones that gives at most 12 ticks (at least about 5
    /// for spans the step list covers).
    static func timeStep(for spanSeconds: Double) -> Double {
        let steps: [Double] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600]
        for step in steps where (spanSeconds / step + 1e-9).rounded(.down) + 1 <= 12 {
            return step
        }
        return (spanSeconds / 11 / 3600).rounded(.up) * 3600
    }
}

// MARK: - Drawing

/// Geometry and drawing of one plot. Coordinates are SVG pixels, y growing downward.
private struct Drawing {
    static let width = 1200.0
    static let height = 500.0
    static let plotLeft = 80.0
    static let plotRight = 1020.0
    static let plotTop = 48.0
    static let plotBottom = 300.0
    /// Baseline of the events row below the time axis label.
    static let eventsBaseline = 352.0
    static let floorDBFS = -60.0
    /// Marker labels closer than this to the previous label are folded into it.
    static let minimumMarkerLabelSpacing = 14.0
    static let markerLabelMaximumLength = 22
    static let regionLabelMaximumLength = 40
    static let channelColors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"]

    let timeline: RenderTimeline
    /// Seconds shown on the x axis, always positive.
    let spanSeconds: Double
    let topDBFS: Double

    init(_ timeline: RenderTimeline) {
        self.timeline = timeline
        let longestWindowCount = timeline.levelsDBFS.map(\.count).max() ?? 0
        let windowSeconds = timeline.windowSeconds.isFinite && timeline.windowSeconds > 0 ? timeline.windowSeconds : 0.01
        if timeline.durationSeconds.isFinite, timeline.durationSeconds > 0 {
            spanSeconds = timeline.durationSeconds
        } else if longestWindowCount > 0 {
            spanSeconds = Double(longestWindowCount) * windowSeconds
        } else {
            spanSeconds = 1
        }
        // Clipped output (above 0 dBFS) gets head room instead of being flattened at the top.
        let loudest = timeline.levelsDBFS.lazy.flatMap { $0 }.filter(\.isFinite).max().map(Double.init) ?? 0
        topDBFS = loudest > 0 ? min(20, (loudest / 10).rounded(.up) * 10) : 0
    }

    var windowSeconds: Double {
        timeline.windowSeconds.isFinite && timeline.windowSeconds > 0 ? timeline.windowSeconds : 0.01
    }

    func x(_ seconds: Double) -> Double {
        let clamped = min(max(seconds.isFinite ? seconds : 0, 0), spanSeconds)
        return Self.plotLeft + clamped / spanSeconds * (Self.plotRight - Self.plotLeft)
    }

    func y(_ dBFS: Double) -> Double {
        let clamped = min(max(dBFS.isFinite ? dBFS : Self.floorDBFS, Self.floorDBFS), topDBFS)
        return Self.plotTop + (topDBFS - clamped) / (topDBFS - Self.floorDBFS) * (Self.plotBottom - Self.plotTop)
    }

    func document() -> String {
        var svg = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Self.width))" height="\(Int(Self.height))" \
        viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">

        """
        svg += "<rect class=\"background\" x=\"0\" y=\"0\" width=\"\(Int(Self.width))\" height=\"\(Int(Self.height))\" fill=\"#ffffff\"/>\n"
        svg += title()
        svg += "<rect class=\"plot-area\" x=\(attribute(Self.plotLeft)) y=\(attribute(Self.plotTop)) "
            + "width=\(attribute(Self.plotRight - Self.plotLeft)) height=\(attribute(Self.plotBottom - Self.plotTop)) "
            + "fill=\"#fcfcfc\" stroke=\"none\"/>\n"
        svg += regions()
        svg += yAxis()
        svg += xAxis()
        svg += bars()
        svg += levels()
        svg += stemLevels()
        svg += "<rect class=\"plot-frame\" x=\(attribute(Self.plotLeft)) y=\(attribute(Self.plotTop)) "
            + "width=\(attribute(Self.plotRight - Self.plotLeft)) height=\(attribute(Self.plotBottom - Self.plotTop)) "
            + "fill=\"none\" stroke=\"#333333\" stroke-width=\"1\"/>\n"
        svg += regionLabels()
        svg += markers()
        svg += legend()
        svg += "</svg>\n"
        return svg
    }

    // MARK: Parts

    private func title() -> String {
        let text = "interlude render: \(trimmed(spanSeconds)) s, \(timeline.sampleRate) Hz, \(timeline.channelCount) ch"
        return "<text class=\"title\" x=\(attribute(Self.plotLeft)) y=\"28\" font-size=\"16\" font-weight=\"bold\" fill=\"#222222\">\(escaped(text))</text>\n"
    }

    private func yAxis() -> String {
        var svg = "<g class=\"axis y-axis\" font-size=\"11\" fill=\"#444444\">\n"
        var level = topDBFS
        while level >= Self.floorDBFS - 0.001 {
            let tickY = y(level)
            svg += "<line class=\"grid\" x1=\(attribute(Self.plotLeft)) y1=\(attribute(tickY)) x2=\(attribute(Self.plotRight)) y2=\(attribute(tickY)) stroke=\"#e4e4e4\" stroke-width=\"1\"/>\n"
            svg += "<line class=\"tick\" x1=\(attribute(Self.plotLeft - 5)) y1=\(attribute(tickY)) x2=\(attribute(Self.plotLeft)) y2=\(attribute(tickY)) stroke=\"#333333\" stroke-width=\"1\"/>\n"
            svg += "<text x=\(attribute(Self.plotLeft - 8)) y=\(attribute(tickY + 4)) text-anchor=\"end\">\(fixed(level, decimals: 0))</text>\n"
            level -= 10
        }
        let middle = (Self.plotTop + Self.plotBottom) / 2
        svg += "<text class=\"axis-label\" x=\"24\" y=\(attribute(middle)) font-size=\"12\" fill=\"#222222\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 24 \(fixed(middle, decimals: 1)))\">level (dBFS)</text>\n"
        svg += "</g>\n"
        return svg
    }

    private func xAxis() -> String {
        let step = RenderPlot.timeStep(for: spanSeconds)
        let decimals = step >= 1 ? 0 : (step >= 0.1 ? 1 : 2)
        var svg = "<g class=\"axis x-axis\" font-size=\"11\" fill=\"#444444\">\n"
        var index = 0
        while true {
            let seconds = Double(index) * step
            if seconds > spanSeconds + step * 1e-6 { break }
            let tickX = x(seconds)
            svg += "<line class=\"grid\" x1=\(attribute(tickX)) y1=\(attribute(Self.plotTop)) x2=\(attribute(tickX)) y2=\(attribute(Self.plotBottom)) stroke=\"#eeeeee\" stroke-width=\"1\"/>\n"
            svg += "<line class=\"tick\" x1=\(attribute(tickX)) y1=\(attribute(Self.plotBottom)) x2=\(attribute(tickX)) y2=\(attribute(Self.plotBottom + 5)) stroke=\"#333333\" stroke-width=\"1\"/>\n"
            svg += "<text x=\(attribute(tickX)) y=\(attribute(Self.plotBottom + 18)) text-anchor=\"middle\">\(fixed(seconds, decimals: decimals))</text>\n"
            index += 1
        }
        svg += "<text class=\"axis-label\" x=\(attribute((Self.plotLeft + Self.plotRight) / 2)) y=\(attribute(Self.plotBottom + 36)) "
            + "font-size=\"12\" fill=\"#222222\" text-anchor=\"middle\">time (s)</text>\n"
        svg += "</g>\n"
        return svg
    }

    private func levels() -> String {
        var svg = "<g class=\"levels\" fill=\"none\" stroke-width=\"1.3\" stroke-linejoin=\"round\" stroke-opacity=\"0.9\">\n"
        for channel in 0..<timeline.levelsDBFS.count {
            let points = Self.decimated(timeline.levelsDBFS[channel], limit: RenderPlot.maximumPointCount)
            var d = ""
            d.reserveCapacity(points.count * 13)
            if points.isEmpty {
                d = "M\(fixed(Self.plotLeft, decimals: 1)),\(fixed(Self.plotBottom, decimals: 1))"
            }
            for (index, point) in points.enumerated() {
                let centerSeconds = (Double(point.firstWindow) + Double(point.windowCount) / 2) * windowSeconds
                d += index == 0 ? "M" : " "
                d += "\(fixed(x(centerSeconds), decimals: 1)),\(fixed(y(Double(point.level)), decimals: 1))"
            }
            svg += "<path id=\"channel-\(channel)\" class=\"level channel-\(channel)\" stroke=\"\(color(channel))\" d=\"\(d)\"/>\n"
        }
        svg += "</g>\n"
        return svg
    }

    /// A thin line at each bar's start (version 4's beat events), under the levels.
    private func bars() -> String {
        var svg = "<g class=\"bars\" stroke=\"#b0b0b0\" stroke-width=\"1\" stroke-dasharray=\"2,3\">\n"
        for seconds in timeline.barSeconds {
            let barX = x(seconds)
            svg += "<line class=\"bar\" x1=\(attribute(barX)) y1=\(attribute(Self.plotTop)) x2=\(attribute(barX)) y2=\(attribute(Self.plotBottom))/>\n"
        }
        return svg + "</g>\n"
    }

    /// Each stem's level heard alone, dashed, in the colours after the channels'.
    private func stemLevels() -> String {
        var svg = "<g class=\"stem-levels\" fill=\"none\" stroke-width=\"1.2\" stroke-dasharray=\"5,2\" stroke-linejoin=\"round\">\n"
        for (index, stem) in timeline.stemLevels.enumerated() {
            let points = Self.decimated(stem.levelsDBFS, limit: RenderPlot.maximumPointCount)
            var d = ""
            for (pointIndex, point) in points.enumerated() {
                let centerSeconds = (Double(point.firstWindow) + Double(point.windowCount) / 2) * windowSeconds
                d += pointIndex == 0 ? "M" : " "
                d += "\(fixed(x(centerSeconds), decimals: 1)),\(fixed(y(Double(point.level)), decimals: 1))"
            }
            svg += "<path class=\"stem-level\" stroke=\"\(stemColor(index))\" d=\"\(d)\"/>\n"
        }
        return svg + "</g>\n"
    }

    private func stemColor(_ index: Int) -> String {
        Self.channelColors[(timeline.levelsDBFS.count + index) % Self.channelColors.count]
    }

    struct Point {
        var firstWindow: Int
        var windowCount: Int
        var level: Float
    }

    /// Groups adjacent windows so that at most `limit` points remain, keeping each group's
    /// loudest level so short peaks stay visible.
    static func decimated(_ levels: [Float], limit: Int) -> [Point] {
        guard !levels.isEmpty else { return [] }
        let groupSize = max(1, (levels.count + limit - 1) / max(1, limit))
        var points: [Point] = []
        points.reserveCapacity(levels.count / groupSize + 1)
        var start = 0
        while start < levels.count {
            let end = min(start + groupSize, levels.count)
            var loudest = -Float.infinity
            for level in levels[start..<end] where level.isFinite && level > loudest {
                loudest = level
            }
            points.append(Point(firstWindow: start, windowCount: end - start, level: loudest))
            start = end
        }
        return points
    }

    private func regions() -> String {
        var svg = "<g class=\"regions\">\n"
        for region in timeline.regions {
            let left = x(min(region.startSeconds, region.endSeconds))
            let right = x(max(region.startSeconds, region.endSeconds))
            let (kindClass, fill, opacity) = Self.style(region.kind)
            svg += "<rect class=\"region \(kindClass)\" x=\(attribute(left)) y=\(attribute(Self.plotTop)) "
                + "width=\(attribute(max(1, right - left))) height=\(attribute(Self.plotBottom - Self.plotTop)) "
                + "fill=\"\(fill)\" fill-opacity=\"\(opacity)\">"
                + "<title>\(escaped(region.label)) (\(fixed(region.startSeconds, decimals: 2))-\(fixed(region.endSeconds, decimals: 2)) s)</title></rect>\n"
        }
        svg += "</g>\n"
        return svg
    }

    /// Region labels go on top of the level curves so they stay legible.
    private func regionLabels() -> String {
        var svg = "<g class=\"region-labels\" font-size=\"11\">\n"
        for region in timeline.regions {
            let left = x(min(region.startSeconds, region.endSeconds))
            let (kindClass, _, _) = Self.style(region.kind)
            let textColor = region.kind == .deviceLoss ? "#a01818" : "#404040"
            svg += "<text class=\"region-label \(kindClass)\" x=\(attribute(left + 4)) y=\(attribute(Self.plotTop + 14)) "
                + "fill=\"\(textColor)\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-opacity=\"0.8\" paint-order=\"stroke\">"
                + "\(escaped(Self.shortened(region.label, to: Self.regionLabelMaximumLength)))</text>\n"
        }
        svg += "</g>\n"
        return svg
    }

    static func style(_ kind: RenderTimeline.Region.Kind) -> (kindClass: String, fill: String, opacity: String) {
        switch kind {
        case .interruption: ("interruption", "#7f7f7f", "0.25")
        case .deviceLoss: ("device-loss", "#e03030", "0.18")
        }
    }

    private func markers() -> String {
        var svg = "<g class=\"markers\" font-size=\"10\" fill=\"#5a2d82\">\n"
        guard !timeline.markers.isEmpty else { return svg + "</g>\n" }
        svg += "<text class=\"events-title\" x=\(attribute(Self.plotLeft - 8)) y=\(attribute(Self.eventsBaseline + 4)) "
            + "text-anchor=\"end\" font-size=\"11\" fill=\"#444444\">events</text>\n"
        svg += "<line class=\"events-axis\" x1=\(attribute(Self.plotLeft)) y1=\(attribute(Self.eventsBaseline)) "
            + "x2=\(attribute(Self.plotRight)) y2=\(attribute(Self.eventsBaseline)) stroke=\"#bbbbbb\" stroke-width=\"1\"/>\n"
        // Stable order by time, so markers at the same time keep the scene's order.
        let sorted = timeline.markers.enumerated().sorted {
            ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset)
        }.map(\.element)
        // Markers within the spacing of a cluster's first one share its label ("a (+2)").
        var clusters: [[RenderTimeline.Marker]] = []
        var clusterX = -Double.infinity
        for marker in sorted {
            let markerX = x(marker.seconds)
            if markerX - clusterX < Self.minimumMarkerLabelSpacing, !clusters.isEmpty {
                clusters[clusters.count - 1].append(marker)
            } else {
                clusters.append([marker])
                clusterX = markerX
            }
        }
        for cluster in clusters {
            let labelX = x(cluster[0].seconds)
            // The cluster is named by its first marker that is not a routine move.
            let named = cluster.first { $0.kind != .move } ?? cluster[0]
            var label = Self.shortened(named.label, to: Self.markerLabelMaximumLength)
            if cluster.count > 1 { label += " (+\(cluster.count - 1))" }
            let all = cluster.map { "\(fixed($0.seconds, decimals: 2)) s: \($0.label)" }.joined(separator: "\n")
            svg += "<g class=\"marker\"><title>\(escaped(all))</title>\n"
            for marker in cluster {
                let markerX = x(marker.seconds)
                let stroke = Self.markerColor(marker.kind)
                svg += "<line class=\"marker-guide\" x1=\(attribute(markerX)) y1=\(attribute(Self.plotTop)) x2=\(attribute(markerX)) "
                    + "y2=\(attribute(Self.plotBottom)) stroke=\"\(stroke)\" stroke-opacity=\"0.35\" stroke-width=\"1\" stroke-dasharray=\"3 3\"/>\n"
                svg += "<line class=\"marker-axis-tick\" x1=\(attribute(markerX)) y1=\(attribute(Self.plotBottom - 7)) x2=\(attribute(markerX)) "
                    + "y2=\(attribute(Self.plotBottom)) stroke=\"\(stroke)\" stroke-width=\"2\"/>\n"
                svg += "<line class=\"marker-tick\" x1=\(attribute(markerX)) y1=\(attribute(Self.eventsBaseline - 6)) x2=\(attribute(markerX)) "
                    + "y2=\(attribute(Self.eventsBaseline + 6)) stroke=\"\(stroke)\" stroke-width=\"1.5\"/>\n"
            }
            let labelY = Self.eventsBaseline + 12
            svg += "<text class=\"marker-label\" fill=\"\(Self.markerColor(named.kind))\" x=\(attribute(labelX)) y=\(attribute(labelY)) "
                + "transform=\"rotate(60 \(fixed(labelX, decimals: 1)) \(fixed(labelY, decimals: 1)))\">\(escaped(label))</text>\n"
            svg += "</g>\n"
        }
        svg += "</g>\n"
        return svg
    }

    private func legend() -> String {
        let left = Self.plotRight + 20
        var rowY = Self.plotTop + 10
        var rows = ""
        for channel in 0..<timeline.levelsDBFS.count {
            rows += "<line x1=\(attribute(left + 10)) y1=\(attribute(rowY)) x2=\(attribute(left + 34)) y2=\(attribute(rowY)) "
                + "stroke=\"\(color(channel))\" stroke-width=\"3\"/>\n"
            rows += "<text x=\(attribute(left + 42)) y=\(attribute(rowY + 4))>\(escaped(channelName(channel)))</text>\n"
            rowY += 20
        }
        for (index, stem) in timeline.stemLevels.enumerated() {
            rows += "<line x1=\(attribute(left + 10)) y1=\(attribute(rowY)) x2=\(attribute(left + 34)) y2=\(attribute(rowY)) "
                + "stroke=\"\(stemColor(index))\" stroke-width=\"2\" stroke-dasharray=\"5,2\"/>\n"
            rows += "<text x=\(attribute(left + 42)) y=\(attribute(rowY + 4))>\(escaped(Self.shortened("stem " + stem.name, to: 14)))</text>\n"
            rowY += 20
        }
        if !timeline.barSeconds.isEmpty {
            rows += "<line x1=\(attribute(left + 22)) y1=\(attribute(rowY - 7)) x2=\(attribute(left + 22)) y2=\(attribute(rowY + 7)) "
                + "stroke=\"#b0b0b0\" stroke-width=\"1\" stroke-dasharray=\"2,3\"/>\n"
            rows += "<text x=\(attribute(left + 42)) y=\(attribute(rowY + 4))>bar</text>\n"
            rowY += 20
        }
        let kinds: [RenderTimeline.Region.Kind] = [.interruption, .deviceLoss].filter { kind in
            timeline.regions.contains { $0.kind == kind }
        }
        for kind in kinds {
            let (kindClass, fill, opacity) = Self.style(kind)
            rows += "<rect class=\"legend-swatch \(kindClass)\" x=\(attribute(left + 10)) y=\(attribute(rowY - 7)) width=\"24\" height=\"14\" "
                + "fill=\"\(fill)\" fill-opacity=\"\(opacity)\" stroke=\"\(fill)\" stroke-opacity=\"0.6\"/>\n"
            rows += "<text x=\(attribute(left + 42)) y=\(attribute(rowY + 4))>\(kind == .interruption ? "interruption" : "device loss")</text>\n"
            rowY += 20
        }
        if !timeline.markers.isEmpty {
            rows += "<line x1=\(attribute(left + 22)) y1=\(attribute(rowY - 7)) x2=\(attribute(left + 22)) y2=\(attribute(rowY + 7)) "
                + "stroke=\"\(Self.markerColor(.event))\" stroke-width=\"1.5\"/>\n"
            rows += "<text x=\(attribute(left + 42)) y=\(attribute(rowY + 4))>event</text>\n"
            rowY += 20
        }
        if timeline.markers.contains(where: { $0.kind == .soundDesign }) {
            rows += "<line x1=\(attribute(left + 22)) y1=\(attribute(rowY - 7)) x2=\(attribute(left + 22)) y2=\(attribute(rowY + 7)) "
                + "stroke=\"\(Self.markerColor(.soundDesign))\" stroke-width=\"1.5\"/>\n"
            rows += "<text x=\(attribute(left + 42)) y=\(attribute(rowY + 4))>cue, snapshot</text>\n"
            rowY += 20
        }
        let boxHeight = rowY - Self.plotTop - 4
        return "<g class=\"legend\" font-size=\"12\" fill=\"#222222\">\n"
            + "<rect class=\"legend-box\" x=\(attribute(left)) y=\(attribute(Self.plotTop)) width=\"150\" height=\(attribute(boxHeight)) "
            + "fill=\"#ffffff\" stroke=\"#cccccc\" stroke-width=\"1\"/>\n"
            + rows + "</g>\n"
    }

    // MARK: Helpers

    /// A marker's colour: the sound designer's events stand apart from the session's.
    private static func markerColor(_ kind: RenderTimeline.Marker.Kind) -> String {
        kind == .soundDesign ? "#0f7b6c" : "#5a2d82"
    }

    private func channelName(_ channel: Int) -> String {
        switch (timeline.levelsDBFS.count, channel) {
        case (1, _): "mono"
        case (2, 0): "left"
        case (2, 1): "right"
        default: "channel \(channel)"
        }
    }

    private func color(_ channel: Int) -> String {
        Self.channelColors[channel % Self.channelColors.count]
    }

    private func attribute(_ value: Double) -> String {
        "\"\(fixed(value, decimals: 1))\""
    }

    static func shortened(_ text: String, to maximumLength: Int) -> String {
        text.count <= maximumLength ? text : String(text.prefix(maximumLength - 1)) + "\u{2026}"
    }
}

/// `value` with exactly `decimals` decimals, independent of locale; never "-0".
private func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    guard abs(scaled) < 9e15 else { return "0" }
    let integer = Int(scaled)
    let magnitude = integer.magnitude
    let whole = magnitude / UInt(scale)
    var text = integer < 0 ? "-\(whole)" : "\(whole)"
    if decimals > 0 {
        let fraction = String(magnitude % UInt(scale))
        text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
    return text
}

/// Up to two decimals, without trailing zeros: 8, 8.5, 8.25.
private func trimmed(_ value: Double) -> String {
    var text = fixed(value, decimals: 2)
    while text.hasSuffix("0"), text.contains(".") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}

/// Text safe inside XML content and double-quoted attributes. Characters XML 1.0 forbids
/// (most control characters) become U+FFFD.
private func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&apos;"
        case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
        default:
            let value = scalar.value
            if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
                result += "\u{FFFD}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result
}
