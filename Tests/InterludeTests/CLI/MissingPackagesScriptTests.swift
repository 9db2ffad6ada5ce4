#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// scripts/apt-install-missing.sh (behind `make deps`, `make test`, `make demo`, `make leaks`) run
/// the way a new user without root or sudo runs it: as an unprivileged user (nobody, when the
/// tests run as root) with no sudo on its PATH, against the real dpkg database.
@Suite struct MissingPackagesScriptTests {
    /// A package not in any archive, so never installed.
    static let absentPackage = "interlude-no-such-package"

    /// The script's run: its exit status and what it wrote.
    struct Run {
        let exitStatus: Int32?
        let output: String
        let errorText: String
    }

    /// Runs the script with `packages` as an unprivileged user whose PATH holds only what the
    /// script needs: dpkg-query, grep and id (no sudo, no apt-get).
    static func run(_ packages: [String]) throws -> Run {
        let folder = try ScratchFolder(prefix: "interlude-missing-packages")
        let bin = folder.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for tool in ["dpkg-query", "grep", "id"] {
            try FileManager.default.createSymbolicLink(atPath: bin + "/" + tool, withDestinationPath: "/usr/bin/" + tool)
        }
        // A copy nobody can read, wherever the checkout is and whatever its modes.
        let script = folder.path("apt-install-missing.sh")
        try FileManager.default.copyItem(atPath: TestPaths.packageRoot.appendingPathComponent("scripts/apt-install-missing.sh").path,
                                         toPath: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.directory.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: script)
        let asUser = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []
        let child = try LineReadingChild<String>(asUser + ["/bin/bash", script, "install-deps"] + packages,
                                                 environment: ["PATH": bin, "LC_ALL": "C"]) { line, _ in line }
        #expect(child.process.waitForExit(timeoutSeconds: 30), "the script did not finish")
        child.waitForReaders()
        let status = child.process.status.flatMap { raw -> Int32? in (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : nil }
        return Run(exitStatus: status, output: child.lines.joined(separator: "\n"), errorText: child.errorText)
    }

    @Test("With a package missing and neither root nor sudo, the script names it and the command that installs it, and fails")
    func missingPackageWithoutSudo() throws {
        let run = try Self.run(["bash", Self.absentPackage, "grep"])
        #expect(run.exitStatus == 1)
        #expect(run.output.isEmpty, "\(run.output)")
        #expect(run.errorText.contains("install-deps: these packages are missing: \(Self.absentPackage)\n"), "\(run.errorText)")
        #expect(run.errorText.contains("apt-get install -y --no-install-recommends \(Self.absentPackage)\n"), "\(run.errorText)")
        #expect(run.errorText.contains("sudo apt-get install -y --no-install-recommends \(Self.absentPackage))"), "\(run.errorText)")
        #expect(!run.errorText.contains("command not found"), "\(run.errorText)")
    }

    @Test("With nothing missing, the script succeeds as an unprivileged user and says nothing")
    func nothingMissing() throws {
        let run = try Self.run(["bash", "grep"])
        #expect(run.exitStatus == 0)
        #expect(run.output.isEmpty && run.errorText.isEmpty, "\(run.output)\(run.errorText)")
    }
}
