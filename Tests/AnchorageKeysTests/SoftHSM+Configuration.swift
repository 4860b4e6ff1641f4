import AnchorageKeys
import AnchorageTesting

extension SoftHSM {
    /// A provider configuration for `token`.
    static func configuration(token: String, createsKey: Bool = true) -> PKCS11Provider.Configuration {
        var configuration = PKCS11Provider.Configuration(module: module, token: token, pinFile: pinFile)
        configuration.createsKey = createsKey
        return configuration
    }
}
