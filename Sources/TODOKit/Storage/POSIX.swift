#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the system calls the store needs. Foundation's file APIs don't expose
/// `fsync` of a directory, `O_EXCL` creation, `pwrite`, `ftruncate` or `flock`, and they report
/// failures as `CocoaError`s whose wording varies between platforms; calling POSIX directly
/// gives exact control and one-line `strerror` messages.
enum POSIX {
    struct Failure: Error {
        var reason: String
        var code: Int32?

        init(errno code: Int32) {
            reason = String(cString: strerror(code))
            self.code = code
        }

        init(reason: String) {
            self.reason = reason
        }
    }

    /// What identifies one version of a file: which file it is, and its size and modification
    /// time. While a process keeps a file open its inode can't be reused, so an unchanged
    /// device and inode prove the path still names the file it opened.
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modificationSeconds: Int
        var modificationNanoseconds: Int

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int(status.st_size)
            #if canImport(Darwin)
            modificationSeconds = Int(status.st_mtimespec.tv_sec)
            modificationNanoseconds = Int(status.st_mtimespec.tv_nsec)
            #else
            modificationSeconds = Int(status.st_mtim.tv_sec)
            modificationNanoseconds = Int(status.st_mtim.tv_nsec)
            #endif
        }

        /// Whether both name the same file, whatever its size or time.
        func isSameFile(as other: Identity) -> Bool {
            device == other.device && inode == other.inode
        }
    }

    /// The identity of the file at `path`, or `nil` if there is none.
    static func identity(ofPath path: String) throws(Failure) -> Identity? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            if isMissing(code) { return nil }
            throw Failure(errno: code)
        }
        return Identity(status)
    }

    /// Creates `path`, which must not exist, writes `bytes`, flushes them to the disk and
    /// returns the file, still open.
    ///
    /// `O_EXCL` makes sure two processes never share one temporary file.
    static func createFile(atPath path: String, bytes: [UInt8], permissions: mode_t) throws(Failure) -> OpenFile {
        let descriptor = openDescriptor(atPath: path, flags: O_RDWR | O_CREAT | O_EXCL, permissions: permissions)
        guard descriptor >= 0 else { throw Failure(errno: errno) }
        let file = OpenFile(descriptor: descriptor)
        try file.write(bytes, at: 0)
        // Without fsync the rename can reach the disk before the data, and a power cut would
        // leave a complete-looking but empty file in place of the old list.
        try file.synchronize()
        return file
    }

    /// Whether `code` says there is no file at a path: none by that name, or a regular file
    /// where one of its directories should be.
    static func isMissing(_ code: Int32) -> Bool {
        code == ENOENT || code == ENOTDIR
    }

    /// The permission bits of an existing file, so a save keeps whatever the user chose.
    static func permissions(ofFileAtPath path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o7777
    }

    static func renameFile(atPath source: String, to destination: String) throws(Failure) {
        guard rename(source, destination) == 0 else { throw Failure(errno: errno) }
    }

    static func removeFile(atPath path: String) {
        _ = unlink(path)
    }

    /// Flushes a directory so that a rename inside it survives a power cut. Best effort: some
    /// file systems refuse `fsync` on directories, and the rename itself already happened.
    static func synchronizeDirectory(atPath path: String) {
        let descriptor = openDescriptor(atPath: path, flags: O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    /// `dup(2)` that keeps close-on-exec, as `open` sets it here: a plain `dup` clears it, and a
    /// child process started while the copy is open would inherit the lock's open file
    /// description and hold the lock until it exits (seen as "locked by another process" in
    /// tests that start `todo` processes in parallel).
    static func duplicate(_ descriptor: Int32) -> Int32 {
        fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
    }

    /// `open(2)` with `O_CLOEXEC`, so no child process inherits a descriptor (or a lock).
    static func openDescriptor(atPath path: String, flags: Int32, permissions: mode_t = 0) -> Int32 {
        retryingOnInterrupt { open(path, flags | O_CLOEXEC, permissions) }
    }

    static func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
