import Foundation
import SwiftParser
import SwiftSyntax

/// What a `Package.swift` says about language modes, read from its literal syntax (never
/// evaluated): the tools version, the package's `swiftLanguageModes` / `swiftLanguageVersions`,
/// and each target's folder and `swiftSettings` mode. What cannot be read as a literal is listed
/// in ``problems`` and left at the package's mode, so a run says why a mode may be wrong instead
/// of guessing.
public struct PackageManifest: Sendable, Equatable {
    /// A target and the folder its files are in.
    public struct Target: Sendable, Equatable {
        public var name: String
        /// The folders its files may be in, relative to the manifest: `path:` as written, else
        /// SwiftPM's defaults (`Sources/<name>`, `Source/<name>`, `src/<name>`, `srcs/<name>`; a
        /// test target: `Tests/<name>`), of which a package has one.
        public var folders: [String]
        /// What `swiftSettings` says, or nil (the package's mode applies).
        public var languageMode: SwiftLanguageMode?
        /// `.defaultIsolation(MainActor.self)` (or `-default-isolation MainActor`): `.mainActor`;
        /// `.defaultIsolation(nil)`: `.nonisolated`; nil when the target says nothing.
        public var defaultIsolation: DefaultIsolation? = nil
    }

    /// `5.9` for `// swift-tools-version:5.9`; nil when the first line does not say.
    public var toolsVersion: String?
    /// The mode of files in a target that sets none.
    public var packageMode: SwiftLanguageMode
    public var targets: [Target]
    /// What could not be read, one line each (`line 12: swiftSettings is not a literal array`).
    public var problems: [String]
    /// The manifest mentions a default isolation it does not write as a literal this reads (a
    /// shared settings array): every file is taken as `MainActor` by default, which only keeps
    /// async alternatives sharing their original's isolation.
    public var defaultIsolationUnread = false
    /// The manifest declares a library product (`.library(name: ...)`): the public functions of
    /// its targets are API that other packages call.
    public var declaresLibrary = false
    /// Why the package may deploy to an Apple OS older than `TaskExecutor`: its first platform
    /// below ``taskExecutorVersions`` (`.iOS(.v15)`, `.macOS("12.0")`), or no `platforms:` at all
    /// (SwiftPM's oldest defaults then); nil when every platform it lists is recent enough.
    public var earlyPlatform: String?

    /// Reads a manifest's text. `fallback` is the mode used when the tools version is unreadable.
    public init(source: String, fallback: SwiftLanguageMode) {
        var problems: [String] = []
        toolsVersion = Self.toolsVersion(in: source)
        var mode = fallback
        if let toolsVersion, let major = Int(toolsVersion.prefix { $0.isNumber }) {
            // Before 6.0 a package builds in Swift 5 mode unless it says otherwise.
            mode = major >= 6 ? .v6 : .v5
        } else {
            problems.append("no `// swift-tools-version:` line on the first line; assuming Swift \(fallback.rawValue) mode")
        }
        let tree = Parser.parse(source: source)
        let reader = ManifestReader(converter: SourceLocationConverter(fileName: "Package.swift", tree: tree))
        reader.walk(tree)
        if let listed = reader.packageModes {
            mode = listed
        }
        packageMode = mode
        targets = reader.targets
        declaresLibrary = reader.declaresLibrary
        defaultIsolationUnread = reader.defaultIsolationUnread
        self.problems = problems + reader.problems
        earlyPlatform = Self.earlyPlatform(in: source)
    }

    /// The first versions `TaskExecutor` (`withTaskExecutorPreference`) is available in.
    public static let taskExecutorVersions: [String: Int] = ["iOS": 18, "macOS": 15, "tvOS": 18, "watchOS": 11, "visionOS": 2, "macCatalyst": 18]

