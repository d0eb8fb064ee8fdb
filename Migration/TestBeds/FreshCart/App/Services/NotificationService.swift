import Foundation
import PromiseKit

/// Push notifications for order updates. The permission prompt is asked once: later callers
/// get the same promise, resolved when the user answers.
final class NotificationService: @unchecked Sendable {
    static let shared = NotificationService()
    private let center: PushCenter
    private let api: APIClient
    private let lock = NSLock()
    private var permission: Promise<Bool>?

    init(center: PushCenter = .shared, api: APIClient = .shared) {
        self.center = center
        self.api = api
    }

    func forget() {
        lock.lock(); permission = nil; lock.unlock()
    }

    func requestPermission() -> Promise<Bool> {
        lock.lock()
        defer { lock.unlock() }
        if let permission {
            return permission
        }
        let (promise, resolver) = Promise<Bool>.pending()
        permission = promise
        center.requestAuthorization { granted, error in
            resolver.resolve(granted, error)
        }
        return promise
    }

    /// Asks for permission, then registers the device; a refusal is not an error.
    func enableOrderUpdates() -> Promise<Bool> {
        return requestPermission().then { granted -> Promise<Bool> in
            guard granted else { return .value(false) }
            return self.api.perform(.registerDevice).map { true }
        }
    }
}
