#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The child processes the tests start hold none of the test process's descriptors: tests run
/// in parallel, and a pipe one test reads to its end must end when that test's child exits,
/// whatever another test started meanwhile.
@Suite struct ChildProcessTests {
    @Test("a pipe's reader sees its end while a long-lived child started during its life still runs")
    func aLongLivedChildKeepsNoPipeOpen() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TestFailure("pipe: \(String(cString: strerror(errno)))") }
        defer { close(fds[0]) }
        // Another test's long-lived child, started while this pipe's write end is open here.
        let sleeper = try ChildProcess(["sleep", "30"], environment: ProcessInfo.processInfo.environment)
        defer { sleeper.stop(SIGKILL) }
        close(fds[1])
        var reader = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        let ready = poll(&reader, 1, 10_000)
        var byte: UInt8 = 0
        let count = ready == 1 ? read(fds[0], &byte, 1) : -1
        #expect(ready == 1 && count == 0, "the pipe did not end while the child ran (poll \(ready), read \(count))")
        #expect(sleeper.isRunning)
    }

    @Test("a child has only standard input, output and error open")
    func aChildHasOnlyItsThreeDescriptors() throws {
        let folder = try ScratchFolder(prefix: "child-process")
        let listing = folder.path("fds.txt")
        let descriptor = open(listing, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw TestFailure("cannot create \(listing)") }
        // ls lists its own descriptors: /proc/self is ls.
        let child = try ChildProcess(["ls", "-1", "/proc/self/fd"], environment: ProcessInfo.processInfo.environment,
                                     stdout: descriptor)
        close(descriptor)
        #expect(child.waitForExit(timeoutSeconds: 30))
        let openDescriptors = try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
        // 0-2, and the one ls reads the listing through.
        #expect(openDescriptors.filter { $0 > 2 }.count == 1 && Set(openDescriptors).isSuperset(of: [0, 1, 2]),
                "open in the child: \(openDescriptors)")
    }
}
