/// One cell of docs/stacks.md's stack-by-behaviour table, measured by the test that prints it.
/// `make test` (the system's OpenAL Soft) and `make test-matrix` (1.24.2) print these lines;
/// scripts/stack-table.sh gathers them from both runs' logs into bench/results/stacks.tsv and
/// writes the table from that file, so no cell is typed by hand.
enum StackCell {
    /// How the game reaches the sound server: the server, and OpenAL Soft's backend that talks to it.
    enum Route: String {
        /// PulseAudio, through OpenAL Soft's PulseAudio backend.
        case pulseAudio = "PulseAudio"
        /// PipeWire, through pipewire-pulse and OpenAL Soft's PulseAudio backend (all 1.19 has).
        case pipeWirePulse = "PipeWire (pipewire-pulse)"
        /// PipeWire, through OpenAL Soft's native PipeWire backend (1.22 and later).
        case pipeWireNative = "PipeWire (native backend)"
    }

    /// The table's columns, in order.
    enum Behaviour: String, CaseIterable {
        case startUp = "start-up"
        case latency = "latency"
        case lossAndRebuild = "loss and rebuild"
        case phoneStream = "phone stream"
        case defaultSink = "default sink"
        case sleep = "sleep"
        case sigstop = "SIGSTOP"
    }

    /// The stack this process runs on over `route`, as the table names it.
    static func stack(_ route: Route) -> String { "\(OpenALStack.release) / \(route.rawValue)" }

    /// Prints the cell, or its `part`: `STACK-CELL<TAB>stack<TAB>behaviour[: part]<TAB>text`.
    /// The text is what a player meets, with its figures; a later line for the same cell (or
    /// part) replaces an earlier one.
    static func record(_ route: Route, _ behaviour: Behaviour, part: String? = nil, _ text: String) {
        let key = part.map { "\(behaviour.rawValue): \($0)" } ?? behaviour.rawValue
        print("STACK-CELL\t\(stack(route))\t\(key)\t\(text)")
    }
}
