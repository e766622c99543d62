#if os(Linux)
import Glibc
#else
import Darwin
#endif

extension Platform {
    /// The address of the C function `name` in any library the process has loaded (`dlsym` over the default
    /// search order), or nil when none defines it: how the harness finds an allocator's statistics (jemalloc's
    /// `mallctl`) without linking the allocator.
    package static func loadedFunction(named name: String) -> UnsafeMutableRawPointer? {
        #if os(Linux)
        let everyLibrary = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        #else
        let everyLibrary = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #endif
        return dlsym(everyLibrary, name)
    }
}
