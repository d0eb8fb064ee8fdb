/// Waits for thenables of different value types to fulfill: PromiseKit 8's
/// `when(fulfilled: [any Thenable])`.
///
/// ```swift
/// let user = fetchUser(id)          // Promise<User>
/// let count = unreadCount()         // Guarantee<Int>
/// when(fulfilled: [user, count]).done { values in
///     let user = values[0] as! User
///     let count = values[1] as! Int
/// }
/// ```
///
/// - Success: once all have fulfilled, the returned promise is fulfilled with their values in
///   input order, each as `any Sendable` (PromiseKit's `Any`: every value here is `Sendable`). An
///   empty array gives `[]`.
/// - Failure: rejected with the first error as soon as it happens; the other thenables go on and
///   their outcomes are ignored.
/// - Threads: the returned promise settles on the thread that settles the last input (or the
///   rejecting one), or at once, on this thread, if the inputs have already settled.
///
/// For thenables of one type, `when(fulfilled:)` over `[U]` keeps the type (`Promise<[U.T]>`), and
/// the tuple forms keep each type.
// Disfavoured, so that an array of one thenable type still picks the typed overloads (without it,
// `when(fulfilled: [Promise.value(1)])` would prefer this non-generic function).
@_disfavoredOverload
public func when(fulfilled thenables: [any Thenable]) -> Promise<[any Sendable]> {
    whenFulfilled(thenables.map { erasingValue(of: $0) })
}

/// The thenable's outcome with its value seen as `any Sendable`; opens the existential.
private func erasingValue<U: Thenable>(of thenable: U) -> Promise<any Sendable> {
    thenable.map(on: nil) { $0 as any Sendable }
}
