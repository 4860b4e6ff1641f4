import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a file in large chunks with POSIX calls, each checked by one
/// helper that turns `errno` into an ``ImportError``.
enum FileBytes {
    /// The size of each read.
    static let chunkSize = 1 << 20

    /// The file's size in bytes, when it can be had.
    static func size(of url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
    }

    /// Up to `length` bytes from the start of the file.
    static func prefix(of url: URL, length: Int) throws(ImportError) -> [UInt8] {
        var result: [UInt8] = []
        try read(url, chunkSize: min(length, chunkSize)) { chunk throws(ImportError) in
            result.append(contentsOf: chunk.prefix(length - result.count))
            return result.count < length
        }
        return result
    }

    /// Reads the whole file, chunk by chunk, until `body` returns `false`.
    static func read(
        _ url: URL,
        chunkSize: Int = chunkSize,
        _ body: (UnsafeRawBufferPointer) throws(ImportError) -> Bool
    ) throws(ImportError) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        try check(descriptor, "opened", url)
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, chunkSize)
            if count < 0 && errno == EINTR { continue }
            try check(count, "read", url)
            if count == 0 { return }
            guard try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else { return }
        }
    }

    /// Throws for a POSIX call that returned -1, in words.
    private static func check<T: BinaryInteger>(_ result: T, _ verb: String, _ url: URL) throws(ImportError) {
        guard result < 0 else { return }
        let reason = String(cString: strerror(errno))
        throw ImportError(.unreadable, "the file \(url.path) cannot be \(verb): \(reason)")
    }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Darwin)
private let systemRead = Darwin.read
#endif
