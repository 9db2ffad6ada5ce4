import Foundation
import FoundationXML
import Testing
@testable import Interlude
@testable import InterludeScene

/// 8 s of stereo: a tone (left louder than right, slowly swelling) with silence from 2 to 3 s
/// and from 5 to 6 s, an interruption over the first gap and a device loss over the second.
private func stereoTimeline() -> RenderTimeline {
    let windowSeconds = 0.01
    let windowCount = 800
    func level(_ window: Int, offset: Float) -> Float {
        if (200..<300).contains(window) || (500..<600).contains(window) { return RenderTimeline.silenceDBFS }
        let seconds = Double(window) * windowSeconds
        return -14 + offset + 4 * Float(sin(seconds * 2))
    }
    return RenderTimeline(
        sampleRate: 48_000,
        channelCount: 2,
        durationSeconds: 8,
        windowSeconds: windowSeconds,
        levelsDBFS: [
            (0..<windowCount).map { level($0, offset: 0) },
            (0..<windowCount).map { level($0, offset: -8) },
        ],
        regions: [
            .init(startSeconds: 2, endSeconds: 3, kind: .interruption, label: "interrupted: call"),
            .init(startSeconds: 5, endSeconds: 6, kind: .deviceLoss, label: "device lost"),
        ],
        markers: [
            .init(seconds: 0, label: "music.play"),
            .init(seconds: 1.5, label: "beep.play"),
            .init(seconds: 4, label: "music.fade"),
            .init(seconds: 4, label: "beep.stop"),
            .init(seconds: 6.5, label: #"say "hi" & <bye>"#),
        ]
    )
}

private func monoTimeline() -> RenderTimeline {
    RenderTimeline(
        sampleRate: 44_100, channelCount: 1, durationSeconds: 3, windowSeconds: 0.01,
        levelsDBFS: [(0..<300).map { $0 < 150 ? -6 : RenderTimeline.silenceDBFS }],
        regions: [], markers: [.init(seconds: 1, label: "beep.play")]
    )
}

/// Element names, attributes and text of a parsed XML document.
private final class XMLSummary: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
    }

    var elements: [Element] = []
    var parseError: Error?
    private var openIndices: [Int] = []

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        openIndices.append(elements.count)
        elements.append(Element(name: elementName, attributes: attributeDict))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        openIndices.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let index = openIndices.last { elements[index].text += string }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        self.parseError = parseError
    }

    /// Elements whose `class` attribute contains `className` as a word.
    func elements(named name: String, withClass className: String) -> [Element] {
        elements.filter {
            $0.name == name && ($0.attributes["class"] ?? "").split(separator: " ").contains(Substring(className))
        }
    }
}

private func parse(_ svg: String) throws -> XMLSummary {
    let parser = XMLParser(data: Data(svg.utf8))
    let summary = XMLSummary()
    parser.delegate = summary
    let parsed = parser.parse()
    #expect(parsed, "SVG is not well-formed XML: \(String(describing: summary.parseError ?? parser.parserError))")
    try #require(parsed)
    return summary
}

/// A temporary folder removed when the value goes away.
private struct TemporaryFolder: ~Copyable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-plot-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

@Suite struct RenderPlotTests {
    @Test func stereoPlotIsWellFormedWithOnePathPerChannel() throws {
        let svg = RenderPlot.svg(stereoTimeline())
        let summary = try parse(svg)

        #expect(summary.elements.first?.name == "svg")
        #expect(summary.elements.first?.attributes["width"] == "1200")
        #expect(summary.elements.first?.attributes["height"] == "500")

        let paths = summary.elements.filter { $0.name == "path" }
        #expect(paths.count == 2)
        #expect(paths.map { $0.attributes["id"] } == ["channel-0", "channel-1"])
        #expect(paths.map { $0.attributes["class"] } == ["level channel-0", "level channel-1"])
        // Left blue, right orange.
        #expect(paths.map { $0.attributes["stroke"] } == ["#1f77b4", "#ff7f0e"])
        // 800 windows, one point each.
        for path in paths {
            let d = try #require(path.attributes["d"])
            #expect(d.hasPrefix("M"))
            #expect(d.split(separator: " ").count == 800)
        }
    }

