public import AnchorageLog
import Crypto
public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A key provider that keeps its wrapping keys in a file: the embedded
/// default, so that a node seals with no set-up.
///
/// The file is created on first use, readable and writable by its owner
/// only (mode 0600); one that others can read is refused. Each line holds
/// one wrapping key (32 random bytes) with its id and state; the newest
/// active one wraps, every one present unwraps. Whoever reads the file
/// reads every data key the node's registry keeps wrapped: keep it on the
/// node's own disk, out of store backups, and back it up apart from them.
///
/// ```swift
/// let provider = try KeyFileProvider(url: URL(filePath: "/var/lib/anchorage/wrapping.keys"))
/// let wrapped = try await provider.wrap(DataKey.generate())
/// ```
public final class KeyFileProvider: KeyProvider {
    /// The file.
    public let url: URL
    private let keys: Mutex<[WrappingKeyLine]>

    /// One wrapping key of the file.
    struct WrappingKeyLine {
        var id: String
        var retired: Bool
        var created: Int64
        var key: SymmetricKey
    }

    public var name: String { "key file \(url.path)" }

    /// Opens the key file at `url`, creating it (and its directory) with
    /// one new wrapping key when it does not exist.
    ///
    /// - Throws: ``KeyError`` `invalidKeyFile` for a file others can read,
    ///   that is not a regular file, or whose lines are not as written here.
    public init(url: URL) throws(KeyError) {
        self.url = url
        let lines = try Self.load(url: url, creating: true)
        keys = Mutex(lines)
    }

    public func currentWrappingKeyID() async throws(KeyError) -> String {
        try current().id
    }

    public func wrap(_ key: DataKey) async throws(KeyError) -> WrappedKey {
        let wrapping = try current()
        let associated = WrappedKey.associatedData(keyID: key.id, version: key.version, wrappingKeyID: wrapping.id)
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try key.material.withUnsafeBytes { material in
                try AES.GCM.seal(Array(material), using: wrapping.key, authenticating: associated)
            }
        } catch {
            throw KeyError(.invalidArgument, "the data key \(key.id) could not be wrapped: \(error)")
        }
        return WrappedKey(
            keyID: key.id,
            version: key.version,
            wrappingKeyID: wrapping.id,
            bytes: Array(sealed.combined!)
        )
    }

    public func unwrap(_ wrapped: WrappedKey) async throws(KeyError) -> DataKey {
        let wrapping = try wrappingKey(id: wrapped.wrappingKeyID)
        let material: [UInt8]
        do {
            let box = try AES.GCM.SealedBox(combined: wrapped.bytes)
            material = Array(try AES.GCM.open(box, using: wrapping, authenticating: wrapped.associatedData))
        } catch {
            throw KeyError(
                .unwrapFailed,
                "the wrapped data key \(wrapped.keyID) (version \(wrapped.version)) does not unwrap with wrapping key "
                    + "\(wrapped.wrappingKeyID) of \(url.path): it was changed, or belongs to another key"
            )
        }
        return try wrapped.dataKey(material: material)
    }

    /// Adds a new wrapping key, which wraps from now on; the previous ones
    /// are marked retired and still unwrap. Returns the new key's id.
    ///
    /// Re-wrap every data key with it (the registry's rotation), then
    /// ``destroy(retiredBefore:)`` the retired ones once no backup of the
    /// registry still needs them.
    @discardableResult
    public func rotate(now: Date = Date()) throws(KeyError) -> String {
        try keys.withLock { lines throws(KeyError) in
            // Another process (the CLI beside a node) may have rotated.
            lines = try Self.load(url: url, creating: false)
            for index in lines.indices { lines[index].retired = true }
            let line = Self.newLine(now: now)
            lines.append(line)
            try Self.write(lines, to: url)
            return line.id
        }
    }

    /// Destroys every retired wrapping key created before `date`: data keys
    /// still wrapped by one can never be unwrapped again. Returns the ids
    /// destroyed.
    @discardableResult
    public func destroy(retiredBefore date: Date) throws(KeyError) -> [String] {
        try keys.withLock { lines throws(KeyError) in
            lines = try Self.load(url: url, creating: false)
            let cutoff = Int64(date.timeIntervalSince1970)
            let destroyed = lines.filter { $0.retired && $0.created < cutoff }.map(\.id)
            guard !destroyed.isEmpty else { return [] }
            lines.removeAll { $0.retired && $0.created < cutoff }
            try Self.write(lines, to: url)
            return destroyed
        }
    }

    /// The ids of the wrapping keys the file holds, and whether each is retired.
    public func wrappingKeys() -> [(id: String, retired: Bool)] {
        keys.withLock { lines in lines.map { ($0.id, $0.retired) } }
    }

    private func current() throws(KeyError) -> WrappingKeyLine {
        let found = keys.withLock { lines in lines.last { !$0.retired } }
        guard let found else {
            throw KeyError(.invalidKeyFile, "\(url.path) holds no active wrapping key; rotate to add one")
        }
        return found
    }

    /// The wrapping key `id`, reading the file again when this process does
    /// not know it (another process rotated).
    private func wrappingKey(id: String) throws(KeyError) -> SymmetricKey {
        try keys.withLock { lines throws(KeyError) in
            if let line = lines.first(where: { $0.id == id }) { return line.key }
            lines = try Self.load(url: url, creating: false)
            guard let line = lines.first(where: { $0.id == id }) else {
                throw KeyError(
                    .wrappingKeyUnavailable,
                    "\(url.path) holds no wrapping key \(id): it was destroyed after a rotation, or the data key was "
                        + "wrapped by another node's key file"
                )
            }
            return line.key
        }
    }
}

