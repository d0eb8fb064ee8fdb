import Foundation

/// Finds the Swift files named on the command line, or under the directories named there.
public enum SourceFiles {
    public struct PathError: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var problem: String
        public var description: String { "\(path): \(problem)" }
    }

    /// Every `.swift` file of `paths`, sorted, so output order never depends on the file system.
    /// Hidden entries (`.build`, `.git`) are skipped inside directories. Throws for a path that does
    /// not exist, a file that is not Swift, or a file that cannot be read.
    public static func collect(_ paths: [String]) throws(PathError) -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw PathError(path: path, problem: "no such file or directory")
            }
            if isDirectory.boolValue && !path.hasSuffix(".swift") {
                files.append(contentsOf: swiftFiles(under: path))
                continue
            }
            guard path.hasSuffix(".swift") else {
                throw PathError(path: path, problem: "not a Swift file (vow-migrate reads only .swift files)")
            }
            guard !isDirectory.boolValue, manager.isReadableFile(atPath: path) else {
                throw PathError(path: path, problem: "cannot be read")
            }
            files.append(path)
        }
        var seen = Set<String>()
        return files.sorted().filter { seen.insert($0).inserted }
    }

    private static func swiftFiles(under directory: String) -> [String] {
        let root = URL(fileURLWithPath: directory)
        guard let enumerator = FileManager.default.enumerator(
            at: root,
            includingPropertiesForKeys: [.isRegularFileKey],
            options: [.skipsHiddenFiles]
        ) else { return [] }
        var found: [String] = []
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        let rootPath = root.standardizedFileURL.path
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            // Report paths the way the user spelled the directory.
            let full = url.standardizedFileURL.path
            let relative = full.hasPrefix(rootPath + "/") ? String(full.dropFirst(rootPath.count + 1)) : url.lastPathComponent
            found.append(prefix + relative)
        }
        return found
    }
}
