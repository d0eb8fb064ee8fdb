import Dispatch

// The sequence chain methods of `Thenable+Sequence.swift` for guarantees with non-throwing
// transforms: they return guarantees, as in PromiseKit. A throwing transform picks the `Thenable`
// method instead, which returns a promise.

extension Guarantee where T: Sequence, T.Element: Sendable {
    /// Transforms every element on `on`: `Guarantee<[T]>` → `(T) -> U` → `Guarantee<[U]>`.
    @inlinable
    public func mapValues<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> U
    ) -> Guarantee<[U]> {
        map(on: on, flags: flags) { $0.map(transform) }
    }

    /// Transforms every element into a sequence and concatenates them.
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> U
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        map(on: on, flags: flags) { $0.flatMap(transform) }
    }

    /// Transforms every element and drops the `nil`s.
    @inlinable
    public func compactMapValues<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> U?
    ) -> Guarantee<[U]> {
        map(on: on, flags: flags) { $0.compactMap(transform) }
    }

    /// Starts a guarantee for every element on `on` and waits for all of them; their values in
    /// element order.
    @inlinable
    public func thenMap<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U]> {
        then(on: on, flags: flags) { when(guarantees: $0.map(transform)) }
    }

    /// Like `thenMap`, for guarantees of sequences, whose values are concatenated in element order.
    @inlinable
    public func thenFlatMap<U: Sequence & Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        then(on: on, flags: flags) { when(guarantees: $0.map(transform)) }
            .map(on: nil) { $0.flatMap { $0 } }
    }

    /// Keeps the elements for which `isIncluded` is `true`, in order.
    @inlinable
    public func filterValues(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ isIncluded: @escaping @Sendable (T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        map(on: on, flags: flags) { $0.filter(isIncluded) }
    }

    /// The elements sorted on `on` by `areInIncreasingOrder`.
    @inlinable
    public func sortedValues(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ areInIncreasingOrder: @escaping @Sendable (T.Element, T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        map(on: on, flags: flags) { $0.sorted(by: areInIncreasingOrder) }
    }
}

extension Guarantee where T: Sequence, T.Element: Comparable & Sendable {
    /// The elements in ascending order, sorted on `on`.
    @inlinable
    public func sortedValues(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil
    ) -> Guarantee<[T.Element]> {
        map(on: on, flags: flags) { $0.sorted() }
    }
}
