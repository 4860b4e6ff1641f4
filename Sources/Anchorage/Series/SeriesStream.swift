import AnchorageModel
import Foundation

/// The asynchronous sequences of the series query descriptors: the series
/// is read from the store at the first `next()` (one short read
/// transaction), then each point is made from the stored bytes when the
/// consumer asks for it — nothing is buffered ahead, so a slow consumer of
/// an ECG's million voltages holds the stored bytes, not a million values.
/// The consuming task's cancellation ends it.
enum SeriesStream {
    /// The points `point(i)` for `i` in the range `load` returns.
    static func make<Element: Sendable>(
        _ load: @escaping @Sendable () throws -> (Range<Int>, @Sendable (Int) -> Element)
    ) -> QueryResultSequence<Element> {
        QueryResultSequence(pulling: load)
    }
}
