#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension POSIX {
    /// An open file descriptor, closed when the last reference goes.
    ///
    /// A class, so the replica can keep its snapshot and journal open between commands:
    /// holding them open is what makes their inode numbers a reliable identity.
    final class OpenFile {
        let descriptor: Int32

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        deinit {
            _ = close(descriptor)
        }

        /// Opens `path` with `flags` (`O_CLOEXEC` is added); returns `nil` if it does not
        /// exist.
        static func open(atPath path: String, flags: Int32) throws(Failure) -> OpenFile? {
            let descriptor = openDescriptor(atPath: path, flags: flags)
            guard descriptor >= 0 else {
                let code = errno
                if isMissing(code) { return nil }
                throw Failure(errno: code)
            }
            return OpenFile(descriptor: descriptor)
        }

        func identity() throws(Failure) -> Identity {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw Failure(errno: errno) }
            return Identity(status)
        }

        /// Fails unless this is a regular file, so a directory in the data file's place is
        /// reported clearly rather than as a read error.
        func requireRegularFile() throws(Failure) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw Failure(errno: errno) }
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw Failure(reason: status.st_mode & S_IFMT == S_IFDIR ? "is a directory" : "not a regular file")
            }
        }

        /// Everything from `offset` to the end of the file.
        ///
        /// Reads straight into the result, sized by the file's length (and on, in pieces, if
        /// the file grew meanwhile): a refresh or an append reads a few bytes after every line,
        /// and zeroing a 64 KiB scratch buffer each time cost more than the read.
        func read(from offset: Int) throws(Failure) -> [UInt8] {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw Failure(errno: errno) }
            var bytes: [UInt8] = []
            var position = offset
            // One byte over the length, so a file that did not grow ends the first piece short.
            var pieceSize = max(Int(status.st_size) - offset, 0) + 1
            while true {
                var count = 0
                var code: Int32 = 0
                let piece = [UInt8](unsafeUninitializedCapacity: pieceSize) { buffer, initialized in
                    count = retryingOnInterrupt { pread(descriptor, buffer.baseAddress, buffer.count, off_t(position)) }
                    code = errno
                    initialized = max(count, 0)
                }
                guard count >= 0 else { throw Failure(errno: code) }
                if bytes.isEmpty {
                    bytes = piece
                } else {
                    bytes += piece
                }
                if count == 0 { return bytes }
                position += count
                pieceSize = max(pieceSize, 64 * 1024)
            }
        }

        func write(_ bytes: [UInt8], at offset: Int) throws(Failure) {
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { raw in
                    retryingOnInterrupt { pwrite(descriptor, raw.baseAddress! + written, raw.count - written, off_t(offset + written)) }
                }
                guard count > 0 else { throw Failure(errno: count < 0 ? errno : EIO) }
                written += count
            }
        }

        func truncate(to length: Int) throws(Failure) {
            guard retryingOnInterrupt({ ftruncate(descriptor, off_t(length)) }) == 0 else { throw Failure(errno: errno) }
        }

        func synchronize() throws(Failure) {
            guard fsync(descriptor) == 0 else { throw Failure(errno: errno) }
        }
    }
}
