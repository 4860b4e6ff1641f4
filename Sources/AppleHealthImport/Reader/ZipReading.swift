import Foundation
import ZIPFoundation

/// An export.zip read with ZIPFoundation: entries streamed in chunks,
/// never extracted to disk, and refused when they inflate like a zip bomb.
enum ZipReading {
    /// The size of each inflated chunk.
    static let chunkSize = 1 << 20

    /// The archive at `url`, for reading.
    static func open(_ url: URL) throws(ImportError) -> Archive {
        do {
            return try Archive(url: url, accessMode: .read)
        } catch {
            throw ImportError(
                .unreadable,
                "\(url.lastPathComponent) is not a zip that can be read (\(error)); if the download was cut short, "
                    + "export or copy it again"
            )
        }
    }

    /// Up to `length` bytes from the start of `entry`.
    static func prefix(of entry: Entry, in archive: Archive, length: Int) throws(ImportError) -> [UInt8] {
        var result: [UInt8] = []
        do {
            try stream(entry, in: archive, checkSum: false) { chunk throws(ImportError) in
                result.append(contentsOf: chunk.prefix(length - result.count))
                return result.count < length
            }
        } catch {
            throw error.inEntry(entry.path)
        }
        return result
    }

    /// Inflates `entry`, handing each chunk to `body` until it returns
    /// `false`; checks the entry's declared sizes and its checksum.
    static func stream(
        _ entry: Entry,
        in archive: Archive,
        checkSum: Bool = true,
        _ body: (UnsafeRawBufferPointer) throws(ImportError) -> Bool
    ) throws(ImportError) {
        let declared = entry.uncompressedSize
        if entry.isCompressed, declared > ExportSource.inflationLimit * max(entry.compressedSize, 1) {
            throw ImportError(
                .tooLarge,
                "the zip entry would inflate to \(declared / max(entry.compressedSize, 1)) times its size, which "
                    + "no export does: it looks like a zip bomb, and was not read"
            )
        }
        /// Thrown from the consumer to end the inflation early.
        struct Stop: Error {}
        var inflated: UInt64 = 0
        var failure: ImportError?
        do {
            let checksum = try archive.extract(entry, bufferSize: chunkSize, skipCRC32: !checkSum) { data in
                inflated += UInt64(data.count)
                guard inflated <= declared else {
                    failure = ImportError(
                        .tooLarge,
                        "the zip entry inflates beyond the size it declares: the zip is damaged or forged"
                    )
                    throw Stop()
                }
                let goOn = try data.withUnsafeBytes { (chunk) throws(ImportError) -> Bool in
                    do throws(ImportError) {
                        return try body(chunk)
                    } catch {
                        failure = error
                        throw error
                    }
                }
                if !goOn { throw Stop() }
            }
            if checkSum, checksum != entry.checksum {
                throw ImportError(.malformed, "the zip entry's checksum does not match its data: the zip is damaged")
            }
        } catch let error as ImportError {
            throw failure ?? error
        } catch is Stop {
            if let failure { throw failure }
        } catch {
            if let failure { throw failure }
            throw ImportError(.malformed, "the zip entry cannot be inflated (\(error)): the zip is damaged")
        }
    }
}
