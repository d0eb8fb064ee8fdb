import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file's contents all at once: the new text goes to a temporary file beside it,
/// is flushed to disk, takes the original's permissions, and is renamed over it. A reader (or a
/// crash) sees the old file or the new one, never half of one.
public enum AtomicFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): could not write (\(reason)); the file was left as it was" }
    }

    /// - Parameter beforeRename: a hook for tests to fail between writing and renaming.
    public static func write(_ text: String, to path: String, beforeRename: (() throws -> Void)? = nil) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\(name).vow-migrate-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw WriteError(path: path, reason: String(cString: strerror(errno)))
        }
        var removeTemporary = true
        defer {
            if removeTemporary { unlink(temporary) }
        }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + written, bytes.count - written)
            }
            if result < 0 {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw WriteError(path: path, reason: reason)
            }
            written += result
        }
        var status = stat()
        if stat(path, &status) == 0 {
            fchmod(descriptor, status.st_mode & 0o7777)
        }
        fsync(descriptor)
        close(descriptor)
        try beforeRename?()
        guard rename(temporary, path) == 0 else {
            throw WriteError(path: path, reason: String(cString: strerror(errno)))
        }
        removeTemporary = false
    }
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, pointer, count)
    #elseif canImport(Musl)
    return Musl.write(descriptor, pointer, count)
    #else
    return Darwin.write(descriptor, pointer, count)
    #endif
}
