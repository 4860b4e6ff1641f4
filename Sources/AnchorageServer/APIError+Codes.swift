import AnchorageCore
import HTTPTypes

/// The HTTP answer to each error code the node's layers throw: errors are
/// mapped by ``AnchorageError/stableCode``, never by their type.
extension APIError {
    /// A status and the API's code.
    struct Answer {
        var status: HTTPResponse.Status
        var code: Code
    }

    /// Every code with an answer of its own.
    static let answers: [ErrorCode: Answer] = {
        var answers: [ErrorCode: Answer] = [:]
        func add(_ origin: ErrorOrigin, _ names: [String], _ status: HTTPResponse.Status, _ code: Code) {
            for name in names { answers[ErrorCode(origin, name)] = Answer(status: status, code: code) }
        }
        // The model (HKError, TextFormError).
        add(.model, ["anchorNotValid"], .gone, .anchorNotValid)
        add(.model, ["incompatibleUnit"], .badRequest, .incompatibleUnit)
        add(.model, ["unknownType"], .badRequest, .unknownType)
        add(.model, ["invalidArgument", "errorInvalidArgument"], .badRequest, .invalidArgument)
        add(
            .model,
            ["errorAuthorizationDenied", "errorAuthorizationNotDetermined", "errorRequiredAuthorizationDenied"],
            .forbidden,
            .authorizationDenied
        )
        add(.model, ["errorNoData"], .notFound, .notFound)
        add(
            .model,
            ["errorDatabaseInaccessible", "errorHealthDataUnavailable", "errorHealthDataRestricted"],
            .serviceUnavailable,
            .unavailable
        )
        // Replication (SyncError).
        add(.sync, ["malformedBatch"], .badRequest, .malformedBatch)
        add(.sync, ["tooLarge"], .contentTooLarge, .bodyTooLarge)
        add(.sync, ["unsupportedVersion"], .badRequest, .unsupportedVersion)
        add(.sync, ["wrongPeer"], .conflict, .wrongPeer)
        add(.sync, ["incarnationChanged"], .conflict, .incarnationChanged)
        add(.sync, ["checkpointMoved"], .conflict, .checkpointMoved)
        add(.sync, ["rejected"], .unprocessableContent, .rejected)
        add(.sync, ["staleEpoch"], .conflict, .staleEpoch)
        // The use cases (ServiceError, StatisticsRequestError).
        add(.service, ["invalidCursor"], .badRequest, .invalidCursor)
        add(.service, ["invalidArgument", "invalidStoreID", "invalidGrant"], .badRequest, .invalidArgument)
        add(.service, ["unknownType"], .badRequest, .unknownType)
        add(.service, ["incompatibleUnit"], .badRequest, .incompatibleUnit)
        add(.service, ["invalidJSON"], .badRequest, .invalidJSON)
        add(.service, ["badRequest"], .badRequest, .badRequest)
        add(.service, ["storeNotFound", "tokenNotFound", "peerNotFound"], .notFound, .notFound)
        add(.service, ["storeExists"], .conflict, .storeExists)
        add(.service, ["peerExists"], .conflict, .peerExists)
        add(.service, ["storeInUse"], .conflict, .storeInUse)
        add(.service, ["quotaExceeded"], .forbidden, .quotaExceeded)
        add(.service, ["keyShredded"], .gone, .keyShredded)
        add(.service, ["keyUnavailable"], .serviceUnavailable, .keyUnavailable)
        add(.service, ["replicationUnavailable"], .serviceUnavailable, .replicationUnavailable)
        add(.service, ["fleetUnavailable"], .serviceUnavailable, .fleetUnavailable)
        add(.service, ["notPrimary"], .serviceUnavailable, .notPrimary)
        // A fleet's store-updates feed (FleetError), and etcd out of reach behind it
        // (an answer etcd refused stays a 500: its message is for the node's log).
        add(.fleet, ["invalidCursor"], .badRequest, .invalidCursor)
        add(.fleet, ["cursorExpired"], .gone, .cursorExpired)
        add(.etcd, ["notSent", "noAnswer"], .serviceUnavailable, .fleetUnavailable)
        return answers
    }()

    /// The answer to an error of Anchorage's layers, by its code. A code
    /// without an answer of its own is the origin's default: a bad request
    /// for the model, a protocol violation for replication, a storage
    /// failure for the use cases (their messages name no health value), and
    /// otherwise an internal error whose details stay in the node's log.
    static func from(anchorageError error: any AnchorageError) -> APIError {
        let answer: APIError
        if let known = answers[error.stableCode] {
            answer = APIError(known.status, known.code, error.shownMessage)
        } else {
            switch error.origin {
            case .model: answer = APIError(.badRequest, .invalidArgument, error.shownMessage)
            case .sync: answer = APIError(.badRequest, .protocolViolation, error.shownMessage)
            case .service: answer = APIError(.internalServerError, .storageFailed, error.shownMessage)
            default:
                answer = APIError(.internalServerError, .internalError, "internal error; the node's log has details")
            }
        }
        return error.retryAfter.map { answer.retrying(after: $0) } ?? answer
    }
}
