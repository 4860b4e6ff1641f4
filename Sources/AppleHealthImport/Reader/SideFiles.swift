import Foundation
import ZIPFoundation

/// The files an export keeps beside its XML — `workout-routes/*.gpx`,
/// `electrocardiograms/*.csv`, `clinical-records/*.json` — read from the
/// same zip or folder, whole (each is small), bounded in size.
///
/// ```swift
/// let files = SideFiles(source)
/// let gpx = try files.read("/workout-routes/route_2025-09-16_6.15pm.gpx")   // nil when the zip lacks it
/// ```
final class SideFiles: @unchecked Sendable {
    // @unchecked: used by one import task at a time; the archive is opened
    // once, lazily, and only read.

    /// The most bytes one side file may hold: an hour's route is about
    /// 1 MB of GPX, an ECG about 100 KB.
    static let maximumSize = 64 << 20

    private let source: ExportSource
    private var archive: Archive?

    init(_ source: ExportSource) {
        self.source = source
    }

    /// The folder of the export's XML: side paths are relative to it.
    private var base: String {
        switch source {
        case .file(let url, _): url.deletingLastPathComponent().path
        case .zipEntry(_, let path, _): path.split(separator: "/").dropLast().joined(separator: "/")
        }
    }

    /// A side path (`/workout-routes/x.gpx`) made safe: no `..`, no
    /// absolute escape; `nil` for a path that would leave the export.
    static func relative(_ path: String) -> String? {
        let parts = path.split(separator: "/").filter { !$0.isEmpty && $0 != "." }
        guard !parts.isEmpty, !parts.contains(".."), !path.contains("\0") else { return nil }
        return parts.joined(separator: "/")
    }

    /// The bytes of the side file at `path`; `nil` when the export has no
    /// such file.
    ///
    /// - Throws: ``ImportError`` when the file is larger than
    ///   ``maximumSize`` or cannot be read.
    func read(_ path: String) throws(ImportError) -> [UInt8]? {
        guard let relative = Self.relative(path) else { return nil }
        switch source {
        case .file(let url, _):
            let file = url.deletingLastPathComponent().appendingPathComponent(relative)
            guard let size = FileBytes.size(of: file) else { return nil }
            guard size <= Self.maximumSize else { throw Self.tooLarge(relative) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(size)
            try FileBytes.read(file) { chunk throws(ImportError) in
                guard bytes.count + chunk.count <= Self.maximumSize else { throw Self.tooLarge(relative) }
                bytes.append(contentsOf: chunk)
                return true
            }
            return bytes
        case .zipEntry(let url, _, _):
            let archive = try openArchive(url)
            let full = base.isEmpty ? relative : base + "/" + relative
            guard let entry = archive[full] ?? archive[relative] else { return nil }
            guard entry.uncompressedSize <= UInt64(Self.maximumSize) else { throw Self.tooLarge(relative) }
            var bytes: [UInt8] = []
            do {
                try ZipReading.stream(entry, in: archive) { chunk throws(ImportError) in
                    bytes.append(contentsOf: chunk)
                    return true
                }
            } catch {
                throw error.inEntry(entry.path)
            }
            return bytes
        }
    }

    /// The side files whose relative path starts with `folder/` (such as
    /// `electrocardiograms`), in name order.
    func list(_ folder: String) throws(ImportError) -> [String] {
        switch source {
        case .file(let url, _):
            let directory = url.deletingLastPathComponent().appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { folder + "/" + $0 }
        case .zipEntry(let url, _, _):
            let archive = try openArchive(url)
            let prefix = (base.isEmpty ? "" : base + "/") + folder + "/"
            var found: [String] = []
            for entry in archive where entry.type == .file && entry.path.hasPrefix(prefix) {
                let name = entry.path.dropFirst(prefix.count)
                if !name.isEmpty, !name.contains("/"), !name.hasPrefix("._") { found.append(folder + "/" + name) }
            }
            return found.sorted()
        }
    }

    private func openArchive(_ url: URL) throws(ImportError) -> Archive {
        if let archive { return archive }
        let opened = try ZipReading.open(url)
        archive = opened
        return opened
    }

    private static func tooLarge(_ path: String) -> ImportError {
        ImportError(
            .tooLarge,
            "the export's file \(path.prefix(200)) is larger than \(maximumSize >> 20) MB, which no export's is"
        )
    }
}
