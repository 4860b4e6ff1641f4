public import AnchorageCore

/// `lmdb.<code>`: `lmdb.mapFull`, `lmdb.keyExists`…
extension LMDBError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.lmdb, code.description) }
}
