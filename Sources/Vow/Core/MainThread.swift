#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether the calling thread is the process's main thread (for `wait()`'s warning).
var isMainThread: Bool {
    #if canImport(Darwin)
    return pthread_main_np() != 0
    #elseif os(Linux)
    // On Linux the main thread's id is the process id. glibc's `gettid` is not exported to Swift,
    // so it is looked up once; without it the warning is simply not given.
    guard let gettid = linuxGettid else { return false }
    return gettid() == getpid()
    #else
    return false
    #endif
}

#if os(Linux)
private let linuxGettid: (@convention(c) () -> pid_t)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "gettid") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) () -> pid_t).self)
}()
#endif
