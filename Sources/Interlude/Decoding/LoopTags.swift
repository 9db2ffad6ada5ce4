import Logging

/// Reads the loop a file declares: Vorbis comments and a WAV `smpl` loop become one
/// end-exclusive frame range, or nil with a warning when the tags are malformed or lie outside
/// the track. A bad tag never fails the open: the file still plays, just without its loop.
///
/// The Vorbis convention is SDL_mixer 2.6's (`music_ogg.c`), the one most tagged game music is
/// written for: keys are matched case-insensitively, with `LOOP-START`/`LOOP_START` spellings
/// accepted; values are frames; `LOOPEND` is exclusive (the first frame not played, so the loop
/// is `LOOPSTART ..< LOOPEND`), `LOOPLENGTH` is counted from `LOOPSTART`; when both are given,
/// the later comment wins; `LOOPSTART` defaults to 0; a loop needs `LOOPSTART < end <= length`.
enum LoopTags {
    private static let logger = Logger(label: "Interlude")

    /// Logs that a file's loop tag was ignored, and why (swift-log, label "Interlude").
    static func warnIgnored(_ message: String) {
        logger.warning("\(message)")
    }

    /// The "KEY=value" strings of a Vorbis comment block as libvorbisfile and libopusfile both
    /// hand it over: `count` texts with their byte lengths. Undecodable UTF-8 is repaired, not refused.
    static func comments(_ texts: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, lengths: UnsafeMutablePointer<Int32>,
                         count: Int32) -> [String] {
        guard let texts else { return [] }
        return (0..<Int(max(0, count))).compactMap { index in
            guard let text = texts[index], lengths[index] >= 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: text, count: Int(lengths[index])), as: UTF8.self)
        }
    }

    /// The loop in Vorbis `comments` ("KEY=value" strings), for a track of `frameCount` frames.
    static func vorbisRegion(comments: [String], frameCount: Int, path: String) -> Range<Int>? {
        var startFrame: Int?
        var end: (frames: Int, isLength: Bool)?
        var sawLoopTag = false
        for comment in comments {
            guard let equals = comment.firstIndex(of: "=") else { continue }
            var key = comment[..<equals].uppercased()
            if key.count > 4, key.hasPrefix("LOOP"), let separator = key.dropFirst(4).first, separator == "-" || separator == "_" {
                key = "LOOP" + key.dropFirst(5)
            }
            guard ["LOOPSTART", "LOOPLENGTH", "LOOPEND"].contains(key) else { continue }
            sawLoopTag = true
            let text = comment[comment.index(after: equals)...].trimmingSpaces
            guard let frames = Int(text), frames >= 0 else {
                logger.warning("\(path): loop tag \(key)=\(text) is not a whole number of frames; loop tags ignored")
                return nil
            }
            switch key {
            case "LOOPSTART": startFrame = frames
            case "LOOPLENGTH": end = (frames, true)
            default: end = (frames, false)
            }
        }
        guard sawLoopTag else { return nil }
        guard let end else {
            logger.warning("\(path): LOOPSTART without LOOPLENGTH or LOOPEND; loop tags ignored")
            return nil
        }
        let start = startFrame ?? 0
        let (endFrame, overflow) = end.isLength ? start.addingReportingOverflow(end.frames) : (end.frames, false)
        guard !overflow else {
            logger.warning("\(path): LOOPSTART + LOOPLENGTH overflows; loop tags ignored")
            return nil
        }
        return checked(startFrame: start, endFrame: endFrame, frameCount: frameCount, path: path, tag: "loop tags")
    }

    /// A WAV `smpl` loop: `dwStart` and `dwEnd` are frames, `dwEnd` inclusive.
    static func sampleLoopRegion(startFrame: UInt32, lastFrame: UInt32, frameCount: Int, path: String) -> Range<Int>? {
        checked(startFrame: Int(startFrame), endFrame: Int(lastFrame) + 1, frameCount: frameCount, path: path,
                tag: "smpl loop")
    }

    /// `startFrame ..< endFrame` when it is a non-empty range inside the track, else nil with a warning.
    private static func checked(startFrame: Int, endFrame: Int, frameCount: Int, path: String, tag: String) -> Range<Int>? {
        guard startFrame < endFrame, endFrame <= frameCount else {
            logger.warning("\(path): \(tag) \(startFrame)..<\(endFrame) is not a loop inside the track's \(frameCount) frames; ignored")
            return nil
        }
        return startFrame..<endFrame
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