    @Test func levelsMapToTheDBFSAxisWithSilenceOnTheFloor() throws {
        let summary = try parse(RenderPlot.svg(stereoTimeline()))
        let yTickLabels = summary.elements.filter { $0.name == "text" && $0.attributes["text-anchor"] == "end" }
            .map(\.text)
        #expect(Array(yTickLabels.prefix(7)) == ["0", "-10", "-20", "-30", "-40", "-50", "-60"])

        // Points at the -60 tick's y are exactly the silent windows (2-3 s, 5-6 s): 200 of 800.
        let floorLine = try #require(summary.elements(named: "line", withClass: "grid").first { $0.attributes["x1"] == "80.0" && $0.attributes["y1"] == "300.0" })
        #expect(floorLine.attributes["y2"] == "300.0")
        let left = try #require(summary.elements(named: "path", withClass: "channel-0").first?.attributes["d"])
        let floorPoints = left.dropFirst().split(separator: " ").filter { $0.hasSuffix(",300.0") }
        #expect(floorPoints.count == 200)
    }

    @Test func eachRegionHasOneShadedRectOfItsKind() throws {
        let summary = try parse(RenderPlot.svg(stereoTimeline()))
        let regions = summary.elements(named: "rect", withClass: "region")
        #expect(regions.count == 2)
        #expect(regions.map { $0.attributes["class"] } == ["region interruption", "region device-loss"])
        // 8 s over 940 px: 2-3 s starts at 80 + 235 = 315 and is 117.5 px wide.
        #expect(regions[0].attributes["x"] == "315.0")
        #expect(regions[0].attributes["width"] == "117.5")
        #expect(regions[1].attributes["x"] == "667.5")
        for region in regions {
            #expect(Double(region.attributes["fill-opacity"] ?? "1")! < 0.5)
        }
        let labels = summary.elements(named: "text", withClass: "region-label").map(\.text)
        #expect(labels == ["interrupted: call", "device lost"])
    }

    @Test func axesAreLabelledWithSensibleTimeSteps() throws {
        let summary = try parse(RenderPlot.svg(stereoTimeline()))
        let axisLabels = summary.elements(named: "text", withClass: "axis-label").map(\.text)
        #expect(axisLabels.sorted() == ["level (dBFS)", "time (s)"])
        let title = summary.elements(named: "text", withClass: "title").map(\.text)
        #expect(title == ["interlude render: 8 s, 48000 Hz, 2 ch"])
        let timeLabels = summary.elements.filter { $0.name == "text" && $0.attributes["text-anchor"] == "middle" && $0.attributes["class"] == nil }
            .map(\.text)
        #expect(timeLabels == ["0", "1", "2", "3", "4", "5", "6", "7", "8"])
    }

    @Test(arguments: [(8.0, 1.0), (0.3, 0.05), (3.0, 0.5), (25.0, 5.0), (100.0, 10.0), (300.0, 30.0), (600.0, 60.0)])
    func timeStepGivesFiveToTwelveTicks(span: Double, step: Double) {
        #expect(RenderPlot.timeStep(for: span) == step)
        let tickCount = Int((span / step).rounded(.down)) + 1
        #expect((5...12).contains(tickCount))
    }

    @Test func markersAreTickedAndCloseLabelsFolded() throws {
        let summary = try parse(RenderPlot.svg(stereoTimeline()))
        #expect(summary.elements(named: "line", withClass: "marker-tick").count == 5)
        let labels = summary.elements(named: "text", withClass: "marker-label").map(\.text)
        // The two markers at 4 s share one label; the escaped label comes back intact.
        #expect(labels == ["music.play", "beep.play", "music.fade (+1)", #"say "hi" & <bye>"#])
        let groups = summary.elements(named: "g", withClass: "marker")
        #expect(groups.count == 4)
    }