extension KeyFileProvider {
    static let header =
        "# Anchorage wrapping keys. Whoever reads this file can unwrap every data key of this node:\n"
        + "# keep it mode 0600, out of store backups, and back it up apart from them.\n"
        + "# version id state created-unix-seconds key-base64\n"

    static func newLine(now: Date) -> WrappingKeyLine {
        var id = [UInt8](repeating: 0, count: 8)
        id.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
        return WrappingKeyLine(
            id: "file-" + id.map { String(format: "%02x", $0) }.joined(),
            retired: false,
            created: Int64(now.timeIntervalSince1970),
            key: SymmetricKey(size: .bits256)
        )
    }

    /// Reads the file, creating it with one key when `creating` and absent.
    static func load(url: URL, creating: Bool) throws(KeyError) -> [WrappingKeyLine] {
        let path = url.path
        var status = stat()
        if stat(path, &status) != 0 {
            guard errno == ENOENT, creating else {
                throw KeyError(.invalidKeyFile, "\(path) cannot be read: \(String(cString: strerror(errno)))")
            }
            let line = newLine(now: Date())
            try create(url: url, lines: [line])
            return [line]
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw KeyError(.invalidKeyFile, "\(path) is not a regular file")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw KeyError(
                .invalidKeyFile,
                "\(path) can be read by its group or others (mode \(String(status.st_mode & 0o777, radix: 8))); "
                    + "it unwraps every data key of this node: chmod 600 it, and rotate if others may have read it"
            )
        }
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw KeyError(.invalidKeyFile, "\(path) cannot be read: \(error.localizedDescription)")
        }
        var lines: [WrappingKeyLine] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(separator: " ")
            guard fields.count == 5, fields[0] == "v1", fields[2] == "active" || fields[2] == "retired",
                let created = Int64(fields[3]), let bytes = Data(base64Encoded: String(fields[4])), bytes.count == 32
            else {
                throw KeyError(
                    .invalidKeyFile,
                    "\(path):\(number + 1) is not a wrapping key line (v1 ID active|retired CREATED BASE64)"
                )
            }
            lines.append(
                WrappingKeyLine(
                    id: String(fields[1]),
                    retired: fields[2] == "retired",
                    created: created,
                    key: SymmetricKey(data: bytes)
                )
            )
        }
        return lines
    }

    static func render(_ lines: [WrappingKeyLine]) -> String {
        header
            + lines.map { line in
                let key = line.key.withUnsafeBytes { Data($0).base64EncodedString() }
                return "v1 \(line.id) \(line.retired ? "retired" : "active") \(line.created) \(key)\n"
            }.joined()
    }

    /// Creates the file 0600 (and its directory 0700), failing if it exists.
    static func create(url: URL, lines: [WrappingKeyLine]) throws(KeyError) {
        let directory = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(
                atPath: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw KeyError(.invalidKeyFile, "cannot create the directory of \(url.path): \(error.localizedDescription)")
        }
        try writeNew(path: url.path, contents: render(lines))
    }

    /// Replaces the file atomically: a new file 0600 beside it, synced,
    /// renamed over it, and the directory synced.
    static func write(_ lines: [WrappingKeyLine], to url: URL) throws(KeyError) {
        let temporary = url.path + ".new"
        unlink(temporary)
        try writeNew(path: temporary, contents: render(lines))
        guard rename(temporary, url.path) == 0 else {
            throw KeyError(.invalidKeyFile, "cannot replace \(url.path): \(String(cString: strerror(errno)))")
        }
        let directory = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    private static func writeNew(path: String, contents: String) throws(KeyError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw KeyError(.invalidKeyFile, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            unlink(path)
            throw KeyError(.invalidKeyFile, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
