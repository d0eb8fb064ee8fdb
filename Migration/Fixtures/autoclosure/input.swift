import Foundation

final class Logger: Sendable {
    func log(_ message: @autoclosure @Sendable () -> String, completion: @escaping @Sendable (Error?) -> Void) {
        print(message())
        completion(nil)
    }
}
