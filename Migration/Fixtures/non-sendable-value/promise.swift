import Foundation
import Vow

/// A public enum is never inferred `Sendable` (and this one could not be): a promise cannot carry
/// it, so only the async form gets an alternative.
public enum Decision {
    case retry(userInfo: Any?)
    case stop
}

/// A class is never inferred `Sendable` either.
public class Page {
    public var items: [String] = []
}

/// Declared `Sendable` in an extension elsewhere in the tree: fine for both forms.
public struct Marker {
    public let text: String
}

extension Marker: Sendable {}

public protocol Strategy: Sendable {
    func decide(attempt: Int, decisionHandler: @escaping @Sendable (Decision) -> Void)
}

public final class Loader: Sendable {
    public func page(number: Int, completion: @escaping (Page?, Error?) -> Void) {
        completion(Page(), nil)
    }

    public func marker(completion: @escaping @Sendable (Swift.Result<Marker, Error>) -> Void) {
        completion(.success(Marker(text: "m")))
    }

    /// Promise-based alternative to `marker(completion:)`, added by vow-migrate.
    public func marker() -> Promise<Marker> {
        Promise { seal in
            marker { result in
                seal.resolve(result)
            }
        }
    }
}
