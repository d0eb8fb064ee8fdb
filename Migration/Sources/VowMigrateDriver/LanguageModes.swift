import Foundation
import VowMigrate

/// The language mode of each file of a run, from the nearest `Package.swift` above it (each
/// manifest read once), or `fallback` (`--swift-version`, else Swift 6) for a file that no
/// manifest's target holds: a tree without a manifest, such as an Xcode project, or a file beside
/// a package that SwiftPM does not compile.
public struct LanguageModes: Sendable {
    /// The mode of files no manifest decides.
    public var fallback: SwiftLanguageMode
    /// Files whose manifest decides a mode other than `fallback` (the others are absent).
    public private(set) var modes: [String: SwiftLanguageMode] = [:]
    /// What could not be read, one line per problem: `path/Package.swift: note: ...`.
    public private(set) var notes: [String] = []

    /// Every file at `fallback`: no manifest is read.
    public init(fallback: SwiftLanguageMode) {
        self.fallback = fallback
    }

    /// Finds the manifest of each file by walking up from its folder; a folder's manifest (or its
    /// absence) is looked up once, and each manifest read once.
    public init(files: [String], fallback: SwiftLanguageMode) {
        self.fallback = fallback
        var manifestOfFolder: [String: String?] = [:]
        var manifests: [String: PackageManifest] = [:]
        let currentDirectory = FileManager.default.currentDirectoryPath
        for file in files {
            let absolute = file.hasPrefix("/") ? file : currentDirectory + "/" + file
            let path = (absolute as NSString).standardizingPath
            let folder = (path as NSString).deletingLastPathComponent
            guard let manifestFolder = Self.manifestFolder(above: folder, cache: &manifestOfFolder) else { continue }
            let manifestPath = manifestFolder == "/" ? "/Package.swift" : manifestFolder + "/Package.swift"
            let manifest: PackageManifest
            if let known = manifests[manifestPath] {
                manifest = known
            } else {
                let text = (try? String(contentsOfFile: manifestPath, encoding: .utf8)) ?? ""
                manifest = PackageManifest(source: text, fallback: fallback)
                manifests[manifestPath] = manifest
                notes += manifest.problems.map { "\(manifestPath): note: \($0)" }
                // SwiftPM may build from `Package@swift-5.9.swift` instead; this reads Package.swift only.
                let siblings = (try? FileManager.default.contentsOfDirectory(atPath: manifestFolder)) ?? []
                let versioned = siblings.filter { $0.hasPrefix("Package@swift-") && $0.hasSuffix(".swift") }.sorted()
                if !versioned.isEmpty {
                    notes.append("\(manifestPath): note: \(versioned.joined(separator: ", ")) not read; the language modes come from Package.swift")
                }
            }
            let relative = String(path.dropFirst(manifestFolder == "/" ? 1 : manifestFolder.count + 1))
            if let mode = manifest.languageMode(ofFileAt: relative), mode != fallback {
                modes[file] = mode
            }
        }
    }

    /// The mode `file` (as named in the run) is compiled in.
    public func mode(of file: String) -> SwiftLanguageMode {
        modes[file] ?? fallback
    }

    /// The folder holding the nearest `Package.swift` at or above `folder`, or nil.
    private static func manifestFolder(above folder: String, cache: inout [String: String?]) -> String? {
        if let known = cache[folder] { return known }
        let found: String?
        if FileManager.default.fileExists(atPath: folder == "/" ? "/Package.swift" : folder + "/Package.swift") {
            found = folder
        } else if folder == "/" || folder.isEmpty {
            found = nil
        } else {
            found = manifestFolder(above: (folder as NSString).deletingLastPathComponent, cache: &cache)
        }
        cache[folder] = found
        return found
    }
}
