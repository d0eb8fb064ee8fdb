// Hidden prelude for code blocks: a transfer API that can be stopped.
import Dispatch

final class Transfer: Sendable {
    init(_ name: String, completion: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: completion)
    }

    func stop() {}
}
