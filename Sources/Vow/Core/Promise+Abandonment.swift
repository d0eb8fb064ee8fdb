// What happens when whatever was to settle a promise is deallocated first (its `Resolver`, or the
// completion handler a callback adapter gave away), and how Vow says so.
//
// - Something already waits on the promise (a chain, an awaiter, `wait()`): the promise is rejected
//   with `VowError.abandoned` at once, which releases them all, and `conf.diagnosticHandler`
//   receives `Diagnostic.abandoned`: the resolver was dropped, the promise was rejected.
// - Nothing waits on it yet: it stays pending, as in PromiseKit (`Promise<Int>.pending().promise`
//   is pending), marked orphaned. The first thing that waits on it later is handed
//   `VowError.abandoned` at once (and the diagnostic is sent then), so still nothing waits forever.
//   Reading it (`isPending`, `result`, `description`) does not settle it.
// - The promise is deallocated still pending, or rejected as abandoned without anything having
//   looked: `conf.logHandler` receives PromiseKit's `.pendingPromiseDeallocated`, the event
//   PromiseKit logs when a pending promise loses its resolver for good.
//
// Ordering: the resolver records the orphan mark, then reads the box's handlers under its lock; a
// waiter adds its handler under the same lock, then reads the mark. Whichever comes second sees
// the other, so a handler is never left waiting on an orphan. Where the mark has no `Atomic`
// (Apple platforms, whose floor is below it) the box records the orphan under its own lock.

extension Promise {
    /// The resolver (or callback completion) that was to settle this promise has been
    /// deallocated while it was pending.
    func resolverDeallocated() {
        #if canImport(Darwin) || VOW_FORCE_PORTABLE_LOCKS
        // No atomic mark here: record the orphan in the box, in the same critical section that
        // looks for waiting handlers.
        let isWatched = box.core.withSlot { slot in
            guard !slot.isSealed else { return false }
            if slot.kind != BoxSlot.pendingNone { return true }
            slot.flags |= BoxSlot.orphanedBit
            return false
        }
        if isWatched { abandon() }
        #else
        guard box.core.orphanMark.recordOrphaned(), !box.hasHandlers else { return abandon() }
        #endif
    }

    /// Abandons the promise if its resolver has gone; called after a handler is added.
    @inlinable
    func abandonIfOrphaned() {
        if isOrphaned { abandon() }
    }

    /// Whether the resolver went while the promise was pending and nothing waited on it.
    @inlinable
    var isOrphaned: Bool {
        #if canImport(Darwin) || VOW_FORCE_PORTABLE_LOCKS
        box.core.withSlot { $0.flags & BoxSlot.orphanedBit != 0 }
        #else
        box.core.orphanMark.isOrphaned
        #endif
    }

    /// Rejects the promise with `VowError.abandoned` because nothing can settle it any more, and
    /// reports that to `conf.diagnosticHandler`; does nothing if it has settled.
    @usableFromInline
    func abandon() {
        if seal(.rejected(VowError.abandoned)) {
            conf.diagnosticHandler(.abandoned(creationSiteIfRecorded))
        }
    }

    /// Called as a promise whose resolver went is deallocated without anything having seen it
    /// settle: pending still, or rejected as abandoned with nobody looking.
    func reportDeallocatedWhilePending() {
        conf.logHandler(.pendingPromiseDeallocated)
    }
}

/// What a promise or guarantee does when whatever was to settle it is deallocated first.
///
/// Vow's default is to say so: a pending `Promise` is rejected with `VowError.abandoned`, so that
/// nothing waits on it for ever. An alternative to a callback API that, on some path, never calls
/// its handler wants the opposite: answer nothing there either, as the callback did.
///
/// ```swift
/// func fetchUser(id: Int) -> Promise<User> {
///     Promise(ifAbandoned: .stayPending) { seal in
///         fetchUser(id: id) { user, error in seal.resolve(user, error) }
///     }
/// }
/// ```
public enum AbandonmentPolicy: Sendable, Hashable {
    /// The default. A promise is rejected with `VowError.abandoned` as soon as anything waits on it
    /// and `conf.diagnosticHandler` receives `Diagnostic.abandoned`; a guarantee, which cannot
    /// reject, stays pending and `conf.logHandler` receives `.pendingGuaranteeDeallocated`.
    case report
    /// It stays pending and nothing is reported, as with a callback that is never called: no
    /// handler runs, and whatever waits on it waits until it is released with the promise. Only for
    /// code that gives that meaning to not answering.
    case stayPending
}

extension Promise {
    /// Creates a pending promise and runs `body` at once, on this thread, with its resolver;
    /// `policy` says what happens if the resolver is deallocated while the promise is pending.
    ///
    /// If `body` throws, the promise is rejected with the error. With
    /// ``AbandonmentPolicy/report`` this is `Promise { seal in ... }`; it is
    /// ``init(cancellation:ifAbandoned:resolver:file:line:)`` without a token.
    public convenience init(
        ifAbandoned policy: AbandonmentPolicy,
        resolver body: (Resolver<T>) throws -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(cancellation: nil, ifAbandoned: policy, resolver: body, file: file, line: line)
    }
}

extension Guarantee {
    /// Creates a pending guarantee and runs `body` at once with the function that settles it;
    /// `policy` says whether a function deallocated uncalled is reported (`.report`, as
    /// `Guarantee { resolve in ... }`) or leaves the guarantee pending silently (`.stayPending`).
    public convenience init(
        ifAbandoned policy: AbandonmentPolicy,
        resolver body: (@escaping @Sendable (T) -> Void) -> Void
    ) {
        self.init(pendingAt: nil)
        let resolver = GuaranteeResolver(self, reportsAbandonment: policy == .report)
        body { value in resolver.resolve(value) }
    }
}
