#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#elseif os(Windows)
import WinSDK
#endif

/// Which thread is running, as a comparable value.
///
/// `CancellationTokenRegistration.dispose()` waits for a handler that is running on another
/// thread but must not wait for one running on its own thread (a handler disposing itself would
/// deadlock), so the cancelling thread is recorded and compared with this.
struct ThreadIdentity: Equatable, Sendable {
    private let rawValue: UInt

    /// The calling thread. Valid for comparison while that thread lives (identities are reused
    /// after a thread exits, which does not matter here: the cancelling thread is alive while it
    /// runs handlers).
    static var current: ThreadIdentity {
        #if os(Windows)
        ThreadIdentity(rawValue: UInt(GetCurrentThreadId()))
        #elseif canImport(Glibc)
        ThreadIdentity(rawValue: UInt(pthread_self()))
        #else
        ThreadIdentity(rawValue: UInt(bitPattern: pthread_self()))
        #endif
    }
}
