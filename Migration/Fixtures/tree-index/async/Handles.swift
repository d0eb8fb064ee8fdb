import Foundation

/// `cancel()` is declared here; `DataRequest` only inherits it.
protocol CancellableRequest: Sendable {
    func cancel()
}

protocol DataRequest: CancellableRequest {}

final class ItemRequest: DataRequest {
    func cancel() {}
}
