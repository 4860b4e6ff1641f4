import Foundation
import ZIPFoundation

/// Where an export's XML is read from: a file, or an entry of the zip the
/// Health app gives, streamed without being extracted to disk.
///
/// ``locate(_:)`` finds the data by its content, not its name: the file is
/// called `导出.xml` on a Chinese phone, zips made on a Mac add `._` copies,
/// and `export_cda.xml` beside it is a clinical document, not the data.
enum ExportSource: Sendable {
    case file(URL, size: Int?)
    case zipEntry(archive: URL, path: String, size: Int)

    /// How much of the start of a candidate is read to recognise an export.
    static let sniffLength = 256 << 10
    /// The most an export.xml is allowed to inflate relative to its
    /// compressed size: XML compresses 10 to 30 times; a zip bomb, a
    /// thousand.
    static let inflationLimit: UInt64 = 200

    /// The bytes the source will deliver, when known.
    var totalBytes: Int? {
        switch self {
        case .file(_, let size): size
        case .zipEntry(_, _, let size): size
        }
    }

    /// A description for messages: the file, or the zip and entry.
    var name: String {
        switch self {
        case .file(let url, _): url.path
        case .zipEntry(let archive, let path, _): archive.path + ": " + path
        }
    }

    /// The export at `url`: an `export.xml` (whatever its name), an
    /// `export.zip`, or a folder such as `apple_health_export`.
    static func locate(_ url: URL) throws(ImportError) -> ExportSource {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ImportError(.unreadable, "there is no file or folder at \(url.path)")
        }
        if isDirectory.boolValue { return try locate(inFolder: url) }
        let start = try FileBytes.prefix(of: url, length: sniffLength)
        if start.starts(with: [0x50, 0x4B, 0x03, 0x04]) || start.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return try locate(inZip: url)
        }
        if Sniff(start) == .clinicalDocument {
            throw ImportError(
                .notAnExport,
                "\(url.lastPathComponent) is the export's clinical document (export_cda.xml), not its data: give "
                    + "export.xml from the same apple_health_export folder, or the whole export.zip"
            )
        }
        return .file(url, size: FileBytes.size(of: url))
    }

    /// The XML file of a folder (or of its `apple_health_export` folder)
    /// whose root is `HealthData`.
    private static func locate(inFolder folder: URL) throws(ImportError) -> ExportSource {
        let manager = FileManager.default
        var candidates: [URL] = []
        for place in [folder, folder.appendingPathComponent("apple_health_export")] {
            let names = (try? manager.contentsOfDirectory(atPath: place.path)) ?? []
            for name in names.sorted() where name.lowercased().hasSuffix(".xml") && !name.hasPrefix("._") {
                candidates.append(place.appendingPathComponent(name))
            }
        }
        for candidate in candidates {
            if let start = try? FileBytes.prefix(of: candidate, length: sniffLength), Sniff(start) == .export {
                return .file(candidate, size: FileBytes.size(of: candidate))
            }
        }
        throw ImportError(
            .notAnExport,
            "the folder \(folder.path) holds no Health export: none of its XML files (\(candidates.count)) has a "
                + "HealthData element; give the export.zip the Health app made, or its apple_health_export folder"
        )
    }

    /// The zip entry whose root is `HealthData`.
    private static func locate(inZip url: URL) throws(ImportError) -> ExportSource {
        let archive = try ZipReading.open(url)
        var seen: [String] = []
        for entry in archive where entry.type == .file {
            let path = entry.path
            let last = path.split(separator: "/").last.map(String.init) ?? path
            guard last.lowercased().hasSuffix(".xml"), !last.hasPrefix("._"), !path.hasPrefix("__MACOSX/") else {
                continue
            }
            seen.append(path)
            let start = try ZipReading.prefix(of: entry, in: archive, length: sniffLength)
            if Sniff(start) == .export {
                return .zipEntry(archive: url, path: path, size: Int(clamping: entry.uncompressedSize))
            }
        }
        let listed = seen.prefix(5).joined(separator: ", ")
        throw ImportError(
            .notAnExport,
            "the zip \(url.lastPathComponent) holds no Health export: "
                + (seen.isEmpty
                    ? "it has no XML file"
                    : "none of its XML files (\(listed)) has a HealthData element")
                + "; give the export.zip that the Health app's \"Export All Health Data\" made"
        )
    }

    /// Reads the source from the start, handing each chunk to `body`, which
    /// returns `false` to stop early.
    func read(_ body: (UnsafeRawBufferPointer) throws(ImportError) -> Bool) throws(ImportError) {
        switch self {
        case .file(let url, _):
            try FileBytes.read(url, body)
        case .zipEntry(let url, let path, _):
            let archive = try ZipReading.open(url)
            guard let entry = archive[path] else {
                throw ImportError(.unreadable, "the zip \(url.lastPathComponent) changed while it was read")
            }
            do {
                try ZipReading.stream(entry, in: archive, body)
            } catch {
                throw error.inEntry(path)
            }
        }
    }
}

/// What the start of an XML file says it is.
enum Sniff: Equatable {
    case export
    case clinicalDocument
    case other

    init(_ start: [UInt8]) {
        func contains(_ text: String) -> Bool {
            let needle = Array(text.utf8)
            guard start.count >= needle.count else { return false }
            for index in 0...(start.count - needle.count) where start[index] == needle[0] {
                if start[index..<index + needle.count].elementsEqual(needle) { return true }
            }
            return false
        }
        if contains("<HealthData") {
            self = .export
        } else if contains("<ClinicalDocument") {
            self = .clinicalDocument
        } else {
            self = .other
        }
    }
}
