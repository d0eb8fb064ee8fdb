import Foundation
import Vow

final class Analytics: Sendable {
    func flush(completionHandler: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async {
            completionHandler()
        }
    }

    /// Promise-based alternative to `flush(completionHandler:)`, added by vow-migrate.
    func flush() -> Guarantee<Void> {
        Guarantee { resolve in
            flush {
                resolve(())
            }
        }
    }
}
