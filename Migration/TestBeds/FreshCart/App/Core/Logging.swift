import Foundation
import PromiseKit

/// Analytics events; the debug build also records them so the trace shows them.
final class Analytics: @unchecked Sendable {
    static let shared = Analytics()

    func track(_ event: String) {
        #if DEBUG
        Effects.shared.record("analytics: \(event)")
        #endif
    }

    /// Sends an event to the backend and never fails: analytics must not break a flow.
    func send(_ event: String) -> Guarantee<Void> {
        return APIClient.shared.perform(.registerDevice, body: "event=\(event)")
            .recover { _ in Guarantee.value(()) }
    }
}

#if DEBUG
/// Where the debug build sends chains that end in `cauterize()`.
func installLogging() {
    conf.logHandler = { event in
        switch event {
        case .cauterized(let error):
            Effects.shared.record("cauterized: \(describe(error))")
        default:
            break
        }
    }
}
#else
func installLogging() {}
#endif
