/// Which errors `catch` and `recover` handle.
public enum CatchPolicy: Sendable {
    /// Every error, cancellations included.
    case allErrors
    /// Every error except cancellations (see `Error.isCancelled`). The default.
    case allErrorsExceptCancellation
}

extension CatchPolicy {
    @inlinable
    func handles(_ error: Error) -> Bool {
        self == .allErrors || !error.isCancelled
    }
}
