import Foundation

/// This process's resident memory, from /proc/self: now, at its peak, and by mapping.
public enum ResidentMemory {
    /// Peak resident KiB (VmHWM), or 0 if /proc is unreadable.
    public static func peakKiB() -> Int { statusKiB("VmHWM:") ?? 0 }

    /// Resident KiB now (VmRSS), or 0 if /proc is unreadable.
    public static func currentKiB() -> Int { statusKiB("VmRSS:") ?? 0 }

    /// A "Key: N kB" line of /proc/self/status.
    public static func statusKiB(_ key: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key) {
            return Int(line.dropFirst(key.count).filter { $0.isNumber })
        }
        return nil
    }

    /// Resident KiB of this process by mapping, from /proc/self/smaps (empty if unreadable).
    public static func kibByMapping() -> [String: Int] {
        // Read to the end: /proc files report a size of 0, and a one-read reader gets the first page.
        guard let smaps = FileHandle(forReadingAtPath: "/proc/self/smaps"), let data = try? smaps.readToEnd() else { return [:] }
        try? smaps.close()
        return kibByMapping(smaps: String(decoding: data, as: UTF8.self))
    }

    /// Resident KiB by mapping in `smaps` (the text of /proc/PID/smaps): a file's mappings under
    /// its file name, "[heap]", "[stack]" and the like under theirs, mappings with no name as
    /// "[anonymous]". Spaces in a name become "_", so a name is one word.
    public static func kibByMapping(smaps: String) -> [String: Int] {
        var kib: [String: Int] = [:]
        var current = "[anonymous]"
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                let path = fields.count == 6 ? fields[5].trimmingCharacters(in: .whitespaces) : ""
                let name = path.isEmpty ? "[anonymous]" : String(path.split(separator: "/").last ?? Substring(path))
                current = name.replacingOccurrences(of: " ", with: "_")
            } else if fields.first == "Rss:", fields.count >= 2, let value = Int(fields[1]) {
                kib[current, default: 0] += value
            }
        }
        return kib
    }

    /// `kib` as "mapping_kib NAME KIB" lines, largest first, as the peer harnesses print them.
    public static func lines(_ kib: [String: Int]) -> [String] {
        kib.filter { $0.value > 0 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "mapping_kib \($0.key) \($0.value)" }
    }
}
