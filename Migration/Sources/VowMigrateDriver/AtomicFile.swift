import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file's contents all at once: the new bytes go to a temporary file beside it, take
/// the original's owner, group and permissions, are flushed to disk, and the temporary file is
/// renamed over the original. A reader (or a crash) sees the old file or the new one, never half
/// of one.
///
/// A path that is a symbolic link is written through: the file it points at gets the new
/// contents and the link stays a link. A file that is not writable (see `writeProblem(for:)`) is
/// left alone with an error, also when running as root.
public enum AtomicFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason); the file was left as it was" }
    }

    /// Writes `text` as UTF-8. See `write(bytes:to:beforeRename:)`.
    public static func write(_ text: String, to path: String, beforeRename: (() throws -> Void)? = nil) throws {
        try write(bytes: Array(text.utf8), to: path, beforeRename: beforeRename)
    }

    /// Replaces the contents of `path` (of the file it links to, for a symbolic link) with `bytes`.
    ///
    /// - Throws: `WriteError` when the file or its directory is not writable, when the owner or
    ///   group cannot be kept, or when any step fails; the original is then unchanged and no
    ///   temporary file is left.
    /// - Parameter beforeRename: a hook for tests to fail between writing and renaming.
    public static func write(bytes: [UInt8], to path: String, beforeRename: (() throws -> Void)? = nil) throws {
        if let problem = writeProblem(for: path) {
            throw WriteError(path: path, reason: problem)
        }
        let target = resolvedTarget(of: path)
        var original = stat()
        guard stat(target, &original) == 0 else {
            throw WriteError(path: path, reason: "could not write (\(String(cString: strerror(errno))))")
        }
        let directory = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\(name).vow-migrate-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw WriteError(path: path, reason: "could not write (\(String(cString: strerror(errno))))")
        }
        var removeTemporary = true
        var isOpen = true
        defer {
            if isOpen { close(descriptor) }
            if removeTemporary { unlink(temporary) }
        }
        func failure(_ what: String) -> WriteError {
            WriteError(path: path, reason: "\(what) (\(String(cString: strerror(errno))))")
        }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + written, bytes.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw failure("could not write")
            }
            written += result
        }
        // The owner and group first: changing them can clear the set-id bits the mode restores.
        if original.st_uid != geteuid() || original.st_gid != getegid() {
            guard fchown(descriptor, original.st_uid, original.st_gid) == 0 else {
                throw failure("could not keep its owner and group (\(original.st_uid):\(original.st_gid))")
            }
        }
        guard fchmod(descriptor, original.st_mode & 0o7777) == 0 else { throw failure("could not keep its permissions") }
        guard fsync(descriptor) == 0 else { throw failure("could not write") }
        close(descriptor)
        isOpen = false
        try beforeRename?()
        guard rename(temporary, target) == 0 else { throw failure("could not write") }
        removeTemporary = false
        // Make the rename itself durable.
        let directoryDescriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Why `path` cannot be rewritten, or `nil` when it can.
    ///
    /// A file is rewritten by a rename in its directory, so both count: the file must have a
    /// write permission bit set and be writable for this process (`access(2)`), and so must its
    /// directory. The mode bits are honoured explicitly because root passes `access(2)` whatever
    /// they say: a file someone made read-only stays as it is, whoever runs the tool.
    public static func writeProblem(for path: String) -> String? {
        let target = resolvedTarget(of: path)
        let through = target == path ? "" : " (through the symbolic link, to \(target))"
        var status = stat()
        guard stat(target, &status) == 0 else { return "not writable\(through): \(String(cString: strerror(errno)).lowercased())" }
        let mode = String(status.st_mode & 0o777, radix: 8)
        if status.st_mode & 0o222 == 0 {
            return "not writable\(through): the file is read-only (mode \(mode)); make it writable to migrate it"
        }
        if access(target, W_OK) != 0 {
            return "not writable\(through): \(String(cString: strerror(errno)).lowercased()) (mode \(mode))"
        }
        let directory = (target as NSString).deletingLastPathComponent.isEmpty ? "." : (target as NSString).deletingLastPathComponent
        var directoryStatus = stat()
        guard stat(directory, &directoryStatus) == 0 else { return "not writable\(through): its directory cannot be read" }
        let directoryMode = String(directoryStatus.st_mode & 0o777, radix: 8)
        if directoryStatus.st_mode & 0o222 == 0 || access(directory, W_OK | X_OK) != 0 {
            return "not writable\(through): its directory \(directory) is read-only (mode \(directoryMode)), "
                + "and vow-migrate writes a temporary file beside the original and renames it over it"
        }
        return nil
    }

    /// The file a path finally names once every symbolic link is followed; the path itself
    /// when it is no link (or cannot be resolved).
    static func resolvedTarget(of path: String) -> String {
        var link = stat()
        guard lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
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
