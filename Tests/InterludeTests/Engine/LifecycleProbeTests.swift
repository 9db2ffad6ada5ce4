import Foundation
import Testing

/// A game's start and end, each in a process of its own (LifecycleProbe), since OpenAL Soft
/// starts once per process.
@Suite struct LifecycleProbeTests {
    /// A game that never calls shutdown() still closes its device: an engine held when the
    /// program exits is shut down at exit, before OpenAL Soft's own clean-up, which otherwise
    /// writes "alc_cleanup: 1 device not closed" on standard error.
    @Test("a program that exits holding an open engine closes its device and writes nothing on stderr",
          arguments: ["return", "exit-from-handler"])
    func exitClosesTheDevice(_ how: String) throws {
        let run = try ProductProcess.run("LifecycleProbe", [how, TestPaths.asset("sfx/beep.wav")],
                                         environment: ["ALSOFT_DRIVERS": "null"], limitSeconds: 30)
        #expect(!run.wasKilled && run.status == 0, "LifecycleProbe \(how): status \(run.status)\n\(run.standardError)")
        #expect(run.standardOutput == "playing true\n", "\(run.standardOutput)")
        #expect(!run.standardError.contains("alc_cleanup"), "\(run.standardError)")
        #expect(run.standardError.isEmpty, "\(run.standardError)")
    }

    /// A game that falls back by hand, `.systemDefault` then `.null`, on a machine where no
    /// device opens: OpenAL Soft has started on its usual drivers by then and cannot take the
    /// null backend, so the second open throws too, and its message says what works instead.
    @Test("opening .null after .systemDefault failed says to use .systemDefaultOrNull")
    func fallingBackByHandSaysWhatWorks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-no-server-\(getpid())")
        let run = try ProductProcess.run("LifecycleProbe", ["null-after-default"],
                                         environment: ["ALSOFT_DRIVERS": "pulse", "PULSE_SERVER": "unix:\(folder.path)/none",
                                                       "PULSE_CLIENTCONFIG": "/dev/null"], limitSeconds: 30)
        #expect(!run.wasKilled && run.status == 0, "LifecycleProbe: status \(run.status)\n\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("systemDefault: "), "\(run.standardOutput)")
        #expect(lines.last?.hasPrefix("null: ") == true && lines.last?.contains(".systemDefaultOrNull") == true, "\(run.standardOutput)")
    }
}
