import Foundation

/// An optional handler unwrapped before it is called: the alternative always passes one, so the
/// unwrapping is no call and its `else` never runs (RevenueCat's OfferingsManager does this).
final class Dispatcher: @unchecked Sendable {
    func onMain(_ body: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in body() }
    }

    func deliver<T: Sendable>(_ completion: (@MainActor @Sendable (T) -> Void)?, value: T) {
        if let completion = completion {
            self.onMain {
                completion(value)
            }
        }
    }

    func count(completion: (@Sendable (Int) -> Void)?) {
        guard let completion else { return }
        completion(1)
    }

    func name(_ done: (@Sendable (String?, Error?) -> Void)?) {
        if let finish = done {
            finish("name", nil)
        }
    }

    /// Another condition beside the unwrapping: its `else` can still run without a call.
    func flag(enabled: Bool, completion: (@Sendable (Bool) -> Void)?) {
        if let completion, enabled {
            completion(true)
        }
    }
}
