import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

/// A class: Swift never infers `Sendable` for it. In Swift 5 mode a promise can carry it.
public class Page {
    public var items: [String] = []

    public init() {}
}

public final class Loader: Sendable {
    public init() {}

    @available(*, renamed: "page(number:)")
    public func page(number: Int, completion: @escaping (Page?, Error?) -> Void) {
        completion(Page(), nil)
    }

    /// Async alternative to `page(number:completion:)`, added by vow-migrate.
    public nonisolated(nonsending) func page(number: Int) async throws -> Page {
        try await withCheckedThrowingContinuation { continuation in
            page(number: number) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "page(number:completion:)"))
                }
            }
        }
    }

    /// The alternatives require `T: Sendable` only in Swift 6 mode.
    @available(*, renamed: "first(of:)")
    public func first<T>(of items: [T], completion: @escaping (T?) -> Void) {
        completion(items.first)
    }

    /// Async alternative to `first(of:completion:)`, added by vow-migrate.
    public nonisolated(nonsending) func first<T>(of items: [T]) async -> T? {
        await withCheckedContinuation { continuation in
            first(of: items) { value in
                continuation.resume(returning: value)
            }
        }
    }
}

/// A generic type: its alternatives are constrained to a `Sendable` `Value` only in Swift 6 mode.
public final class Cache<Value>: @unchecked Sendable {
    private var stored: Value?

    public init() {}

    @available(*, renamed: "value()")
    public func value(completion: @escaping (Value?) -> Void) {
        completion(stored)
    }

    /// Async alternative to `value(completion:)`, added by vow-migrate.
    public nonisolated(nonsending) func value() async -> Value? {
        await withCheckedContinuation { continuation in
            value { value in
                continuation.resume(returning: value)
            }
        }
    }
}

/// Its extension is constrained to a `Sendable` `Item` only in Swift 6 mode.
public protocol Feed {
    associatedtype Item
    @available(*, renamed: "next()")
    func next(completion: @escaping (Item?) -> Void)
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
public extension Feed {
    /// Async alternative to `next(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func next() async -> Item? {
        await withCheckedContinuation { continuation in
            next { value in
                continuation.resume(returning: value)
            }
        }
    }
}
