import Foundation

// Handles on work in flight. `cancel()` lives on the protocol; the concrete tasks only conform,
// some of them in an extension in another file (Networking.swift).

protocol Cancellable: Sendable {
    func cancel()
}

/// A request in flight, like `URLSessionDataTask` behind a protocol.
protocol RequestTask: Cancellable {
    var identifier: Int { get }
}

final class DataTask: RequestTask {
    let identifier: Int
    private let cancelled = Protected(false)

    init(identifier: Int) {
        self.identifier = identifier
    }

    func cancel() {
        cancelled.write { $0 = true }
    }

    var isCancelled: Bool {
        cancelled.read { $0 }
    }
}

/// An image download, cancellable through `ImageTask`'s conformance.
final class ImageTask: @unchecked Sendable {
    let url: URL
    private(set) var isCancelled = false

    init(url: URL) {
        self.url = url
    }

    func stop() {
        isCancelled = true
    }
}