    @Test("A cue or snapshot names its cluster over routine moves, in its own colour, with its own legend row")
    func soundDesignMarkersStandOut() throws {
        var timeline = monoTimeline()
        timeline.markers = [
            .init(seconds: 1, label: "set", kind: .move),
            .init(seconds: 1.01, label: "cue bell", kind: .soundDesign),
            .init(seconds: 1.02, label: "set", kind: .move),
            .init(seconds: 2, label: "muffled snapshot on", kind: .soundDesign),
        ]
        let summary = try parse(RenderPlot.svg(timeline))
        let labels = summary.elements(named: "text", withClass: "marker-label")
        #expect(labels.map(\.text) == ["cue bell (+2)", "muffled snapshot on"])
        #expect(Set(labels.map { $0.attributes["fill"] }) == ["#0f7b6c"])
        #expect(legendTexts(summary) == ["mono", "event", "cue, snapshot"])
    }

    @Test func legendNamesChannelsAndRegionKinds() throws {
        let summary = try parse(RenderPlot.svg(stereoTimeline()))
        #expect(legendTexts(summary) == ["left", "right", "interruption", "device loss", "event"])

        let mono = try parse(RenderPlot.svg(monoTimeline()))
        #expect(legendTexts(mono) == ["mono", "event"])
    }

    private func legendTexts(_ summary: XMLSummary) -> [String] {
        guard let start = summary.elements.firstIndex(where: { $0.name == "g" && $0.attributes["class"] == "legend" }) else { return [] }
        return summary.elements[start...].filter { $0.name == "text" }.map(\.text)
    }

    @Test func monoTimelineHasOnePath() throws {
        let summary = try parse(RenderPlot.svg(monoTimeline()))
        let paths = summary.elements.filter { $0.name == "path" }
        #expect(paths.count == 1)
        #expect(paths.first?.attributes["id"] == "channel-0")
        #expect(summary.elements(named: "rect", withClass: "region").isEmpty)
    }

    @Test func sameTimelineGivesIdenticalText() {
        #expect(RenderPlot.svg(stereoTimeline()) == RenderPlot.svg(stereoTimeline()))
        #expect(RenderPlot.svg(monoTimeline()) == RenderPlot.svg(monoTimeline()))
    }

    @Test func longRendersAreDecimatedKeepingPeaks() throws {
        // 10 minutes of -40 dBFS with one 10 ms peak at -3 dBFS: 60 000 windows.
        var levels = [Float](repeating: -40, count: 60_000)
        levels[31_337] = -3
        let timeline = RenderTimeline(
            sampleRate: 48_000, channelCount: 1, durationSeconds: 600, windowSeconds: 0.01,
            levelsDBFS: [levels], regions: [], markers: []
        )
        let summary = try parse(RenderPlot.svg(timeline))
        let d = try #require(summary.elements.first { $0.name == "path" }?.attributes["d"])
        let points = d.dropFirst().split(separator: " ")
        #expect(points.count <= RenderPlot.maximumPointCount)
        #expect(points.count >= 1000)
        // -3 dBFS on a 0..-60 axis 252 px tall sits at 48 + 3 / 60 * 252 = 60.6.
        #expect(points.filter { $0.hasSuffix(",60.6") }.count == 1)
    }

    @Test func writtenPlotRendersToAPNG() throws {
        let folder = try TemporaryFolder()
        let svgPath = folder.path + "/take.render.svg"
        let pngPath = folder.path + "/take.png"
        try RenderPlot.write(stereoTimeline(), to: svgPath)
        #expect(try String(contentsOfFile: svgPath, encoding: .utf8) == RenderPlot.svg(stereoTimeline()))
        // Only the SVG is left: the temporary file was renamed into place.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["take.render.svg"])

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/rsvg-convert")
        process.arguments = ["-o", pngPath, svgPath]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "rsvg-convert: \(errorText)")
        #expect(errorText.isEmpty, "rsvg-convert warned: \(errorText)")

        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pngPath)))
        try #require(png.count > 24)
        #expect(Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width > 0 && height > 0)
        #expect(width == 1200 && height == 500)
    }

    @Test func writeIntoAMissingFolderThrowsWriteFailedNamingThePath() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/missing/plot.svg"
        let error = try #require(throws: InterludeError.self) {
            try RenderPlot.write(monoTimeline(), to: path)
        }
        #expect(error.code == .writeFailed)
        #expect(error.message.hasPrefix(path + ": "))
    }

    @Test func writeReplacesAnExistingFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/plot.svg"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        try RenderPlot.write(monoTimeline(), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == RenderPlot.svg(monoTimeline()))
    }
}
