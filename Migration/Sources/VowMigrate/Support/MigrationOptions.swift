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

    public init(target: MigrationTarget?, replace: Bool = false, fromPromiseKit: Bool = false) {
        self.target = target
        self.replace = replace
        self.fromPromiseKit = fromPromiseKit
    }
}
