public import AnchorageCore

/// `etcd.<code>`: `etcd.notSent`, `etcd.noAnswer`, `etcd.refused`.
extension EtcdError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.etcd, code.rawValue) }
}
