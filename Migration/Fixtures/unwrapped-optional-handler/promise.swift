import Foundation
import Vow

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

    /// Promise-based alternative to `deliver(_:value:)`, added by vow-migrate.
    func deliver<T: Sendable>(value: T) -> Guarantee<T> {
        Guarantee { resolve in
            deliver({ value in
                resolve(value)
            }, value: value)
        }
    }

    func count(completion: (@Sendable (Int) -> Void)?) {
        guard let completion else { return }
        completion(1)
    }

    /// Promise-based alternative to `count(completion:)`, added by vow-migrate.
    func count() -> Guarantee<Int> {
        Guarantee { resolve in
            count { value in
                resolve(value)
            }
        }
    }

    func name(_ done: (@Sendable (String?, Error?) -> Void)?) {
        if let finish = done {
            finish("name", nil)
        }
    }

    /// Promise-based alternative to `name(_:)`, added by vow-migrate.
    func name() -> Promise<String> {
        Promise { seal in
            name { value, error in
                seal.resolve(value, error)
            }
        }
    }

    /// Another condition beside the unwrapping: its `else` can still run without a call.
    func flag(enabled: Bool, completion: (@Sendable (Bool) -> Void)?) {
        if let completion, enabled {
            completion(true)
        }
    }

    /// Promise-based alternative to `flag(enabled:completion:)`, added by vow-migrate.
    /// Like the original, which ends without calling its handler on some path, it answers nothing there: the guarantee stays pending.
    func flag(enabled: Bool) -> Guarantee<Bool> {
        Guarantee(ifAbandoned: .stayPending) { resolve in
            flag(enabled: enabled) { value in
                resolve(value)
            }
        }
    }
}
