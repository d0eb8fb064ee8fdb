import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

/// An optional handler unwrapped before it is called: the alternative always passes one, so the
/// unwrapping is no call and its `else` never runs (RevenueCat's OfferingsManager does this).
final class Dispatcher: @unchecked Sendable {
    func onMain(_ body: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in body() }
    }

    @available(*, renamed: "deliver(value:)")
    func deliver<T: Sendable>(_ completion: (@MainActor @Sendable (T) -> Void)?, value: T) {
        if let completion = completion {
            self.onMain {
                completion(value)
            }
        }
    }

    /// Async alternative to `deliver(_:value:)`, added by vow-migrate.
    nonisolated(nonsending) func deliver<T: Sendable>(value: T) async -> T {
        await withCheckedContinuation { continuation in
            deliver({ value in
                continuation.resume(returning: value)
            }, value: value)
        }
    }

    @available(*, renamed: "count()")
    func count(completion: (@Sendable (Int) -> Void)?) {
        guard let completion else { return }
        completion(1)
    }

    /// Async alternative to `count(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func count() async -> Int {
        await withCheckedContinuation { continuation in
            count { value in
                continuation.resume(returning: value)
            }
        }
    }

    @available(*, renamed: "name()")
    func name(_ done: (@Sendable (String?, Error?) -> Void)?) {
        if let finish = done {
            finish("name", nil)
        }
    }

    /// Async alternative to `name(_:)`, added by vow-migrate.
    nonisolated(nonsending) func name() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            name { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "name(_:)"))
                }
            }
        }
    }

    /// Another condition beside the unwrapping: its `else` can still run without a call.
    @available(*, renamed: "flag(enabled:)")
    func flag(enabled: Bool, completion: (@Sendable (Bool) -> Void)?) {
        if let completion, enabled {
            completion(true)
        }
    }

    /// Async alternative to `flag(enabled:completion:)`, added by vow-migrate.
    /// Like the original, which ends without calling its handler on some path, it answers nothing there: the awaiting task stays suspended.
    nonisolated(nonsending) func flag(enabled: Bool) async -> Bool {
        await withUnsafeContinuation { continuation in
            flag(enabled: enabled) { value in
                continuation.resume(returning: value)
            }
        }
    }
}
