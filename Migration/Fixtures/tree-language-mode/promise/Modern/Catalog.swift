import Foundation
import Vow

/// A class: Swift never infers `Sendable` for it. In Swift 5 mode a promise can carry it.
public class Page {
    public var items: [String] = []

    public init() {}
}

public final class Loader: Sendable {
    public init() {}

    public func page(number: Int, completion: @escaping (Page?, Error?) -> Void) {
        completion(Page(), nil)
    }

    /// The alternatives require `T: Sendable` only in Swift 6 mode.
    public func first<T>(of items: [T], completion: @escaping (T?) -> Void) {
        completion(items.first)
    }

    /// Promise-based alternative to `first(of:completion:)`, added by vow-migrate.
    public func first<T: Sendable>(of items: [T]) -> Guarantee<T?> {
        Guarantee { resolve in
            first(of: items) { value in
                resolve(value)
            }
        }
    }
}

/// A generic type: its alternatives are constrained to a `Sendable` `Value` only in Swift 6 mode.
public final class Cache<Value>: @unchecked Sendable {
    private var stored: Value?

    public init() {}

    public func value(completion: @escaping (Value?) -> Void) {
        completion(stored)
    }

    /// Promise-based alternative to `value(completion:)`, added by vow-migrate.
    public func value() -> Guarantee<Value?> where Value: Sendable {
        Guarantee { resolve in
            value { value in
                resolve(value)
            }
        }
    }
}

/// Its extension is constrained to a `Sendable` `Item` only in Swift 6 mode.
public protocol Feed {
    associatedtype Item
    func next(completion: @escaping (Item?) -> Void)
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
public extension Feed where Item: Sendable {
    /// Promise-based alternative to `next(completion:)`, added by vow-migrate.
    func next() -> Guarantee<Item?> {
        Guarantee { resolve in
            next { value in
                resolve(value)
            }
        }
    }
}
