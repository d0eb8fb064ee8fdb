import Foundation

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
}

/// A generic type: its alternatives are constrained to a `Sendable` `Value` only in Swift 6 mode.
public final class Cache<Value>: @unchecked Sendable {
    private var stored: Value?

    public init() {}

    public func value(completion: @escaping (Value?) -> Void) {
        completion(stored)
    }
}

/// Its extension is constrained to a `Sendable` `Item` only in Swift 6 mode.
public protocol Feed {
    associatedtype Item
    func next(completion: @escaping (Item?) -> Void)
}
