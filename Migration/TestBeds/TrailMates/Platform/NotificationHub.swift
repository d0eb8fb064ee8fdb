import Dispatch
import Foundation

/// A stand-in for NotificationCenter's block observers: `post` delivers to each observer's block
/// on the queue it asked for (the main queue here, as apps ask), or on the poster's queue.
final class NotificationHub: @unchecked Sendable {
    static let `default` = NotificationHub()

    final class Observer: @unchecked Sendable {
        fileprivate let name: Notification.Name
        fileprivate let block: @Sendable ([String: String]) -> Void
        fileprivate let onMainQueue: Bool

        fileprivate init(name: Notification.Name, onMainQueue: Bool, block: @escaping @Sendable ([String: String]) -> Void) {
            self.name = name
            self.onMainQueue = onMainQueue
            self.block = block
        }
    }

    private let lock = NSLock()
    private var observers: [Observer] = []

    @discardableResult
    func addObserver(forName name: Notification.Name, onMainQueue: Bool = true, using block: @escaping @Sendable ([String: String]) -> Void) -> Observer {
        let observer = Observer(name: name, onMainQueue: onMainQueue, block: block)
        lock.lock(); observers.append(observer); lock.unlock()
        return observer
    }

    func removeObserver(_ observer: Observer) {
        lock.lock(); observers.removeAll { $0 === observer }; lock.unlock()
    }

    func post(name: Notification.Name, userInfo: [String: String] = [:]) {
        lock.lock(); let receivers = observers.filter { $0.name == name }; lock.unlock()
        for observer in receivers {
            if observer.onMainQueue && DispatchQueue.getSpecific(key: mainQueueKey) == nil {
                DispatchQueue.main.async { observer.block(userInfo) }
            } else {
                observer.block(userInfo)
            }
        }
    }

    /// Between scenarios: a fresh app, without the observers of the last one.
    func removeAll() {
        lock.lock(); observers = []; lock.unlock()
    }
}
