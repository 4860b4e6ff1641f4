import Foundation

/// Where commands write: standard output and error, or a buffer in tests.
public final class CLIOutput: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var buffer: String?

    /// Writes to the process's standard output and error.
    public static let standard = CLIOutput(capturing: false)

    /// The output commands of this task write to.
    @TaskLocal public static var current: CLIOutput = .standard

    /// An output that keeps what is written (tests).
    public init(capturing: Bool = true) {
        buffer = capturing ? "" : nil
    }

    /// What was written, when capturing.
    public var captured: String {
        lock.lock()
        defer { lock.unlock() }
        return buffer ?? ""
    }

    /// Writes a line of data.
    func line(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        if buffer != nil {
            buffer! += text + "\n"
        } else {
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
    }

    /// Writes bytes of data as they are (lines that end in their newline).
    func write(_ bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        if buffer != nil {
            buffer! += String(decoding: bytes, as: UTF8.self)
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
    }

    /// Writes a progress or status message to standard error (not captured).
    func status(_ text: String) {
        guard buffer == nil else { return }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
