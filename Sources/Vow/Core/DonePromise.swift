/// The promise `done(on: nil)` returns, carrying `done`'s body until it runs.
///
/// `done`'s handler needs the body and the promise it settles. Captured together, they would take
/// an allocation of their own on every call; held here, the handler captures this object alone,
/// which then serves as the closure's context, so a pending `done` costs one allocation (this
/// promise) besides its handler's slot in the box it waits on.
@usableFromInline
final class DonePromise<Input: Sendable>: Promise<Void>, @unchecked Sendable {
    // @unchecked: `body` is written by `init` and then only by `run(with:)`, which the handler
    // registered with it calls once, on one thread; for the same reason its accesses need no
    // dynamic exclusivity checks (which would cost more than the rest of `run`).
    @exclusivity(unchecked) @usableFromInline var body: @Sendable (Input) throws -> Void

    @inlinable
    init(running body: @escaping @Sendable (Input) throws -> Void, pendingAt site: CreationSite?) {
        self.body = body
        super.init(pendingAt: site)
    }

    /// Runs the body with `result`'s value, or passes its rejection on, and settles; called once.
    /// The body is released before the seal, so that this promise (which callers may keep) does
    /// not keep what it captured alive.
    @inlinable
    func run(with result: Result<Input>) {
        let outcome: Result<Void>
        switch result {
        case .fulfilled(let value):
            do {
                // Called where it is stored, and replaced rather than made optional: copied out
                // (or out of an `Optional`), the closure would be wrapped in a reabstraction
                // thunk, an allocation, for the specialized `Input`.
                try body(value)
                outcome = .fulfilled(())
            } catch {
                outcome = .rejected(error)
            }
        case .rejected(let error):
            outcome = .rejected(error)
        }
        body = { _ in }
        seal(outcome)
    }
}
