import Foundation
import Testing

/// A game that never calls shutdown() still closes its device: an engine held when the program
/// exits is shut down at exit, before OpenAL Soft's own clean-up, which otherwise writes
/// "alc_cleanup: 1 device not closed" on standard error. Each run is its own process
/// (ExitProbe) on OpenAL Soft's null backend.
@Suite struct ExitWithoutShutdownTests {
    @Test("a program that exits holding an open engine closes its device and writes nothing on stderr",
          arguments: ["return", "exit-from-handler"])
    func exitClosesTheDevice(_ how: String) throws {
        let run = try ProductProcess.run("ExitProbe", [TestPaths.asset("sfx/beep.wav"), how],
                                         environment: ["ALSOFT_DRIVERS": "null"], limitSeconds: 30)
        #expect(!run.wasKilled && run.status == 0, "ExitProbe \(how): status \(run.status)\n\(run.standardError)")
        #expect(run.standardOutput == "playing true\n", "\(run.standardOutput)")
        #expect(!run.standardError.contains("alc_cleanup"), "\(run.standardError)")
        #expect(run.standardError.isEmpty, "\(run.standardError)")
    }
}
