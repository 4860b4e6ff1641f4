import Foundation

/// A process's memory, as /proc/`pid`/status reports it.
enum ProcessMemory {
    /// A field of /proc/`process`/status given in kB, in bytes; 0 where
    /// there is none.
    static func statusBytes(_ field: String, process: String = "self") -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1_024 }
        }
        return 0
    }

    /// Samples `fields` of /proc/`process`/status every 50 ms until the
    /// task is cancelled; its value is each field's peak, in bytes, in the
    /// order of `fields`.
    static func peaks(of fields: [String], process: String = "self") -> Task<[Int], Never> {
        Task {
            var peaks = [Int](repeating: 0, count: fields.count)
            while !Task.isCancelled {
                for (position, field) in fields.enumerated() {
                    peaks[position] = max(peaks[position], statusBytes(field, process: process))
                }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return peaks
        }
    }
}
