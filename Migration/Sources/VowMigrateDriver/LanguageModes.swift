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
    /// Files whose package or Xcode project may deploy to an Apple OS older than `TaskExecutor`,
    /// with what says so.
    public private(set) var earlyDeployments: [String: String] = [:]
    /// What could not be read, one line per problem: `path/Package.swift: note: ...`.
    public private(set) var notes: [String] = []

    /// Every file at `fallback`: no manifest is read.
    public init(fallback: SwiftLanguageMode) {
        self.fallback = fallback
    }

    /// Finds the manifest of each file by walking up from its folder; a folder's manifest (or its
    /// absence) is looked up once, and each manifest read once.
    /// `readsProjectModes`: a file no manifest holds takes the mode its Xcode project's
    /// `SWIFT_VERSION` says (``xcodeSettings(above:cache:)``) rather than `fallback`; false when
    /// `--swift-version` chose the mode.
    public init(files: [String], fallback: SwiftLanguageMode, fallbackIsolation: DefaultIsolation = .nonisolated,
                readsProjectModes: Bool = false) {
        self.fallback = fallback
        self.fallbackIsolation = fallbackIsolation
        var xcodeSettingsOfFolder: [String: XcodeSettings?] = [:]
        var manifestOfFolder: [String: String?] = [:]
        var manifests: [String: PackageManifest] = [:]
        let currentDirectory = FileManager.default.currentDirectoryPath
        for file in files {
            let absolute = file.hasPrefix("/") ? file : currentDirectory + "/" + file
            let path = (absolute as NSString).standardizingPath
            let folder = (path as NSString).deletingLastPathComponent
            guard let manifestFolder = Self.manifestFolder(above: folder, cache: &manifestOfFolder) else {
                if let settings = Self.xcodeSettings(above: folder, cache: &xcodeSettingsOfFolder) {
                    isolations[file] = settings.isolation
                    if let early = settings.earlyDeployment { earlyDeployments[file] = early }
                    if readsProjectModes, let mode = settings.mode, mode != fallback { modes[file] = mode }
                }
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
            if let early = manifest.earlyPlatform { earlyDeployments[file] = early }
            let relative = String(path.dropFirst(manifestFolder == "/" ? 1 : manifestFolder.count + 1))
            let mode = manifest.languageMode(ofFileAt: relative)
            if let mode, mode != fallback { modes[file] = mode }
            // A file some target holds and that says nothing is Swift's default, nonisolated.
            if let isolation = manifest.defaultIsolation(ofFileAt: relative) ?? (mode == nil ? nil : .nonisolated) {
                isolations[file] = isolation
            }
        }
    }

    /// Why `file`'s target may deploy to an Apple OS older than `TaskExecutor`, or nil.
    public func earlyDeployment(of file: String) -> String? {
        earlyDeployments[file]
    }

    /// A project's first deployment target older than `TaskExecutor` (`IPHONEOS_DEPLOYMENT_TARGET = 15.0;`).
    private static func earlyDeploymentTarget(_ text: String) -> String? {
        let settings = ["IPHONEOS": "iOS", "MACOSX": "macOS", "TVOS": "tvOS", "WATCHOS": "watchOS", "XROS": "visionOS"]
        return PackageManifest.firstBelowTaskExecutor(in: text, pattern: #"(IPHONEOS|MACOSX|TVOS|WATCHOS|XROS)_DEPLOYMENT_TARGET"?\s*[=:]\s*"?([0-9]+)"#) { settings[$0] }
            .map { "its Xcode project deploys to \($0.platform) \($0.major)" }
    }

    /// The default isolation `file` is compiled with.
    public func defaultIsolation(of file: String) -> DefaultIsolation {
        isolations[file] ?? fallbackIsolation
    }

    /// What an Xcode project's build settings decide for its files.
    private struct XcodeSettings {
        var isolation: DefaultIsolation
        /// Swift 5 when every `SWIFT_VERSION` it sets is below 6 (which target holds a file is not
        /// read, so a project setting 6 anywhere keeps the stricter mode); nil when none is set.
        var mode: SwiftLanguageMode?
        /// A deployment target older than `TaskExecutor`, as ``LanguageModes/earlyDeployment(of:)`` says it.
        var earlyDeployment: String?
    }

    /// What the nearest Xcode project at or above `folder` sets: `SWIFT_DEFAULT_ACTOR_ISOLATION`
    /// (`MainActor` when any of its build settings says so, as new app targets in Xcode 26 do,
    /// since which target holds a file is not read) and `SWIFT_VERSION`; nil without a project.
    /// A project is an `.xcodeproj` (its `project.pbxproj`), or the spec a generator makes one
    /// from (XcodeGen's `project.yml`, Tuist's `Project.swift`), with the `.xcconfig` files beside it.
    private static func xcodeSettings(above folder: String, cache: inout [String: XcodeSettings?]) -> XcodeSettings? {
        if let known = cache[folder] { return known }
        var found: XcodeSettings?
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "/" : folder)) ?? []
        let projects = entries.filter { $0.hasSuffix(".xcodeproj") }.map { $0 + "/project.pbxproj" }
            + entries.filter { ["project.yml", "project.yaml", "Project.swift"].contains($0) }
        if !projects.isEmpty {
            let settings = (projects + entries.filter { $0.hasSuffix(".xcconfig") }).sorted()
                .compactMap { try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
            let versions = settings.flatMap(swiftVersions)
            found = XcodeSettings(isolation: settings.contains(where: setsMainActorByDefault) ? .mainActor : .nonisolated,
                                  mode: versions.isEmpty ? nil : versions.allSatisfy { $0 < 6 } ? .v5 : .v6,
                                  earlyDeployment: settings.lazy.compactMap(earlyDeploymentTarget).first)
        } else if folder != "/" && !folder.isEmpty {
            found = xcodeSettings(above: (folder as NSString).deletingLastPathComponent, cache: &cache)
        }
        cache[folder] = found
        return found
    }

    /// The major versions of `SWIFT_VERSION = 5.0;` (pbxproj, xcconfig), `SWIFT_VERSION: "5.9"`
    /// (YAML), `"SWIFT_VERSION": "6.0"` (Swift) in `text`.
    private static func swiftVersions(_ text: String) -> [Int] {
        guard let pattern = try? NSRegularExpression(pattern: #"SWIFT_VERSION"?\s*[=:]\s*"?([0-9]+)"#) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).flatMap { Int(text[$0]) }
        }
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
