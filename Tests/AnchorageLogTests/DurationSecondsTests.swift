import AnchorageLog
import Testing

@Suite("Durations as seconds and nanoseconds")
struct DurationSecondsTests {
    @Test("timeInterval keeps fractions; nanosecondCount is whole nanoseconds")
    func conversions() {
        #expect(Duration.milliseconds(1_500).timeInterval == 1.5)
        #expect((Duration.seconds(2) + .nanoseconds(7)).nanosecondCount == 2_000_000_007)
        #expect(Duration.seconds(86_400 * 365).timeInterval == 31_536_000)
        #expect(Duration.zero.nanosecondCount == 0)
    }
}
