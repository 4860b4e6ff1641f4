import AnchorageKeys
import ArgumentParser
import Foundation

/// Where a node's wrapping keys are — a key file, or a PKCS#11 token:
/// `serve --stores DIR --seal …`, `keys seal`.
struct KeyProviderOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The file of wrapping keys (created 0600 on first use). Default: ~/.anchorage/wrapping.keys.",
            valueName: "file"
        )
    )
    var keyFile: String?

    @Option(help: ArgumentHelp("Wrap data keys on a PKCS#11 token instead: the module's path.", valueName: "path"))
    var pkcs11Module: String?

    @Option(help: "With --pkcs11-module: the token's label.")
    var pkcs11Token: String?

    @Option(help: ArgumentHelp("With --pkcs11-module: a file holding the token's user PIN.", valueName: "file"))
    var pkcs11PinFile: String?

    @Option(help: "With --pkcs11-module: the label of the AES wrapping key on the token.")
    var pkcs11KeyLabel = "anchorage-wrapping-key"

    @Flag(help: "With --pkcs11-module: generate the wrapping key on the token when it has none (non-extractable).")
    var pkcs11CreateKey = false

    /// Whether any option names a provider.
    var namesProvider: Bool { keyFile != nil || pkcs11Module != nil }

    func validate() throws {
        if keyFile != nil, pkcs11Module != nil {
            throw ValidationError("give --key-file or --pkcs11-module, not both")
        }
        if pkcs11Module != nil, pkcs11Token == nil || pkcs11PinFile == nil {
            throw ValidationError("--pkcs11-module needs --pkcs11-token and --pkcs11-pin-file")
        }
        if pkcs11Module == nil, pkcs11Token != nil || pkcs11PinFile != nil || pkcs11CreateKey {
            throw ValidationError("--pkcs11-token, --pkcs11-pin-file and --pkcs11-create-key go with --pkcs11-module")
        }
    }

    /// The default key file: in the home directory, never in a store's.
    static var defaultKeyFile: URL {
        FileManager.default.homeDirectoryForCurrentUser.appending(path: ".anchorage/wrapping.keys")
    }

    /// The key provider the options name: the key file by default.
    func provider() async throws -> any KeyProvider {
        do {
            if let pkcs11Module, let pkcs11Token, let pkcs11PinFile {
                var configuration = PKCS11Provider.Configuration(
                    module: pkcs11Module,
                    token: pkcs11Token,
                    pinFile: URL(fileURLWithPath: pkcs11PinFile)
                )
                configuration.keyLabel = pkcs11KeyLabel
                configuration.createsKey = pkcs11CreateKey
                return try await PKCS11Provider(configuration: configuration)
            }
            return try KeyFileProvider(url: keyFile.map { URL(fileURLWithPath: $0) } ?? Self.defaultKeyFile)
        } catch {
            throw CommandFailure(description: "cannot use the wrapping keys: \(error.message)")
        }
    }
}