    static func earlyPlatform(in source: String) -> String? {
        guard !source.isEmpty else { return nil }
        guard source.contains("platforms:") else {
            return "its package declares no `platforms:`, so on Apple platforms it deploys to SwiftPM's oldest defaults"
        }
        return firstBelowTaskExecutor(in: source, pattern: #"\.(iOS|macOS|tvOS|watchOS|visionOS|macCatalyst)\(\s*(?:\.v([0-9]+)|"([0-9]+))"#) { $0 }
            .map { "its package deploys to \($0.platform) \($0.major)" }
    }

    /// The first (platform, major version) that `pattern` finds in `text` and that is older than
    /// ``taskExecutorVersions``. The pattern's first group names the platform (`platformName`
    /// turns it into the table's spelling); the major version is its first later group that matched.
    public static func firstBelowTaskExecutor(in text: String, pattern: String,
                                              platformName: (String) -> String?) -> (platform: String, major: Int)? {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let token = Range(match.range(at: 1), in: text).map({ String(text[$0]) }),
                  let platform = platformName(token),
                  let major = (2..<match.numberOfRanges).lazy.compactMap({ Range(match.range(at: $0), in: text) }).first.flatMap({ Int(text[$0]) }),
                  let needed = taskExecutorVersions[platform], major < needed else { continue }
            return (platform, major)
        }
        return nil
    }

    /// The default isolation of a file at `relativePath`, or nil when no target holds it or its
    /// target says nothing (Swift's default, nonisolated, applies).
    public func defaultIsolation(ofFileAt relativePath: String) -> DefaultIsolation? {
        if defaultIsolationUnread { return .mainActor }
        return target(holding: relativePath)?.defaultIsolation
    }

    /// The mode of a file at `relativePath` (from the manifest's folder), or nil when no target
    /// of the manifest holds it (a file SwiftPM does not compile, such as an example app's).
    /// The target with the longest matching folder wins.
    public func languageMode(ofFileAt relativePath: String) -> SwiftLanguageMode? {
        target(holding: relativePath).map { $0.languageMode ?? packageMode }
    }

    /// The target whose folder holds the file; the longest matching folder wins.
    private func target(holding relativePath: String) -> Target? {
        var best: (length: Int, target: Target)?
        for target in targets {
            for path in target.folders {
                let folder = path.hasSuffix("/") ? path : path + "/"
                let isInside = folder == "./" || folder == "/" || relativePath.hasPrefix(folder)
                if isInside, folder.count > best?.length ?? -1 {
                    best = (folder.count, target)
                }
            }
        }
        return best?.target
    }

    /// The version from a first line `// swift-tools-version:5.9` (spaces allowed; a `;` and what
    /// follows are not the version).
    static func toolsVersion(in source: String) -> String? {
        let firstLine = source.prefix { $0 != "\n" && $0 != "\r" }
        guard let marker = firstLine.range(of: "swift-tools-version:"),
              firstLine[..<marker.lowerBound].filter({ $0 != " " }) == "//" else { return nil }
        let version = firstLine[marker.upperBound...].drop { $0 == " " }.prefix { $0.isNumber || $0 == "." }
        return version.isEmpty ? nil : String(version)
    }

    /// `.v5`, `.v4_2`, `.version("5")`, `SwiftLanguageMode.v6`: any mode before 6 checks no
    /// `Sendable` requirement as an error, so it counts as Swift 5 mode here.
    static func mode(of expression: ExprSyntax) -> SwiftLanguageMode? {
        if let member = expression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            guard name.hasPrefix("v"), let major = Int(name.dropFirst().prefix { $0.isNumber }) else { return nil }
            return major >= 6 ? .v6 : .v5
        }
        if let call = expression.as(FunctionCallExprSyntax.self),
           call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "version",
           let argument = call.arguments.first, let text = stringLiteral(argument.expression),
           let major = Int(text.prefix { $0.isNumber }) {
            return major >= 6 ? .v6 : .v5
        }
        return nil
    }

    static func stringLiteral(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self),
              literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }) else { return nil }
        return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
    }
}

