#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if !canImport(Darwin)
/// glibc's `malloc_usable_size`, declared in <malloc.h>, which the Glibc module does not export.
@_silgen_name("malloc_usable_size")
func malloc_usable_size(_ pointer: UnsafeMutableRawPointer?) -> Int
#endif

/// What the allocator really set aside for `object` (its size class, without the chunk header):
/// the memory row of the benchmark suite and of `VowInstructionCounts sizes`.
public func heapBytes(of object: AnyObject) -> Int {
    let address = Unmanaged.passUnretained(object).toOpaque()
    #if canImport(Darwin)
    return malloc_size(address)
    #else
    return malloc_usable_size(address)
    #endif
}
