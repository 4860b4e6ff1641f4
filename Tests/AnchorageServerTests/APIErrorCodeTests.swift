import Anchorage
import AnchorageCore
import AnchorageFleet
import AnchorageService
import AnchorageSync
import Etcd
import HTTPTypes
import Testing

@testable import AnchorageServer

/// Every layer's errors share one shape (``AnchorageError``) and the HTTP
/// API maps them by their stable code, not their type.
@Suite("Errors: one shape, mapped to HTTP by code")
struct APIErrorCodeTests {
    static func expect(
        _ error: any Error,
        _ status: HTTPResponse.Status,
        _ code: APIError.Code,
        retryAfter: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let answer = APIError.from(error)
        #expect(answer.status == status, "\(error)", sourceLocation: sourceLocation)
        #expect(answer.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(answer.retryAfterSeconds == retryAfter, "\(error)", sourceLocation: sourceLocation)
    }

    @Test("each layer's codes are named by where they came from")
    func stableCodes() {
        let errors: [(any AnchorageError, String)] = [
            (
                HKError(.errorInvalidArgument, rule: "AQ-11", "the anchor is older than the log keeps"),
                "model.anchorNotValid"
            ),
            (HKError(.errorNoData, "no such sample"), "model.errorNoData"),
            (TextFormError("'x' is not a date"), "model.invalidArgument"),
            (SyncError(.wrongPeer, "the peer is another store"), "sync.wrongPeer"),
            (ServiceError(.storeExists, "alice exists"), "service.storeExists"),
            (StatisticsRequestError(.unknownType, nil, "no such type"), "service.unknownType"),
            (EtcdError(.noAnswer, "no member answered"), "etcd.noAnswer"),
            (FleetError(.nodeIDInUse, "n1 is taken"), "fleet.nodeIDInUse"),
            (APIError(.conflict, .storeExists, "alice exists"), "node.storeExists"),
        ]
        for (error, code) in errors {
            #expect(error.stableCode.description == code)
            #expect(error.origin.rawValue == String(code.prefix { $0 != "." }))
            #expect(!error.message.isEmpty)
        }
        let cause = SyncError(.unreachable, "the peer does not answer")
        #expect(HKError(.errorDatabaseInaccessible, "the store cannot be read", underlyingError: cause).cause != nil)
    }

    @Test("the HTTP answer follows the code: AQ-11 is 410, a unit of the wrong kind 400 incompatibleUnit, UNIT-1 not")
    func modelCodes() {
        Self.expect(HKError(.errorInvalidArgument, rule: "AQ-11", "stale anchor"), .gone, .anchorNotValid)
        Self.expect(
            HKError(.errorInvalidArgument, rule: "UNIT-2", "count is not a length"),
            .badRequest,
            .incompatibleUnit
        )
        Self.expect(
            HKError(.errorInvalidArgument, rule: "UNIT-1", "'kgg' is not a unit"),
            .badRequest,
            .invalidArgument
        )
        Self.expect(HKError(.errorInvalidArgument, rule: "OBJ-11", "'x' is not a type"), .badRequest, .unknownType)
        Self.expect(HKError(.errorAuthorizationDenied, "not granted"), .forbidden, .authorizationDenied)
        Self.expect(HKError(.errorNoData, "no such sample"), .notFound, .notFound)
        Self.expect(HKError(.errorDatabaseInaccessible, "locked"), .serviceUnavailable, .unavailable)
        // A model code without an answer of its own: the model's default, a bad request.
        Self.expect(HKError(.errorUserCanceled, "cancelled"), .badRequest, .invalidArgument)
        #expect(APIError.from(HKError(.errorInvalidArgument, rule: "OBJ-7", "bad")).message == "bad (OBJ-7)")
    }

    @Test("replication, use cases and the fleet: statuses, codes and Retry-After by code")
    func otherCodes() {
        Self.expect(SyncError(.rejected, "an entry breaks OBJ-7"), .unprocessableContent, .rejected)
        Self.expect(SyncError(.tooLarge, "too big"), .contentTooLarge, .bodyTooLarge)
        Self.expect(SyncError(.timedOut, "slow"), .badRequest, .protocolViolation)
        Self.expect(StatisticsRequestError(.incompatibleUnit, nil, "m is no count"), .badRequest, .incompatibleUnit)
        Self.expect(ServiceError(.quotaExceeded, "full"), .forbidden, .quotaExceeded)
        Self.expect(
            ServiceError(.keyUnavailable, "the HSM does not answer"),
            .serviceUnavailable,
            .keyUnavailable,
            retryAfter: 5
        )
        Self.expect(
            ServiceError(.replicationUnavailable, "no replica", retryAfter: .seconds(5)),
            .serviceUnavailable,
            .replicationUnavailable,
            retryAfter: 5
        )
        Self.expect(
            ServiceError(.fleetUnavailable, "taking over", retryAfter: .seconds(1)),
            .serviceUnavailable,
            .fleetUnavailable,
            retryAfter: 1
        )
        Self.expect(ServiceError(.notPrimary, "deposed"), .serviceUnavailable, .notPrimary)
        Self.expect(ServiceError(.storageFailed, "the registry failed"), .internalServerError, .storageFailed)
        // A fleet's store-updates feed, and etcd out of reach behind it.
        Self.expect(FleetError(.invalidCursor, "another fleet's"), .badRequest, .invalidCursor)
        Self.expect(FleetError(.cursorExpired, "compacted"), .gone, .cursorExpired)
        Self.expect(EtcdError(.noAnswer, "etcd did not answer"), .serviceUnavailable, .fleetUnavailable)
        Self.expect(EtcdError(.notSent, "no member reached"), .serviceUnavailable, .fleetUnavailable)
    }

    @Test("an error of a lower layer without an answer of its own is a 500 whose message stays in the node's log")
    func internalErrors() {
        for error in [
            EtcdError(.refused, status: 5, "etcd said no: secret detail") as any Error,
            FleetError(.nodeIDInUse, "secret detail"),
        ] {
            let answer = APIError.from(error)
            #expect(answer.status == .internalServerError && answer.code == .internalError)
            #expect(!answer.message.contains("secret detail"))
        }
    }
}
