// Where Vow's errors meet Foundation's: `PMKError` as a `LocalizedError`, and Foundation's
// cancellation errors recognised the way Foundation reports them on each platform. The only file
// of the engine that imports Foundation (the lighter FoundationEssentials where it exists).
#if canImport(Darwin)
import Foundation
#elseif canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PMKError: LocalizedError {
    /// The same sentence as `debugDescription`, as in PromiseKit, so `localizedDescription` reads
    /// it too.
    public var errorDescription: String? {
        debugDescription
    }
}

extension Error {
    /// `true` for the Foundation errors PromiseKit treats as cancellations: `URLError.cancelled`
    /// (`NSURLErrorDomain`, `NSURLErrorCancelled`), `CocoaError.userCancelled`
    /// (`NSCocoaErrorDomain`, `NSUserCancelledError`), and on Apple platforms StoreKit's
    /// `SKError.paymentCancelled` (`SKErrorDomain`, 2), whether they arrive as their Swift types
    /// or as `NSError`s.
    @usableFromInline
    var isFoundationCancellation: Bool {
        #if !canImport(Darwin)
        // Outside Apple platforms `CocoaError` reports its Swift type name as its domain and 1 as
        // its code, so ask the value itself. Only a real `CocoaError`: any `NSError` converts to
        // one there, whatever its domain, and is read by domain and code below.
        if type(of: self) == CocoaError.self, let cocoaError = self as? CocoaError {
            return cocoaError.code == .userCancelled
        }
        #endif
        switch (_domain, _code) {
        case ("NSURLErrorDomain", -999), ("NSCocoaErrorDomain", 3072):
            return true
        #if os(macOS) || os(iOS) || os(tvOS)
        case ("SKErrorDomain", 2):
            return true
        #endif
        default:
            return false
        }
    }
}
