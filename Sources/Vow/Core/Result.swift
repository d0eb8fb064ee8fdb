/// The outcome of a promise: PromiseKit's `Result`, with its `.fulfilled` and `.rejected` cases.
///
/// Inside a file that imports Vow, `Result` names this type; write `Swift.Result` for the standard
/// library's two-parameter one (as with PromiseKit).
public enum Result<T> {
    /// The promise was fulfilled with a value.
    case fulfilled(T)
    /// The promise was rejected with an error.
    case rejected(Error)
}

extension Result: Sendable where T: Sendable {}

extension Result {
    /// `true` if this result is `.fulfilled`.
    @inlinable
    public var isFulfilled: Bool {
        if case .fulfilled = self { return true }
        return false
    }

    /// `true` if this result is `.rejected`.
    @inlinable
    public var isRejected: Bool { !isFulfilled }

    /// The fulfilled value, or throws the rejection's error.
    @inlinable
    public func get() throws -> T {
        switch self {
        case .fulfilled(let value): return value
        case .rejected(let error): throw error
        }
    }

    /// This outcome as the standard library's `Result`.
    @inlinable
    public var swiftResult: Swift.Result<T, Error> {
        switch self {
        case .fulfilled(let value): return .success(value)
        case .rejected(let error): return .failure(error)
        }
    }

    /// Converts the standard library's `Result`.
    @inlinable
    public init<Failure: Error>(_ result: Swift.Result<T, Failure>) {
        switch result {
        case .success(let value): self = .fulfilled(value)
        case .failure(let error): self = .rejected(error)
        }
    }
}