/// The literal syntax of a manifest: target declarations (`.target(name:path:swiftSettings:)`
/// anywhere in the file, also in a `let` array), the package's mode lists, and any mention of a
/// language mode it could not read.
private final class ManifestReader: SyntaxVisitor {
    private let converter: SourceLocationConverter
    var targets: [PackageManifest.Target] = []
    var packageModes: SwiftLanguageMode?
    var problems: [String] = []
    var defaultIsolationUnread = false
    /// A `.library(...)` product was read.
    var declaresLibrary = false
    /// Positions of the mode mentions read, so the others are reported.
    private var read: Set<AbsolutePosition> = []

    private static let targetFactories: Set<String> = ["target", "testTarget", "executableTarget", "macro", "systemLibrary", "binaryTarget"]
    private static let modeSettings: Set<String> = ["swiftLanguageMode", "swiftLanguageVersion"]
    private static let modeLists: Set<String> = ["swiftLanguageModes", "swiftLanguageVersions"]

    init(converter: SourceLocationConverter) {
        self.converter = converter
        super.init(viewMode: .sourceAccurate)
    }

    private func line(_ node: some SyntaxProtocol) -> Int {
        node.startLocation(converter: converter).line
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        for argument in node.arguments {
            guard let label = argument.label, Self.modeLists.contains(label.text) else { continue }
            read.insert(label.position)
            readModeList(argument.expression, at: argument)
        }
        if let callee = Self.calleeName(node), Self.targetFactories.contains(callee) {
            readTarget(node, isTest: callee == "testTarget")
        }
        if Self.calleeName(node) == "library" { declaresLibrary = true }
        return .visitChildren
    }

