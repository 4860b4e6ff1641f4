import Anchorage
import AnchorageService
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageCLI

@Suite("Command line: the stores and tokens of a multi-store node")
struct CLIStoresTests {
    @Test(
        "stores create, list and delete; tokens issue, list and revoke: what the CLI does is what the registry holds; audit verify passes"
    )
    func storesAndTokens() async throws {
        try await withTemporaryDirectory { root in
            let node = ["--stores", root.path]
            #expect(try await runCLI(["stores", "create", "alice", "bob"] + node) == "created alice\ncreated bob\n")
            let listed = try await runCLI(["stores", "list"] + node).split(separator: "\n")
            #expect(listed.map { $0.split(separator: "\t")[0] } == ["alice", "bob"])

            let secret = try await runCLI(["tokens", "issue", "--store", "alice", "--owner"] + node)
                .trimmingCharacters(in: .newlines)
            let app = try await runCLI(
                ["tokens", "issue", "--store", "alice", "--app", "com.example.dashboard", "--read", "stepCount"] + node
            ).trimmingCharacters(in: .newlines)
            let registry = try NodeRegistry(root: root)
            let owner = try #require(try registry.token(forSecret: secret))
            #expect(owner.grant == TokenGrant(store: try StoreName("alice"), owner: true))
            #expect(try registry.token(forSecret: app)?.grant.read == ["stepCount"])
            let tokens = try await runCLI(["tokens", "list", "--store", "alice"] + node)
            #expect(tokens.contains("\(owner.id)\talice\towner\n"), "\(tokens)")
            #expect(tokens.contains("alice\tapp com.example.dashboard read stepCount\n"), "\(tokens)")
            #expect(!tokens.contains(secret) && !tokens.contains(app), "secrets are shown once, at issue")

            #expect(try await runCLI(["tokens", "revoke", owner.id] + node) == "revoked \(owner.id)\n")
            #expect(try registry.token(forSecret: secret) == nil)

            // The store's directory is a store like any other.
            let store = root.appending(path: "bob").path
            let file = root.appending(path: "input.json").path
            try Data(
                #"[{"kind":"quantitySample","uuid":"6A0E5C2B-1111-4C3A-9D2E-2F6B8E0B4A11","type":"HKQuantityTypeIdentifierStepCount","quantity":{"unit":"count","value":5},"startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:05:00Z"}]"#
                    .utf8
            ).write(to: URL(filePath: file))
            _ = try await runCLI(["save", "--store", store, "--file", file])
            #expect(try await runCLI(["audit", "verify", "--store", store]).contains("agree with a replay"))

            #expect(try await runCLI(["stores", "delete", "alice", "--yes"] + node) == "deleted alice\n")
            #expect(try registry.token(forSecret: app) == nil)
            #expect(!FileManager.default.fileExists(atPath: root.appending(path: "alice").path))
            #expect(try await runCLI(["stores", "list"] + node).hasPrefix("bob\t"))
        }
    }

    @Test(
        "bad ids, a delete without --yes, unknown stores and tokens, and wrong grants: usage errors or typed failures, nothing made"
    )
    func refused() async throws {
        try await withTemporaryDirectory { root in
            let node = ["--stores", root.path]
            for id in ["..", "a/b", "%2F", "Alice", String(repeating: "a", count: 4_096), "ålice"] {
                let failure = await cliFailure(["stores", "create", id] + node)
                #expect(failure.status == 2 && failure.message.contains("is not a store id"), "\(failure.message)")
                #expect(failure.message.count < 400)
            }
            _ = try await runCLI(["stores", "create", "alice"] + node)
            let again = await cliFailure(["stores", "create", "carol", "alice"] + node)
            #expect(again.status == 1 && again.message == "Error: there is already a store alice", "\(again.message)")
            let unconfirmed = await cliFailure(["stores", "delete", "alice"] + node)
            #expect(unconfirmed.status == 2 && unconfirmed.message.contains("add --yes"))
            let missing = await cliFailure(["stores", "delete", "nobody", "--yes"] + node)
            #expect(missing.status == 1 && missing.message == "Error: there is no store nobody", "\(missing.message)")
            let noStore = await cliFailure(["tokens", "issue", "--store", "nobody", "--owner"] + node)
            #expect(noStore.message == "Error: there is no store nobody", "\(noStore.message)")
            let who = await cliFailure(["tokens", "issue", "--store", "alice"] + node)
            #expect(who.status == 2 && who.message.contains("--owner, --peer or --app"), "\(who.message)")
            let type = await cliFailure(
                ["tokens", "issue", "--store", "alice", "--app", "com.x", "--read", "nope"] + node
            )
            #expect(type.status == 1 && type.message.contains("'nope' is not a sample type"), "\(type.message)")
            let revoke = await cliFailure(["tokens", "revoke", "tok_nope"] + node)
            #expect(revoke.message == "Error: there is no token tok_nope", "\(revoke.message)")
            let registry = try NodeRegistry(root: root)
            #expect(try registry.stores().map(\.id) == ["alice"])
            #expect(try registry.tokens().isEmpty)
        }
    }
}

