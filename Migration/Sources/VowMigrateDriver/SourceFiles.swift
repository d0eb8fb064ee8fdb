import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the Swift files named on the command line, or under the directories named there.
///
/// Symbolic links named on the command line are followed, whatever they point at. Inside a
/// directory, a link to a file is followed once and a link to a directory is searched once: every
/// directory is identified by its device and inode, so a link that leads back into a directory
/// already searched (a cycle, or a second way into the same folder) is skipped and reported, and so
/// is a second path to a file already found. Hidden entries (`.build`, `.git`) are skipped.
public enum SourceFiles {
    public struct PathError: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var problem: String
        public var description: String { "\(path): \(problem)" }
    }

    /// A path inside a named directory that was not migrated, and why.
    public struct SkippedPath: Sendable, Codable, Equatable {
        public var path: String
        public var reason: String
        /// Whether files may have been missed because of it (an unreadable directory or file):
        /// the run then exits 3, so `--check` cannot pass without having looked. Cycles,
        /// duplicates and broken links are `false`: nothing there is left unread.
        public var missedFiles: Bool

        public init(path: String, reason: String, missedFiles: Bool) {
            self.path = path
            self.reason = reason
            self.missedFiles = missedFiles
        }
    }

    /// A Swift file to migrate, spelled as the user reached it (through links, if so).
    public struct File: Sendable, Equatable {
        public var path: String
        /// Its size in bytes when found, for the progress line.
        public var size: Int
    }

    /// What `discover` found.
    public struct Discovery: Sendable {
        /// Every Swift file, sorted by path, each real file once.
        public var files: [File]
        /// What was left out inside the named directories, sorted by path.
        public var skipped: [SkippedPath]

        public var paths: [String] { files.map(\.path) }
        public var totalBytes: Int { files.reduce(0) { $0 + $1.size } }
    }

    /// Every `.swift` file of `paths`, sorted, so output order never depends on the file system.
    /// Throws for a path that does not exist, a file that is not Swift, a file that cannot be
    /// read, or a named directory that holds no `.swift` file at all (a typo or a wrong folder
    /// must not let `--check` pass without having looked at anything).
    public static func collect(_ paths: [String]) throws(PathError) -> [String] {
        try discover(paths).paths
    }

    /// `collect`, with each file's size and the paths skipped inside the named directories.
    public static func discover(_ paths: [String]) throws(PathError) -> Discovery {
        var walk = Walk()
        for path in paths {
            var status = stat()
            guard stat(path, &status) == 0 else {
                let reason = String(cString: strerror(errno))
                if let target = linkTarget(path) {
                    throw PathError(path: path, problem: "a symbolic link to \(target), which cannot be followed (\(reason.lowercased()))")
                }
                throw PathError(path: path, problem: errno == ENOENT ? "no such file or directory" : "cannot be read (\(reason.lowercased()))")
            }
            if isDirectory(status) && !path.hasSuffix(".swift") {
                let before = walk.found.count
                if !walk.enterDirectory(path, status: status) {
                    throw PathError(path: path, problem: "cannot be read (\(String(cString: strerror(errno)).lowercased()))")
                }
                if walk.found.count == before && !walk.visitedBefore(status) {
                    throw PathError(path: path, problem: "no .swift files in this directory (hidden folders such as .build are not searched); nothing to migrate or check")
                }
                continue
            }
            guard path.hasSuffix(".swift") else {
                throw PathError(path: path, problem: "not a Swift file (vow-migrate reads only .swift files)")
            }
            guard isRegularFile(status), access(path, R_OK) == 0 else {
                throw PathError(path: path, problem: "cannot be read")
            }
            walk.add(path, status: status)
        }
        return walk.result()
    }

    /// The depth-first search over directories, with the identities already seen.
    private struct Walk {
        struct Identity: Hashable {
            var device: UInt64
            var inode: UInt64
            init(_ status: stat) {
                device = UInt64(truncatingIfNeeded: status.st_dev)
                inode = UInt64(truncatingIfNeeded: status.st_ino)
            }
        }

        var found: [(path: String, identity: Identity, size: Int)] = []
        var skipped: [SkippedPath] = []
        /// Directories searched, with the path they were first searched under.
        var directories: [Identity: String] = [:]
        /// Named directories already searched, so naming one twice is no cycle.
        var namedTwice = Set<Identity>()

        func visitedBefore(_ status: stat) -> Bool { namedTwice.contains(Identity(status)) }

        mutating func add(_ path: String, status: stat) {
            found.append((path, Identity(status), Int(status.st_size)))
        }

        /// Searches a named directory; `false` when it cannot be opened.
        mutating func enterDirectory(_ path: String, status: stat) -> Bool {
            let identity = Identity(status)
            if directories[identity] != nil {
                namedTwice.insert(identity)
                return true
            }
            directories[identity] = path
            guard let stream = opendir(path) else { return false }
            closedir(stream)
            search(path.hasSuffix("/") ? String(path.dropLast()) : path)
            return true
        }

        private mutating func search(_ directory: String) {
            guard let stream = opendir(directory) else {
                skipped.append(SkippedPath(path: directory, reason: "cannot be read (\(String(cString: strerror(errno)).lowercased())); its files were not migrated", missedFiles: true))
                return
            }
            var names: [String] = []
            while let entry = readdir(stream) {
                let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
                }
                if !name.hasPrefix(".") { names.append(name) }
            }
            closedir(stream)
            for name in names.sorted() {
                visit(directory + "/" + name)
            }
        }

        private mutating func visit(_ path: String) {
            var link = stat()
            guard lstat(path, &link) == 0 else { return }
            let isLink = (link.st_mode & S_IFMT) == S_IFLNK
            var status = link
            if isLink {
                guard stat(path, &status) == 0 else {
                    if path.hasSuffix(".swift") {
                        let target = linkTarget(path) ?? "?"
                        skipped.append(SkippedPath(path: path, reason: "broken symbolic link (to \(target)); nothing to migrate", missedFiles: false))
                    }
                    return
                }
            }
            if isDirectory(status) {
                let identity = Identity(status)
                if let first = directories[identity] {
                    let why = path.hasPrefix(first + "/") || first.hasPrefix(path + "/") || first == path
                        ? "symbolic link cycle: leads back to \(first), already searched"
                        : "leads to \(first), already searched"
                    skipped.append(SkippedPath(path: path, reason: why, missedFiles: false))
                    return
                }
                directories[identity] = path
                search(path)
                return
            }
            guard path.hasSuffix(".swift"), isRegularFile(status) else { return }
            guard access(path, R_OK) == 0 else {
                skipped.append(SkippedPath(path: path, reason: "cannot be read; not migrated", missedFiles: true))
                return
            }
            add(path, status: status)
        }

        /// Sorted by path; a real file reached twice (a link beside its target, a file named
        /// again through another spelling) is kept once, under the first path in order.
        func result() -> Discovery {
            var byIdentity: [Identity: String] = [:]
            var files: [File] = []
            var skipped = self.skipped
            var seenPaths = Set<String>()
            for entry in found.sorted(by: { $0.path < $1.path }) where seenPaths.insert(entry.path).inserted {
                if let first = byIdentity[entry.identity] {
                    skipped.append(SkippedPath(path: entry.path, reason: "the same file as \(first); migrated once, under that path", missedFiles: false))
                    continue
                }
                byIdentity[entry.identity] = entry.path
                files.append(File(path: entry.path, size: entry.size))
            }
            return Discovery(files: files, skipped: skipped.sorted { $0.path < $1.path })
        }
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

func isDirectory(_ status: stat) -> Bool { (status.st_mode & S_IFMT) == S_IFDIR }
func isRegularFile(_ status: stat) -> Bool { (status.st_mode & S_IFMT) == S_IFREG }
