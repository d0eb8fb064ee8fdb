import Foundation

final class Analytics: Sendable {
    func flush(completionHandler: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async {
            completionHandler()
        }
    }
}
