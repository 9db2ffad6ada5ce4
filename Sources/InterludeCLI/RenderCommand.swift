import ArgumentParser
import Foundation
import Interlude
import InterludeScene

/// `interlude render SCENE.json --output OUT.wav [--log OUT.jsonl] [--plot OUT.svg [--plot-stems]] [--float]`.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene file offline through OpenAL Soft's loopback device (see docs/scenes.md)."
    )

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Option(name: .shortAndLong, help: "The WAV file to write.")
    var output: String

    @Option(help: "Also write the session log, one JSON object per line.")
    var log: String?

    @Option(help: "Also write an SVG plot of the levels, interruptions and events.")
    var plot: String?

    @Flag(help: "With --plot, also plot each stem's level heard alone (one more render per stem).")
    var plotStems = false

    @Flag(help: "Write 32-bit float samples instead of 16-bit PCM.")
    var float = false

    /// The scene file among `arguments` (those after `render`), for an error line when they do
    /// not parse: the first that is neither an option nor an option's value.
    static func sceneArgument(in arguments: ArraySlice<String>) -> String? {
        let takingValues: Set<String> = ["-o", "--output", "--log", "--plot"]
        var previous: String?
        for argument in arguments {
            defer { previous = argument }
            if argument.hasPrefix("-") { continue }
            if let previous, takingValues.contains(previous) { continue }
            return argument
        }
        return nil
    }

    func run() throws {
        RenderSignals.install()
        let bar = ProgressBar(label: "rendering \(URL(fileURLWithPath: scene).lastPathComponent)")
        do {
            let parsed = try SceneParser.parse(fileAt: scene)
            let renderer = SceneRenderer(scene: parsed, sceneName: scene)
            try renderer.render(to: output, sampleType: float ? .float32 : .int16, logPath: log, plotPath: plot,
                                plotsStems: plotStems, progress: { fraction in
                                    if RenderSignals.takeContinued() { bar.redrawAtNextUpdate() }
                                    bar.update(fraction: fraction)
                                },
                                shouldStop: { RenderSignals.received != nil })
            bar.finish()
        } catch is CancellationError {
            bar.finish()
            let signal = RenderSignals.received ?? SIGTERM
            let written = [output, log, plot].compactMap { $0 }.joined(separator: ", ")
            FileHandle.standardError.write(Data("interlude render: stopped by \(RenderSignals.name(of: signal)); nothing written (\(written) left as they were, temporary files removed)\n".utf8))
            throw ExitCode(128 + signal)
        } catch let error as InterludeError {
            FileHandle.standardError.write(Data("interlude render: \(error.message.replacingOccurrences(of: "\n", with: " "))\n".utf8))
            throw ExitCode(1)
        }
    }
}