extension CLIStoresTests {
    @Test(
        "save into a registry's store at its quota: refused by the same guard a node's requests pass, nothing stored; delete goes through; audit verify passes"
    )
    func quotaGuardsTheCLI() async throws {
        try await withTemporaryDirectory { root in
            let node = ["--stores", root.path]
            _ = try await runCLI(["stores", "create", "carol"] + node)
            let store = root.appending(path: "carol").path
            func sample(_ uuid: String) throws -> String {
                let file = root.appending(path: "\(uuid).json").path
                try Data(
                    #"[{"kind":"quantitySample","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierStepCount","quantity":{"unit":"count","value":5},"startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:05:00Z"}]"#
                        .utf8
                ).write(to: URL(filePath: file))
                return file
            }
            let first = "6A0E5C2B-1111-4C3A-9D2E-2F6B8E0B4A11"
            #expect(try await runCLI(["save", "--store", store, "--file", sample(first)]) == "saved 1\n")
            // Past the smallest quota an operator can set (1 MiB).
            let many = root.appending(path: "many.json")
            let minutes = (0..<8_000).map { minute in
                let start = Date(timeIntervalSince1970: 1_717_200_000 + Double(minute * 60))
                return
                    #"{"kind":"quantitySample","uuid":"\#(UUID().uuidString)","type":"HKQuantityTypeIdentifierStepCount","quantity":{"unit":"count","value":5},"startDate":"\#(start.formatted(.iso8601))","endDate":"\#(start.addingTimeInterval(60).formatted(.iso8601))"}"#
            }
            try Data(("[" + minutes.joined(separator: ",") + "]").utf8).write(to: many)
            #expect(try await runCLI(["save", "--store", store, "--file", many.path]) == "saved 8000\n")
            _ = try await runCLI(["stores", "quota", "carol", "--max-bytes", "1048576"] + node)
            let refused = try await runCLIFailure([
                "save", "--store", store, "--file", sample("6A0E5C2B-2222-4C3A-9D2E-2F6B8E0B4A11"),
            ])
            #expect(refused.contains("nothing was saved") && refused.contains("quota is 1048576"), "\(refused)")
            let listed = try await runCLI(["samples", "--store", store, "--type", "stepCount"])
            #expect(!listed.contains("6A0E5C2B-2222"), "a refused save stored its sample")
            #expect(try await runCLI(["delete", "--store", store, first]) == "deleted 1\n")
            _ = try await runCLI(["stores", "quota", "carol", "--none"] + node)
            #expect(
                try await runCLI(["save", "--store", store, "--file", sample("6A0E5C2B-3333-4C3A-9D2E-2F6B8E0B4A11")])
                    == "saved 1\n"
            )
            #expect(try await runCLI(["audit", "verify", "--store", store]).contains("agree with a replay"))
        }
    }
}

extension CLIStoresTests {
    @Test(
        "a node's registry or its root named as a store: audit verify, reads and saves say what the directory is, and leave it as it was"
    )
    func registryIsNotAStore() async throws {
        try await withTemporaryDirectory { root in
            let node = ["--stores", root.path]
            _ = try await runCLI(["stores", "create", "alice"] + node)
            let registry = root.appending(path: ".registry").path
            let registryFile = root.appending(path: ".registry/data.mdb").path
            let before = try FileManager.default.attributesOfItem(atPath: registryFile)[.size] as? Int
            let input = root.appending(path: "input.json")
            try Data(
                #"[{"kind":"quantitySample","uuid":"6A0E5C2B-4444-4C3A-9D2E-2F6B8E0B4A11","type":"HKQuantityTypeIdentifierStepCount","quantity":{"unit":"count","value":5},"startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:05:00Z"}]"#
                    .utf8
            ).write(to: input)
            for command in [["audit", "verify"], ["samples", "--type", "stepCount"], ["save", "--file", input.path]] {
                let failure = await cliFailure(command + ["--store", registry])
                #expect(failure.status == 1, "\(command)")
                #expect(failure.message.contains("is a multi-store node's registry"), "\(command): \(failure.message)")
                #expect(
                    failure.message.contains("--store \(root.standardizedFileURL.path)/<store>"),
                    "\(failure.message)"
                )
                #expect(!failure.message.contains("holds nothing yet"), "\(failure.message)")
                let atRoot = await cliFailure(command + ["--store", root.path])
                #expect(atRoot.message.contains("is a multi-store node's directory"), "\(command): \(atRoot.message)")
            }
            #expect(!FileManager.default.fileExists(atPath: root.appending(path: "data.mdb").path))
            #expect(try FileManager.default.attributesOfItem(atPath: registryFile)[.size] as? Int == before)
            let listed = try await runCLI(["stores", "list"] + node)
            #expect(listed.hasPrefix("alice\t"), "\(listed)")
            let alice = root.appending(path: "alice").path
            #expect(try await runCLI(["save", "--store", alice, "--file", input.path]) == "saved 1\n")
            #expect(try await runCLI(["audit", "verify", "--store", alice]).contains("agree with a replay"))
        }
    }
}
