/// Where `SourceMigrator.migrate` is in one file, for a progress display on a large file.
public struct MigrationProgress: Sendable, Equatable {
    /// What it is doing: `parsing`, `switching from PromiseKit`, `rewriting`, `checking the output`.
    public var name: String
    /// How far through the file this stage is, 0...1, when it is known (while rewriting).
    public var fraction: Double?

    public init(_ name: String, fraction: Double? = nil) {
        self.name = name
        self.fraction = fraction
    }
}
