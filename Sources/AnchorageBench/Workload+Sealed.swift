// MARK: Sealed stores (suite sealed): each against the same workload unsealed, in the same run

extension Workload {
    static let sealedBatchSaves = Workload(
        "sealed saves, batches of 1,000, durable (vs unsealed)",
        "samples/s",
        goal: .ratioAtLeast(0.9)
    )
    static let sealedSingleSaves = Workload(
        "sealed 1-sample saves from 64 callers, durable (vs unsealed)",
        "samples/s",
        goal: .ratioAtLeast(0.9)
    )
    static let sealedCatchUp = Workload(
        "sealed catch-up, anchored pages of 1,000 decoded (vs unsealed)",
        "samples/s",
        goal: .ratioAtLeast(0.75)
    )
    static let sealedStatistics = Workload(
        "sealed statistics: daily sums over 35 days (vs unsealed)",
        "queries/s",
        goal: .ratioAtLeast(0.9)
    )
    static let sealedDataFile = Workload(
        "sealed data file, 100,000 samples (vs unsealed)",
        "bytes",
        goal: .ratioAtMost(1.15)
    )
    static let sealedImport = Workload(
        "sealed import of a Health export, compaction included (vs unsealed)",
        "elements/s",
        goal: .ratioAtLeast(0.9)
    )
    static let sealedWrkSaves = Workload(
        "sealed HTTP saves from wrk, 10-sample posts, 16 connections, multi-store node (vs unsealed)",
        "samples/s",
        goal: .ratioAtLeast(0.9)
    )
    static let sealedColdOpenPKCS11 = Workload(
        "sealed store's cold open, data key unwrapped on a PKCS#11 token (SoftHSM2), p99",
        "ms",
        goal: .valueAtMost(30)
    )
}
