import Anchorage
import AnchorageLog
import ArgumentParser
import Foundation

/// `anchorage audit`: proves the log was not altered.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check the store's log and projections.",
        subcommands: [AuditVerifyCommand.self]
    )
}

/// `anchorage audit verify`: the hash chain, every payload digest, the
/// version vector, and the projections against a replay of the log.
struct AuditVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Walk the hash chain and every payload digest, and check the indices against a replay.",
        discussion: """
            Exit status 0 when the log is intact and the indices agree with it; 1 with the first bad entry
            (or the first disagreeing index) otherwise. Progress goes to standard error.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Check the hash chain and digests only, not the indices.")
    var chainOnly = false

    func run() async throws {
        let output = CLIOutput.current
        _ = try storeOptions.existingStorePath()
        let keyID: KeyID?
        do {
            keyID = try EventLog.sealingKeyID(at: storeOptions.directory)
        } catch {
            throw CommandFailure(description: "cannot verify the store: \(ErrorWords.describe(error))")
        }
        // A node's sealed store whose key this user's key file unwraps is
        // checked whole (envelopes opened, indices against a replay); any
        // other sealed copy as an auditor without the key checks it.
        if let keyID, (try? await storeOptions.sealing()) == nil {
            try verifyWithoutKey(keyID, output: output)
            return
        }
        try await storeOptions.withStoreForReading(failure: "cannot verify the store") { store in
            let log = try store.eventLog()
            let report = try log.verify { checked in output.status("\rverified \(checked) entries…") }
            if let problem = report.problem {
                output.status("\n")
                let anchor = problem.seq.map { " (anchor \(log.anchor(atSeq: $0).stringValue))" } ?? ""
                throw CommandFailure(description: "the log is damaged or was altered: \(problem)\(anchor)")
            }
            output.status("\rverified \(report.entriesChecked) entries   \n")
            output.line(
                "hash chain and payload digests: intact (\(report.entriesChecked) entries, head \(report.head))"
            )
            if !chainOnly {
                output.status("replaying the log to check the indices…\n")
                if let disagreement = try await log.checkProjections() {
                    throw CommandFailure(description: "\(disagreement); run `anchorage rebuild` to rebuild them")
                }
                output.line("indices and statistics views: agree with a replay of the log")
            }
            // A fleet copy's epochs are entries of the chain just verified.
            let epochs = try store.fleetEpochHistory()
            if let last = epochs.last {
                let highest = try store.fleetEpoch() ?? last.epoch
                output.line(
                    "fleet epochs: \(epochs.count) in the log; the highest is \(highest.epoch) (primary \(highest.primary))"
                )
            }
        }
    }
}

extension AuditVerifyCommand {
    /// A sealed store, verified as an auditor without its key does: the
    /// chain, every envelope's digest and structure, the version vector.
    func verifyWithoutKey(_ keyID: KeyID, output: CLIOutput) throws {
        let report: EventLog.VerificationReport
        do {
            // Read as an auditor does, without opening the store: a backup
            // copy never opened stays as it is.
            report = try EventLog.verify(at: storeOptions.directory, sealing: .keyless(keyID)) { checked in
                output.status("\rverified \(checked) entries…")
            }
        } catch {
            throw CommandFailure(description: "cannot verify the store: \(ErrorWords.describe(error))")
        }
        if let problem = report.problem {
            output.status("\n")
            throw CommandFailure(description: "the log is damaged or was altered: \(problem)")
        }
        output.status("\rverified \(report.entriesChecked) entries   \n")
        output.line(
            "hash chain and payload digests: intact (\(report.entriesChecked) entries, head \(report.head)), "
                + "verified without the key: the store is sealed under data key \(keyID)"
        )
        if !chainOnly {
            output.line(
                "indices and statistics views: not checked (their check opens the entries, which needs the key)"
            )
        }
    }
}

/// `anchorage digest`: one line summarising the visible state.
struct DigestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "digest",
        abstract: "Print one hex line summarising the visible state; converged peers print the same."
    )

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        try await storeOptions.withStoreForReading(failure: "cannot read the store") { store in
            CLIOutput.current.line(try store.stateDigest())
        }
    }
}

/// `anchorage rebuild`: drops and rebuilds every projection from the log.
struct RebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Drop and rebuild the indices and statistics views from the log.",
        discussion: "Use it after a crash, an upgrade or a suspected bug; writes wait while it runs."
    )

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let output = CLIOutput.current
        try await storeOptions.withStore(failure: "cannot rebuild the store's indices") { store in
            let log = try store.eventLog()
            let start = ContinuousClock.now
            let count = try await log.rebuildProjections { replayed in
                output.status("\rreplayed \(replayed) entries…")
            }
            let elapsed = ContinuousClock.now - start
            output.status("\r")
            output.line(
                "rebuilt the indices and views from \(count) entries in \(String(format: "%.1f", elapsed / .seconds(1))) s"
            )
        }
    }
}
