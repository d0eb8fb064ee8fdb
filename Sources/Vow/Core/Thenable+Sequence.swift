import Dispatch

// Chain methods for thenables whose value is a sequence, as PromiseKit has them. Each transforms
// the whole sequence on `on` in one handler; a throw from the transform rejects the result, and a
// rejection passes through without running it.

extension Thenable where T: Sequence, T.Element: Sendable {
    /// Transforms every element on `on`: `Promise<[T]>` → `(T) -> U` → `Promise<[U]>`.
    ///
    /// ```swift
    /// Promise.value([1, 2, 3]).mapValues { $0 * 2 }   // [2, 4, 6]
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U]> {
        map(on: on, flags: flags) { try $0.map(transform) }
    }

    /// Transforms every element into a sequence and concatenates them:
    /// `.flatMapValues { [$0, $0] }` turns `[1, 2]` into `[1, 1, 2, 2]`.
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.Element]> where U.Element: Sendable {
        map(on: on, flags: flags) { try $0.flatMap(transform) }
    }

    /// Transforms every element and drops the `nil`s: `.compactMapValues { Int($0) }`.
    @inlinable
    public func compactMapValues<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U?
    ) -> Promise<[U]> {
        map(on: on, flags: flags) { try $0.compactMap(transform) }
    }

    /// Starts a thenable for every element on `on` and waits for all of them, as
    /// `when(fulfilled:)` does: the values in element order, or the first error.
    ///
    /// ```swift
    /// Promise.value(ids).thenMap { fetchUser($0) }   // Promise<[User]>
    /// ```
    @inlinable
    public func thenMap<U: Thenable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T]> {
        then(on: on, flags: flags) { when(fulfilled: try $0.map(transform)) }
    }

    /// Like `thenMap`, for thenables of sequences, whose values are concatenated in element order.
    @inlinable
    public func thenFlatMap<U: Thenable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T.Element]> where U.T: Sequence, U.T.Element: Sendable {
        then(on: on, flags: flags) { when(fulfilled: try $0.map(transform)) }
            .map(on: nil) { $0.flatMap { $0 } }
    }

    /// Keeps the elements for which `isIncluded` is `true`, in order.
    @inlinable
    public func filterValues(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ isIncluded: @escaping @Sendable (T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        map(on: on, flags: flags) { $0.filter(isIncluded) }
    }

}

extension Thenable where T: Collection, T.Element: Sendable {
    /// The first element; rejected with `PMKError.emptySequence` if the collection is empty.
    /// Runs synchronously on the thread that settles this thenable (`on: nil`).
    @inlinable
    public var firstValue: Promise<T.Element> {
        map(on: nil) { collection in
            guard let first = collection.first else { throw PMKError.emptySequence }
            return first
        }
    }

    /// The first element that passes `test`, run on `on`; rejected with `PMKError.emptySequence`
    /// if none does.
    // Disfavored because `.firstValue` (the property) is also read as this method's function
    // value: after a few closures with literals that alone took 5.8 s to type-check, 30 ms with
    // this. Unlike the chain methods, it is never the overload a bare `.firstValue` means.
    @_disfavoredOverload
    @inlinable
    public func firstValue(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        where test: @escaping @Sendable (T.Element) -> Bool
    ) -> Promise<T.Element> {
        map(on: on, flags: flags) { collection in
            guard let first = collection.first(where: test) else { throw PMKError.emptySequence }
            return first
        }
    }

    /// The last element; rejected with `PMKError.emptySequence` if the collection is empty.
    /// Runs synchronously on the thread that settles this thenable (`on: nil`).
    @inlinable
    public var lastValue: Promise<T.Element> {
        map(on: nil) { collection in
            guard !collection.isEmpty else { throw PMKError.emptySequence }
            // Valid for every collection, not only bidirectional ones; O(1) for random access.
            return collection[collection.index(collection.startIndex, offsetBy: collection.count - 1)]
        }
    }
}

extension Thenable where T: Sequence, T.Element: Comparable & Sendable {
    /// The elements in ascending order, sorted on `on`.
    @inlinable
    public func sortedValues(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil
    ) -> Promise<[T.Element]> {
        map(on: on, flags: flags) { $0.sorted() }
    }
}
