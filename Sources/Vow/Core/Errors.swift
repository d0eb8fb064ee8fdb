/// Errors that Vow's engine and combinators produce, with PromiseKit's names and cases.
public enum PMKError: Error {
    /// A `(T?, Error?)` completion handler was called with `(nil, nil)`, which Cocoa's calling
    /// conventions forbid.
    case invalidCallingConvention
    /// A handler returned the very promise it was chained to; it could never resolve.
    case returnedSelf
    /// `when`, `race` and friends were called with unusable input, such as an empty array.
    case badInput
    /// The operation was cancelled.
    case cancelled
    /// `nil` was returned from `flatMap`.
    @available(*, deprecated, message: "See: `compactMap`")
    case flatMap(any Sendable, Any.Type)
    /// `nil` was returned from `compactMap`: the value it was given, and the type it wanted.
    case compactMap(any Sendable, Any.Type)
    /// `firstValue` or `lastValue` was asked of an empty collection, or nothing passed
    /// `firstValue(where:)`'s test.
    case emptySequence
    /// Every promise given to `race(fulfilled:)` was rejected.
    case noWinner
}

extension PMKError: CustomDebugStringConvertible, CustomStringConvertible {
    /// What went wrong, in a sentence.
    public var debugDescription: String {
        switch self {
        case .invalidCallingConvention:
            return "A closure was called with an invalid calling convention, probably (nil, nil)"
        case .returnedSelf:
            return "A promise handler returned itself"
        case .badInput:
            return "Bad input was provided to a PromiseKit function"
        case .cancelled:
            return "The asynchronous sequence was cancelled"
        case .compactMap(let value, let type):
            return "Could not `compactMap<\(type)>`: \(value)"
        case .emptySequence:
            return "The first or last element was requested for an empty sequence"
        case .noWinner:
            return "All thenables passed to race(fulfilled:) were rejected"
        default:
            // Only the deprecated `.flatMap(value, type)` is left; naming it here would warn.
            let payload = Mirror(reflecting: self).children.first.map { Mirror(reflecting: $0.value).children.map(\.value) }
            guard let payload, payload.count == 2 else { return "Could not `flatMap`" }
            return "Could not `flatMap<\(payload[1])>`: \(payload[0])"
        }
    }

    /// The same sentence as `debugDescription`.
    public var description: String { debugDescription }
}

/// An error that can say whether it stands for a cancellation.
///
/// `catch` skips cancellation errors under the default policy,
/// ``CatchPolicy/allErrorsExceptCancellation``.
public protocol CancellableError: Error {
    /// `true` if this error means the operation was cancelled rather than failed.
    var isCancelled: Bool { get }
}

extension PMKError: CancellableError {
    /// `true` for `.cancelled`.
    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }
}

/// Errors that only Vow produces (PromiseKit's `PMKError` keeps exactly its own cases).
public enum VowError: Error, Equatable, Hashable, Sendable {
    /// The promise's resolver was deallocated while the promise was still pending, so nothing could
    /// ever settle it. Rejecting with this error releases every awaiter and chain that waited on it.
    case abandoned
    /// The operation was cancelled through a ``CancellationToken``.
    case cancelled
}

extension VowError: CancellableError, CustomStringConvertible {
    /// `true` for `.cancelled`.
    public var isCancelled: Bool { self == .cancelled }

    /// What happened, in a sentence.
    public var description: String {
        switch self {
        case .abandoned:
            return "The promise's resolver was deallocated while the promise was pending"
        case .cancelled:
            return "The operation was cancelled"
        }
    }
}

extension Error {
    /// `true` if this error stands for a cancellation rather than a failure.
    ///
    /// True for `PMKError.cancelled`, `VowError.cancelled`, Swift Concurrency's
    /// `CancellationError`, any ``CancellableError`` that says so, and Foundation's cancellations
    /// as PromiseKit recognises them: `URLError.cancelled`, `CocoaError.userCancelled` (also as
    /// `NSError`s of those domains and codes, on every platform) and, on Apple platforms,
    /// StoreKit's payment cancellation.
    public var isCancelled: Bool {
        switch self {
        case let error as CancellableError:
            return error.isCancelled
        case is CancellationError:
            return true
        default:
            return isFoundationCancellation
        }
    }
}
