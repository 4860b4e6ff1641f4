public import AnchorageCore
public import AnchorageLog

/// The serving side of replication for one log: what a peer's requests
/// do, whatever transport carries them.
///
/// ```swift
/// let endpoint = SyncEndpoint(log: log)
/// let theirs = try endpoint.identity(answering: mine)
/// let batch = try endpoint.pull(request)
/// ```
public struct SyncEndpoint: Sendable {
    /// The log served.
    public let log: EventLog
    /// The limits applied to requests.
    public var limits: SyncLimits
    /// The clock a wait for changes counts its timeout on.
    public var clock: StoreClock
    /// The highest fleet epoch the served store holds, for a fleet copy
    /// (`nil`: outside a fleet). Identities carry it, and a request from a
    /// copy holding a higher one is refused (``checkEpoch(of:)``).
    public var epoch: (@Sendable () throws -> UInt64?)?

    public init(
        log: EventLog,
        limits: SyncLimits = SyncLimits(),
        clock: StoreClock = .continuous,
        epoch: (@Sendable () throws -> UInt64?)? = nil
    ) {
        self.log = log
        self.limits = limits
        self.clock = clock
        self.epoch = epoch
    }

    /// Refuses a request from a copy holding fleet epoch `asker` when the
    /// served store holds a lower one: it is no longer the primary, and a
    /// request must count neither as following it nor as acknowledging its
    /// writes.
    ///
    /// - Throws: ``SyncError`` `staleEpoch`.
    public func checkEpoch(of asker: UInt64?) throws {
        guard let asker, let epoch else { return }
        let held = try epoch() ?? 0
        guard held >= asker else {
            throw SyncError(
                .staleEpoch,
                "this copy holds fleet epoch \(held), and the asker holds epoch \(asker): this copy is no longer "
                    + "the store's primary; follow the primary the fleet's placement names"
            )
        }
    }

    /// This store's identity, with its checkpoint for the asker.
    public func identity(answering asker: PeerIdentity) throws -> PeerIdentity {
        try Self.checkVersion(asker.protocolVersion)
        guard asker.storeID != log.storeID else {
            throw SyncError(.wrongPeer, "the peer is this store itself (\(log.storeID)); check the peer's address")
        }
        try checkEpoch(of: asker.epoch)
        var mine = try PeerIdentity(of: log)
        try mine.checkSealing(of: asker)
        mine.epoch = try epoch?()
        mine.features = SyncProtocol.features
        if let checkpoint = try log.checkpoint(for: asker.storeID), checkpoint.incarnation == asker.incarnation {
            mine.checkpoint = checkpoint.seq
        }
        return mine
    }

    /// One encoded batch of this log's entries after `request.since`,
    /// bounded by this endpoint's limits.
    public func pull(_ request: PullRequest) throws -> [UInt8] {
        try checkEpoch(of: request.epoch)
        var bounded = request
        bounded.maxEntries = min(max(request.maxEntries, 1), limits.maximumEntriesPerBatch)
        bounded.maxBytes = min(max(request.maxBytes, 1), limits.maximumBytesPerBatch)
        return try EntryBatch.read(from: log, request: bounded).bytes
    }

    /// For a waiting pull (``PullRequest/waitMilliseconds``) when this log
    /// holds nothing after `request.since`: waits until it does or the
    /// wait (bounded by ``SyncLimits/maximumWait``) passes. Call it before
    /// ``pull(_:)``; it returns at once for any other pull.
    public func waitBeforePull(_ request: PullRequest) async {
        guard pullWaits(request), let wait = request.waitMilliseconds else { return }
        _ = await waitForChange(after: request.since, timeout: .milliseconds(wait))
    }

    /// Whether `request` may wait before its answer: it asks to, and it
    /// stands exactly at this log's head, in this log's incarnation. A pull
    /// from another incarnation, or past the head, is answered at once with
    /// its error (`incarnationChanged`) rather than after the wait.
    public func pullWaits(_ request: PullRequest) -> Bool {
        (request.waitMilliseconds ?? 0) > 0 && request.incarnation == log.incarnation
            && log.head.seq == request.since
    }

    /// Applies a peer's encoded batch, with its checkpoint, in one
    /// transaction.
    public func push(_ bytes: [UInt8]) async throws -> BatchReceipt {
        try await BatchReceiver.receive(bytes, into: log, limits: limits, from: nil)
    }

    /// Waits until this log's head passes `head` or `timeout` passes;
    /// returns the head.
    public func waitForChange(after head: UInt64, timeout: Duration) async -> UInt64 {
        let timeout = min(timeout, limits.maximumWait)
        let current = log.head.seq
        guard current <= head else { return current }
        let clock = self.clock
        return await withTaskGroup(of: UInt64?.self) { group in
            group.addTask {
                for await anchor in log.headChanges() where anchor.seq > head { return anchor.seq }
                return nil
            }
            group.addTask {
                try? await clock.sleep(timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? log.head.seq
        }
    }

    static func checkVersion(_ version: Int) throws(SyncError) {
        guard version == SyncProtocol.version else {
            throw SyncError(
                .unsupportedVersion,
                "the peer speaks replication protocol version \(version); this node speaks version \(SyncProtocol.version)"
            )
        }
    }
}

/// Bounds on what one replication request may ask for or carry.
public struct SyncLimits: Sendable, Hashable {
    /// The most entries in one batch.
    public var maximumEntriesPerBatch = 10_000
    /// The most entry bytes in one batch (one larger entry still travels
    /// alone).
    public var maximumBytesPerBatch = 8 << 20
    /// The largest encoded batch accepted.
    public var maximumBatchBytes = 80 << 20
    /// The longest a peer may wait for a change in one request.
    public var maximumWait: Duration = .seconds(60)

    public init() {}
}

/// Applies a received batch to a log: checks it, then applies its entries
/// and the new checkpoint in one transaction, only if the batch starts
/// where the stored checkpoint ends.
enum BatchReceiver {
    static func receive(
        _ bytes: [UInt8],
        into log: EventLog,
        limits: SyncLimits,
        from expected: PeerIdentity?
    ) async throws -> BatchReceipt {
        let batch = try EntryBatch(decoding: bytes, maximumBytes: limits.maximumBatchBytes)
        return try await apply(batch, into: log, from: expected)
    }

    static func apply(
        _ batch: EntryBatch,
        into log: EventLog,
        from expected: PeerIdentity?
    ) async throws -> BatchReceipt {
        guard batch.storeID != log.storeID else {
            throw SyncError(.wrongPeer, "the batch comes from this store itself (\(log.storeID))")
        }
        if let expected, expected.storeID != batch.storeID || expected.incarnation != batch.incarnation {
            throw SyncError(
                .wrongPeer,
                "the batch comes from store \(batch.storeID), not from the peer that was asked (\(expected.storeID))"
            )
        }
        do {
            let result = try await log.apply(batch.entries, from: batch.from, checkpoint: batch.checkpoint)
            return BatchReceipt(applied: result.applied, skipped: result.skipped, checkpoint: batch.through)
        } catch let error as LogError {
            switch error.code {
            case .checkpointMoved: throw SyncError(.checkpointMoved, error.message)
            case .closed: throw error
            default: throw SyncError(.rejected, "the batch cannot be applied: \(error.message)")
            }
        }
    }
}
