import Foundation
import PromiseKit

/// Settings that differ between debug and release builds.
enum Environment {
    #if DEBUG
    static let name = "staging"
    static let trackingInterval = 0.01
    static let showsDiagnostics = true
    #else
    static let name = "production"
    static let trackingInterval = 5.0
    static let showsDiagnostics = false
    #endif

    /// Configures PromiseKit for the app once, at launch.
    static func configure() {
        installLogging()
    }
}

#if DEBUG
/// A diagnostics panel only debug builds have: checks the backend answers the basics.
enum Diagnostics {
    static func run() -> Promise<String> {
        let checks: [Promise<Void>] = [
            APIClient.shared.perform(.stores),
            APIClient.shared.perform(.banner),
        ]
        return when(fulfilled: checks).map { "backend ok (\(Environment.name))" }
            .recover { error -> Guarantee<String> in
                Guarantee.value("backend problem: \(describe(error))")
            }.map { $0 }
            .asPromise()
    }
}

extension Guarantee {
    /// The guarantee seen as a promise, for chains that end in `catch`.
    func asPromise() -> Promise<T> {
        Promise(self)
    }
}
#endif
