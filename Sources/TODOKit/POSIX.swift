#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the system calls the store needs. Foundation's file APIs don't expose
/// `fsync` of a directory or `O_EXCL` creation, and they report failures as `CocoaError`s whose
/// wording varies between platforms; calling POSIX directly gives exact control and one-line
/// `strerror` messages.
enum POSIX {
    struct Failure: Error {
        var reason: String

        init(errno code: Int32) {
            reason = String(cString: strerror(code))
        }

        init(reason: String) {
            self.reason = reason
        }
    }

    enum ReadResult {
        case contents([UInt8])
        case missing
    }

    /// Reads a whole regular file; a missing file is a result, not an error.
    static func readFile(atPath path: String) throws(Failure) -> ReadResult {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return .missing }
            throw Failure(errno: code)
        }
        defer { _ = close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Failure(errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(reason: status.st_mode & S_IFMT == S_IFDIR ? "is a directory" : "not a regular file")
        }

        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { read(descriptor, raw.baseAddress, raw.count) }
            }
            guard count >= 0 else { throw Failure(errno: errno) }
            if count == 0 { return .contents(bytes) }
            bytes.append(contentsOf: buffer[..<count])
        }
    }

    /// Creates `path`, which must not exist, writes `bytes` and flushes them to the disk.
    ///
    /// `O_EXCL` makes sure two processes never share one temporary file.
    static func writeNewFile(atPath path: String, bytes: [UInt8], permissions: mode_t) throws(Failure) {
        let descriptor = retryingOnInterrupt { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions) }
        guard descriptor >= 0 else { throw Failure(errno: errno) }
        var closed = false
        defer { if !closed { _ = close(descriptor) } }

        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                retryingOnInterrupt { write(descriptor, raw.baseAddress! + written, raw.count - written) }
            }
            guard count > 0 else { throw Failure(errno: count < 0 ? errno : EIO) }
            written += count
        }
        // Without fsync the rename can reach the disk before the data, and a power cut would
        // leave a complete-looking but empty file in place of the old list.
        guard fsync(descriptor) == 0 else { throw Failure(errno: errno) }
        closed = true
        guard close(descriptor) == 0 else { throw Failure(errno: errno) }
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
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    private static func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
