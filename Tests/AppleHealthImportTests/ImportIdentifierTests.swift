import Anchorage
import Foundation
import Testing

@testable import AppleHealthImport

/// The identifiers the importer derives from records' content are part of
/// every store that imported an export: a later version that derived other
/// ones would import the same file again as new objects. These are the
/// identifiers every version since records got time-prefixed ones gave.
@Suite("Import: identifiers stay those earlier versions derived")
struct ImportIdentifierTests {
    @Test("iOS 8 records (attribute names with spaces mended) and a recent export keep their identifiers")
    func identifiersAreStable() async throws {
        let expected: [String: [String]] = [
            "export-ios8.xml": [
                "01435E22-DE20-8268-B415-AFBEF5437F83", "01435E33-58E0-831E-BD13-CBE80FC2627A",
                "014362F5-EA00-8E12-B211-C3364D058B3D", "014C3905-7040-846D-A4DC-3BEB22CBBF39",
            ],
            "export-small.xml": [
                "01900FF7-8C80-856E-97AA-2B25DD00160C", "01901042-4D38-839E-A1CD-6473DAB50534",
                "01901045-5E60-85B9-9E47-2ED81AB65A94", "01901049-F240-8442-BE72-68E55979271D",
                "0190104E-8620-89DD-9F17-D0B57B5D7D1A", "01901065-6980-8331-AB29-E11AFEE2DD6B",
                "01901065-6980-87F2-BC49-C5EEF96EECE4", "01901253-CC00-80D6-B82C-00CE3CC0E0FE",
            ],
        ]
        for (file, identifiers) in expected {
            try await withImportStore { store in
                _ = try await HealthExportImporter(store: store, batchSize: 4).importExport(at: fixtureFile(file))
                var found: [String] = []
                for type in [HKQuantityType(.stepCount), HKQuantityType(.heartRate), HKQuantityType(.bodyMass)] {
                    found += try await samples(store, type).map(\.uuid.uuidString)
                }
                #expect(found.sorted() == identifiers.sorted(), "\(file)")
            }
        }
    }
}
