import AnchorageLog
import Testing

@testable import AnchorageService

@Suite("Keys: a data key's versions")
struct KeyVersionTests {
    @Test("the next version follows the highest; past 65,535 a typed error, not an overflow")
    func nextVersion() throws {
        let keyID = KeyID()
        #expect(try StoreKeyring.nextVersion(after: [], of: keyID) == 1)
        #expect(try StoreKeyring.nextVersion(after: [3, 1, 2], of: keyID) == 4)
        #expect(try StoreKeyring.nextVersion(after: [UInt16.max - 1], of: keyID) == UInt16.max)
        #expect {
            try StoreKeyring.nextVersion(after: [1, UInt16.max], of: keyID)
        } throws: { error in
            (error as? ServiceError)?.code == .invalidArgument
                && (error as? ServiceError)?.message.contains("last version") == true
        }
    }
}
