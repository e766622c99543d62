import CBenchPlatform
#if os(Linux)
import Glibc
#else
import Darwin
#endif

/// An open file descriptor, for the writes whose order and atomicity the results files depend on (Foundation's
/// `FileHandle` says neither where a failed write left the file nor why it failed). Not owning: `close()` it.
/// Each call is one system call, or a loop of them where a signal or a short write can cut one off.
package struct FileDescriptor: Sendable {
    /// The descriptor number.
    package let rawValue: Int32

    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Opens `path` for writing, not inherited by programs this process executes, creating it (mode 0644) when
    /// it does not exist. `truncate` empties it; `exclusive` refuses a path that exists (`isAlreadyExisting`),
    /// atomically, so that of two processes creating one name only one succeeds.
    package static func openForWriting(_ path: String, truncate: Bool, exclusive: Bool) throws(SystemError)
        -> FileDescriptor {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : 0) | (exclusive ? O_EXCL : 0)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw .last }
        return FileDescriptor(rawValue: descriptor)
    }

    /// Creates a new, empty file from `template`, a path ending in `XXXXXX` that the system fills to make it
    /// unique (`mkstemp`): the file, and its path.
    package static func makeTemporary(_ template: String) throws(SystemError) -> (file: FileDescriptor, path: String) {
        var name = Array(template.utf8CString)
        let descriptor = name.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .last }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (FileDescriptor(rawValue: descriptor), path)
    }

    /// An anonymous file in memory, inherited by programs this process executes (which read it as
    /// `/dev/fd/N`), that disappears with the last process holding it, whatever ends them. Linux only
    /// (`memfd_create`, `PlatformFeature.anonymousFiles`): elsewhere ENOSYS.
    package static func anonymousFile(named name: String) throws(SystemError) -> FileDescriptor {
        let descriptor = platform_anonymous_file(name)
        guard descriptor >= 0 else { throw .last }
        return FileDescriptor(rawValue: descriptor)
    }

    /// Writes all of `bytes` at the current offset, resuming after a signal or a short write; throws the first
    /// failure (the file then holds what was written before it).
    package func write(_ bytes: [UInt8]) throws(SystemError) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Self.writeOnce(rawValue, $0) }
            if written < 0 {
                let error = SystemError.last
                if error.isInterrupted { continue }
                throw error
            }
            rest = rest.dropFirst(written)
        }
    }

    private static func writeOnce(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if os(Linux)
        Glibc.write(descriptor, bytes.baseAddress, bytes.count)
        #else
        Darwin.write(descriptor, bytes.baseAddress, bytes.count)
        #endif
    }

    /// Moves the offset to the end of the file; the file's length, or -1.
    package func seekToEnd() -> Int64 {
        Int64(lseek(rawValue, 0, SEEK_END))
    }

    /// Cuts the file back to `length` bytes and puts the offset there.
    package func truncate(to length: Int64) throws(SystemError) {
        guard ftruncate(rawValue, off_t(length)) == 0, lseek(rawValue, off_t(length), SEEK_SET) == off_t(length)
        else { throw .last }
    }

    /// Gives the file the permission bits of the file at `path`, when there is one.
    package func copyPermissions(of path: String) {
        var info = stat()
        if stat(path, &info) == 0 { fchmod(rawValue, info.st_mode & 0o7777) }
    }

    /// Returns once the file's data is on the storage device (`fsync`).
    package func synchronize() throws(SystemError) {
        guard fsync(rawValue) == 0 else { throw .last }
    }

    /// Closes the descriptor.
    package func close() {
        #if os(Linux)
        _ = Glibc.close(rawValue)
        #else
        _ = Darwin.close(rawValue)
        #endif
    }
}

extension Platform {
    /// Renames `source` to `destination`, replacing it atomically: a reader sees the old file or the new one.
    package static func rename(_ source: String, to destination: String) throws(SystemError) {
        #if os(Linux)
        guard Glibc.rename(source, destination) == 0 else { throw .last }
        #else
        guard Darwin.rename(source, destination) == 0 else { throw .last }
        #endif
    }

    /// Removes the file at `path`; whether it did.
    @discardableResult
    package static func removeFile(_ path: String) -> Bool {
        unlink(path) == 0
    }
}