    /// `package.swiftLanguageModes = [.v5]` after the `Package(...)` call.
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        if elements.count == 3, elements[1].is(AssignmentExprSyntax.self),
           let member = elements[0].as(MemberAccessExprSyntax.self), Self.modeLists.contains(member.declName.baseName.text) {
            read.insert(member.declName.baseName.position)
            readModeList(elements[2], at: node)
        }
        return .visitChildren
    }

    override func visitPost(_ node: SourceFileSyntax) {
        // Every other mention of a mode is something the literal reading missed.
        for token in node.tokens(viewMode: .sourceAccurate) where !read.contains(token.position) {
            let text = token.text
            if Self.modeLists.contains(text) || Self.modeSettings.contains(text) {
                problems.append("line \(line(token)): `\(text)` is not written as a literal this tool reads; its files keep the package's mode")
            } else if text == "defaultIsolation" || text == "-default-isolation" {
                defaultIsolationUnread = true
                problems.append("line \(line(token)): the default isolation is not written as a literal this tool reads; "
                                + "taking every file as MainActor by default (no async alternative is made nonisolated(nonsending))")
            } else if case .stringSegment = token.tokenKind, text == "-swift-version" {
                problems.append("line \(line(token)): `-swift-version` is not in a literal `.unsafeFlags([...])`; its files keep the package's mode")
            }
        }
    }

    private static func calleeName(_ call: FunctionCallExprSyntax) -> String? {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        return nil
    }

    private func readModeList(_ expression: ExprSyntax, at node: some SyntaxProtocol) {
        // SwiftPM builds with the newest listed mode the compiler supports.
        guard let array = expression.as(ArrayExprSyntax.self) else {
            problems.append("line \(line(node)): the package's language modes are not a literal array; using the tools version's mode")
            return
        }
        let modes = array.elements.map { PackageManifest.mode(of: $0.expression) }
        if modes.contains(nil) || modes.isEmpty {
            problems.append("line \(line(node)): a language mode in `\(array.trimmedDescription)` is not one this tool reads; using the tools version's mode")
            return
        }
        packageModes = modes.contains(.v6) ? .v6 : .v5
    }

    private func readTarget(_ call: FunctionCallExprSyntax, isTest: Bool) {
        var name: String?
        var path: String?
        var mode: SwiftLanguageMode?
        var isolation: DefaultIsolation?
        for argument in call.arguments {
            switch argument.label?.text {
            case "name":
                name = PackageManifest.stringLiteral(argument.expression)
                if name == nil { problems.append("line \(line(argument)): a target's name is not a string literal; its files keep the tool's default mode") }
            case "path":
                path = PackageManifest.stringLiteral(argument.expression)
                if path == nil { problems.append("line \(line(argument)): a target's path is not a string literal; its default folder is assumed") }
            case "swiftSettings":
                guard let settings = argument.expression.as(ArrayExprSyntax.self) else {
                    problems.append("line \(line(argument)): `swiftSettings` is not a literal array; the target keeps the package's mode")
                    continue
                }
                for element in settings.elements {
                    if let setting = readSetting(element.expression) { mode = setting }
                    if let setting = readIsolation(element.expression) { isolation = setting }
                }
            default:
                continue
            }
        }
        guard let name else { return }
        var folders = path.map { [$0] } ?? (isTest ? ["Tests/\(name)"] : ["Sources", "Source", "src", "srcs"].map { "\($0)/\(name)" })
        for index in folders.indices {
            while folders[index].hasPrefix("./") { folders[index].removeFirst(2) }
        }
        targets.append(.init(name: name, folders: folders, languageMode: mode, defaultIsolation: isolation))
    }

    /// `.defaultIsolation(MainActor.self)`, `.defaultIsolation(nil)`,
    /// `.unsafeFlags(["-default-isolation", "MainActor"])`.
    private func readIsolation(_ expression: ExprSyntax) -> DefaultIsolation? {
        guard let call = expression.as(FunctionCallExprSyntax.self), let name = Self.calleeName(call) else { return nil }
        if name == "defaultIsolation", let argument = call.arguments.first {
            let text = argument.expression.trimmedDescription
            let isolation: DefaultIsolation? = text == "nil" ? .nonisolated : text == "MainActor.self" ? .mainActor : nil
            if isolation != nil, let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
                read.insert(member.declName.baseName.position)
            }
            return isolation
        }
        if name == "unsafeFlags", let flags = call.arguments.first?.expression.as(ArrayExprSyntax.self) {
            let elements = Array(flags.elements)
            for (position, element) in elements.enumerated()
            where PackageManifest.stringLiteral(element.expression) == "-default-isolation" && position + 1 < elements.count {
                let value = PackageManifest.stringLiteral(elements[position + 1].expression)
                guard value == "MainActor" || value == "nonisolated" else { return nil }
                if let token = element.expression.as(StringLiteralExprSyntax.self)?.segments.first { read.insert(token.position) }
                return value == "MainActor" ? .mainActor : .nonisolated
            }
        }
        return nil
    }

    /// `.swiftLanguageMode(.v5)`, `.swiftLanguageVersion(.v5)`, `.unsafeFlags(["-swift-version", "5"])`.
    private func readSetting(_ expression: ExprSyntax) -> SwiftLanguageMode? {
        guard let call = expression.as(FunctionCallExprSyntax.self), let name = Self.calleeName(call) else { return nil }
        if Self.modeSettings.contains(name), let argument = call.arguments.first {
            guard let mode = PackageManifest.mode(of: argument.expression) else { return nil }
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self) { read.insert(member.declName.baseName.position) }
            return mode
        }
        if name == "unsafeFlags", let flags = call.arguments.first?.expression.as(ArrayExprSyntax.self) {
            let words = flags.elements.map { PackageManifest.stringLiteral($0.expression) }
            for (position, word) in words.enumerated() where word == "-swift-version" && position + 1 < words.count {
                guard let value = words[position + 1], let major = Int(value.prefix { $0.isNumber }) else { return nil }
                if let token = flags.elements[flags.elements.index(flags.elements.startIndex, offsetBy: position)].expression
                    .as(StringLiteralExprSyntax.self)?.segments.first {
                    read.insert(token.position)
                }
                return major >= 6 ? .v6 : .v5
            }
        }
        return nil
    }
}
