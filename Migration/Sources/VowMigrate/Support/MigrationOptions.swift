/// The form the migration produces.
public enum MigrationTarget: String, Sendable, Codable, CaseIterable {
    /// Functions returning `Promise<T>` or `Guarantee<T>` from Vow.
    case promise
    /// `async` functions built on checked continuations (Vow only where an error needs it).
    case async
}

/// What a migration run does to each file.
public struct MigrationOptions: Sendable, Equatable {
    /// The form of the generated alternatives; `nil` adds none (a `fromPromiseKit` run alone).
    public var target: MigrationTarget?
    /// `false` (the default): add an alternative beside each function and keep the original, so
    /// call sites can move one at a time. `true`: convert the function itself where its body can
    /// be expressed in the target form, and report the others untouched.
    public var replace: Bool
    /// Switch the file from PromiseKit to Vow first: `import PromiseKit` becomes `import Vow`,
    /// and PromiseKit's synchronous `.value` on evident promises becomes `.valueIfFulfilled`.
    public var fromPromiseKit: Bool
    /// Which code is migrated: the completion-handler functions, the code calling them, or both.
    public var stage: MigrationStage
    /// The language mode the file is compiled in (the driver reads it per file from the package
    /// manifest). Swift 5 mode asks no `Sendable` of a promise's value, so nothing is refused or
    /// required for it.
    public var languageMode: SwiftLanguageMode
    /// Add promise alternatives to functions that store their handler where the index cannot
    /// tell how often it is called (`operation.completion = completion`): the promise keeps the
    /// first answer, and Vow reports later ones to `conf.diagnosticHandler`; one never given
    /// stays pending. The async form resumes through a resume-once bridge (a continuation resumed
    /// twice traps) that locks with `NSLock`, so it needs a file that imports Foundation.
    public var trustStoredHandlers: Bool
    /// The file's default actor isolation (the driver reads it per file from the package
    /// manifest or Xcode project, else `--default-isolation`). Under `MainActor` every type the
    /// file declares without saying otherwise is main-actor isolated, so no async alternative is
    /// `nonisolated(nonsending)` (it could not call its isolated original).
    public var defaultIsolation: DefaultIsolation = .nonisolated
    /// Whether the tree's public functions may change, or gain an alternative that a caller
    /// outside the tree could pick (``PublicAPI``).
    public var publicAPI: PublicAPI = .keep
    /// The file belongs to a Swift package that declares a library product (the driver reads it
    /// per file from the nearest `Package.swift`): its public functions are that library's API,
    /// which ``PublicAPI/auto`` keeps.
    public var inLibraryPackage = false
    /// Why the file's target may deploy to an Apple OS older than `TaskExecutor` (iOS 18,
    /// macOS 15, tvOS 18, watchOS 11, visionOS 2), read by the driver from the package's
    /// `platforms:` or the Xcode project's deployment targets; nil when nothing says so. The async
    /// form of a fan-out runs its calls on a `TaskExecutor`, so it is left alone then.
    public var earlyDeployment: String?

    public init(target: MigrationTarget?, replace: Bool = false, fromPromiseKit: Bool = false, stage: MigrationStage = .declarations,
                languageMode: SwiftLanguageMode = .v6, trustStoredHandlers: Bool = false, publicAPI: PublicAPI = .keep) {
        self.target = target
        self.replace = replace
        self.fromPromiseKit = fromPromiseKit
        self.stage = stage
        self.languageMode = languageMode
        self.trustStoredHandlers = trustStoredHandlers
        self.publicAPI = publicAPI
    }
}

/// Whether callers outside the named paths may reach the tree's public (and open) functions:
/// then `--replace` keeps them, and no async alternative is added beside a promise-returning
/// or defaulted-handler one, which such a caller could pick instead.
public enum PublicAPI: String, Sendable, Codable, CaseIterable {
    /// Every caller is in the tree when the tree holds an app (a type marked `@main`,
    /// `@UIApplicationMain` or `@NSApplicationMain` that is a SwiftUI `App` or an application
    /// delegate, or a `UIApplicationMain(...)` call): its frameworks' public functions are called
    /// by its own targets. A file in a Swift package declaring a library product stays API.
    case auto
    /// Callers outside the tree may use any public function: it never changes.
    case keep
    /// The named paths hold every caller: public functions are treated as internal ones.
    case change
}

/// A module's default actor isolation (SE-0466): Swift's default, or `MainActor`
/// (`.defaultIsolation(MainActor.self)`, `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor`).
public enum DefaultIsolation: String, Sendable, Codable, CaseIterable {
    case nonisolated
    case mainActor = "MainActor"
}

/// The Swift language mode a file is compiled in, as far as the migration cares: whether a
/// missing `Sendable` conformance is an error.
public enum SwiftLanguageMode: String, Sendable, Codable, CaseIterable {
    /// `-swift-version 5` (minimal concurrency checking): `Promise<NonSendableClass>` and a
    /// `T: Sendable` requirement met by a non-`Sendable` type compile without a diagnostic.
    case v5 = "5"
    /// `-swift-version 6`: every `Sendable` requirement is checked, as an error.
    case v6 = "6"

    /// Whether `Sendable` requirements are checked (Swift 6 mode).
    public var checksSendable: Bool { self == .v6 }
}

/// The code a run migrates, so declarations and call sites can move in one run or one at a time.
public enum MigrationStage: String, Sendable, Codable, CaseIterable {
    /// Completion-handler functions get an alternative (or are converted with `replace`).
    case declarations
    /// Only the code calling completion-handler functions that already have an alternative:
    /// callback pyramids become flat promise chains or `try await` code.
    case callSites = "call-sites"
    /// Both: alternatives are added, and call sites move to them in the same run.
    case all
}
