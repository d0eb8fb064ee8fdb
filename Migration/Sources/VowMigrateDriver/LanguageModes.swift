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
    /// The default isolation of files nothing else decides (`--default-isolation`, else Swift's).
    public var fallbackIsolation: DefaultIsolation = .nonisolated
    /// Files whose manifest's target, or Xcode project, decides their default isolation.
    public private(set) var isolations: [String: DefaultIsolation] = [:]
    /// Files whose package declares a library product: their public functions are its API.
    public private(set) var libraryFiles: Set<String> = []
    /// What could not be read, one line per problem: `path/Package.swift: note: ...`.
    public private(set) var notes: [String] = []

    /// Every file at `fallback`: no manifest is read.
    public init(fallback: SwiftLanguageMode) {
        self.fallback = fallback
    }

    /// Finds the manifest of each file by walking up from its folder; a folder's manifest (or its
    /// absence) is looked up once, and each manifest read once.
    public init(files: [String], fallback: SwiftLanguageMode, fallbackIsolation: DefaultIsolation = .nonisolated) {
        self.fallback = fallback
        self.fallbackIsolation = fallbackIsolation
        var xcodeIsolationOfFolder: [String: DefaultIsolation?] = [:]
        var manifestOfFolder: [String: String?] = [:]
        var manifests: [String: PackageManifest] = [:]
        let currentDirectory = FileManager.default.currentDirectoryPath
        for file in files {
            let absolute = file.hasPrefix("/") ? file : currentDirectory + "/" + file
            let path = (absolute as NSString).standardizingPath
            let folder = (path as NSString).deletingLastPathComponent
            guard let manifestFolder = Self.manifestFolder(above: folder, cache: &manifestOfFolder) else {
                if let isolation = Self.xcodeIsolation(above: folder, cache: &xcodeIsolationOfFolder) { isolations[file] = isolation }
                continue
            }
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
            if manifest.declaresLibrary { libraryFiles.insert(file) }
            let relative = String(path.dropFirst(manifestFolder == "/" ? 1 : manifestFolder.count + 1))
            let mode = manifest.languageMode(ofFileAt: relative)
            if let mode, mode != fallback { modes[file] = mode }
            // A file some target holds and that says nothing is Swift's default, nonisolated.
            if let isolation = manifest.defaultIsolation(ofFileAt: relative) ?? (mode == nil ? nil : .nonisolated) {
                isolations[file] = isolation
            }
        }
    }

    /// The default isolation `file` is compiled with.
    public func defaultIsolation(of file: String) -> DefaultIsolation {
        isolations[file] ?? fallbackIsolation
    }

    /// What the nearest Xcode project at or above `folder` sets `SWIFT_DEFAULT_ACTOR_ISOLATION`
    /// to: `MainActor` when any of its build settings says so (new app targets in Xcode 26 do),
    /// since which target holds a file is not read; nil without a project. A project is an
    /// `.xcodeproj` (its `project.pbxproj`), or the spec a generator makes one from (XcodeGen's
    /// `project.yml`, Tuist's `Project.swift`), with the `.xcconfig` files beside it.
    private static func xcodeIsolation(above folder: String, cache: inout [String: DefaultIsolation?]) -> DefaultIsolation? {
        if let known = cache[folder] { return known }
        var found: DefaultIsolation?
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "/" : folder)) ?? []
        let projects = entries.filter { $0.hasSuffix(".xcodeproj") }.map { $0 + "/project.pbxproj" }
            + entries.filter { ["project.yml", "project.yaml", "Project.swift"].contains($0) }
        if !projects.isEmpty {
            let settings = (projects + entries.filter { $0.hasSuffix(".xcconfig") }).sorted()
                .compactMap { try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
            found = settings.contains(where: setsMainActorByDefault) ? .mainActor : .nonisolated
        } else if folder != "/" && !folder.isEmpty {
            found = xcodeIsolation(above: (folder as NSString).deletingLastPathComponent, cache: &cache)
        }
        cache[folder] = found
        return found
    }

    /// `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor;` (pbxproj, xcconfig),
    /// `SWIFT_DEFAULT_ACTOR_ISOLATION: MainActor` (YAML), `"SWIFT_DEFAULT_ACTOR_ISOLATION": "MainActor"` (Swift).
    private static func setsMainActorByDefault(_ text: String) -> Bool {
        text.range(of: #"SWIFT_DEFAULT_ACTOR_ISOLATION"?\s*[=:]\s*"?MainActor"#, options: .regularExpression) != nil
    }

    /// Whether `file` (as named in the run) is in a Swift package declaring a library product.
    public func isInLibraryPackage(_ file: String) -> Bool {
        libraryFiles.contains(file)
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
