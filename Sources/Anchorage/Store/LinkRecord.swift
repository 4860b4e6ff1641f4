import AnchorageModel
import Foundation
import LMDB

/// The payload of a link entry: samples joined to a container after the
/// container was saved: `add(_:to:)` for workouts (OBJ-24), and a sync
/// identifier replacement inheriting the old sample's workouts and
/// correlation (OBJ-33).
///
/// Layout: version (1) ‖ role (1) ‖ container uuid (16) ‖ count (4) ‖
/// member uuids (16 each).
struct LinkRecord: Hashable, Sendable {
    enum Role: UInt8 {
        case workout = 1
        case correlation = 2
    }

    var role: Role
    var container: UUID
    var members: [UUID]

    static let version: UInt8 = 1

    var bytes: [UInt8] {
        var bytes: [UInt8] = [Self.version, role.rawValue]
        bytes += container.indexBytes
        bytes += UInt32(members.count).bigEndianBytes
        for member in members { bytes += member.indexBytes }
        return bytes
    }

    init(role: Role, container: UUID, members: [UUID]) {
        self.role = role
        self.container = container
        self.members = members
    }

    /// Reads a payload; `nil` for bytes this version did not write.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 22, bytes[0] == Self.version, let role = Role(rawValue: bytes[1]),
            let container = UUID(indexBytes: UnsafeRawBufferPointer(rebasing: bytes[2..<18]))
        else { return nil }
        let count = Int(bytes.uint32(at: 18))
        guard bytes.count == 22 + 16 * count else { return nil }
        var members: [UUID] = []
        members.reserveCapacity(count)
        for index in 0..<count {
            let start = 22 + 16 * index
            guard let member = UUID(indexBytes: UnsafeRawBufferPointer(rebasing: bytes[start..<start + 16])) else {
                return nil
            }
            members.append(member)
        }
        self.role = role
        self.container = container
        self.members = members
    }
}
