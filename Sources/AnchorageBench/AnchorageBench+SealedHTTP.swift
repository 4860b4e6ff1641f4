import AnchorageService
import Foundation

extension AnchorageBench {
    /// Saves over HTTP into a store of a multi-store node, sealed (`serve
    /// --stores --seal`, a key file) and not, alternating, each run against
    /// a new node process: wrk posts 10-sample batches from outside with 16
    /// connections. `nil` without wrk or its script.
    func sealedWrkSaves(work: URL) async throws -> [(sealed: Double, plain: Double)]? {
        guard let wrkScript, let wrk = Self.executable(named: "wrk") else {
            progress("sealed HTTP saves: skipped (wrk is not on PATH, or no --wrk-script; Scripts/bench gives both)")
            return nil
        }
        return try await eachRun { run in
            var rates = (sealed: 0.0, plain: 0.0)
            for sealed in run % 2 == 0 ? [false, true] : [true, false] {
                progress("sealed HTTP saves run \(run)/\(runs): \(sealed ? "sealed" : "unsealed"), 10 s")
                let root = work.appendingPathComponent("wrk-sealed-\(run)-\(sealed)")
                defer { try? FileManager.default.removeItem(at: root) }
                let token = try Self.benchStore(in: root)
                var arguments = ["serve", "--stores", root.path, "--port", "0"]
                if sealed { arguments += ["--seal", "--key-file", root.appendingPathComponent("wrapping.keys").path] }
                let node = try ServeProcess.start(arguments)
                defer { node.stop() }
                let rate = try Self.wrk(
                    wrk,
                    script: wrkScript,
                    url: "http://127.0.0.1:\(node.port)/v1/stores/bench/samples",
                    connections: 16,
                    token: token
                ).rate
                if sealed { rates.sealed = rate } else { rates.plain = rate }
            }
            return rates
        }
    }

    /// Creates the node's registry with store `bench` and returns an owner
    /// token; the registry is closed when this returns, before the node opens it.
    static func benchStore(in root: URL) throws -> String {
        let registry = try NodeRegistry(root: root)
        let store = try StoreName("bench")
        _ = try registry.createStore(store)
        return try registry.issueToken(TokenGrant(store: store, owner: true)).secret
    }
}
