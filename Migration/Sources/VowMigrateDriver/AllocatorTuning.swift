#if canImport(Glibc)
import Glibc
#endif

/// How the process's allocator is set up for large files.
public enum AllocatorTuning {
    /// glibc's malloc serves a large allocation with its own mapping, but raises the size that
    /// takes to that of each mapped block freed (up to 32 MB): once a large file's first
    /// file-sized buffer is freed, the next ones (each masked piece, the parser's copy of it, the
    /// output, the diff) come from the heap, where memory freed stays resident. With a fixed
    /// threshold each of them is mapped apart and handed back when freed: the peak resident
    /// memory of a 16.6 MB file in `--diff` went from 397 MB to 329 MB. Elsewhere, nothing.
    public static func mapLargeBlocksApart() {
        #if canImport(Glibc)
        // `mallopt` is declared in <malloc.h>, which Swift's Glibc module leaves out: looked up
        // by name (RTLD_DEFAULT is a null handle), with M_MMAP_THRESHOLD's value.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mmapThreshold: Int32 = -3
        guard let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(mallopt, to: Mallopt.self)(mmapThreshold, 256 * 1024)
        #endif
    }

    /// Hands the heap's free pages back to the system. After a large file's rewrite, the pieces'
    /// trees and masked copies freed stay resident, under the output, the diff and the next file
    /// made after them: returned, the run's peak is what it holds, not what it held.
    public static func releaseFreeMemory() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(trim, to: MallocTrim.self)(0)
        #endif
    }
}
