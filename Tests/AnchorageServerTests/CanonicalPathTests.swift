import Testing

@testable import AnchorageServer

@Suite("One spelling per path")
struct CanonicalPathTests {
    @Test(
        "paths as routes spell them pass; empty, dot and dot-dot segments, a trailing slash or no leading one do not",
        arguments: [
            ("/", true), ("/healthz", true), ("/v1/samples", true), ("/web/app.js", true), ("/a/.../b", true),
            ("/.well-known", true), ("/a..", true), ("", false), ("healthz", false), ("/healthz/", false),
            ("//healthz", false), ("/./healthz", false), ("/healthz/.", false), ("/x/../healthz", false),
            ("/healthz/..", false), ("/v1//samples", false), ("/..", false), ("/.", false),
        ]
    )
    func spellings(path: String, canonical: Bool) {
        #expect(CanonicalPathMiddleware.isCanonical(path) == canonical)
    }
}
