import Foundation
import Vow

final class Logger: Sendable {
    func log(_ message: @autoclosure @Sendable () -> String, completion: @escaping @Sendable (Error?) -> Void) {
        print(message())
        completion(nil)
    }

    /// Promise-based alternative to `log(_:completion:)`, added by vow-migrate.
    func log(_ message: @autoclosure @Sendable () -> String) -> Promise<Void> {
        Promise { seal in
            log(message()) { error in
                seal.resolve(error)
            }
        }
    }
}
