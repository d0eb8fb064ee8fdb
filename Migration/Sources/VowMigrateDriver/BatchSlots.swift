import Foundation

/// One result slot per item of a batch processed on many threads (`concurrentPerform`): each
/// thread stores into its own position, and the batch's results are read in order once it is done.
final class BatchSlots<Element: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `storage` holds `lock`.
    private let lock = NSLock()
    private var storage: [Element?]

    init(count: Int) {
        storage = Array(repeating: nil, count: count)
    }

    func store(_ element: Element, at position: Int) {
        lock.lock()
        storage[position] = element
        lock.unlock()
    }

    /// The stored elements in batch order; positions nothing was stored at are left out.
    var stored: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return storage.compactMap { $0 }
    }
}
