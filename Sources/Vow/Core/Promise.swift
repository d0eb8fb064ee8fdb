import Dispatch
#if !canImport(Darwin) && !VOW_FORCE_PORTABLE_LOCKS
import Synchronization
#endif

/// A value that will exist later, or the error that prevented it.
///
/// A promise starts pending and settles exactly once, fulfilled with a `T` or rejected with an
/// `Error`. Chain work onto it with `then`, `map`, `done`, `catch` and friends, or `await` its
/// `value`. It is `Sendable`: share it freely between threads and tasks.
///
/// ```swift
/// func fetchUser(id: Int) -> Promise<User> {
///     Promise { seal in
///         legacyFetch(id) { user, error in seal.resolve(user, error) }
///     }
/// }
/// ```
///
/// Each promise is a single allocation holding its state and its lock.
// Not `final`, for ``DonePromise`` (the promise `done` returns), which carries `done`'s body so
// that its handler needs no allocation of its own; nothing outside Vow can subclass it (it is not
// `open`), and every member is `final` or in an extension, so nothing is dispatched dynamically.
// @unchecked: a non-final class cannot be checked; its stored properties are `let` and `Sendable`
// (the box guards its own state), and ``DonePromise``'s one `var` is reached by one thread only.
public class Promise<T: Sendable>: Thenable, CatchMixin, @unchecked Sendable {
    /// Declared first, so its offset is fixed and `deinit` reaches it without generic metadata.
    /// Seal it through `seal(_:)`, which refuses a second seal without taking the box's lock.
    @usableFromInline let box: Box<PromiseBoxFlavor<T>>
    #if DEBUG
    @usableFromInline let creationSite: CreationSite?
    #endif

    /// A pending promise, settled internally by a chain link or combinator.
    @inlinable
    init(pendingAt site: CreationSite?) {
        box = Box()
        #if DEBUG
        creationSite = site
        #endif
    }

    /// A promise settled from the start; `site` is where its chain began (debug builds).
    @inlinable
    init(sealed result: Result<T>, at site: CreationSite? = nil) {
        box = Box(sealed: result)
        #if DEBUG
        creationSite = site
        #endif
    }

    /// Creates a pending promise and runs `body` at once, on this thread, with its resolver.
    ///
    /// If `body` throws, the promise is rejected with the error. If the resolver is deallocated
    /// while the promise is still pending, the promise is rejected with `VowError.abandoned`.
    public init(
        resolver body: (Resolver<T>) throws -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        box = Box()
        #if DEBUG
        creationSite = CreationSite(file: file, line: line)
        #endif
        let resolver = Resolver(self)
        do {
            try body(resolver)
        } catch {
            resolver.reject(error)
        }
    }

    /// A pending promise and the resolver that settles it.
    ///
    /// ```swift
    /// let (promise, resolver) = Promise<Int>.pending()
    /// ```
    public static func pending(
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (promise: Promise<T>, resolver: Resolver<T>) {
        let promise = Promise(pendingAt: CreationSite(file: file, line: line))
        return (promise, Resolver(promise))
    }

    /// A promise already fulfilled with `value`.
    @inlinable
    public static func value(_ value: T) -> Promise<T> {
        Promise(sealed: .fulfilled(value))
    }

    /// A promise already rejected with `error`.
    @inlinable
    public convenience init(error: Error) {
        self.init(sealed: .rejected(error))
    }

    /// A promise that settles as `bridge` does (for example, a `Guarantee` seen as a `Promise`).
    @inlinable
    public convenience init<U: Thenable>(_ bridge: U) where U.T == T {
        self.init(pendingAt: nil)
        bridge.pipe(to: { [self] result in self.seal(result) })
    }

    /// Runs `to` with the result once this promise settles: at once, on this thread, if it has.
    @inlinable
    public final func pipe(to: @escaping @Sendable (Result<T>) -> Void) {
        box.observe(to)
        abandonIfOrphaned()
    }

    /// Runs `body` once settled without counting as handling a rejection: for the library's own
    /// bookkeeping, such as disposing a cancellation registration.
    @inlinable
    final func whenSettled(_ body: @escaping @Sendable (Result<T>) -> Void) {
        box.observe(countsAsHandling: false, body)
    }

    /// The result, or `nil` while pending. Reading it counts as handling a rejection.
    @inlinable
    public final var result: Result<T>? {
        box.inspect()
    }

    /// `false` if this was very likely pending a moment ago, read without the lock, so that the
    /// chain methods skip a locked look at ``result`` before registering their handler.
    @inlinable
    public final var _mayHaveSettled: Bool {
        box.core.mightBeSealed
    }

    /// `true` while the promise has not settled.
    @inlinable
    public final var isPending: Bool {
        box.isPending
    }

    /// Settles the promise unless it already has; `false` if it had.
    @inlinable
    @discardableResult
    final func seal(_ result: Result<T>) -> Bool {
        // Already sealed: answer without the box, whose generic code is slow where unspecialized
        // (a resolver's deinit tries to seal every promise it made).
        guard !box.core.isSealedHint else { return false }
        return box.seal(result)
    }

    /// Settles as the thenable `body` returns, or rejects with what it throws: the shared work of
    /// `then` and `recover`. Returning this very promise rejects with `PMKError.returnedSelf`.
    @inlinable
    final func adopt<Returned: Thenable>(_ body: () throws -> Returned) where Returned.T == T {
        do {
            let returned = try body()
            guard returned !== self else { throw PMKError.returnedSelf }
            returned.pipe { self.seal($0) }
        } catch {
            seal(.rejected(error))
        }
    }

    /// Fulfills with what `body` returns, or rejects with what it throws: the shared work of `map`.
    @inlinable
    final func fulfill(_ body: () throws -> T) {
        do {
            seal(.fulfilled(try body()))
        } catch {
            seal(.rejected(error))
        }
    }

    final var creationSiteIfRecorded: CreationSite? {
        #if DEBUG
        return creationSite
        #else
        return nil
        #endif
    }

    deinit {
        // Swift runs a generic class's deinit unspecialized, where reading the box as a
        // `Result<T>` costs generic-metadata lookups: skip that for promises that were never
        // rejected (or left pending by a dropped resolver). Destroying the contents needs only
        // `T`'s metadata, which the object carries.
        if box.core.wasRejectedHint || isOrphaned {
            reportIfUnhandledRejection()
        }
        box.core.slotAtDeinit().destroyContents(fulfilled: T.self)
    }

    /// Reports a rejection nobody observed. Kept out of line so that the metadata its generic code
    /// needs is not looked up at the top of every `deinit`, where the compiler would hoist it.
    @inline(never)
    final func reportIfUnhandledRejection() {
        if isOrphaned, box.isPending { return reportDeallocatedWhilePending() }
        guard case .rejected(let error)? = box.unobservedValue() else { return }
        // An abandoned promise was reported as a diagnostic when it was abandoned; that nobody saw
        // it is PromiseKit's "pending promise deallocated" (Promise+Abandonment.swift).
        if (error as? VowError) == .abandoned { return reportDeallocatedWhilePending() }
        // Cancellation is not a failure.
        if error.isCancelled { return }
        conf.unhandledRejectionHandler(UnhandledRejection(error: error, creationSite: creationSiteIfRecorded))
    }
}

extension Promise where T == Void {
    /// A promise already fulfilled with `()`.
    @inlinable
    public convenience init() {
        self.init(sealed: .fulfilled(()))
    }

    /// A promise already fulfilled with `()`.
    @inlinable
    public static var value: Promise<Void> {
        Promise(sealed: .fulfilled(()))
    }
}

/// Whether a promise's resolver went while it was pending with nothing waiting on it
/// (Promise+Abandonment.swift), readable without the box's lock.
///
/// Set from outside the box's lock, so it has its own byte: the box's flags are written with
/// plain stores under the lock. Where there is no `Atomic` (Apple platforms, whose floor is
/// below it, and `VOW_FORCE_PORTABLE_LOCKS`) the box records the orphan under its lock instead.
@usableFromInline
struct OrphanMark: ~Copyable, Sendable {
    #if canImport(Darwin) || VOW_FORCE_PORTABLE_LOCKS
    @inlinable init() {}
    #else
    @usableFromInline static var orphanedBit: UInt8 { 4 }

    @usableFromInline let bits: Atomic<UInt8>

    @inlinable
    init() {
        bits = Atomic(0)
    }

    /// Records that the resolver has gone; `true` (recorded).
    @inlinable
    func recordOrphaned() -> Bool {
        bits.bitwiseOr(Self.orphanedBit, ordering: .relaxed)
        return true
    }

    /// Whether the resolver went while the promise was pending. Read after touching the box's
    /// lock, whose ordering makes the flag visible (Promise+Abandonment.swift).
    @inlinable
    var isOrphaned: Bool {
        bits.load(ordering: .relaxed) & Self.orphanedBit != 0
    }
    #endif
}
